import Commands
import DashboardApp
import Testing

/// `statetui` with no command opens the dashboard; its options parse or fail with a named cause.
@Suite struct DashboardOptionsTests {
    @Test(arguments: [
        ([String](), DashboardOptions()),
        (["--trace", "frames.log"], DashboardOptions(tracePath: "frames.log")),
        (["--seed", "42"], DashboardOptions(seed: 42)),
        (["--seed", "7", "--trace", "t"], DashboardOptions(tracePath: "t", seed: 7)),
        (["--no-mouse"], DashboardOptions(mouse: false)),
        (["--seed", "7", "--no-mouse"], DashboardOptions(seed: 7, mouse: false)),
        (["--inspectable"], DashboardOptions(inspectable: true)),
        (["--seed", "7", "--inspectable"], DashboardOptions(seed: 7, inspectable: true)),
    ])
    func dashboardWordsOpenTheDashboard(arguments: [String], expected: DashboardOptions) async {
        let memory = MemoryIO()
        #expect(await memory.run(arguments) == 0)
        #expect(memory.dashboards == [expected])
        #expect(memory.output == "")
        #expect(memory.error == "")
    }

    @Test(arguments: [
        (["--trace"], "statetui: option '--trace' needs a file\n"),
        (
            ["--seed", "x"],
            "statetui: option '--seed' needs an unsigned 64-bit integer (decimal or 0x-hexadecimal), got 'x'\n"
        ),
        (["--seed"], "statetui: option '--seed' needs a number\n"),
        (["--trace", "a", "graph"], "statetui: unexpected argument 'graph'\n"),
    ])
    func badDashboardOptionsAreUsageErrors(arguments: [String], firstLine: String) async {
        let memory = MemoryIO()
        #expect(await memory.run(arguments) == 2)
        #expect(memory.dashboards == [])
        #expect(memory.error.hasPrefix(firstLine))
    }

    @Test func commandsStillRunWithoutTheDashboard() async {
        let memory = MemoryIO()
        #expect(await memory.run(["--version"]) == 0)
        #expect(memory.dashboards == [])
    }

    @Test(
        arguments: [
            (DashboardOptions(), [String: String](), nil),
            (DashboardOptions(), ["STATE_MACHINE_SEED": "42"], 42),
            (DashboardOptions(), ["STATE_MACHINE_SEED": "0x2A"], 42),
            (DashboardOptions(), ["STATE_MACHINE_SEED": ""], nil),
            (DashboardOptions(seed: 7), ["STATE_MACHINE_SEED": "42"], 7),
        ] as [(DashboardOptions, [String: String], UInt64?)])
    func theSeedComesFromTheOptionThenTheEnvironment(
        options: DashboardOptions, environment: [String: String], expected: UInt64?
    ) throws {
        #expect(try options.resolvedSeed(environment: environment) == expected)
    }

    @Test func aSeedVariableThatIsNotANumberIsAUsageError() {
        #expect(
            throws: UsageError(
                "STATE_MACHINE_SEED=\"soon\" is not an unsigned 64-bit integer (decimal or 0x-hexadecimal)")
        ) {
            try DashboardOptions().resolvedSeed(environment: ["STATE_MACHINE_SEED": "soon"])
        }
    }

    @Test func aHexadecimalSeedOptionIsAccepted() async {
        let memory = MemoryIO()
        #expect(await memory.run(["--seed", "0xff"]) == 0)
        #expect(memory.dashboards == [DashboardOptions(seed: 255)])
    }

    @Test func theUsageLineListsEveryOptionOfTheTable() {
        #expect(
            DashboardOptions.usage
                == "statetui [--trace <file>] [--seed <n>] [--no-mouse] [--inspectable] [--config <file>]")
    }

    @Test(arguments: DashboardOptions.Option.allCases)
    func everyOptionOfTheTableOpensTheDashboardAsTheFirstWord(option: DashboardOptions.Option) async {
        let memory = MemoryIO(files: ["1": .success("[keys]\nquit = \"x\"\n")])
        let words = [option.rawValue] + (option.valueName == nil ? [] : ["1"])
        let expected =
            switch option {
            case .trace: DashboardOptions(tracePath: "1")
            case .seed: DashboardOptions(seed: 1)
            case .noMouse: DashboardOptions(mouse: false)
            case .inspectable: DashboardOptions(inspectable: true)
            case .config:
                {
                    var options = DashboardOptions()
                    options.configPath = "1"
                    options.config.keys = KeyOverrides(["quit": [.character("x")]])
                    return options
                }()
            }
        #expect(await memory.run(words) == 0)
        #expect(memory.dashboards == [expected])
        #expect(memory.error == "")
    }

    @Test func aWordAfterTheOptionsThatIsNoOptionIsNamedInTheError() async {
        let memory = MemoryIO()
        #expect(await memory.run(["--no-mouse", "--mouse"]) == 2)
        #expect(memory.dashboards == [])
        #expect(memory.error.hasPrefix("statetui: unexpected argument '--mouse'\n"))
    }
}
