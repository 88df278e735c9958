import TerminalUI
import Testing

/// Draws `widget` on a blank canvas of `width`×`height` and returns the plain-text lines.
func rendered(_ widget: some Widget, width: Int, height: Int = 1) -> [String] {
    var canvas = Canvas(size: Size(width: width, height: height))
    widget.render(in: canvas.bounds, on: &canvas)
    return canvas.lines
}

@Suite struct TextTests {
    @Test(arguments: [
        ("hello", 10, "hello"),
        ("hello", 5, "hello"),
        ("hello world", 5, "hell…"),
        ("hello", 1, "…"),
        ("hello", 0, ""),
        ("日本語テキスト", 6, "日本…"),
        ("日本語", 4, "日…"),
        ("e\u{301}e\u{301}e\u{301}", 2, "e\u{301}…"),
    ])
    func truncateIsWidthAware(text: String, width: Int, expected: String) {
        let result = Line.truncate(text, to: width)
        #expect(result == expected)
        #expect(DisplayWidth.of(result) <= width)
    }

    @Test func lineAlignsAndTruncates() {
        #expect(rendered(Line("abc", alignment: .right), width: 6) == ["   abc"])
        #expect(rendered(Line("abc", alignment: .center), width: 7) == ["  abc"])
        #expect(rendered(Line("abcdefgh"), width: 5) == ["abcd…"])
    }

    /// The width is stored when the span is made; changing the text measures it again.
    @Test func aSpanMeasuresItsTextAgainWhenTheTextChanges() {
        var span = Span("ab", style: .bold)
        #expect(span.width == 2)
        span.text = "日本語"
        #expect(span == Span("日本語", style: .bold))
        #expect(span.width == 6)
    }

    @Test func truncatedLineKeepsSpanStyles() {
        let line = Line([Span("ab", style: .bold), Span("cdef", style: .dim)])
        #expect(
            line.truncated(to: 4) == Line([Span("ab", style: .bold), Span("c", style: .dim), Span("…", style: .dim)]))
        #expect(line.truncated(to: 3) == Line([Span("ab", style: .bold), Span("…", style: .bold)]))
        #expect(line.truncated(to: 6) == line)
    }

    @Test func paragraphClipsRowsAndLines() {
        let paragraph = Paragraph(text: "first line\nsecond\nthird")
        #expect(rendered(paragraph, width: 6, height: 2) == ["first…", "second"])
    }
}

@Suite struct BoxTests {
    @Test func boxWithTitle() {
        #expect(
            rendered(Box(title: "Transfers"), width: 18, height: 3) == [
                "┌─ Transfers ────┐",
                "│                │",
                "└────────────────┘",
            ])
    }

    @Test func longTitleIsTruncatedInsideTheCorners() {
        #expect(
            rendered(Box(title: "Transfers"), width: 10, height: 2) == [
                "┌─ Tran…─┐",
                "└────────┘",
            ])
    }

    @Test func canvasRendersWidgetsInAnArea() {
        var canvas = Canvas(size: Size(width: 6, height: 3))
        canvas.render(Box(title: "x"), in: Rect(x: 1, y: 0, width: 5, height: 3))
        #expect(canvas.lines == [" ┌─x─┐", " │   │", " └───┘"])
    }

    @Test func boxWithoutTitleAndInnerArea() {
        #expect(rendered(Box(border: .rounded), width: 4, height: 3) == ["╭──╮", "│  │", "╰──╯"])
        #expect(Box().inner(Rect(x: 2, y: 1, width: 10, height: 5)) == Rect(x: 3, y: 2, width: 8, height: 3))
    }

    @Test func tinyBoxesNeverCrash() {
        #expect(rendered(Box(title: "T"), width: 1, height: 1) == ["┘"])
        #expect(rendered(Box(title: "T"), width: 2, height: 1) == ["└┘"])
    }
}

@Suite struct ProgressBarTests {
    @Test(arguments: [
        (0.0, 4, ""),
        (1.0, 4, "████"),
        (0.5, 4, "██"),
        (0.5, 5, "██▌"),
        (0.25, 1, "▎"),
        (1.0 / 8, 1, "▏"),
        (7.0 / 8, 1, "▉"),
        (0.99, 10, "█████████▉"),
        (0.333, 3, "▉"),
        (0.1, 10, "█"),
        (0.05, 10, "▌"),
        (1.5, 3, "███"),
        (-0.2, 3, ""),
        (Double.nan, 3, ""),
        (0.5, 0, ""),
    ])
    func filledTextInEighths(fraction: Double, width: Int, expected: String) {
        #expect(ProgressBar.filledText(fraction: fraction, width: width) == expected)
    }

    @Test(arguments: 1...8)
    func everyEighthOfOneCell(eighths: Int) {
        let glyphs = ["▏", "▎", "▍", "▌", "▋", "▊", "▉", "█"]
        #expect(ProgressBar.filledText(fraction: Double(eighths) / 8, width: 1) == glyphs[eighths - 1])
    }

    @Test func barFillsTheTrackWithStyles() {
        var canvas = Canvas(size: Size(width: 4, height: 1))
        let bar = ProgressBar(
            fraction: 0.5, style: Style(foreground: .green), trackStyle: Style(background: .brightBlack))
        bar.render(in: canvas.bounds, on: &canvas)
        #expect(
            canvas.cells == [
                Cell(grapheme: "█", width: 1, style: Style(foreground: .green)),
                Cell(grapheme: "█", width: 1, style: Style(foreground: .green)),
                .blank(Style(background: .brightBlack)),
                .blank(Style(background: .brightBlack)),
            ])
    }
}

@Suite struct ListTests {
    @Test(
        arguments: [
            // selected, count, height, offset → first visible
            (0, 10, 3, 0, 0),
            (2, 10, 3, 0, 0),
            (3, 10, 3, 0, 1),
            (9, 10, 3, 0, 7),
            (4, 10, 3, 7, 4),
            (5, 10, 3, 4, 4),
            (0, 2, 5, 3, 0),
            (0, 0, 5, 0, 0),
            (1, 10, 0, 0, 0),
        ] as [(Int, Int, Int, Int, Int)])
    func offsetKeepsSelectionVisible(selected: Int, count: Int, height: Int, offset: Int, expected: Int) {
        #expect(
            SelectableList.visibleOffset(selected: selected, count: count, height: height, offset: offset) == expected)
    }

    @Test func listScrollsAndHighlightsSelection() {
        let items: [Line] = ["zero", "one", "two", "three", "four"]
        var canvas = Canvas(size: Size(width: 6, height: 2))
        SelectableList(items: items, selected: 3).render(in: canvas.bounds, on: &canvas)
        #expect(canvas.lines == ["two", "three"])
        #expect(
            canvas.cells.map(\.style.attributes) == [
                [], [], [], [], [], [], .reverse, .reverse, .reverse, .reverse, .reverse, .reverse,
            ])
    }
}

@Suite struct TableTests {
    @Test func tableHeaderRowsAndSelection() {
        let table = Table(
            columns: [
                TableColumn("Name", width: .fixed(6)), TableColumn("State", width: .fill),
                TableColumn("#", width: .fixed(2), alignment: .right),
            ],
            rows: [["alpha", "running", "1"], ["a-very-long-name", "paused", "12"], ["gamma", "done", "3"]],
            selected: 2
        )
        var canvas = Canvas(size: Size(width: 20, height: 3))
        table.render(in: canvas.bounds, on: &canvas)
        #expect(
            canvas.lines == [
                "Name   State       #",
                "a-ver… paused     12",
                "gamma  done        3",
            ])
        #expect(canvas[0, 0].style == .bold)
        #expect(canvas[19, 2].style == .reverse)
        #expect(canvas[19, 1].style == .plain)
    }

    @Test func columnAreasFollowTheConstraints() {
        let table = Table(columns: [TableColumn("a", width: .fixed(3)), TableColumn("b", width: .fill)], rows: [])
        #expect(
            table.columnAreas(in: Rect(x: 1, y: 4, width: 10, height: 1)) == [
                Rect(x: 1, y: 4, width: 3, height: 1), Rect(x: 5, y: 4, width: 6, height: 1),
            ])
    }
}

@Suite struct KeyHelpBarTests {
    let items = [KeyHelp("s", "start"), KeyHelp("p", "pause"), KeyHelp("q", "quit")]

    @Test(arguments: [
        (40, "s start · p pause · q quit"),
        (26, "s start · p pause · q quit"),
        (25, "s start · p pause …"),
        (19, "s start · p pause …"),
        (18, "s start …"),
        (9, "s start …"),
        (8, "…"),
        (1, "…"),
    ])
    func dropsWholeEntriesThatDoNotFit(width: Int, expected: String) {
        #expect(rendered(KeyHelpBar(items: items), width: width) == [expected])
    }

    @Test func keysAreStyled() {
        let line = KeyHelpBar(items: [KeyHelp("q", "quit")], keyStyle: .reverse).line(width: 10)
        #expect(line == Line([Span("q", style: .reverse), Span(" quit")]))
    }
}

@Suite struct OverlayTests {
    @Test func modalClearsBeneathAndCentres() {
        var canvas = Canvas(size: Size(width: 12, height: 5))
        for row in 0..<5 { canvas.write("############", at: Point(x: 0, y: row)) }
        let inner = Modal(title: "Help", size: Size(width: 8, height: 3)).render(in: canvas.bounds, on: &canvas)
        canvas.write("hi", at: inner.origin)
        #expect(inner == Rect(x: 3, y: 2, width: 6, height: 1))
        #expect(
            canvas.lines == [
                "############",
                "##┌─ He…─┐##",
                "##│hi    │##",
                "##└──────┘##",
                "############",
            ])
    }

    @Test func tabBarNumbersTabsAndHighlightsTheSelected() {
        var canvas = Canvas(size: Size(width: 30, height: 1))
        TabBar(titles: ["Transfers", "Upload"], selected: 1).render(in: canvas.bounds, on: &canvas)
        #expect(canvas.lines == [" 1 Transfers   2 Upload"])
        #expect(canvas[0, 0].style == .plain)
        #expect(canvas[14, 0].style == Style(attributes: [.reverse, .bold]))
    }

    @Test func tabBarClipsAtTheEdge() {
        #expect(rendered(TabBar(titles: ["Transfers", "Upload"], selected: 0), width: 16) == [" 1 Transfers   2"])
    }

    @Test(arguments: [(0, "⠋"), (1, "⠙"), (9, "⠏"), (10, "⠋"), (23, "⠸"), (-1, "⠏")])
    func spinnerFrameIsAFunctionOfTheNumber(number: Int, expected: String) {
        #expect(Spinner.frame(number) == expected)
    }
}

@Suite struct StyleTests {
    @Test(arguments: [
        (Style(foreground: .red, attributes: .bold), Style(attributes: .bold)),
        (Style(foreground: .green, background: .blue), Style()),
        (Style(background: .blue, attributes: .reverse), Style(attributes: .reverse)),
        (Style(attributes: [.underline, .dim]), Style(attributes: [.underline, .dim])),
        (Style.plain, Style.plain),
    ])
    func monochromeDropsColoursAndKeepsAttributes(style: Style, expected: Style) {
        #expect(style.monochrome == expected)
    }
}
