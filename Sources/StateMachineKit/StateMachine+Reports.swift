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
    ///
    /// A word and a tag: its payloads are boxed, so that a send's action holding one stays small
    /// (StateMachine+Actions.swift).
    @usableFromInline
    enum Note: Sendable {
        /// A recorded event: the box its report's text is made in (made under the lock, then handed to the
        /// report as it is), and what decides the report's level and name, beside the box so that the
        /// deliverer reads them without the box's lock.
        case record(RecordText, outcome: OutcomeKind, source: SourceKind)
        /// A state timeout that fired after its visit ended; nothing was delivered.
        case timeoutExpired(RareNote<(visit: Int, event: Event)>)
        /// A run of `whileIn` work ended, with why and the state it ran in.
        case cancelled(RareNote<(label: String, visit: Int, cause: CancellationCause, state: State)>)

        /// The note of a state timeout that fired after its visit ended.
        @inlinable
        static func timeoutExpired(visit: Int, event: Event) -> Note {
            .timeoutExpired(RareNote((visit, event)))
        }

        /// The note of a run of `whileIn` work that ended.
        @inlinable
        static func cancelled(label: String, visit: Int, cause: CancellationCause, state: State) -> Note {
            .cancelled(RareNote((label, visit, cause, state)))
        }
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

        /// Whether destroying a note runs no code of the machine's owner: its states and events are plain values
        /// (no reference, so no `deinit`), and the rest is the engine's own. Such a note may be destroyed under
        /// the lock (``ReportQueue/recordNote(_:)``).
        @inlinable
        static var destroysFreely: Bool { _isPOD(State.self) && _isPOD(Event.self) }

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
        case .record(var text, let outcome, let source):
            if source == .timer {
                // A timer's record also makes a debug report, after the record's, from the record's values: read
                // before any sink can have had the text made.
                guard let record = text.source else {
                    preconditionFailure("Internal inconsistency: \(label) made a timer's record before its report")
                }
                report(text, outcome: outcome, to: reporter)
                reportTimeout(record, to: reporter)
            } else {
                report(text, outcome: outcome, to: reporter)
            }
            // The box of a report no sink kept serves the next record, which fills it under the lock: emptied
            // here, outside the lock, unless destroying what it holds runs no code.
            if isKnownUniquelyReferenced(&text) {
                if !RecordNote.destroysFreely { text.empty() }
                texts.put(text)
            }
        case .timeoutExpired(let note):
            guard reporter.accepts(.debug) else { return }
            let (visit, event) = note.values
            reporter.report(
                Report(label: label, level: .debug, name: Report.Name.timeout) {
                    (
                        "state timeout for visit \(visit) expired after its visit ended; \(event) not delivered",
                        ["event": "\(event)", "visit": "\(visit)", "reason": "visit \(visit) ended"]
                    )
                })
        case .cancelled(let note):
            guard reporter.accepts(.debug) else { return }
            let (work, visit, cause, state) = note.values
            reporter.report(
                Report(label: label, level: .debug, name: Report.Name.cancelled) {
                    (
                        "cancelled \(work) of visit \(visit): \(cause.rawValue)",
                        ["work": work, "visit": "\(visit)", "cause": cause.rawValue, "state": "\(state)"]
                    )
                })
        }
    }

    /// The report of a recorded event, when the reporter takes its level.
    @inlinable
    func report(_ text: RecordText, outcome: OutcomeKind, to reporter: Reporter) {
        guard reporter.accepts(outcome.level) else { return }
        reporter.report(Report(label: label, level: outcome.level, name: outcome.name, text: text))
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
    /// A recorded event's note as a report's text, made once; boxed under the lock when the event is
    /// recorded, and handed to the report as it is (``ReportQueue/recordNote(_:)``).
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

    /// The name of the report of a record with this outcome.
    @inlinable
    var name: String {
        switch self {
        case .moved, .updated, .stayed: Report.Name.transition
        case .ignored, .stopped: Report.Name.ignored
        case .invalid: Report.Name.invalid
        case .stale: Report.Name.staleEvent
        case .postponed: Report.Name.postponed
        case .overflowed: Report.Name.postponeOverflow
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

/// The values of a rare note (a timeout that expired, cancelled work), boxed so that every note is a word
/// and a tag. (A box of its own rather than an `indirect` case, which a noncopyable action holding the note does
/// not compile with yet.)
@usableFromInline
final class RareNote<Values: Sendable>: Sendable {
    @usableFromInline let values: Values

    @inlinable
    init(_ values: Values) { self.values = values }
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
