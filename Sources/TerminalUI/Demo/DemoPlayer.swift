import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Plays a demo script on an app: headless (every frame printed as text after a `--- frame N: <step> ---`
/// line) or on a terminal a person watches (`q` stops it), optionally recording an asciicast. Both run the
/// app's own ``Store`` loop — the same reducer, subscriptions and effect runner as the live app — in a
/// ``DemoWorld`` whose time the script moves, with a terminal of the player's typing the script.
///
/// On a terminal a person watches, the top row's right end says `demo NAME · step N of M` while the demo
/// plays and `demo NAME done — q quits` once it has played to its end; the player then waits for `q`.
public enum DemoPlayer {
    /// What a play ended with, and its exit status.
    public enum Ending: Hashable, Sendable {
        /// The script ran to its end (or the app quit at a `q` step): exit 0.
        case completed
        /// The watcher pressed `q`: exit 0.
        case stopped
        /// An `expect` failed: exit 1.
        case failed(DemoScript.Step, screen: String)
        /// The simulated world did not settle after this step within the player's limit (a minute with no
        /// wake-up): exit 1.
        case stalled(after: String)

        /// The exit status.
        public var status: Int32 {
            switch self {
            case .completed, .stopped: 0
            case .failed, .stalled: 1
            }
        }
    }

    /// The frame header line, `--- frame 3: sleep 300ms ---`.
    public static func header(frame: Int, step: String) -> String {
        "--- frame \(frame): \(step) ---"
    }

    /// Whether `pattern` matches somewhere in `text` (false for a pattern that does not compile), in time
    /// linear in the text (``ScreenPattern``).
    public static func matches(_ text: String, _ pattern: String) -> Bool {
        guard let compiled = try? ScreenPattern(pattern) else { return false }
        return compiled.matches(text)
    }

    /// What the top row says while the demo called `name` plays step `step` of `count` on a terminal a
    /// person watches.
    public static func progressNote(name: String, step: Int, of count: Int) -> String {
        "demo \(name) · step \(step) of \(count)"
    }

    /// What the top row says once the demo called `name` has played to its end on a terminal a person
    /// watches.
    public static func doneNote(name: String) -> String {
        "demo \(name) done — q quits"
    }

    /// Plays `script` in `world` without a terminal, writing every frame to `output` and recording into
    /// `cast`. Each frame is handed to `output` as it is drawn and then let go: memory stays flat however
    /// long the script (only a recording keeps what it records).
    public static func headless<World: DemoWorld>(
        _ script: DemoScript, size: Size, world: World, cast: inout Asciicast?, output: (String) -> Void
    ) async -> Ending {
        await play(script, on: TerminalBox(HeadlessTerminal(size: size)), world: world, pace: nil) { frame in
            output(frame.text)
            if cast != nil { cast?.events.append(frame.event) }
        }
    }

    /// Plays `script`, the demo called `name`, in `world` on `terminal` at the pace its sleeps give, redrawing
    /// as simulated time passes and showing which step plays (``progressNote(name:step:of:)``); `q` stops it.
    /// Played to its end, it says so (``doneNote(name:)``) and waits for `q`. Frames (the app's, without the
    /// notes) are recorded into `cast` with the demo's time.
    public static func interactive<World: DemoWorld>(
        _ script: DemoScript, name: String, on terminal: some Terminal, world: World, cast: inout Asciicast?
    ) async -> Ending {
        await play(script, on: TerminalBox(terminal), world: world, pace: name) { frame in
            if cast != nil { cast?.events.append(frame.event) }
        }
    }

    /// One frame of a play: its header and its canvas, at the demo's time.
    struct Frame: Sendable {
        var header: String
        var canvas: Canvas
        var time: Duration

        /// The header line and the screen as text.
        var text: String { header + "\n" + canvas.text }
        /// The frame as an asciicast event (made only when one is recorded).
        var event: Asciicast.Event { Asciicast.Event(time: time.inSeconds, data: ANSIFrame.render(canvas)) }
    }

    /// How many drawn frames may wait for `deliver` before the play waits for it.
    static let frameBufferLimit = 64

    /// Runs the store loop on a thread of its own (it blocks while it waits, which must not happen on a
    /// Swift concurrency thread) and hands each frame to `deliver`, here, as it is drawn; returns how the play
    /// ended. `pace` is the demo's name when a person watches (time passes at the script's pace and the notes
    /// show), nil when headless.
    static func play<Base: Terminal, World: DemoWorld>(
        _ script: DemoScript, on box: TerminalBox<Base>, world: World, pace: String?, deliver: (Frame) -> Void
    ) async -> Ending {
        let (frames, continuation) = AsyncStream.makeStream(
            of: Frame.self, bufferingPolicy: .bufferingOldest(frameBufferLimit))
        let ending = Locked<Ending?>(nil)
        let emit: @Sendable (Frame) -> Void = { frame in
            // Waits for room rather than drop a frame; ends at once if nobody reads any more.
            var pending = frame
            while case .dropped(let refused) = continuation.yield(pending) {
                pending = refused
                usleep(500)
            }
        }
        DetachedThread.start(name: "statetui demo") {
            // Read only after `finish()`, once the iteration below has ended.
            ending.withLock { $0 = run(script, on: box.terminal, world: world, pace: pace, emit: emit) }
            continuation.finish()
        }
        for await frame in frames { deliver(frame) }
        return ending.withLock { $0 } ?? .completed
    }

    /// The play itself, on the calling thread; each frame goes to `emit` as it is drawn.
    private static func run<Base: Terminal, World: DemoWorld>(
        _ script: DemoScript, on base: Base, world: World, pace: String?, emit: @escaping (Frame) -> Void
    ) -> Ending {
        let store = Store(app: world.app)
        let terminal = DemoTerminal(base: base, world: world, script: script, pace: pace)
        var count = 0
        func record(_ step: String, _ canvas: Canvas) {
            emit(Frame(header: header(frame: count, step: step), canvas: canvas, time: terminal.time))
            count += 1
        }
        terminal.store = DemoTerminal.Store(isSettled: {
            store.runningEffects == 0 && !store.hasQueuedActions && world.isSettled(store.state)
        })
        terminal.frameDue = { step in record(step, terminal.canvas ?? store.app.view(store.state, base.size)) }
        world.whenScheduled { [wakeup = base.wakeup] in wakeup.wake() }
        let final = store.run(on: terminal, pacer: FramePacer(minimumInterval: .zero))
        world.whenScheduled(nil)
        world.stop()
        if let ending = terminal.ending { return ending }
        // The app quit at a step of the script (its `q`): that step's frame shows where it stopped.
        if let step = terminal.pendingStep { record(step.text, store.app.view(final, base.size)) }
        return .completed
    }
}

/// Carries a terminal to the thread that plays on it; only that thread uses it from then on.
struct TerminalBox<Base: Terminal>: @unchecked Sendable {
    let terminal: Base

    init(_ terminal: Base) {
        self.terminal = terminal
    }
}
