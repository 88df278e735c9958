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

        /// The level compared with the reporter's minimum to decide whether a record from this source is
        /// noted: the record's own, or for a timer's record, which also makes the debug-level
        /// `statemachine.timeout` report, the higher of the two, so that a reporter taking either report
        /// gets it (each is then sent at its own level).
        @inlinable
        func level(of outcome: Outcome) -> Report.Level {
            let level = OutcomeKind(outcome).level
            if case .timer = self { return max(level, .debug) }
            return level
        }
    }

    /// What the machine noted under its lock for the reporter; turned into ``Report``s outside it, in
    /// the order the machine applied the events.
    @usableFromInline
    enum Note: Sendable {
        /// A recorded event.
        case record(RecordNote)
        /// A state timeout that fired after its visit ended; nothing was delivered.
        case timeoutExpired(visit: Int, event: Event)
        /// A run of `whileIn` work ended, with why and the state it ran in.
        case cancelled(label: String, visit: Int, cause: CancellationCause, state: State)
    }

    /// A recorded event as noted for the reporter: the values its report's text is made from, nothing
    /// formatted and no closure; a report's text is made from it when a sink first reads the report.
    @usableFromInline
    struct RecordNote: ReportText {
        /// What only the rare outcomes need (the invalid reason, the stale run, the postpone limit); `nil`
        /// for the others, so that the note of an accepted event holds no reference.
        @usableFromInline let detail: RecordDetail?
        @usableFromInline let visit: Int
        @usableFromInline let outcome: OutcomeKind
        @usableFromInline let source: SourceKind
        @usableFromInline let before: State
        @usableFromInline let event: Event
        @usableFromInline let after: State

        @inlinable
        init(
            visit: Int, before: State, event: Event, outcome: Outcome, after: State, source: NoteSource,
            postponeLimit: Int
        ) {
            self.visit = visit
            self.before = before
            self.event = event
            self.after = after
            switch source {
            case .event: self.source = .event
            case .retry: self.source = .retry
            case .timer: self.source = .timer
            case .stale: self.source = .stale
            }
            self.outcome = OutcomeKind(outcome)
            switch outcome {
            case .moved, .updated, .stayed, .ignored, .stopped, .postponed:
                detail = nil
            case .invalid(let reason):
                detail = RecordDetail(reason: reason)
            case .stale:
                guard case .stale(let run) = source else {
                    preconditionFailure("Internal inconsistency: a stale record without an ended run")
                }
                detail = RecordDetail(run: run)
            case .overflowed:
                detail = RecordDetail(postponeLimit: postponeLimit)
            }
        }

        /// The level of this record's report.
        @inlinable
        var level: Report.Level { outcome.level }

        /// The name of this record's report.
        @inlinable
        var name: String {
            switch outcome {
            case .moved, .updated, .stayed: Report.Name.transition
            case .ignored, .stopped: Report.Name.ignored
            case .invalid: Report.Name.invalid
            case .stale: Report.Name.staleEvent
            case .postponed: Report.Name.postponed
            case .overflowed: Report.Name.postponeOverflow
            }
        }

        /// The message and metadata of the record's report; a retried postponed event carries
        /// `retried=true`.
        @usableFromInline
        func made() -> (message: String, metadata: [String: String]) {
            let message: String
            var metadata = ["state": "\(before)", "event": "\(event)", "visit": "\(visit)"]
            switch outcome {
            case .moved, .updated, .stayed:
                message = "\(before) + \(event) -> \(after) (\(outcome.rawValue))"
                metadata["after"] = "\(after)"
            case .ignored:
                message = "\(event) ignored in \(before)"
            case .invalid:
                let reason = detail?.reason ?? ""
                message = "\(event) is invalid in \(before): \(reason)"
                metadata["reason"] = reason
            case .stale:
                guard let run = detail?.run, let cause = run.cause else {
                    preconditionFailure("Internal inconsistency: a stale record without an ended run")
                }
                let reason = staleReason(run: run, cause: cause, visit: visit)
                let ended = cause == .stateExited && run.visit != visit
                message =
                    "dropped \(event) sent for visit \(run.visit); \(ended ? "the machine is in visit \(visit)" : reason)"
                metadata["reason"] = reason
                metadata["cause"] = cause.rawValue
                metadata["sender_visit"] = "\(run.visit)"
                if let work = run.label { metadata["work"] = work }
            case .stopped:
                message = "\(event) arrived after stop"
            case .postponed:
                message = "\(event) postponed in \(before) until the next state change"
            case .overflowed:
                let limit = detail?.postponeLimit ?? 0
                message = "dropped \(event) in \(before): \(limit) postponed events are already waiting"
                metadata["reason"] = "postponeLimit \(limit) reached"
            }
            if source == .retry { metadata["retried"] = "true" }
            return (message, metadata)
        }
    }

    /// Delivers `first` and `rest`, then the notes queued meanwhile by other callers: at most
    /// ``ReportQueue/handOverAfter`` of them, after which it hands the delivery to a waiting sender. Only the caller
    /// the core made the deliverer calls this, and never under the lock, so reports arrive in order and a
    /// reporter may call back into the machine. With no buffer to give back and nothing queued, it steps
    /// down without taking the lock again.
    @inlinable
    func deliver(_ first: consuming Note?, then rest: consuming [Note]) {
        guard let reporter else {
            preconditionFailure("Internal inconsistency: \(label) noted reports without a reporter")
        }
        var first = consume first
        var rest = consume rest
        var allowance = ReportQueue.handOverAfter
        DeliveringThread.delivering {
            while true {
                if let note = first.take() { report(note, to: reporter) }
                // Each note is moved out of the buffer and destroyed after its report, outside the lock
                // (destroying an event or a state must not run under it); indexing would copy each note and
                // destroy it twice. The buffer is left empty with its capacity, for the core to reuse.
                if !rest.isEmpty {
                    rest.reverse()
                    while let note = rest.popLast() { report(note, to: reporter) }
                }
                if rest.capacity == 0 && delivery.stepDownUnlessQueued() { return }
                switch core.withLock({ $0.nextReports(first: &first, rest: &rest, allowance: allowance) }) {
                case .done:
                    return
                case .handOver(let next):
                    next.resume(.deliver)
                    return
                case .deliver(let taken):
                    for waiter in taken { waiter.resume(.taken) }
                    allowance -= rest.count + (first == nil ? 0 : 1)
                }
            }
        }
    }

    /// Builds the report of `note` when the reporter takes its level; its text is made only if a sink
    /// reads it. Inlinable so that a client's specialised machine keeps its own types in the report's
    /// text, and prints them without dynamic casts.
    @inlinable
    func report(_ note: consuming Note, to reporter: Reporter) {
        switch consume note {
        case .record(let record):
            // A timer's record also makes a debug report, after the record's, from a copy; any other record
            // is moved into its report's text, never copied.
            let timer: RecordNote? = record.source == .timer ? record : nil
            if reporter.accepts(record.level) {
                let level = record.level
                let name = record.name
                let text = recordText(holding: consume record)
                reporter.report(Report(label: label, level: level, name: name, text: text))
                spareText.put(text)
            }
            if let timer { reportTimeout(timer, to: reporter) }
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

    /// The debug-level `statemachine.timeout` report of a timer's record, when the reporter takes it.
    @usableFromInline
    func reportTimeout(_ record: RecordNote, to reporter: Reporter) {
        guard reporter.accepts(.debug) else { return }
        reporter.report(
            Report(label: label, level: .debug, name: Report.Name.timeout) {
                (
                    "state timeout fired in \(record.before): \(record.event)",
                    ["state": "\(record.before)", "event": "\(record.event)", "visit": "\(record.visit)"]
                )
            })
    }

    /// A box holding `record` as a report's text: the box of the previous report when no sink kept that
    /// report (then nobody else can see it change), else a new one, so that a traced machine allocates no
    /// box per report. Only the deliverer calls this.
    @inlinable
    func recordText(holding record: consuming RecordNote) -> RecordText {
        guard var text = spareText.take(), isKnownUniquelyReferenced(&text) else { return RecordText(consume record) }
        text.reset(to: consume record)
        return text
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

extension StateMachine {
    /// A recorded event's note as a report's text, made once, in a box that the deliverer reuses for the
    /// next report when no sink kept the report (``StateMachine/recordText(holding:)``).
    @usableFromInline
    typealias RecordText = MadeOnce<RecordNote>
}

/// A recorded event's outcome in a note: ``Outcome`` without its payload, which ``RecordDetail`` keeps.
@usableFromInline
enum OutcomeKind: String, Sendable {
    case moved, updated, stayed, ignored, invalid, stopped, stale, postponed, overflowed

    /// The kind of `outcome`.
    @inlinable
    init(_ outcome: Outcome) {
        switch outcome {
        case .moved: self = .moved
        case .updated: self = .updated
        case .stayed: self = .stayed
        case .ignored: self = .ignored
        case .invalid: self = .invalid
        case .stopped: self = .stopped
        case .stale: self = .stale
        case .postponed: self = .postponed
        case .overflowed: self = .overflowed
        }
    }

    /// The level at which a record with this outcome is reported.
    @inlinable
    var level: Report.Level {
        switch self {
        case .moved, .updated, .stayed, .ignored, .stopped: .trace
        case .invalid: .error
        case .stale: .notice
        case .postponed: .debug
        case .overflowed: .warning
        }
    }
}

/// How a noted event reached the machine: ``StateMachine/NoteSource`` without the stale run.
@usableFromInline
enum SourceKind: UInt8, Sendable {
    case event, retry, timer, stale
}

/// The part of a recorded event's note that only invalid, stale and overflowed outcomes need.
@usableFromInline
final class RecordDetail: Sendable {
    @usableFromInline let reason: String?
    @usableFromInline let run: WorkRun?
    @usableFromInline let postponeLimit: Int

    @inlinable
    init(reason: String? = nil, run: WorkRun? = nil, postponeLimit: Int = 0) {
        self.reason = reason
        self.run = run
        self.postponeLimit = postponeLimit
    }
}
