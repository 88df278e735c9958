import Foundation
import ScreenStates
import Testing

/// The checked-in `Resources/diagrams/*.mmd` must be what the code produces; `make diagrams`
/// regenerates them after a deliberate change.
@Suite struct DiagramTests {
    static let diagrams = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Resources/diagrams")

    @Test(arguments: ScreenModel.allCases)
    func checkedInDiagramIsCurrent(model: ScreenModel) throws {
        let file = Self.diagrams.appendingPathComponent("\(model.rawValue).mmd")
        let checkedIn = try String(contentsOf: file, encoding: .utf8)
        #expect(
            checkedIn == model.graph(.mermaid),
            "\(file.path) differs from the \(model.rawValue) model's graph; run `make diagrams` and review the diff")
    }

    @Test(arguments: ScreenModel.allCases)
    func everyFormatRendersTheSameStates(model: ScreenModel) {
        let mermaid = model.graph(.mermaid)
        let dot = model.graph(.dot)
        let table = model.graph(.table)
        #expect(mermaid.hasPrefix("stateDiagram-v2\n    [*] --> s0\n"))
        #expect(dot.hasPrefix("digraph "))
        #expect(table.split(separator: "\n").count >= 3)
    }
}
