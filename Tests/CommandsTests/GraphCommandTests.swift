import Commands
import DashboardApp
import SeedModels
import StateMachineDiagrams
import TerminalUITesting
import Testing

/// `statetui graph`: what the Graph screen shows, the diagram it prints by default, its flags, and the charset the
/// locale picks.
@Suite struct GraphCommandTests {
    /// The Graph screen's table and Mermaid text (DashboardApp's `GraphReport`) are what `statetui graph` prints.
    @Test(arguments: ScreenModel.allCases)
    func theTableIsTheOneStatetuiGraphPrints(model: ScreenModel) {
        #expect(GraphReport(model).table.map { $0 + "\n" }.joined() == model.graph(.table))
        #expect(GraphReport(model).mermaid == model.graph(.mermaid))
    }

    @Test(arguments: ScreenModel.allCases)
    func statetuiGraphPrintsTheCollapsedDiagramByDefault(model: ScreenModel) {
        let memory = MemoryIO()
        let status = CommandLineTool.run(
            ["graph", model.rawValue, "--format", "text"], io: memory.io, environment: ["LANG": "en_US.UTF-8"]
        ) { _ in 0 }
        #expect(status == 0)
        #expect(memory.output == model.graph(.text))
        assertSnapshot(text: memory.output, named: "diagram-\(model.rawValue)")
    }

    @Test func fullAndAsciiDiagramsAreOneFlagAway() {
        let memory = MemoryIO()
        let status = CommandLineTool.run(
            ["graph", "transfer", "--format", "text", "--full"], io: memory.io, environment: ["LC_ALL": "C"]
        ) { _ in 0 }
        #expect(status == 0)
        #expect(memory.output == ScreenModel.transfer.graph(.text, full: true, charset: .ascii))
        assertSnapshot(text: memory.output, named: "diagram-transfer-full-ascii")
        let unicode = MemoryIO()
        _ = CommandLineTool.run(
            ["graph", "transfer", "--format", "text", "--full", "--charset", "unicode"], io: unicode.io
        ) { _ in 0 }
        assertSnapshot(text: unicode.output, named: "diagram-transfer-full")
    }

    @Test(arguments: [
        ([String: String](), DiagramCharset.ascii), (["LANG": "C"], .ascii), (["LANG": "en_US.UTF-8"], .unicode),
        (["LANG": "de_DE.utf8"], .unicode), (["LC_ALL": "C", "LANG": "en_US.UTF-8"], .ascii),
        (["LC_CTYPE": "C.UTF-8", "LANG": "C"], .unicode), (["LC_ALL": "", "LANG": "en_US.UTF-8"], .unicode),
    ])
    func theCharsetFollowsTheLocale(environment: [String: String], charset: DiagramCharset) {
        #expect(GraphCommand.charset(for: environment) == charset)
    }
}
