import Commands
import Foundation
import SeedModels
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

    /// The README shows each model's diagram in a ```mermaid block; each must equal the checked-in file.
    @Test(arguments: ScreenModel.allCases)
    func readmeShowsTheCheckedInDiagram(model: ScreenModel) throws {
        let readmeURL = Self.diagrams.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("README.md")
        let readme = try String(contentsOf: readmeURL, encoding: .utf8)
        let checkedIn = try String(
            contentsOf: Self.diagrams.appendingPathComponent("\(model.rawValue).mmd"), encoding: .utf8)
        let blocks = readme.components(separatedBy: "```mermaid\n").dropFirst()
            .compactMap { $0.components(separatedBy: "```").first }
        #expect(
            blocks.contains(checkedIn),
            "README.md has no ```mermaid block equal to Resources/diagrams/\(model.rawValue).mmd; copy the file in")
    }
}

extension DiagramTests {
    /// The README shows the transfer drawn by case in a ```text block: it must be what the command prints.
    @Test func theReadmeShowsTheTransferDrawnByCase() throws {
        let readme = try String(
            contentsOf: Self.diagrams.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = readme.components(separatedBy: "```text\n").dropFirst()
            .compactMap { $0.components(separatedBy: "```").first }
        #expect(blocks.contains(ScreenModel.transfer.graph(.text)), "copy `statetui graph transfer --format text` in")
    }
}
