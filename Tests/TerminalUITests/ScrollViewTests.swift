import TerminalUI
import TerminalUITesting
import Testing

/// Scrolled bodies: the moves keys and the wheel make, the modal that shows what is out of view, the panel
/// every screen frames its parts with.
@Suite struct ScrollViewTests {
    /// Twenty lines in five rows: the last page starts at line 15, a page moves four lines.
    @Test(arguments: [
        (ScrollMove.lineUp, 0, 0), (.lineUp, 3, 2), (.lineUp, 99, 14), (.lineDown, 14, 15), (.lineDown, 15, 15),
        (.pageDown, 0, 4), (.pageDown, 13, 15), (.pageUp, 15, 11), (.pageUp, 2, 0), (.top, 9, 0), (.bottom, 0, 15),
        (.bottom, -4, 15),
    ])
    func aMoveStaysWithinTheLines(move: ScrollMove, from offset: Int, to expected: Int) {
        #expect(move.offset(from: offset, count: 20, height: 5) == expected)
    }

    @Test(arguments: [ScrollMove.lineUp, .lineDown, .pageUp, .pageDown, .top, .bottom])
    func whatFitsDoesNotScroll(move: ScrollMove) {
        #expect(move.offset(from: 2, count: 3, height: 5) == 0)
        #expect(move.offset(from: 0, count: 0, height: 0) == 0)
    }

    @Test(arguments: [
        (Key.up, ScrollMove.lineUp), (.down, .lineDown), (.pageUp, .pageUp), (.pageDown, .pageDown), (.home, .top),
        (.end, .bottom),
    ])
    func keysScroll(key: Key, move: ScrollMove) {
        #expect(ScrollMove(key: key) == move)
    }

    @Test(arguments: [Key.character("j"), .enter, .escape, .mouse(MouseEvent(.wheelUp, at: Point(x: 0, y: 0)))])
    func otherKeysDoNotScroll(key: Key) {
        #expect(ScrollMove(key: key) == nil)
    }

    @Test func theWheelMovesThreeLines() {
        let at = Point(x: 3, y: 4)
        #expect(ScrollMove.offset(afterWheel: MouseEvent(.wheelDown, at: at), from: 0, count: 20, height: 5) == 3)
        #expect(ScrollMove.offset(afterWheel: MouseEvent(.wheelDown, at: at), from: 14, count: 20, height: 5) == 15)
        #expect(ScrollMove.offset(afterWheel: MouseEvent(.wheelUp, at: at), from: 2, count: 20, height: 5) == 0)
        #expect(ScrollMove.offset(afterWheel: MouseEvent(.press(.left), at: at), from: 2, count: 20, height: 5) == nil)
    }

    @Test func aScrollViewShowsItsPageAndCountsWhatIsHidden() {
        let view = ScrollView(lines: (1...8).map { Line("line \($0)") }, offset: 2)
        var canvas = Canvas(size: Size(width: 8, height: 3))
        view.render(in: canvas.bounds, on: &canvas)
        #expect(canvas.lines == ["line 3", "line 4", "line 5"])
        #expect(view.hidden(height: 3) == (2, 3))
        #expect(ScrollView(lines: view.lines, offset: 50).hidden(height: 3) == (5, 0))
    }

    /// A help-like body of 20 lines in a 30×10 screen, scrolled to line 6: the border counts the five lines
    /// above and the seven below.
    @Test func aScrolledModalMarksWhatIsAboveAndBelow() {
        var canvas = Canvas(size: Size(width: 30, height: 10))
        canvas.fill(canvas.bounds, with: "x")
        let lines = (1...20).map { Line("entry \($0)") }
        let modal = Modal(title: "Help", fitting: Size(width: 18, height: lines.count))
        #expect(modal.size == Size(width: 22, height: 22))
        #expect(modal.bodyHeight(in: canvas.bounds) == 8)
        let body = modal.render(ScrollView(lines: lines, offset: 5), in: canvas.bounds, on: &canvas)
        #expect(body == Rect(x: 6, y: 1, width: 18, height: 8))
        assertSnapshot(canvas, named: "scrolledModal")
    }

    @Test func aPanelPadsOneColumnInsideItsBorder() {
        let panel = Panel(title: "Load")
        #expect(panel.inner(Rect(x: 0, y: 0, width: 20, height: 6)) == Rect(x: 2, y: 1, width: 16, height: 4))
        #expect(Panel.outerSize(content: Size(width: 10, height: 3)) == Size(width: 14, height: 5))
        var canvas = Canvas(size: Size(width: 12, height: 3))
        panel.render(in: canvas.bounds, on: &canvas)
        canvas.write("abcdefgh", at: panel.inner(canvas.bounds).origin, clip: panel.inner(canvas.bounds))
        #expect(canvas.lines == ["┌─ Load ───┐", "│ abcdefgh │", "└──────────┘"])
    }
}
