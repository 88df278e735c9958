/// The terminal a demo plays on: it types the script's keys into the app's own store loop, moves the world's
/// simulated time for `sleep` steps and checks `expect` steps against the frame the store drew.
///
/// Before each step it waits until the world is quiet — every effect ended, every action reduced, and the
/// world settled (``DemoWorld/isSettled(_:)``) — waking on the store's own wake-ups, never on a timer.
/// Simulated time moves one due callback at a time, with the world settling in between, so a `sleep` of any
/// length ends as soon as nothing more is due. Paced (a person watching), every frame it passes on carries
/// the step note on its top row, and a play that reached its end waits for `q` under the done note.
final class DemoTerminal<Base: Terminal, World: DemoWorld>: Terminal {
    /// What the terminal needs from the store it types into.
    struct Store {
        /// Whether the store and the world are quiet.
        var isSettled: () -> Bool
    }

    /// How long the world may stay unsettled with nothing waking the store before the demo is given up: a
    /// bound for a world that can never settle, not a measure of speed. The app's work waits its turn on the
    /// cooperative pool, so a machine whose cores are busy with other work (a test suite's thousand tests on
    /// two cores) can delay the next wake-up by a minute and more; a minute was seen to stop every demo of a
    /// run at once.
    static var stallLimit: Duration { .seconds(300) }
    /// Demo time a key press takes in a recording (a beat a viewer can follow).
    static var keyDuration: Duration { .milliseconds(250) }
    /// How much demo time a paced `sleep` moves between two frames.
    static var paceSlice: Duration { .milliseconds(100) }

    let base: Base
    let world: World
    let script: DemoScript
    /// The demo's name when time passes at the script's pace in real time too (a person watching); nil
    /// headless.
    let pace: String?
    /// Whether time passes at the script's pace in real time too.
    var paced: Bool { pace != nil }
    /// Set once the store exists.
    var store = Store(isSettled: { true })
    /// Called with a step's text whenever a frame is due: `start`, after each step, and per slice of a paced
    /// sleep.
    var frameDue: (String) -> Void = { _ in }
    /// How the play ended, once it has.
    private(set) var ending: DemoPlayer.Ending?
    /// The demo time so far.
    private(set) var time: Duration = .zero
    /// The last frame the store drew.
    private(set) var canvas: Canvas?

    private var next = 0
    private var started = false
    /// A key step whose frame is due once the world has settled after it.
    private var keyStep: DemoScript.Step?
    /// A `sleep` step in progress: the step, where it ends and where the current slice ends.
    private var sleeping: (step: DemoScript.Step, end: Duration, slice: Duration)?
    private var busySince: ContinuousClock.Instant?

    /// The key step whose frame was still due when the store's loop ended (the app quit at it).
    var pendingStep: DemoScript.Step? { keyStep }

    init(base: Base, world: World, script: DemoScript, pace: String?) {
        self.base = base
        self.world = world
        self.script = script
        self.pace = pace
    }

    var size: Size { base.size }
    var wakeup: Wakeup { base.wakeup }

    @discardableResult
    func draw(_ canvas: Canvas) -> DrawReport {
        self.canvas = canvas
        return base.draw(noted(canvas))
    }

    /// `canvas` with the note a watcher reads on its top row's right end: which step plays, or that the demo
    /// is done. Unchanged when nobody watches.
    private func noted(_ canvas: Canvas) -> Canvas {
        guard let name = pace else { return canvas }
        let note =
            ending == .completed
            ? DemoPlayer.doneNote(name: name)
            : DemoPlayer.progressNote(name: name, step: max(next, 1), of: script.steps.count)
        let text = " " + note + " "
        var noted = canvas
        noted.write(text, at: Point(x: max(0, canvas.size.width - DisplayWidth.of(text)), y: 0), style: .reverse)
        return noted
    }

    /// Draws the last frame again with the current note (a step began, or the play ended).
    private func redrawNote() {
        guard paced, let canvas else { return }
        _ = base.draw(noted(canvas))
    }

    /// Shows the done note and waits for the watcher's `q` or Ctrl-C (a resize draws the note again).
    private func waitForQuit() {
        redrawNote()
        while true {
            let key = base.readKey(timeout: nil)
            if key == .character("q") || key == .controlC { return }
            if key == .resize { redrawNote() }
        }
    }

    func suspend() { base.suspend() }
    func resume() { base.resume() }
    func restore() { base.restore() }

    /// The next key of the script once the world is quiet; nil while it is not (so the store reduces what
    /// arrived), or while simulated time moves. Ctrl-C ends the store's loop once the play has ended.
    func readKey(timeout: Duration?) -> Key? {
        while true {
            if ending != nil { return .controlC }
            guard settled() else { return nil }
            if ending != nil { return .controlC }
            if let sleep = sleeping {
                if world.step(toward: sleep.slice) { return nil }
                sleepSliceEnded(sleep)
                continue
            }
            if let step = keyStep {
                keyStep = nil
                frameDue(step.text)
                if paced && watch(Self.keyDuration) { ending = .stopped }
                continue
            }
            if !started {
                started = true
                frameDue("start")
                continue
            }
            guard next < script.steps.count else {
                ending = .completed
                if paced { waitForQuit() }
                continue
            }
            let step = script.steps[next]
            next += 1
            redrawNote()
            switch step.kind {
            case .key(let key):
                keyStep = step
                time += Self.keyDuration
                return key
            case .sleep(let duration):
                let end = world.now + duration
                sleeping = (step, end, paced ? min(end, world.now + Self.paceSlice) : end)
            case .expect(let pattern):
                frameDue(step.text)
                let screen = canvas?.text ?? ""
                if !DemoPlayer.matches(screen, pattern) { ending = .failed(step, screen: screen) }
            }
        }
    }

    /// A stretch of a `sleep` has passed: the frame of the step (or, paced, of the slice), then the next
    /// slice or the next step.
    private func sleepSliceEnded(_ sleep: (step: DemoScript.Step, end: Duration, slice: Duration)) {
        let now = world.now
        guard paced else {
            time += sleep.step.kindDuration
            sleeping = nil
            frameDue(sleep.step.text)
            return
        }
        time += Self.paceSlice
        frameDue(sleep.step.text)
        if watch(Self.paceSlice) {
            ending = .stopped
            sleeping = nil
        } else if now < sleep.end {
            sleeping = (sleep.step, sleep.end, min(sleep.end, now + Self.paceSlice))
        } else {
            sleeping = nil
        }
    }

    /// Whether the world is quiet; when it is not, waits (bounded) for the store's next wake-up and says no,
    /// so the store reduces what woke it. A world unsettled with no wake-up for ``stallLimit`` ends the play.
    private func settled() -> Bool {
        if store.isSettled() {
            busySince = nil
            return true
        }
        let clock = ContinuousClock()
        let since = busySince ?? clock.now
        busySince = since
        let left = Self.stallLimit - (clock.now - since)
        if left <= .zero {
            ending = .stalled(after: script.steps.indices.contains(next - 1) ? script.steps[next - 1].text : "start")
            return true
        }
        base.wakeup.wait(timeout: left)
        // Woken: something moved, so the limit counts again from now.
        if clock.now - since < Self.stallLimit { busySince = clock.now }
        return false
    }

    /// Waits `duration` of real time while watching the base terminal for `q` or Ctrl-C; true when pressed.
    private func watch(_ duration: Duration) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + duration
        while clock.now < deadline {
            if let key = base.readKey(timeout: deadline - clock.now), key == .character("q") || key == .controlC {
                return true
            }
        }
        return false
    }
}

extension DemoScript.Step {
    /// The demo time the step takes: a sleep its duration, anything else none (keys are counted apart).
    var kindDuration: Duration {
        switch kind {
        case .sleep(let duration): duration
        case .key, .expect: .zero
        }
    }
}
