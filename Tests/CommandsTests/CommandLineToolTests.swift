import Commands
import Foundation
import SeedModels
import Testing

@Suite struct CommandLineToolTests {
    static let seedLines = [
        "start", "progress(request: 1, percent: 20)", "pause", "progress(request: 1, percent: 30)",
        "succeeded(request: 1, file: \"file-1\")", "succeeded(request: 1, file: \"duplicate\")", "start", "cancel",
        "failed(request: 2, message: \"Late cancellation outcome\")", "start", "progress(request: 2, percent: 90)",
        "progress(request: 3, percent: 40)", "progress(request: 3, percent: 10)",
    ]

    /// What `statetui replay transfer` prints for ``seedLines``, a line each.
    static let seedReplay = [
        "to running(request: 1, percent: 0)", "update running(request: 1, percent: 20)",
        "to paused(request: 1, percent: 20)", "ignore paused(request: 1, percent: 20)",
        "to completed(file: \"file-1\")", "ignore completed(file: \"file-1\")", "to running(request: 2, percent: 0)",
        "to idle", "ignore idle", "to running(request: 3, percent: 0)", "ignore running(request: 3, percent: 0)",
        "update running(request: 3, percent: 40)", "invalid running(request: 3, percent: 40)",
    ]

    @Test func replayTransferPrintsVerdictAndStatePerEvent() async {
        let memory = MemoryIO(input: Self.seedLines)
        #expect(await memory.run(["replay", "transfer"]) == 0)
        #expect(memory.output == Self.seedReplay.map { $0 + "\n" }.joined())
        #expect(memory.error == "")
    }

    @Test func replayReadsAFileSkippingBlankLinesAndComments() async {
        let memory = MemoryIO(files: [
            "events.txt": .success(
                "# seed 002\r\nrefreshTapped\r\n\n   \nsucceeded([\"a\", \"b\"])\n  # indented comment\n\trefreshTapped  \nrefreshTapped\nfailed(\"offline\")\nsucceeded([\"late\"])"
            )
        ])
        #expect(await memory.run(["replay", "load", "events.txt"]) == 0)
        #expect(
            memory.output == """
                to loading(previous: nil)
                to loaded(["a", "b"])
                to loading(previous: ["a", "b"])
                stay loading(previous: ["a", "b"])
                to failed("offline", previous: ["a", "b"])
                ignore failed("offline", previous: ["a", "b"])

                """)
    }

    @Test func replayUploadShowsInvalidReasonsOnlyAsVerdicts() async {
        let memory = MemoryIO(input: [
            "start(upload: 1)", "progress(upload: 1, fraction: 0.35)", "pause", "resume", "resume",
            "complete(upload: 2)", "complete(upload: 1)",
        ])
        #expect(await memory.run(["replay", "upload", "-"]) == 0)
        #expect(
            memory.output == """
                to uploading(upload: 1, progress: 0.0)
                update uploading(upload: 1, progress: 0.35)
                to paused(upload: 1, progress: 0.35)
                to uploading(upload: 1, progress: 0.35)
                invalid uploading(upload: 1, progress: 0.35)
                ignore uploading(upload: 1, progress: 0.35)
                to completed

                """)
    }

    @Test func anUnparsableLineStopsTheRunAfterPrintingEarlierLines() async {
        let memory = MemoryIO(input: ["start", "", "# a comment", "progress(request: 1, percent: 20", "pause"])
        #expect(await memory.run(["replay", "transfer"]) == 2)
        #expect(memory.output == "to running(request: 1, percent: 0)\n")
        #expect(
            memory.error == "statetui: line 4: column 33: expected \")\" but found the end of the text; "
                + "a transfer event is one of: start, progress(request: Int, percent: Int), pause, resume, "
                + "succeeded(request: Int, file: String), failed(request: Int, message: String), cancel, retry\n")
    }

    @Test func anUnknownActionNamesTheAcceptedForms() async {
        let memory = MemoryIO(input: ["refresh"])
        #expect(await memory.run(["replay", "load"]) == 2)
        #expect(memory.output == "")
        #expect(
            memory.error == "statetui: line 1: refresh is not a load action; "
                + "a load action is one of: refreshTapped, succeeded([String]), failed(String)\n")
    }

    /// Issue 24: `a upload event`; the article follows the word.
    @Test func anUnknownUploadEventSaysAnUploadEvent() async {
        let memory = MemoryIO(input: ["launch"])
        #expect(await memory.run(["replay", "upload"]) == 2)
        #expect(
            memory.error == "statetui: line 1: launch is not an upload event; an upload event is one of: "
                + UploadEvent.canonicalForms.joined(separator: ", ") + "\n")
    }

    /// Issue 24: `--help` and `-h` after any other option print the help, for the dashboard's options and
    /// every command's.
    @Test(arguments: [
        ["--seed", "1", "--help"], ["--no-mouse", "-h"], ["--trace", "t.log", "--inspectable", "--help"],
    ])
    func helpAfterDashboardOptionsPrintsTheOverview(arguments: [String]) async {
        let memory = MemoryIO()
        #expect(await memory.run(arguments) == 0)
        #expect(memory.output == CommandLineTool.help)
        #expect(memory.dashboards == [])
        #expect(memory.error == "")
    }

    /// Issue 24: `help COMMAND` for every command, `help help` included, and `--` ends the options of
    /// `help` as of any command.
    @Test(arguments: CommandLineTool.commands.map(\.name) + ["help"])
    func helpDescribesEveryCommandAndItself(name: String) async {
        let expected = CommandLineTool.commands.first { $0.name == name }?.help ?? CommandLineTool.helpSpec.help
        for arguments in [["help", name], ["help", "--", name], ["--", "help", name]] {
            let memory = MemoryIO()
            #expect(await memory.run(arguments) == 0)
            #expect(memory.output == expected)
            #expect(memory.error == "")
        }
    }

    @Test func helpOnHelpListsTheCommands() async {
        let memory = MemoryIO()
        #expect(await memory.run(["help", "help"]) == 0)
        #expect(memory.output.hasPrefix("OVERVIEW: Show help for a command, or the overview without one.\n"))
        #expect(
            memory.output.contains(
                "The command to describe: replay, graph, demo, copy, inspect, completions, config, help."))
    }

    /// Issue 24: `--` means "no options after this" at the top level too: alone it opens the dashboard,
    /// and a word after it is a command's name even when it starts with a dash.
    @Test(arguments: [
        (["--"], 0, "", 1), (["--seed", "1", "--"], 0, "", 1),
        (["--", "--help"], 2, "statetui: unknown command '--help'\n", 0),
        (["--seed", "1", "--", "replay"], 2, "statetui: unexpected argument 'replay'\n", 0),
    ])
    func dashDashEndsTheOptions(arguments: [String], status: Int32, firstLine: String, dashboards: Int) async {
        let memory = MemoryIO()
        #expect(await memory.run(arguments) == status)
        #expect(memory.dashboards.count == dashboards)
        #expect(memory.error.prefix(while: { $0 != "\n" }) + (firstLine.isEmpty ? "" : "\n") == firstLine)
    }

    @Test(arguments: [
        (CommandIO.ReadError("no such file"), "statetui: missing.txt: no such file\n"),
        (CommandIO.ReadError("is not UTF-8 text"), "statetui: missing.txt: is not UTF-8 text\n"),
    ])
    func anUnreadableFileIsAnEnvironmentError(failure: CommandIO.ReadError, message: String) async {
        let memory = MemoryIO(files: ["missing.txt": .failure(failure)])
        #expect(await memory.run(["replay", "upload", "missing.txt"]) == 2)
        #expect(memory.output == "")
        #expect(memory.error == message)
    }

    /// Issue 29: `-V` prints the version like `--version`, also after the dashboard's options (as `--help` does).
    @Test(arguments: [["--version"], ["-V"], ["--seed", "1", "--version"], ["--no-mouse", "-V"]])
    func versionPrintsThePackageVersion(arguments: [String]) async {
        let memory = MemoryIO()
        #expect(await memory.run(arguments) == 0)
        #expect(memory.output == "statetui \(Version.current)\n")
        #expect(memory.error == "")
        #expect(Version.current == "0.1.0")
    }

    @Test(arguments: [["--help"], ["-h"], ["help"]])
    func helpPrintsTheOverview(arguments: [String]) async {
        let memory = MemoryIO()
        #expect(await memory.run(arguments) == 0)
        #expect(memory.output == CommandLineTool.help)
        #expect(memory.output.contains("  replay                  Apply events, one per line"))
        #expect(memory.error == "")
    }

    @Test(arguments: CommandLineTool.commands.map(\.name))
    func helpCommandAndDashDashHelpPrintTheCommandsHelp(name: String) async throws {
        let spec = try #require(CommandLineTool.commands.first { $0.name == name })
        for arguments in [["help", name], [name, "--help"], [name, "-h"]] {
            let memory = MemoryIO()
            #expect(await memory.run(arguments) == 0)
            #expect(memory.output == spec.help)
        }
    }

    @Test(arguments: [
        (["frob"], "statetui: unknown command 'frob'\n"),
        (["--frob"], "statetui: unknown option '--frob'\n"),
        (["help", "frob"], "statetui: unknown command 'frob'\n"),
        (["--version", "x"], "statetui: unexpected argument 'x'\n"),
        (["-V", "x"], "statetui: unexpected argument 'x'\n"),
    ])
    func unknownCommandsAndOptionsPrintUsageAndExit2(arguments: [String], firstLine: String) async {
        let memory = MemoryIO()
        #expect(await memory.run(arguments) == 2)
        #expect(memory.output == "")
        #expect(memory.error == firstLine + "USAGE:\n" + CommandLineTool.usage + "\nSee 'statetui --help'.\n")
    }

    @Test func aSubcommandsUsageErrorShowsItsOwnUsage() async {
        let memory = MemoryIO()
        #expect(await memory.run(["replay", "ferry"]) == 2)
        #expect(
            memory.error == """
                statetui: 'ferry' is not a valid value for <model>; expected one of: transfer, upload, load
                USAGE:
                  statetui replay <model> [<file>]
                See 'statetui help replay'.

                """)
    }

    @Test(arguments: ScreenModel.allCases)
    func graphPrintsTheExploredGraphInEachFormat(model: ScreenModel) async {
        for (arguments, format) in [
            ([String](), GraphFormat.mermaid), (["--format", "dot"], .dot),
            (["--format=table"], .table), (["--format", "mermaid"], .mermaid),
        ] {
            let memory = MemoryIO()
            #expect(await memory.run(["graph", model.rawValue] + arguments) == 0)
            #expect(memory.output == model.graph(format))
            #expect(memory.error == "")
        }
    }

    @Test func graphOfTheLoadScreenAsATable() async {
        let memory = MemoryIO()
        #expect(await memory.run(["graph", "load", "--format", "table"]) == 0)
        #expect(
            memory.output == """
                | state                                   | refreshTapped                 | succeeded(["a", "b"]) | failed("offline")                       |
                | --------------------------------------- | ----------------------------- | --------------------- | --------------------------------------- |
                | idle                                    | loading(previous: nil)        | ·                     | ·                                       |
                | loading(previous: nil)                  | =                             | loaded(["a", "b"])    | failed("offline", previous: nil)        |
                | loaded(["a", "b"])                      | loading(previous: ["a", "b"]) | ·                     | ·                                       |
                | failed("offline", previous: nil)        | loading(previous: nil)        | ·                     | ·                                       |
                | loading(previous: ["a", "b"])           | =                             | loaded(["a", "b"])    | failed("offline", previous: ["a", "b"]) |
                | failed("offline", previous: ["a", "b"]) | loading(previous: ["a", "b"]) | ·                     | ·                                       |

                """)
    }

    @Test(arguments: [["help", "graph"], ["graph", "--help"], ["--help"]])
    func helpDocumentsTheGraphSampleEvents(arguments: [String]) async {
        let memory = MemoryIO()
        #expect(await memory.run(arguments) == 0)
        for model in ScreenModel.allCases {
            #expect(memory.output.contains("  \(model.rawValue): " + model.sampleInputs.joined(separator: ", ")))
        }
    }

    @Test func graphRejectsAnUnknownFormat() async {
        let memory = MemoryIO()
        #expect(await memory.run(["graph", "upload", "--format", "svg"]) == 2)
        #expect(memory.output == "")
        #expect(
            memory.error.hasPrefix(
                "statetui: 'svg' is not a valid value for --format; expected one of: mermaid, dot, table, text\n"
                    + "USAGE:\n  statetui graph <model> [--full] [--format <format>] [--charset <charset>]\n"))
    }

    @Test(arguments: [["help", "--help"], ["help", "-h"]])
    func helpOnHelpPrintsTheOverview(arguments: [String]) async {
        let memory = MemoryIO()
        #expect(await memory.run(arguments) == 0)
        #expect(memory.output == CommandLineTool.help)
        #expect(memory.error == "")
    }

    @Test func aHugeWordIsQuotedAtMost200Characters() async {
        let memory = MemoryIO()
        #expect(await memory.run([String(repeating: "w", count: 100_000)]) == 2)
        #expect(
            memory.error
                == "statetui: unknown command '" + String(repeating: "w", count: 200) + "… (99800 more characters)'\n"
                + "USAGE:\n" + CommandLineTool.usage + "\nSee 'statetui --help'.\n")
    }

    @Test(arguments: ["40000x40000", "1001x24", "80x501", "0x24", "-1x24", "80x", "9223372036854775808x1"])
    func aDemoSizeOutsideTheBoundIsAUsageError(size: String) async {
        let memory = MemoryIO()
        #expect(await memory.run(["demo", "load", "--headless", "--size", size]) == 2)
        #expect(memory.output == "")
        #expect(
            memory.error.hasPrefix(
                "statetui: '\(size)' is not a valid value for --size; expected WxH from 1x1 to 1000x500, e.g. 80x24\n"))
    }

    @Test func theLargestDemoSizeIsAccepted() async {
        let memory = MemoryIO(files: ["one.demo": .success("expect /Transfers/\n")])
        #expect(await memory.run(["demo", "one.demo", "--headless", "--size", "1000x500"]) == 0)
        #expect(memory.error == "")
    }

    /// The environment `statetui` reads from `environ` is the one `ProcessInfo` reports.
    @Test func theProcessEnvironmentIsWhatProcessInfoReports() {
        #expect(CommandLineTool.processEnvironment == ProcessInfo.processInfo.environment)
    }
}
