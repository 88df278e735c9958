import Support

/// Holds an ``App``'s state and runs it: reduces actions, runs effects in tasks that feed actions back (one
/// after another, in the order they were asked for), runs subscriptions, and draws a frame only when the state
/// (or the terminal size) changed, at most as often
/// as the pacer allows. Between events the loop sleeps in the input source's wait; nothing spins.
///
/// Everything enters through one inbox, in the order it arrived: the input source's events (keys, mouse
/// reports, resizes), which the app's keymap maps when their turn comes, and the actions effects and
/// subscriptions send. A store belongs to the thread that runs it; effects and subscriptions reach it only
/// through ``send``.
public final class Store<State: Equatable & Sendable, Action: Sendable, Effect: Sendable> {
    /// The app being run, without its initial state: the store's ``state`` is the only copy
    /// (``App/takeInitialState()``).
    let app: App<State, Action, Effect>
    /// The current state.
    public private(set) var state: State
    /// Queues actions from any thread.
    public let send: Send<Action>
    /// How many frames have been drawn.
    public private(set) var frameCount = 0

    private let queue: ActionQueue<StoreInput<Action>>
    private let tasks = TaskBag()
    /// The effects asked for and not yet ended, run one after another by a single drain task.
    private let effects = EffectQueue<Effect>()
    /// The subscriptions running now by id, each with its task and its newest-only slot in the queue.
    private var running: [String: (task: Task<Void, Never>, slot: Int)] = [:]
    private var nextSlot = 0
    private var isRunning = false

    /// A store at the app's initial state, which it takes from `app`: the store's state is the only copy, changed
    /// in place.
    public init(app: consuming App<State, Action, Effect>) {
        state = app.takeInitialState()
        self.app = app
        queue = ActionQueue()
        send = Send(queue: queue)
    }

    deinit {
        tasks.cancelAll()
        for subscription in running.values { subscription.task.cancel() }
    }

    /// How many effects have started and not yet ended. Each end also wakes the run loop, so a driver that
    /// waits for quiet (a scripted demo) looks again without polling.
    public var runningEffects: Int { effects.unfinished }

    /// Whether actions wait to be reduced.
    public var hasQueuedActions: Bool { !queue.isEmpty }

    /// Reduces `action` now and starts its effects. Returns the effects (for tests and tracing).
    @discardableResult
    public func dispatch(_ action: Action) -> [Effect] {
        let effects = app.reduce(&state, action)
        start(effects)
        return effects
    }

    /// Whether the inbox changed the state, and whether the terminal needs a frame anyway (a resize, a return
    /// from the shell).
    private struct Processed {
        var changed = false
        var redraw = false
    }

    /// Takes every input waiting in the inbox, oldest first: an action is reduced; an event is mapped by the
    /// keymap with the state the inputs before it left and the size of the frame on screen (`drawnSize`,
    /// the one the user saw and clicked on), and its action reduced; the suspend key gives the terminal to the
    /// shell until continued.
    private func processInbox(backend: some TerminalBackend, drawnSize: Size) -> Processed {
        let inputs = queue.drain()
        guard !inputs.isEmpty else { return Processed() }
        let before = state
        var processed = Processed()
        for input in inputs {
            switch input {
            case .action(let action):
                dispatch(action)
            case .event(let key):
                if let suspendKey = app.suspendKey, key == suspendKey {
                    backend.suspend()
                    backend.resume()
                    processed.redraw = true
                    continue
                }
                if key == .resize { processed.redraw = true }
                if let action = app.keymap(key, state, drawnSize) { dispatch(action) }
            }
        }
        processed.changed = state != before
        return processed
    }

    /// The loop: until the app is finished, take what arrived in the inbox, draw if something changed and the
    /// pacer allows, then wait for an event, an action or the pacer's delay; an event goes into the inbox
    /// behind the actions that arrived before it. Returns the final state; subscriptions and effects still
    /// running are cancelled.
    @discardableResult
    public func run(on terminal: some Terminal, trace: FrameTrace? = nil, pacer: FramePacer = FramePacer()) -> State {
        run(on: terminal, input: terminal, trace: trace, pacer: pacer)
    }

    /// The loop (``run(on:trace:pacer:)``) drawing on `backend` and reading events from `input`.
    @discardableResult
    public func run(
        on backend: some TerminalBackend, input: some InputSource, trace: FrameTrace? = nil,
        pacer: FramePacer = FramePacer()
    ) -> State {
        queue.attach(input.wakeup)
        isRunning = true
        updateSubscriptions()
        defer {
            isRunning = false
            tasks.cancelAll()
            for subscription in running.values { subscription.task.cancel() }
            running.removeAll()
            queue.attach(nil)
        }
        let clock = ContinuousClock()
        var lastFrame: ContinuousClock.Instant?
        var needsFrame = true
        var drawnSize = backend.size
        while true {
            let processed = processInbox(backend: backend, drawnSize: drawnSize)
            if processed.changed || processed.redraw { needsFrame = true }
            if processed.changed { updateSubscriptions() }
            if app.isFinished(state) { return state }
            let size = backend.size
            if size != drawnSize { needsFrame = true }
            var timeout: Duration?
            if needsFrame {
                let wait = pacer.delay(sinceLastFrame: lastFrame.map { clock.now - $0 })
                if wait <= .zero {
                    let start = clock.now
                    let canvas = app.view(state, size)
                    let built = clock.now
                    let report = backend.draw(canvas)
                    backend.showProgress(app.progress(state))
                    if let copy = app.clipboard(state) { backend.copyToClipboard(copy) }
                    frameCount += 1
                    lastFrame = start
                    drawnSize = size
                    needsFrame = false
                    trace?.record(
                        FrameTiming(
                            frame: frameCount, size: size, build: built - start,
                            diff: report.diff, flush: report.flush, changedCells: report.changedCells))
                } else {
                    timeout = wait
                }
            }
            // The loop appends its own event: no need to wake itself.
            if let event = input.readKey(timeout: timeout) { queue.append(.event(event), wakes: false) }
        }
    }

    /// Starts the subscriptions the app and its state ask for that are not running, and cancels those no
    /// longer asked for. The app's fixed ``App/subscriptions`` are asked for always.
    private func updateSubscriptions() {
        guard isRunning else { return }
        // In the order asked for, so subscriptions start in the same order on every run.
        let wanted =
            app.subscriptions.enumerated().map { ("#\($0.offset)", $0.element) }
            + app.subscribe(state).map { ($0.id, $0) }
        let ids = Set(wanted.map(\.0))
        for (id, subscription) in running where !ids.contains(id) {
            subscription.task.cancel()
            running[id] = nil
        }
        for (id, subscription) in wanted where running[id] == nil {
            let queue = self.queue
            let slot = nextSlot
            nextSlot += 1
            running[id] = (Task { await subscription.run(queue: queue, slot: slot) }, slot)
        }
    }

    /// Queues `effects` behind those asked for earlier, and starts the drain task when none is running: one
    /// task runs them all in the order they were asked for, so a key's effect never overtakes the one an
    /// earlier key asked for (`s p` typed fast sends start, then pause, to the machine), without a task and a
    /// wait per effect.
    private func start(_ effects: [Effect]) {
        guard !effects.isEmpty, self.effects.enqueue(effects) else { return }
        let queue = self.effects
        let runEffect = app.runEffect
        let send = self.send
        let actions = self.queue
        tasks.spawn {
            while let effect = queue.next() {
                await runEffect(effect, send)
                queue.finishedOne()
                actions.wake()
            }
        }
    }
}

/// The effects waiting to run, shared by the store and its drain task. At most one drain task runs at a time:
/// ``enqueue(_:)`` says when one must start, and ``next()`` hands the drain off when the queue is empty, both
/// under the one lock, so an effect queued while the drain is finishing is never left behind.
///
/// An effect handed out is let go of soon: the consumed prefix is dropped once it is as long as what still waits
/// (at least 64), and the storage once the queue empties. Kept until the queue emptied, a queue that effects
/// kept busy would hold every effect of the run, and afterwards storage for as many.
final class EffectQueue<Effect: Sendable>: Sendable {
    private struct Pending: ~Copyable {
        /// Waiting effects from `head` on.
        var waiting: [Effect] = []
        var head = 0
        /// Queued or running, not yet ended.
        var unfinished = 0
        var isDraining = false
    }

    private let pending = Locked(Pending())

    /// How many effects were queued and have not ended.
    var unfinished: Int { pending.withLock { $0.unfinished } }

    /// Queues `effects`; returns true when no drain task is running, so the caller must start one.
    func enqueue(_ effects: [Effect]) -> Bool {
        pending.withLock { pending in
            pending.waiting.append(contentsOf: effects)
            pending.unfinished += effects.count
            guard !pending.isDraining else { return false }
            pending.isDraining = true
            return true
        }
    }

    /// The oldest waiting effect, or nil (and the drain ends) when none waits.
    func next() -> Effect? {
        pending.withLock { pending in
            guard pending.head < pending.waiting.count else {
                pending.waiting = []
                pending.head = 0
                pending.isDraining = false
                return nil
            }
            if pending.head >= 64 && 2 * pending.head >= pending.waiting.count {
                pending.waiting.removeFirst(pending.head)
                pending.head = 0
            }
            defer { pending.head += 1 }
            return pending.waiting[pending.head]
        }
    }

    /// How many effects the queue holds: waiting, and handed out but not yet let go of.
    var held: Int { pending.withLock { $0.waiting.count } }

    /// One effect returned from its run.
    func finishedOne() {
        pending.withLock { $0.unfinished -= 1 }
    }
}
