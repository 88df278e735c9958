import Support
import TerminalUI
import Testing

/// The scripted demo player on a tiny app of its own: it needs nothing of the dashboard but a ``DemoWorld``.
@Suite struct DemoPlayerTests {
    /// A counter: `+` counts, Ctrl-C quits; the count is drawn on the top row.
    struct Counter: Equatable, Sendable {
        var count = 0
        var quit = false
    }

    /// `+` counts; anything else (the player ends a play with Ctrl-C) quits.
    static func reduce(_ state: inout Counter, _ action: Character) -> [Never] {
        if action == "+" { state.count += 1 } else { state.quit = true }
        return []
    }

    static let app = App<Counter, Character, Never>(
        initialState: Counter(), reduce: reduce,
        view: { state, size in
            var picture = Canvas(size: size)
            _ = picture.write("count \(state.count)", at: Point(x: 0, y: 0))
            return picture
        },
        keymap: { key, _, _ in key == .character("+") ? "+" : key == .controlC ? "q" : nil }, isFinished: { $0.quit })

    /// A world with no work of its own: always settled, time moved at once.
    struct StillWorld: DemoWorld {
        var app: App<Counter, Character, Never> { DemoPlayerTests.app }
        var now: Duration { .zero }
        func step(toward deadline: Duration) -> Bool { false }
        func isSettled(_ state: Counter) -> Bool { true }
        func whenScheduled(_ wake: (@Sendable () -> Void)?) {}
        func stop() {}
    }

    /// A watcher's terminal: keeps every frame as its rows, and presses `q` only once the done note is shown.
    final class Watcher: Terminal, @unchecked Sendable {
        let size = Size(width: 40, height: 2)
        let wakeup = Wakeup()
        let frames = Locked<[[String]]>([])

        func draw(_ canvas: Canvas) -> DrawReport {
            frames.withLock { $0.append(canvas.lines) }
            return DrawReport(changedCells: 0, diff: .zero, flush: .zero)
        }

        func readKey(timeout: Duration?) -> Key? {
            let shown = frames.withLock { $0.last?.first ?? "" }
            if shown.hasSuffix(DemoPlayer.doneNote(name: "tiny")) { return .character("q") }
            wakeup.wait(timeout: timeout)
            return nil
        }

        func suspend() {}
        func resume() {}
        func restore() {}
    }

    @Test func aWatchedDemoShowsTheStepItPlaysThenSaysItIsDoneAndWaitsForQ() async throws {
        let script = try DemoScript.parse("+\nexpect /count 1/\n", file: "tiny.demo")
        let watcher = Watcher()
        var cast: Asciicast?
        let ending = await DemoPlayer.interactive(script, name: "tiny", on: watcher, world: StillWorld(), cast: &cast)
        // Each distinct picture once, in the order the watcher saw them.
        let seen = watcher.frames.withLock { frames in
            frames.enumerated().filter { $0.offset == 0 || frames[$0.offset - 1] != $0.element }.map(\.element)
        }
        #expect(ending == .completed)
        #expect(
            seen == [
                ["count 0        " + " demo tiny · step 1 of 2", ""],
                ["count 1        " + " demo tiny · step 1 of 2", ""],
                ["count 1        " + " demo tiny · step 2 of 2", ""],
                ["count 1       " + " demo tiny done — q quits", ""],
            ])
    }

    @Test func theNotesNameTheDemoAndTheStep() {
        #expect(DemoPlayer.progressNote(name: "tour", step: 3, of: 12) == "demo tour · step 3 of 12")
        #expect(DemoPlayer.doneNote(name: "tour") == "demo tour done — q quits")
    }

    @Test func aHeadlessPlayShowsNoNotes() async throws {
        var cast: Asciicast?
        var frames: [String] = []
        let ending = await DemoPlayer.headless(
            try DemoScript.parse("+\nexpect /count 1/\n", file: "tiny.demo"), size: Size(width: 40, height: 2),
            world: StillWorld(), cast: &cast, output: { frames.append($0) })
        #expect(ending == .completed)
        #expect(
            frames == [
                "--- frame 0: start ---\ncount 0\n\n", "--- frame 1: + ---\ncount 1\n\n",
                "--- frame 2: expect /count 1/ ---\ncount 1\n\n",
            ])
    }
}
