import Support

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
    func deliver(reports notes: consuming [Note]) {
        guard let reporter else {
            preconditionFailure("Internal inconsistency: \(label) noted reports without a reporter")
        }
        var notes = consume notes
        repeat {
            // Each note is moved out of the buffer and destroyed after its report, outside the lock (destroying
            // an event or a state must not run under it); indexing would copy each note and destroy it twice.
            // The buffer is left empty with its capacity, for the core to reuse.
            notes.reverse()
            while let note = notes.popLast() { report(note, to: reporter) }
        } while core.withLock { $0.nextReports(&notes) }
    }

    /// Builds the report of `note` when the reporter takes its level; its text is made only if a sink
    /// reads it. Inlinable so that a client's specialised machine prints its own types without dynamic
    /// casts.
    @inlinable
    func report(_ note: consuming Note, to reporter: Reporter) {
        switch consume note {
        case .record(let record, let source):
            let level = NoteSource.event.level(of: record.outcome)
            if reporter.accepts(level) {
                let postponeLimit = postponeLimit
                reporter.report(
                    Report(label: label, level: level, name: Self.reportName(of: record.outcome)) {
                        Self.describe(record, source: source, postponeLimit: postponeLimit)
                    })
            }
            if case .timer = source, reporter.accepts(.debug) {
                reporter.report(
                    Report(label: label, level: .debug, name: Report.Name.timeout) {
                        (
                            "state timeout fired in \(record.before): \(record.event)",
                            ["state": "\(record.before)", "event": "\(record.event)", "visit": "\(record.visit)"]
                        )
                    })
            }
        case .timeoutExpired(let visit, let event):
            guard reporter.accepts(.debug) else { return }
            reporter.report(
                Report(label: label, level: .debug, name: Report.Name.timeout) {
                    (
                        "state timeout for visit \(visit) expired after its visit ended; \(event) not delivered",
                        ["event": "\(event)", "visit": "\(visit)", "reason": "visit \(visit) ended"]
                    )
                })
        case .cancelled(let work, let visit, let cause, let state):
            guard reporter.accepts(.debug) else { return }
            reporter.report(
                Report(label: label, level: .debug, name: Report.Name.cancelled) {
                    (
                        "cancelled \(work) of visit \(visit): \(cause.rawValue)",
                        ["work": work, "visit": "\(visit)", "cause": cause.rawValue, "state": "\(state)"]
                    )
                })
        }
    }

    /// The name of the report of a recorded event with `outcome`.
    @inlinable
    static func reportName(of outcome: Outcome) -> String {
        switch outcome {
        case .moved, .updated, .stayed: Report.Name.transition
        case .ignored, .stopped: Report.Name.ignored
        case .invalid: Report.Name.invalid
        case .stale: Report.Name.staleEvent
        case .postponed: Report.Name.postponed
        case .overflowed: Report.Name.postponeOverflow
        }
    }

    /// The message and metadata of a recorded event's report; a retried postponed event carries
    /// `retried=true`.
    @inlinable
    static func describe(_ record: Record, source: NoteSource, postponeLimit: Int) -> (
        message: String, metadata: [String: String]
    ) {
        let event = record.event
        let message: String
        var metadata = ["state": "\(record.before)", "event": "\(event)", "visit": "\(record.visit)"]
        switch record.outcome {
        case .moved, .updated, .stayed:
            message = "\(record.before) + \(event) -> \(record.after) (\(record.outcome))"
            metadata["after"] = "\(record.after)"
        case .ignored:
            message = "\(event) ignored in \(record.before)"
        case .invalid(let reason):
            message = "\(event) is invalid in \(record.before): \(reason)"
            metadata["reason"] = reason
        case .stale:
            guard case .stale(let run) = source, let cause = run.cause else {
                preconditionFailure("Internal inconsistency: a stale record without an ended run")
            }
            let reason = staleReason(run: run, cause: cause, visit: record.visit)
            let ended = cause == .stateExited && run.visit != record.visit
            message =
                "dropped \(event) sent for visit \(run.visit); \(ended ? "the machine is in visit \(record.visit)" : reason)"
            metadata["reason"] = reason
            metadata["cause"] = cause.rawValue
            metadata["sender_visit"] = "\(run.visit)"
            if let work = run.label { metadata["work"] = work }
        case .stopped:
            message = "\(event) arrived after stop"
        case .postponed:
            message = "\(event) postponed in \(record.before) until the next state change"
        case .overflowed:
            message = "dropped \(event) in \(record.before): \(postponeLimit) postponed events are already waiting"
            metadata["reason"] = "postponeLimit \(postponeLimit) reached"
        }
        if case .retry = source { metadata["retried"] = "true" }
        return (message, metadata)
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
