import TerminalUI
import Testing

@Suite struct LayoutTests {
    @Test func fixedPartsThenFillTakesTheRest() {
        let area = Rect(x: 0, y: 0, width: 80, height: 24)
        #expect(
            area.rows([.fixed(1), .fill, .fixed(1)]) == [
                Rect(x: 0, y: 0, width: 80, height: 1),
                Rect(x: 0, y: 1, width: 80, height: 22),
                Rect(x: 0, y: 23, width: 80, height: 1),
            ])
    }

    @Test func columnsWithRatioAndSpacing() {
        let area = Rect(x: 2, y: 3, width: 21, height: 5)
        #expect(
            area.columns([.ratio(1, 2), .fill], spacing: 1) == [
                Rect(x: 2, y: 3, width: 10, height: 5),
                Rect(x: 13, y: 3, width: 10, height: 5),
            ])
    }

    @Test(arguments: [
        (10, [Constraint.fill(1), .fill(1), .fill(1)], 0, [4, 3, 3]),
        (10, [.fill(1), .fill(3)], 0, [3, 7]),
        (10, [.fixed(4), .fixed(4), .fixed(4)], 0, [4, 4, 2]),
        (10, [.fixed(3), .fill(1), .fixed(3)], 1, [3, 2, 3]),
        (5, [.fixed(3), .fill(1)], 3, [2, 0]),
        (0, [.fixed(3), .fill(1)], 0, [0, 0]),
        (9, [.ratio(1, 3), .ratio(2, 3)], 0, [3, 6]),
        (7, [.ratio(1, 0), .fill(1)], 0, [0, 7]),
        (8, [], 0, []),
    ])
    func lengths(total: Int, constraints: [Constraint], spacing: Int, expected: [Int]) {
        #expect(Layout.lengths(total: total, constraints: constraints, spacing: spacing) == expected)
    }

    @Test func rectangleHelpers() {
        let area = Rect(x: 0, y: 0, width: 20, height: 10)
        #expect(area.centered(width: 6, height: 4) == Rect(x: 7, y: 3, width: 6, height: 4))
        #expect(area.centered(width: 30, height: 30) == area)
        #expect(area.inset(by: 1) == Rect(x: 1, y: 1, width: 18, height: 8))
        #expect(Rect(x: 0, y: 0, width: 1, height: 1).inset(by: 1).isEmpty)
        #expect(area.intersection(Rect(x: 15, y: 8, width: 10, height: 10)) == Rect(x: 15, y: 8, width: 5, height: 2))
        #expect(area.intersection(Rect(x: 30, y: 0, width: 5, height: 5)).isEmpty)
    }

    @Test(arguments: [("80x24", Size(width: 80, height: 24)), ("1x1", Size(width: 1, height: 1))])
    func sizeParsesWxH(text: String, size: Size) {
        #expect(Size(parsing: text) == size)
        #expect(size.description == text)
    }

    @Test(arguments: ["80", "x24", "80x", "0x5", "-1x5", "axb", "80x24x1", ""])
    func sizeRejectsMalformedText(text: String) {
        #expect(Size(parsing: text) == nil)
    }
}
