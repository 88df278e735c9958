import TerminalUI
import Testing

@Suite struct CanvasTests {
    @Test func newCanvasIsBlank() {
        let canvas = Canvas(size: Size(width: 3, height: 2))
        #expect(canvas.lines == ["", ""])
        #expect(canvas.paddedLines == ["   ", "   "])
        #expect(canvas.cells == Array(repeating: Cell.blank(), count: 6))
    }

    /// The blank is copied in doubling blocks: every size, even or odd, empty or not, is blank in its style
    /// in every cell.
    @Test(arguments: [
        Size(width: 0, height: 0), Size(width: 1, height: 1), Size(width: 7, height: 3),
        Size(width: 200, height: 60),
    ])
    func aNewCanvasIsBlankInItsStyleInEveryCell(size: Size) {
        let canvas = Canvas(size: size, style: .dim)
        #expect(canvas.cells == Array(repeating: Cell.blank(.dim), count: size.area))
    }

    /// Text written on a one-row canvas of `width` at column `x`: what shows and the column after it.
    @Test(arguments: [
        (5, "abcdefgh", 2, "  abc", 5),  // past the right edge: clipped
        (5, "abcdef", -3, "def", 3),  // left of the canvas: clipped
        (4, "a\u{200B}b\tc", 0, "abc", 3),  // zero-width characters take no cell
    ])
    func writingShowsWhatFitsAndEndsAfterIt(width: Int, text: String, x: Int, line: String, end: Int) {
        var canvas = Canvas(size: Size(width: width, height: 1))
        let written = canvas.write(text, at: Point(x: x, y: 0))
        #expect(canvas.lines == [line])
        #expect(written == end)
    }

    @Test func writingOnRowsOutsideTheCanvasDoesNothing() {
        var canvas = Canvas(size: Size(width: 4, height: 2))
        canvas.write("above", at: Point(x: 0, y: -1))
        canvas.write("below", at: Point(x: 0, y: 2))
        #expect(canvas == Canvas(size: Size(width: 4, height: 2)))
    }

    @Test func writingRespectsTheClipRectangle() {
        var canvas = Canvas(size: Size(width: 8, height: 2))
        canvas.write("0123456789", at: Point(x: 0, y: 1), clip: Rect(x: 2, y: 1, width: 3, height: 1))
        canvas.write("outside", at: Point(x: 0, y: 0), clip: Rect(x: 2, y: 1, width: 3, height: 1))
        #expect(canvas.lines == ["", "  234"])
    }

    @Test func wideCharactersTakeTwoCells() {
        var canvas = Canvas(size: Size(width: 6, height: 1))
        let end = canvas.write("日本x", at: Point(x: 0, y: 0))
        #expect(end == 5)
        #expect(canvas.lines == ["日本x"])
        #expect(
            canvas.cells == [
                Cell(grapheme: "日", width: 2), Cell(grapheme: "", width: 0),
                Cell(grapheme: "本", width: 2), Cell(grapheme: "", width: 0),
                Cell(grapheme: "x", width: 1), .blank(),
            ])
    }

    @Test func wideCharacterSplitAtTheRightEdgeBecomesASpace() {
        var canvas = Canvas(size: Size(width: 3, height: 1))
        canvas.write("a日本", at: Point(x: 0, y: 0))
        #expect(
            canvas.cells == [
                Cell(grapheme: "a", width: 1), Cell(grapheme: "日", width: 2), Cell(grapheme: "", width: 0),
            ])
        var narrow = Canvas(size: Size(width: 2, height: 1))
        narrow.write("a日", at: Point(x: 0, y: 0))
        #expect(narrow.cells == [Cell(grapheme: "a", width: 1), .blank()])
    }

    /// Texts written in turn at their columns on a four-cell row, and the cells they leave.
    struct Writes: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let texts: [(text: String, x: Int)]
        let cells: [Cell]
    }

    @Test(arguments: [
        Writes(
            testDescription: "a wide character split at the left clip shows a space", texts: [("日b", -1)],
            cells: [.blank(), Cell(grapheme: "b", width: 1), .blank(), .blank()]),
        Writes(
            testDescription: "a wide character over the left half of another blanks its right half",
            texts: [("日", 1), ("本", 0)],
            cells: [
                Cell(grapheme: "本", width: 2), Cell(grapheme: "", width: 0), Cell(grapheme: " ", width: 1), .blank(),
            ]),
        Writes(
            testDescription: "combining marks stay with their base", texts: [("e\u{301}a\u{308}!", 0)],
            cells: [
                Cell(grapheme: "e\u{301}", width: 1), Cell(grapheme: "a\u{308}", width: 1),
                Cell(grapheme: "!", width: 1), .blank(),
            ]),
    ])
    func writingLeavesTheseCells(_ writes: Writes) {
        var canvas = Canvas(size: Size(width: 4, height: 1))
        for (text, x) in writes.texts { canvas.write(text, at: Point(x: x, y: 0)) }
        #expect(canvas.cells == writes.cells)
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var canvas = Canvas(size: Size(width: 4, height: 1))
        canvas.write("日本", at: Point(x: 0, y: 0))
        canvas.write("x", at: Point(x: 1, y: 0))
        #expect(
            canvas.cells == [
                .blank(), Cell(grapheme: "x", width: 1), Cell(grapheme: "本", width: 2), Cell(grapheme: "", width: 0),
            ])
        canvas.write("y", at: Point(x: 2, y: 0))
        #expect(canvas.lines == [" xy"])
    }

    @Test func styleIsStoredPerCell() {
        var canvas = Canvas(size: Size(width: 3, height: 1))
        canvas.write("ab", at: Point(x: 0, y: 0), style: .bold)
        canvas.addAttributes(.reverse, in: Rect(x: 1, y: 0, width: 5, height: 1))
        #expect(canvas.cells.map(\.style) == [.bold, Style(attributes: [.bold, .reverse]), .reverse])
    }

    @Test func clearBlanksOnlyTheRectangle() {
        var canvas = Canvas(size: Size(width: 4, height: 3))
        for row in 0..<3 { canvas.write("xxxx", at: Point(x: 0, y: row)) }
        canvas.clear(Rect(x: 1, y: 1, width: 10, height: 1))
        #expect(canvas.lines == ["xxxx", "x", "xxxx"])
    }

    @Test func changesListOnlyDifferingCells() {
        var old = Canvas(size: Size(width: 4, height: 2))
        old.write("abcd", at: Point(x: 0, y: 0))
        var new = old
        new.write("X", at: Point(x: 2, y: 0))
        new.write("日", at: Point(x: 0, y: 1))
        var seen: [String] = []
        let count = new.forEachChange(from: old) { x, y, cell in seen.append("\(x),\(y)=\(cell.grapheme)") }
        #expect(seen == ["2,0=X", "0,1=日"])
        #expect(count == 3)
        var all = 0
        #expect(new.forEachChange(from: nil) { _, _, _ in all += 1 } == 8)
        #expect(all == 7)
    }

    @Test(
        arguments: [
            ("a", 1), ("日", 2), ("é", 1), ("e\u{301}", 1), ("\u{301}", 0), ("\u{200B}", 0), ("\t", 0),
            ("😀", 2), ("❤️", 2), ("🇫🇷", 2), ("Ｗ", 2), ("한", 2), ("─", 1), ("▉", 1),
        ] as [(Character, Int)])
    func displayWidthOfGraphemes(character: Character, width: Int) {
        #expect(DisplayWidth.of(character) == width)
    }

    @Test func displayWidthOfStrings() {
        #expect(
            [DisplayWidth.of("abc"), DisplayWidth.of("日本語"), DisplayWidth.of("a\u{301}b"), DisplayWidth.of("")] == [
                3, 6, 2, 0,
            ])
    }
}
