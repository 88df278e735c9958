/// A thread-safe state machine whose transition function is its specification.
///
/// Events from any thread or task are applied one at a time under a lock by the pure transition
/// function. Each `.to` starts a new, numbered *visit*; `whileIn` work belongs to a visit and is
/// cancelled when it ends; a ``Sender`` refuses to deliver for a visit that has ended; a state
/// timeout fires only within its visit. Reports, reader wake-ups and cancellations happen after
/// the lock is released, so a reporter or a piece of work may call back into the machine.
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
    @usableFromInline let core: Locked<Core>

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
        self.core = Locked(Core(state: initial, visit: 1, historyLimit: historyLimit, postponeLimit: postponeLimit))
    }

    deinit {
        // Nobody can send any more: end work, timers and readers as if stopped, without reports.
        core.withLock { $0.stop() }?.perform()
    }

    /// The current state.
    public var state: State { core.withLock { $0.state } }

    /// The current visit; the initial state is visit 1 and every `.to` adds one.
    public var visit: Int { core.withLock { $0.visit } }

    /// The newest ``historyLimit`` records, oldest first.
    public var history: [Record] { core.withLock { $0.history.elements } }

    /// The events waiting for the next `.to` to be retried, oldest first (empty after ``stop()``).
    public var postponed: [Event] { core.withLock { $0.postponed } }

    /// Whether ``stop()`` has been called.
    public var isStopped: Bool { core.withLock { $0.stopped } }

    /// A sender for the current visit, for work started outside `whileIn` (an effect adapter, a callback).
    public func sender() -> Sender {
        Sender(machine: self, visit: visit, activity: nil)
    }

    /// Applies `event` and returns what happened; `.stopped` after ``stop()``.
    @inlinable @discardableResult
    public func send(_ event: Event) -> Outcome {
        deliver(event, origin: .anyone)
    }

    /// Runs `work` in its own task on every entry into `state` (and at once if the machine is in it),
    /// cancelling it when the visit ends.
    public func whileIn(_ state: State, label: String, _ work: @escaping @Sendable (Sender) async -> Void) {
        whileIn(where: { $0 == state }, label: label, work)
    }

    /// Runs `work` in its own task on every entry into a state matching `predicate` (and at once if the
    /// machine is in one). The work is cancelled when the visit ends, or when an `.update` moves to a
    /// value the predicate rejects; an `.update` into a matching value starts it. The predicate runs
    /// under the machine's lock and must be pure.
    public func whileIn(
        where predicate: @escaping @Sendable (State) -> Bool, label: String,
        _ work: @escaping @Sendable (Sender) async -> Void
    ) {
        core.withLock { core in
            guard !core.stopped else { return }
            let registration = WorkRegistration(id: core.makeID(), label: label, predicate: predicate, work: work)
            core.registrations.append(registration)
            if predicate(core.state) {
                core.active.append(start(registration, visit: core.visit))
            }
        }
    }

    /// Stops the machine: later events return `.stopped`, work is cancelled with cause
    /// `machineStopped`, the armed timeout is cancelled, postponed events are dropped (they could only be
    /// retried after a state change, and there will be none) and every `states()` stream finishes.
    public func stop() {
        guard let aftermath = core.withLock({ $0.stop() }) else { return }
        aftermath.perform()
        report(cancelled: aftermath.cancelled, state: aftermath.state)
    }

    // MARK: - Delivery

    /// Where an event came from, which decides whether the machine may refuse it before deciding.
    @usableFromInline
    enum Origin: Sendable {
        /// `send`: always applied while running.
        case anyone
        /// A ``Sender``: applied only during its visit.
        case sender(visit: Int)
        /// A state timeout: applied only during the visit that armed it.
        case timeout(visit: Int)
    }

    /// Applies one event under the lock, then performs the effects outside it.
    @inlinable
    func deliver(_ event: Event, origin: Origin) -> Outcome {
        let reporting = reporter != nil
        let (outcome, aftermath) = core.withLock { core in
            core.apply(event, origin: origin, transition: transition, machine: self, reporting: reporting)
        }
        if let aftermath {
            aftermath.perform()
            if let reporter { report(aftermath, outcome: outcome, event: event, origin: origin, to: reporter) }
        }
        return outcome
    }

    /// Starts one run of registered work for `visit`. Called under the lock so the run is recorded
    /// before any other event can end the visit.
    @usableFromInline
    func start(_ registration: WorkRegistration, visit: Int) -> ActiveWork {
        let activity = WorkActivity(label: registration.label, visit: visit)
        let sender = Sender(machine: self, visit: visit, activity: activity)
        let work = registration.work
        let task = Task { await work(sender) }
        return ActiveWork(registrationID: registration.id, activity: activity, task: task)
    }

    /// Arms a state timeout for `visit`. The deadline is fixed now, under the lock, so the timer does
    /// not depend on when its task first runs.
    @usableFromInline
    func arm(_ timeout: StateTimeout<Event>, visit: Int) -> ArmedTimeout {
        let deadline = clock.now.advanced(by: timeout.after)
        return arm(event: timeout.event, deadline: deadline, visit: visit)
    }

    /// Arms a timer that delivers `event` at `deadline` if `visit` is still current then.
    func arm(event: Event, deadline: AnyClock.Instant, visit: Int) -> ArmedTimeout {
        let clock = self.clock
        let task = Task { [weak self] in
            do {
                try await clock.sleep(until: deadline, tolerance: nil)
            } catch {
                return
            }
            _ = self?.deliver(event, origin: .timeout(visit: visit))
        }
        return ArmedTimeout(visit: visit, deadline: deadline, event: event, task: task)
    }

    // MARK: - Reports

    /// Inlinable so that a client's specialised machine prints its own types without dynamic casts.
    @inlinable
    func report(_ aftermath: Aftermath, outcome: Outcome, event: Event, origin: Origin, to reporter: Reporter) {
        if let record = aftermath.record {
            report(record, origin: origin, retried: false, to: reporter)
            if case .timeout = origin, reporter.accepts(.debug) {
                reporter.report(
                    Report(
                        label: label, level: .debug, name: Report.Name.timeout,
                        message: "state timeout fired in \(record.before): \(event)",
                        metadata: ["state": "\(record.before)", "event": "\(event)", "visit": "\(record.visit)"]))
            }
        } else if case .timeout(let visit) = origin, outcome == .stale, reporter.accepts(.debug) {
            reporter.report(
                Report(
                    label: label, level: .debug, name: Report.Name.timeout,
                    message: "state timeout for visit \(visit) expired after its visit ended; \(event) not delivered",
                    metadata: ["event": "\(event)", "visit": "\(visit)", "reason": "visit \(visit) ended"]))
        }
        for record in aftermath.retried {
            report(record, origin: .anyone, retried: true, to: reporter)
        }
        report(cancelled: aftermath.cancelled, state: aftermath.state)
    }

    /// Reports one recorded event; a retried postponed event carries `retried=true`.
    @inlinable
    func report(_ record: Record, origin: Origin, retried: Bool, to reporter: Reporter) {
        let event = record.event
        let level: Report.Level
        let name: String
        let message: String
        var metadata = ["state": "\(record.before)", "event": "\(event)", "visit": "\(record.visit)"]
        switch record.outcome {
        case .moved, .updated, .stayed:
            level = .trace
            name = Report.Name.transition
            message = "\(record.before) + \(event) -> \(record.after) (\(record.outcome))"
            metadata["after"] = "\(record.after)"
        case .ignored:
            level = .trace
            name = Report.Name.ignored
            message = "\(event) ignored in \(record.before)"
        case .invalid(let reason):
            level = .error
            name = Report.Name.invalid
            message = "\(event) is invalid in \(record.before): \(reason)"
            metadata["reason"] = reason
        case .stale:
            level = .notice
            name = Report.Name.staleEvent
            let senderVisit: Int
            if case .sender(let visit) = origin { senderVisit = visit } else { senderVisit = record.visit }
            message = "dropped \(event) sent for visit \(senderVisit); the machine is in visit \(record.visit)"
            metadata["reason"] = "visit \(senderVisit) ended"
            metadata["sender_visit"] = "\(senderVisit)"
        case .stopped:
            level = .trace
            name = Report.Name.ignored
            message = "\(event) arrived after stop"
        case .postponed:
            level = .debug
            name = Report.Name.postponed
            message = "\(event) postponed in \(record.before) until the next state change"
        case .overflowed:
            level = .warning
            name = Report.Name.postponeOverflow
            message =
                "dropped \(event) in \(record.before): \(postponeLimit) postponed events are already waiting"
            metadata["reason"] = "postponeLimit \(postponeLimit) reached"
        }
        if retried { metadata["retried"] = "true" }
        if reporter.accepts(level) {
            reporter.report(Report(label: label, level: level, name: name, message: message, metadata: metadata))
        }
    }

    @usableFromInline
    func report(cancelled: [ActiveWork], state: State?) {
        guard let reporter, reporter.accepts(.debug), !cancelled.isEmpty else { return }
        for work in cancelled {
            let cause = work.activity.cause ?? .stateExited
            var metadata = ["work": work.activity.label, "visit": "\(work.activity.visit)", "cause": cause.rawValue]
            if let state { metadata["state"] = "\(state)" }
            reporter.report(
                Report(
                    label: label, level: .debug, name: Report.Name.cancelled,
                    message: "cancelled \(work.activity.label) of visit \(work.activity.visit): \(cause.rawValue)",
                    metadata: metadata))
        }
    }
}
