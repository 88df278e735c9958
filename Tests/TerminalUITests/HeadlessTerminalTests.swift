import TerminalUI
import Testing

@Suite struct HeadlessTerminalTests {
    @Test func drawKeepsTheFrameAndCountsChanges() {
        let terminal = HeadlessTerminal(size: Size(width: 6, height: 2))
        var canvas = Canvas(size: terminal.size)
        canvas.write("hello", at: Point(x: 0, y: 0))
        #expect(terminal.draw(canvas).changedCells == 12)
        canvas.write("J", at: Point(x: 0, y: 0))
        #expect(terminal.draw(canvas).changedCells == 1)
        #expect(terminal.text == "Jello\n\n")
        #expect(terminal.frameCount == 2)
        terminal.resume()
        #expect(terminal.draw(canvas).changedCells == 12)
    }

    @Test func scriptIsPlayedInOrderIncludingResizes() {
        let terminal = HeadlessTerminal(
            size: Size(width: 10, height: 4), script: [.key(.character("a")), .resize(Size(width: 3, height: 2))])
        terminal.enqueue(keys: [.escape])
        #expect(terminal.readKey(timeout: .zero) == .character("a"))
        #expect(terminal.size == Size(width: 10, height: 4))
        #expect(terminal.readKey(timeout: .zero) == .resize)
        #expect(terminal.size == Size(width: 3, height: 2))
        #expect(terminal.readKey(timeout: .zero) == .escape)
        #expect(terminal.readKey(timeout: .zero) == nil)
    }

    @Test func blankBeforeTheFirstFrameAndRestoreIsRecorded() {
        let terminal = HeadlessTerminal(size: Size(width: 2, height: 1))
        #expect(terminal.canvas == Canvas(size: Size(width: 2, height: 1)))
        #expect(!terminal.isRestored)
        terminal.restore()
        #expect(terminal.isRestored)
    }
}
