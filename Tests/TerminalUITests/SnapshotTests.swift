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

    /// A selection highlight lost with the text unchanged is a different snapshot: the style block differs.
    @Test func aStyleOnlyChangeFailsTheSnapshot() throws {
        let path = temporaryPath()
        defer {
            try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)
        }
        var highlighted = Canvas(size: Size(width: 6, height: 2))
        highlighted.write("ab", at: Point(x: 0, y: 0))
        let lost = highlighted
        highlighted.addAttributes(.reverse, in: highlighted.bounds.row(0))
        #expect(lost.text == highlighted.text)
        #expect(
            try Snapshot.compare(Snapshot.text(of: highlighted), toFileAt: path, update: false) == .recorded(path: path)
        )
        #expect(
            try Snapshot.compare(Snapshot.text(of: lost), toFileAt: path, update: false)
                == .mismatch(diff: "-4: 0: 0-5 reverse$\n+4: (all plain)$"))
        var recoloured = highlighted
        recoloured.setStyle(Style.reverse.foreground(.red), in: Rect(x: 0, y: 0, width: 1, height: 1))
        #expect(
            try Snapshot.compare(Snapshot.text(of: recoloured), toFileAt: path, update: false)
                == .mismatch(diff: "-4: 0: 0-5 reverse$\n+4: 0: 0 fg=red reverse, 1-5 reverse$"))
    }

    /// The style block names each row's runs of one style, colours by name, wide graphemes by both cells.
    @Test func theStyleBlockListsRunsOfEachRow() {
        var canvas = Canvas(size: Size(width: 10, height: 3))
        canvas.write("ok", at: Point(x: 0, y: 0), style: Style.bold.foreground(.green))
        canvas.write("日本", at: Point(x: 3, y: 0), style: .dim)
        canvas.write("x", at: Point(x: 9, y: 2), style: Style(background: .indexed(208), attributes: .underline))
        #expect(
            Snapshot.text(of: canvas)
                == "ok 日本\n\n         x\n" + Snapshot.stylesHeader + "\n"
                + "0: 0-1 fg=green bold, 3-6 dim\n2: 9 bg=color(208) underline\n")
        #expect(
            Snapshot.styles(of: Canvas(size: Size(width: 3, height: 1))) == Snapshot.stylesHeader + "\n(all plain)\n")
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
