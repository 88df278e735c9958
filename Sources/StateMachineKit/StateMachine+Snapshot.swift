import Support

extension StateMachine {
    /// Where a machine is, enough to carry on in another process: state, visit, history, the
    /// armed state timeout with the time it had left, and the postponed events. `Codable` when `State`
    /// and `Event` are.
    public struct Snapshot: Sendable {
        /// The current state.
        public var state: State
        /// The current visit.
        public var visit: Int
        /// The sequence number of the newest record, so numbering carries on after a restore.
        public var sequence: Int
        /// The newest records, oldest first.
        public var history: [Record]
        /// The armed state timeout, if any.
        public var timeout: PendingTimeout?
        /// The events waiting for the next `.to`, oldest first.
        public var postponed: [Event]

        /// Creates a snapshot.
        public init(
            state: State, visit: Int, sequence: Int, history: [Record], timeout: PendingTimeout?,
            postponed: [Event] = []
        ) {
            self.state = state
            self.visit = visit
            self.sequence = sequence
            self.history = history
            self.timeout = timeout
            self.postponed = postponed
        }
    }

    /// A state timeout that was armed when a snapshot was taken.
    public struct PendingTimeout: Sendable {
        /// How long the visit still had before the event would be delivered.
        public var remaining: Duration
        /// The event the timeout delivers.
        public var event: Event

        /// Creates a pending timeout.
        public init(remaining: Duration, event: Event) {
            self.remaining = remaining
            self.event = event
        }
    }

    /// The machine's state, visit, history, armed timeout and postponed events, taken atomically.
    ///
    /// A snapshot says where a machine is, not whether this object still runs: ``stop()`` ends one object's
    /// life (a shutdown), and a snapshot is how the next one carries on. So a snapshot taken after ``stop()``
    /// holds the final state, visit, history and sequence, with no timeout and no postponed events (the stop
    /// dropped them), and restores as a *running* machine in that state. Take the snapshot before
    /// ``stop()`` to keep an armed timeout and the postponed events.
    public func snapshot() -> Snapshot {
        let now = clock.now
        return core.withLock { core in
            let work = core.work
            let timeout = work.timer.map { armed in
                PendingTimeout(remaining: max(.zero, now.duration(to: armed.deadline)), event: armed.event)
            }
            return Snapshot(
                state: core.state, visit: core.visit, sequence: core.sequence, history: core.history.elements,
                timeout: timeout, postponed: work.postponed)
        }
    }

    /// Recreates a machine where `snapshot` left it: same state, visit, history and sequence numbers;
    /// a timeout that was armed is armed again on `clock` with the time it had left; the postponed
    /// events wait again (up to `postponeLimit`, oldest first).
    ///
    /// The restored machine always runs, even when the snapshot was taken after ``stop()`` (see
    /// ``snapshot()``). `whileIn` work is not part of a snapshot: register it again on the restored machine, and it
    /// starts at once if the restored state matches.
    public convenience init(
        restoring snapshot: Snapshot, label: String, historyLimit: Int = 64, postponeLimit: Int = 64,
        clock: AnyClock? = nil,
        reporter: Reporter? = nil, transition: @escaping TransitionFunction
    ) {
        self.init(
            initial: snapshot.state, label: label, historyLimit: historyLimit, postponeLimit: postponeLimit,
            clock: clock, reporter: reporter, transition: transition)
        let deadline = snapshot.timeout.map { self.clock.now.advanced(by: $0.remaining) }
        let effects = core.withLock { core -> Effects? in
            core.visit = snapshot.visit
            core.sequence = snapshot.sequence
            for record in snapshot.history.suffix(historyLimit) { core.history.append(record) }
            for event in snapshot.postponed.prefix(postponeLimit) { _ = core.postpone(event) }
            guard let pending = snapshot.timeout, let deadline else { return nil }
            return core.arm(event: pending.event, deadline: deadline)
        }
        if let effects { perform(effects) }
    }
}

extension StateMachine.Snapshot: Codable where State: Codable, Event: Codable {}
extension StateMachine.Snapshot: Equatable where Event: Equatable {}
extension StateMachine.PendingTimeout: Codable where Event: Codable {}
extension StateMachine.PendingTimeout: Equatable where Event: Equatable {}
