import CNCurses
import TerminalUI
import Testing

/// Mouse reports through the key decoder, their written names, and the hit tests that turn a click into a
/// tab or a row.
@Suite struct MouseTests {
    /// Feeds `text` one character at a time, then flushes: every key the stream decodes to.
    static func decode(_ text: String) -> [Key] {
        var decoder = KeyDecoder()
        var keys = text.unicodeScalars.flatMap { decoder.feed(.character($0.value)) }
        keys += decoder.flush()
        return keys
    }

    @Test(arguments: [
        ("\u{1B}[<0;1;1M", MouseEvent(.press(.left), at: Point(x: 0, y: 0))),
        ("\u{1B}[<0;12;3m", MouseEvent(.release(.left), at: Point(x: 11, y: 2))),
        ("\u{1B}[<1;5;6M", MouseEvent(.press(.middle), at: Point(x: 4, y: 5))),
        ("\u{1B}[<2;200;60M", MouseEvent(.press(.right), at: Point(x: 199, y: 59))),
        ("\u{1B}[<64;7;8M", MouseEvent(.wheelUp, at: Point(x: 6, y: 7))),
        ("\u{1B}[<65;7;8M", MouseEvent(.wheelDown, at: Point(x: 6, y: 7))),
        // Shift, Meta and Ctrl bits do not change what was clicked.
        ("\u{1B}[<20;2;2M", MouseEvent(.press(.left), at: Point(x: 1, y: 1))),
        // The legacy form, each code its value plus 32.
        ("\u{1B}[M !#", MouseEvent(.press(.left), at: Point(x: 0, y: 2))),
        ("\u{1B}[Ma!!", MouseEvent(.wheelDown, at: Point(x: 0, y: 0))),
    ])
    func decodesAReport(text: String, event: MouseEvent) {
        #expect(Self.decode(text) == [.mouse(event)])
    }

    /// Motion, the sideways wheel, extra buttons, a wheel "release", a legacy release and positions off the
    /// grid are read whole and dropped: none of their characters turns into a key.
    @Test(arguments: [
        "\u{1B}[<32;1;1M", "\u{1B}[<35;1;1M", "\u{1B}[<66;1;1M", "\u{1B}[<128;1;1M", "\u{1B}[<64;1;1m",
        "\u{1B}[<0;0;1M", "\u{1B}[<0;1;10001M", "\u{1B}[M#!!",
    ])
    func reportsTheAppDoesNotUseAreDropped(text: String) {
        #expect(Self.decode(text) == [])
    }

    /// What turns out not to be a report comes out as the keys it was typed as, and what follows is read.
    @Test(arguments: [
        ("\u{1B}", [Key.escape]),
        ("\u{1B}q", [.escape, .character("q")]),
        ("\u{1B}[A", [.escape, .character("["), .character("A")]),
        (
            "\u{1B}[<1;2x",
            [
                .escape, .character("["), .character("<"), .character("1"), .character(";"),
                .character("2"), .character("x"),
            ]
        ),
        ("\u{1B}[<;", [.escape, .character("["), .character("<"), .character(";")]),
        (
            "\u{1B}[<1;2;3;4M",
            [
                .escape, .character("["), .character("<"), .character("1"), .character(";"),
                .character("2"), .character(";"), .character("3"), .character(";"), .character("4"), .character("M"),
            ]
        ),
        (
            "\u{1B}\u{1B}[<0;1;1Mq",
            [.escape, .mouse(MouseEvent(.press(.left), at: Point(x: 0, y: 0))), .character("q")]
        ),
        (
            "\u{1B}[<0;1",
            [
                .escape, .character("["), .character("<"), .character("0"), .character(";"),
                .character("1"),
            ]
        ),
    ])
    func whatIsNotAReportStaysKeys(text: String, keys: [Key]) {
        #expect(Self.decode(text) == keys)
    }

    /// A parameter past five digits ends the report, and so does a run of leading zeros longer than a
    /// report: the decoder never holds more than a report's length.
    @Test func anOverlongParameterIsGivenBack() {
        var decoder = KeyDecoder()
        var keys: [Key] = []
        for scalar in "\u{1B}[<1234567".unicodeScalars { keys += decoder.feed(.character(scalar.value)) }
        #expect(keys == [.escape, .character("["), .character("<")] + "1234567".map { .character($0) })
        #expect(decoder.isHoldingInput == false)
        #expect(decoder.flush() == [])
        #expect(KeyDecoder.maximumReportLength == 21)
        let zeros = "\u{1B}[<" + String(repeating: "0", count: 30)
        #expect(
            Self.decode(zeros) == [.escape, .character("["), .character("<")]
                + Array(repeating: .character("0"), count: 30))
        #expect(Self.decode("\u{1B}[<00000;00001;00001M") == [.mouse(MouseEvent(.press(.left), at: Point(x: 0, y: 0)))])
        let tooLong = "[<000000;00001;00001M"
        #expect(Self.decode("\u{1B}" + tooLong) == [.escape] + tooLong.map { .character($0) })
    }

    /// A key code in the middle of a report ends it; the code is still read as its key.
    @Test func aKeyCodeEndsAReport() {
        var decoder = KeyDecoder()
        var keys: [Key] = []
        for scalar in "\u{1B}[<".unicodeScalars { keys += decoder.feed(.character(scalar.value)) }
        keys += decoder.feed(.keyCode(KEY_UP))
        #expect(keys == [.escape, .character("["), .character("<"), .up])
    }

    @Test(arguments: [
        MouseEvent(.press(.left), at: Point(x: 12, y: 3)), MouseEvent(.release(.right), at: Point(x: 0, y: 0)),
        MouseEvent(.press(.middle), at: Point(x: 9999, y: 9999)), MouseEvent(.wheelUp, at: Point(x: 5, y: 10)),
        MouseEvent(.wheelDown, at: Point(x: 1, y: 2)),
    ])
    func mouseNamesRoundTrip(event: MouseEvent) {
        #expect(Key(name: Key.mouse(event).description) == .mouse(event))
    }

    @Test func mouseNamesAreWrittenColumnThenRow() {
        #expect(Key.mouse(MouseEvent(.press(.left), at: Point(x: 12, y: 3))).description == "press-left@12,3")
        #expect(Key.mouse(MouseEvent(.wheelDown, at: Point(x: 5, y: 10))).description == "wheeldown@5,10")
    }

    @Test(arguments: [
        "press-left@", "press-left@1", "press-left@1,", "press-left@-1,2", "press-left@+1,2", "press-left@10000,1",
        "press-up@1,2", "click@1,2", "wheelup@1,2,3", "press-left@1,2@3",
    ])
    func malformedMouseNamesAreRejected(name: String) {
        #expect(Key(name: name) == nil)
    }

    /// Tabs ` 1 Transfers `, ` 2 Upload `, ` 3 Load ` one space apart from column 2; the last one cut at 34.
    @Test(
        arguments: [
            (Point(x: 1, y: 5), nil), (Point(x: 2, y: 5), 0), (Point(x: 14, y: 5), 0), (Point(x: 15, y: 5), nil),
            (Point(x: 16, y: 5), 1), (Point(x: 25, y: 5), 1), (Point(x: 27, y: 5), 2), (Point(x: 33, y: 5), 2),
            (Point(x: 34, y: 5), nil), (Point(x: 3, y: 6), nil), (Point(x: 3, y: 4), nil),
        ] as [(Point, Int?)])
    func aClickPicksTheTabUnderIt(point: Point, tab: Int?) {
        let bar = TabBar(titles: ["Transfers", "Upload", "Load"], selected: 0)
        let area = Rect(x: 2, y: 5, width: 32, height: 1)
        #expect(bar.tab(at: point, in: area) == tab)
        #expect(bar.tabColumns(from: 2, to: 34) == [2..<15, 16..<26, 27..<34])
    }

    /// The hit test agrees with what is drawn: every cell of a tab's label is that tab.
    @Test func theTabHitTestMatchesTheDrawing() {
        let bar = TabBar(titles: ["日本", "Upload"], selected: 1)
        var canvas = Canvas(size: Size(width: 20, height: 1))
        bar.render(in: canvas.bounds, on: &canvas)
        #expect(canvas.lines == [" 1 日本   2 Upload"])
        let tabs = (0..<20).map { bar.tab(at: Point(x: $0, y: 0), in: canvas.bounds) }
        #expect(tabs == [0, 0, 0, 0, 0, 0, 0, 0, nil, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, nil])
    }

    /// Ten items in four rows with the eighth selected show items 4 to 7: rows map to those, and nothing
    /// answers outside the area.
    @Test func aClickPicksTheListItemUnderIt() {
        let list = SelectableList(items: (0..<10).map { Line("item \($0)") }, selected: 7)
        let area = Rect(x: 1, y: 2, width: 10, height: 4)
        let rows = (0..<8).map { list.item(at: Point(x: 3, y: $0), in: area) }
        #expect(rows == [nil, nil, 4, 5, 6, 7, nil, nil])
        #expect(list.item(at: Point(x: 11, y: 3), in: area) == nil)
        let short = SelectableList(items: ["a", "b"], selected: 0)
        #expect((2..<6).map { short.item(at: Point(x: 1, y: $0), in: area) } == [0, 1, nil, nil])
    }

    /// The header row is no row; the rows below it follow the table's scrolling.
    @Test func aClickPicksTheTableRowUnderIt() {
        let table = Table(
            columns: [TableColumn("Name", width: .fill)], rows: (0..<6).map { [Line("r\($0)")] }, selected: 5)
        let area = Rect(x: 0, y: 10, width: 20, height: 4)
        let rows = (9..<15).map { table.row(at: Point(x: 0, y: $0), in: area) }
        #expect(rows == [nil, nil, 3, 4, 5, nil])
    }
}
