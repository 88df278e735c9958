import Foundation
import TerminalUI
import TerminalUITesting
import Testing

@Suite struct SnapshotTests {
    private func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-\(UUID().uuidString)/s.txt").path
    }

    @Test func missingFileIsRecordedThenMatched() throws {
        let path = temporaryPath()
        defer {
            try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)
        }
        #expect(try Snapshot.compare("a\nb\n", toFileAt: path, update: false) == .recorded(path: path))
        #expect(try Snapshot.compare("a\nb\n", toFileAt: path, update: false) == .matched)
        #expect(try Snapshot.compare("a\nc\n", toFileAt: path, update: false) == .mismatch(diff: "-2: b$\n+2: c$"))
        #expect(try Snapshot.compare("a\nc\n", toFileAt: path, update: true) == .recorded(path: path))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "a\nc\n")
    }

    @Test func lineDiffShowsOnlyDifferingLines() {
        #expect(
            Snapshot.lineDiff(expected: "same\nold \nx", actual: "same\nnew\nx\nextra")
                == "-2: old $\n+2: new$\n+4: extra$")
    }

    @Test func composedScreenMatchesItsGoldenFile() {
        var canvas = Canvas(size: Size(width: 40, height: 12))
        let rows = canvas.bounds.rows([.fixed(1), .fill, .fixed(1)])
        TabBar(titles: ["Transfers", "Upload", "Load"], selected: 0).render(in: rows[0], on: &canvas)
        let box = Box(title: "Transfers")
        box.render(in: rows[1], on: &canvas)
        let table = Table(
            columns: [
                TableColumn("Name", width: .fixed(8)), TableColumn("Progress", width: .fixed(10)),
                TableColumn("State", width: .fill),
            ],
            rows: [["alpha", "", "running"], ["beta", "", "paused"], ["日本語の名前", "", "idle"]],
            selected: 1
        )
        let inner = box.inner(rows[1])
        table.render(in: inner, on: &canvas)
        for (index, fraction) in [0.42, 0.875, 0.0].enumerated() {
            let cells = table.columnAreas(in: inner.row(index + 1))
            ProgressBar(fraction: fraction).render(in: cells[1], on: &canvas)
        }
        KeyHelpBar(items: [KeyHelp("↑/k", "up"), KeyHelp("s", "start"), KeyHelp("p", "pause"), KeyHelp("q", "quit")])
            .render(in: rows[2], on: &canvas)
        assertSnapshot(canvas, named: "composedScreen")
    }
}
