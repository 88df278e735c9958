import StateTUI
import Testing

/// `statetui` with no command opens the dashboard; its options parse or fail with a named cause.
@Suite struct DashboardOptionsTests {
    @Test(arguments: [
        ([String](), DashboardOptions()),
        (["--trace", "frames.log"], DashboardOptions(tracePath: "frames.log")),
        (["--seed", "42"], DashboardOptions(seed: 42)),
        (["--seed", "7", "--trace", "t"], DashboardOptions(tracePath: "t", seed: 7)),
    ])
    func dashboardWordsOpenTheDashboard(arguments: [String], expected: DashboardOptions) {
        let memory = MemoryIO()
        #expect(memory.run(arguments) == 0)
        #expect(memory.dashboards == [expected])
        #expect(memory.output == "")
        #expect(memory.error == "")
    }

    @Test(arguments: [
        (["--trace"], "statetui: option '--trace' needs a file\n"),
        (["--seed", "x"], "statetui: option '--seed' needs a whole number from 0 to 18446744073709551615, got 'x'\n"),
        (["--seed"], "statetui: option '--seed' needs a number\n"),
        (["--trace", "a", "graph"], "statetui: unexpected argument 'graph'\n"),
    ])
    func badDashboardOptionsAreUsageErrors(arguments: [String], firstLine: String) {
        let memory = MemoryIO()
        #expect(memory.run(arguments) == 2)
        #expect(memory.dashboards == [])
        #expect(memory.error.hasPrefix(firstLine))
    }

    @Test func commandsStillRunWithoutTheDashboard() {
        let memory = MemoryIO()
        #expect(memory.run(["--version"]) == 0)
        #expect(memory.dashboards == [])
    }
}
