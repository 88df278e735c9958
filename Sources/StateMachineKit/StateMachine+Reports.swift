extension StateMachine {
    /// How a recorded event reached the machine, which decides how it is reported.
    @usableFromInline
    enum NoteSource: Sendable {
        /// `send`, or a ``Sender`` whose run was live.
        case event
        /// A postponed event retried after a `.to` (reported with `retried=true`).
        case retry
        /// A state timeout that fired within its visit (also reported as `statemachine.timeout`).
        case timer
        /// A ``Sender`` whose run had ended: the event was dropped.
        case stale(WorkRun)

        /// The lowest level at which a record from this source is reported.
        @inlinable
        func level(of outcome: Outcome) -> Report.Level {
            let level: Report.Level =
                switch outcome {
                case .moved, .updated, .stayed, .ignored, .stopped: .trace
                case .invalid: .error
                case .stale: .notice
                case .postponed: .debug
                case .overflowed: .warning
                }
            if case .timer = self { return min(level, .debug) }
            return level
        }
    }

    /// What the machine noted under its lock for the reporter; turned into ``Report``s outside it, in
    /// the order the machine applied the events.
    @usableFromInline
    enum Note: Sendable {
        /// A recorded event.
        case record(Record, source: NoteSource)
        /// A state timeout that fired after its visit ended; nothing was delivered.
        case timeoutExpired(visit: Int, event: Event)
        /// A run of `whileIn` work ended, with why and the state it ran in.
        case cancelled(label: String, visit: Int, cause: CancellationCause, state: State)
    }

    /// Delivers `notes`, then the ones queued meanwhile by other callers, until none are left. Only the
    /// caller the core made the deliverer calls this, and never under the lock, so reports arrive in
    /// order and a reporter may call back into the machine.
    @inlinable
    func deliver(reports notes: [Note]) {
        guard let reporter else {
            preconditionFailure("Internal inconsistency: \(label) noted reports without a reporter")
        }
        var notes = notes
        while true {
            for note in notes { report(note, to: reporter) }
            guard let more = core.withLock({ $0.nextReports() }) else { return }
            notes = more
        }
    }

    /// Inlinable so that a client's specialised machine prints its own types without dynamic casts.
    @inlinable
    func report(_ note: Note, to reporter: Reporter) {
        switch note {
        case .record(let record, let source):
            report(record, source: source, to: reporter)
            if case .timer = source, reporter.accepts(.debug) {
                reporter.report(
                    Report(
                        label: label, level: .debug, name: Report.Name.timeout,
                        message: "state timeout fired in \(record.before): \(record.event)",
                        metadata: ["state": "\(record.before)", "event": "\(record.event)", "visit": "\(record.visit)"]
                    ))
            }
        case .timeoutExpired(let visit, let event):
            guard reporter.accepts(.debug) else { return }
            reporter.report(
                Report(
                    label: label, level: .debug, name: Report.Name.timeout,
                    message: "state timeout for visit \(visit) expired after its visit ended; \(event) not delivered",
                    metadata: ["event": "\(event)", "visit": "\(visit)", "reason": "visit \(visit) ended"]))
        case .cancelled(let work, let visit, let cause, let state):
            guard reporter.accepts(.debug) else { return }
            reporter.report(
                Report(
                    label: label, level: .debug, name: Report.Name.cancelled,
                    message: "cancelled \(work) of visit \(visit): \(cause.rawValue)",
                    metadata: ["work": work, "visit": "\(visit)", "cause": cause.rawValue, "state": "\(state)"]))
        }
    }

    /// Reports one recorded event; a retried postponed event carries `retried=true`.
    @inlinable
    func report(_ record: Record, source: NoteSource, to reporter: Reporter) {
        let level = NoteSource.event.level(of: record.outcome)
        guard reporter.accepts(level) else { return }
        let event = record.event
        let name: String
        let message: String
        var metadata = ["state": "\(record.before)", "event": "\(event)", "visit": "\(record.visit)"]
        switch record.outcome {
        case .moved, .updated, .stayed:
            name = Report.Name.transition
            message = "\(record.before) + \(event) -> \(record.after) (\(record.outcome))"
            metadata["after"] = "\(record.after)"
        case .ignored:
            name = Report.Name.ignored
            message = "\(event) ignored in \(record.before)"
        case .invalid(let reason):
            name = Report.Name.invalid
            message = "\(event) is invalid in \(record.before): \(reason)"
            metadata["reason"] = reason
        case .stale:
            name = Report.Name.staleEvent
            guard case .stale(let run) = source, let cause = run.cause else {
                preconditionFailure("Internal inconsistency: a stale record of \(label) without an ended run")
            }
            let reason = Self.staleReason(run: run, cause: cause, visit: record.visit)
            let ended = cause == .stateExited && run.visit != record.visit
            message =
                "dropped \(event) sent for visit \(run.visit); \(ended ? "the machine is in visit \(record.visit)" : reason)"
            metadata["reason"] = reason
            metadata["cause"] = cause.rawValue
            metadata["sender_visit"] = "\(run.visit)"
            if let work = run.label { metadata["work"] = work }
        case .stopped:
            name = Report.Name.ignored
            message = "\(event) arrived after stop"
        case .postponed:
            name = Report.Name.postponed
            message = "\(event) postponed in \(record.before) until the next state change"
        case .overflowed:
            name = Report.Name.postponeOverflow
            message = "dropped \(event) in \(record.before): \(postponeLimit) postponed events are already waiting"
            metadata["reason"] = "postponeLimit \(postponeLimit) reached"
        }
        if case .retry = source { metadata["retried"] = "true" }
        reporter.report(Report(label: label, level: level, name: name, message: message, metadata: metadata))
    }

    /// Why a stale event's run had ended, in words: its visit ended, an `.update` left the states its
    /// work runs in, or the machine stopped.
    @usableFromInline
    static func staleReason(run: WorkRun, cause: CancellationCause, visit: Int) -> String {
        switch cause {
        case .machineStopped: "the machine stopped"
        case .stateExited where run.visit != visit: "visit \(run.visit) ended"
        case .stateExited: "an update in visit \(run.visit) ended \(run.label ?? "its work")"
        }
    }
}
