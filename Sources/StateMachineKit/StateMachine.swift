import Support
import Synchronization

/// A thread-safe state machine whose transition function is its specification.
///
/// Events from any thread or task are applied one at a time under a lock by the pure transition
/// function. Each `.to` starts a new, numbered *visit*; `whileIn` work is a *run* that belongs to a
/// visit and is cancelled when it ends (or when an `.update` leaves the states it runs in); a ``Sender``
/// refuses to deliver for a run that has ended; a state timeout fires only within its visit.
///
/// The decisions live in the machine's core (StateMachine+Phase.swift), which holds no lock and starts
/// nothing; this class owns the lock and performs the action each input returns once the lock is released: it cancels
/// tasks, creates the tasks of new runs and timers and attaches them back by id, wakes readers, and
/// delivers reports in the order the events were applied — so a reporter or a piece of work may call
/// back into the machine.
public final class StateMachine<State: Hashable & Sendable, Event: Sendable>: Sendable {
    /// The pure decision for one event in one state.
    public typealias TransitionFunction = @Sendable (State, Event) -> Transition<State, Event>

    /// The name used in reports.
    public let label: String
    /// How many records ``history`` keeps.
    public let historyLimit: Int
    /// How many postponed events may wait for a state change; one more is dropped and reported.
    public let postponeLimit: Int
    /// The clock state timeouts run on.
    public let clock: AnyClock
    @usableFromInline let reporter: Reporter?
    @usableFromInline let transition: TransitionFunction
    @usableFromInline let core: CoreCell
    /// Destroys ``core`` (``CoreCell``) in code made for the machine's own types: made by the inlinable initialiser,
    /// so specialised where the machine is made, and called by `deinit`, which is not.
    @usableFromInline let destroyCore: @Sendable (UnsafeMutableRawPointer) -> Void
    /// Whether a caller is delivering reports: the report queue's, also read here without the lock.
    @usableFromInline let delivery: ReportDelivery
    /// The box of the last report no sink kept, for the next record's text: the report queue's, also put back
    /// here without the lock.
    @usableFromInline let texts = Spare<RecordText>()
    /// Set once ``stop()`` has run, so that `deinit` need not stop the machine again: `deinit` runs the engine's
    /// generic code unspecialised, where every type it touches is looked up at run time. A tree copy stops each
    /// file's machine before letting it go; its headless loop spent 3,200 instructions a file less (callgrind,
    /// 2,000 empty files: 175.4 M -> 169.0 M).
    @usableFromInline let stopped = Atomic<Bool>(false)

    /// Creates a machine in `initial`, visit 1.
    ///
    /// - Parameters:
    ///   - initial: the state of visit 1.
    ///   - label: names the machine in reports.
    ///   - historyLimit: how many of the newest records ``history`` keeps (0 keeps none).
    ///   - postponeLimit: how many `.postpone`d events may wait for the next `.to`; an event postponed
    ///     while that many wait is dropped with outcome ``Outcome/overflowed`` and a
    ///     `statemachine.postpone_overflow` report at warning level.
    ///   - clock: the clock for state timeouts; a `ContinuousClock` when `nil`.
    ///   - reporter: where reports go; none when `nil`.
    ///   - transition: the pure transition function; it runs under the machine's lock and must not
    ///     call back into the machine.
    ///
    /// Inlinable, so that a client's machine is made by code specialised for its own types: not specialised,
    /// setting up the core asked the runtime for a dozen generic types' layouts, about 11,000 instructions a
    /// machine (a tree copy makes two a file).
    @inlinable
    public init(
        initial: State, label: String, historyLimit: Int = 64, postponeLimit: Int = 64, clock: AnyClock? = nil,
        reporter: Reporter? = nil, transition: @escaping TransitionFunction
    ) {
        precondition(historyLimit >= 0, "StateMachine \(label): historyLimit must be 0 or more, got \(historyLimit)")
        precondition(
            postponeLimit >= 0, "StateMachine \(label): postponeLimit must be 0 or more, got \(postponeLimit)")
        self.label = label
        self.historyLimit = historyLimit
        self.postponeLimit = postponeLimit
        self.clock = clock ?? .continuous
        self.reporter = reporter
        self.transition = transition
        let delivery = ReportDelivery()
        self.delivery = delivery
        self.core = CoreCell(
            Core(
                state: initial, visit: 1, historyLimit: historyLimit, postponeLimit: postponeLimit,
                reportLevel: reporter?.minimumLevel, delivery: delivery, texts: texts))
        destroyCore = { address in
            let core = address.assumingMemoryBound(to: Locked<Core>.self)
            core.deinitialize(count: 1)
            core.deallocate()
        }
    }

    deinit {
        // Stopped already: its work, timers and readers ended then. The rest is a function of its own, so that a
        // stopped machine's `deinit`, unspecialised, does not first ask the runtime for the types the rest uses.
        if !stopped.load(ordering: .acquiring) { endWhenLetGo() }
        destroyCore(UnsafeMutableRawPointer(core.address))
    }

    /// Nobody can send any more: ends work, timers and readers as if stopped, without reports.
    @inline(never)
    private func endWhenLetGo() {
        // Taken apart by `switch`: a noncopyable action is consumed whole, never tested by `if case`.
        switch core.withLock({ $0.stop() }) {
        case .none:
            return
        case .stopped(let action):
            switch consume action {
            case .none:
                return
            case .report:
                return
            case .perform(let pending):
                let effects = pending.take().effects
                for task in effects.cancel { task.cancel() }
                for reader in effects.wake.values { reader.resume(returning: nil) }
                for woken in effects.wakeFeeds { woken.reader.resume(returning: nil) }
            }
        }
    }

    /// The current state.
    @inlinable
    public var state: State { core.withLock { $0.state } }

    /// The current visit; the initial state is visit 1 and every `.to` adds one.
    @inlinable
    public var visit: Int { core.withLock { $0.visit } }

    /// The newest ``historyLimit`` records, oldest first.
    public var history: [Record] { core.withLock { $0.history.elements } }

    /// The events waiting for the next `.to` to be retried, oldest first (empty after ``stop()``).
    public var postponed: [Event] { core.withLock { $0.work.postponed } }

    /// Whether ``stop()`` has been called.
    @inlinable
    public var isStopped: Bool { core.withLock { $0.isStopped } }

    /// The ``Record/sequence`` of the newest record the machine made (0 before its first): a cursor for
    /// ``records(after:)`` or ``MachineSet/add(_:after:)`` that reads only what the machine records from now on.
    /// ``MachineSet/add(_:after:)`` also takes `sequence + 1`, which skips the record of the event about to be sent
    /// for a reader that has no use for it.
    @inlinable
    public var sequence: Int { core.withLock { $0.sequence } }

    /// Applies `event` and returns what happened; `.stopped` after ``stop()``.
    @inlinable @discardableResult
    public func send(_ event: Event) -> Outcome {
        send(event, from: nil)
    }

    /// Applies `event` and returns what happened together with a ``Sender`` bound, in the same step, to
    /// the visit the event left the machine in: the new visit for `.moved`, else the visit it found.
    ///
    /// This is how work started outside `whileIn` (a callback API, an effect adapter) gets its sender:
    /// `let (outcome, sender) = machine.sendAndBind(.refresh)` and, when `outcome == .moved`, start the
    /// request with `sender`. Because the binding happens under the lock together with the event, no
    /// other event can slip in between, so the sender is never bound to a later visit. The sender's
    /// events are stale once that visit ends (even when a postponed event retried after this one ends
    /// it at once). After ``stop()`` the outcome is `.stopped`, the sender's events are too, and its
    /// ``Sender/cancellationCause`` is `machineStopped`.
    @inlinable
    @discardableResult
    public func sendAndBind(_ event: Event) -> (outcome: Outcome, sender: Sender) {
        var outcome = Outcome.stopped
        let action = core.withLock { core in
            core.apply(event, from: nil, bind: true, transition: transition, clock: clock, outcome: &outcome)
        }
        switch consume action {
        case .perform(let pending):
            let (effects, report) = pending.take()
            guard let run = effects.bound else {
                preconditionFailure("Internal inconsistency: \(label) applied a bound event without binding it")
            }
            perform(effects, then: report)
            return (outcome, Sender(machine: self, run: run))
        case .none:
            guard case .stopped = outcome else {
                preconditionFailure("Internal inconsistency: \(label) applied a bound event without binding it")
            }
            return (outcome, .stopped(visit: visit))
        case .report:
            preconditionFailure("Internal inconsistency: \(label) applied a bound event without binding it")
        }
    }

    /// A sender for the current visit, read separately from any event.
    @available(
        *, deprecated,
        message: "racy: another event may end the visit between your send and this call; use sendAndBind(_:)"
    )
    public func sender() -> Sender {
        guard let run = core.withLock({ $0.visitRun() }) else { return .stopped(visit: visit) }
        return Sender(machine: self, run: run)
    }

    /// Runs `work` in its own task on every entry into `state` (and at once if the machine is in it),
    /// cancelling it when the visit ends.
    @inlinable
    public func whileIn(_ state: State, label: String, _ work: @escaping @Sendable (Sender) async -> Void) {
        whileIn(where: { $0 == state }, label: label, work)
    }

    /// Runs `work` in its own task on every entry into a state matching `predicate` (and at once if the
    /// machine is in one). The work is cancelled when the visit ends, or when an `.update` moves to a
    /// value the predicate rejects; an `.update` into a matching value starts a new run. Each run has its
    /// own ``Sender``, whose events are stale once that run ended — even when a later run of the same
    /// work is live in the same visit. The predicate runs under the machine's lock and must be pure.
    @inlinable
    public func whileIn(
        where predicate: @escaping @Sendable (State) -> Bool, label: String,
        _ work: @escaping @Sendable (Sender) async -> Void
    ) {
        if let effects = core.withLock({ $0.register(label: label, predicate: predicate, work: work) }) {
            perform(effects)
        }
    }

    /// Stops the machine: later events return `.stopped`, work is cancelled with cause
    /// `machineStopped` (its senders' events are stale from then on), the armed timeout is cancelled,
    /// postponed events are dropped (they could only be retried after a state change, and there will
    /// be none) and every `states()` stream finishes, as does every ``records(after:)`` stream once it has
    /// handed out the last records.
    @inlinable
    public func stop() {
        let action = core.withLock { $0.stop() }
        stopped.store(true, ordering: .releasing)
        switch consume action {
        case .none: return
        case .stopped(let action): perform(consume action)
        }
    }

    // MARK: - Performing decisions

    /// Applies one event under the lock, then performs what the decision returned outside it.
    @inlinable
    func deliver(_ event: Event, origin: Origin) -> Outcome {
        switch origin {
        case .anyone:
            return send(event, from: nil)
        case .sender(let run):
            return send(event, from: run)
        case .timer(let id, let visit):
            let action = core.withLock { core in
                core.fire(timer: id, visit: visit, event: event, transition: transition, clock: clock)
            }
            switch consume action {
            case .fired(let outcome, let action):
                perform(action)
                return outcome
            case .expired(let action):
                perform(action)
                return .stale
            case .stopped:
                return .stopped
            }
        }
    }

    /// The send input, then its action.
    @inlinable @inline(__always)
    func send(_ event: Event, from run: WorkRun?) -> Outcome {
        var outcome = Outcome.stopped
        let action = core.withLock { core in
            core.apply(event, from: run, transition: transition, clock: clock, outcome: &outcome)
        }
        perform(action)
        return outcome
    }

    /// Performs what a send, a timeout or a stop left to do; must run outside the lock: cancellation
    /// handlers run synchronously and may call back into the machine, and so may reporters. The action is
    /// consumed, not copied: a quiet event's `.none` is then a tag to look at, not a value to destroy.
    @inlinable @inline(__always)
    func perform(_ action: consuming SendAction) {
        switch consume action {
        case .none:
            return
        case .report(let report):
            deliver(consume report, then: [])
        case .perform(let pending):
            let (effects, report) = pending.take()
            perform(effects, then: report)
        }
    }

    /// Performs a decision's effects, then delivers `report`, the single report the decision handed this
    /// caller beside them, if any. Inlinable, so that a client's machine performs its own types' effects
    /// without going through their value witnesses.
    @inlinable
    func perform(_ effects: consuming Effects, then report: consuming Note? = nil) {
        for task in effects.cancel { task.cancel() }
        if !effects.start.isEmpty || !effects.arm.isEmpty { start(effects.start, arm: effects.arm) }
        if !effects.wake.isEmpty {
            let reading = effects.wakeWith.map(Reading.state)
            for reader in effects.wake.values { reader.resume(returning: reading) }
        }
        for woken in effects.wakeFeeds { woken.reader.resume(returning: woken.batch) }
        for watcher in effects.wakeWatchers { watcher.waker.recorded(watcher.index) }
        if report != nil || !effects.reports.isEmpty {
            // Taken out so that the buffer is the deliverer's alone and can be given back for reuse.
            let rest = effects.reports
            effects.reports = []
            deliver(report, then: rest)
        }
        if let waiter = effects.waiter { awaitReports(waiter) }
    }

    /// Blocks until another thread's deliverer has taken this caller's reports, or has handed it the
    /// delivery, which it then carries on. Senders thus go at the reporter's pace instead of queueing
    /// without bound, and no deliverer drains everyone's reports for long (``ReportQueue/handOverAfter``).
    @usableFromInline
    func awaitReports(_ waiter: ReportWaiter) {
        switch waiter.wait() {
        case .taken: return
        case .deliver: deliver(nil, then: [])
        case .waiting: preconditionFailure("Internal inconsistency: \(label) woke a sender still waiting")
        }
    }

    /// Creates the tasks of new runs and timers, then attaches each to the core by id; a task whose run
    /// or timer ended before it was attached is cancelled at once.
    @inlinable
    func start(_ runs: [ActiveRun], arm timers: [ArmedTimer]) {
        for start in runs {
            let sender = Sender(machine: self, run: start.run)
            let work = start.registration.work
            let task = Task { await work(sender) }
            perform(core.withLock { $0.attach(run: start.run.id, task: task) })
        }
        for timer in timers {
            let clock = self.clock
            let origin = Origin.timer(id: timer.id, visit: timer.visit)
            let deadline = timer.deadline
            let event = timer.event
            let task = Task { [weak self] in
                do {
                    try await clock.sleep(until: deadline, tolerance: nil)
                } catch {
                    return
                }
                _ = self?.deliver(event, origin: origin)
            }
            perform(core.withLock { $0.attach(timer: timer.id, task: task) })
        }
    }

    /// Cancels a task that lost the race with the end of its run or timer.
    @inlinable
    func perform(_ action: AttachAction) {
        switch action {
        case .attached: break
        case .cancel(let task): task.cancel()
        }
    }
}
