import Synchronization

extension StateMachine {
    /// Delivers events on behalf of one *run of work*; once the machine has ended that run, its events
    /// are dropped as stale.
    ///
    /// A run is one activation of `whileIn` work (it ends when its visit ends, when an `.update` moves to
    /// a value its predicate rejects, or on ``StateMachine/stop()``), or the visit a sender from
    /// ``StateMachine/sendAndBind(_:)`` is bound to (it ends with the visit, or on stop). This is what
    /// replaces generation counters: work sends through the sender it was given, and the machine checks
    /// the run every time, under its lock, so no callback can forget to.
    public struct Sender: Sendable {
        /// The visit this sender's run belongs to.
        public let visit: Int
        // Weak so that running work never keeps a forgotten machine alive.
        @usableFromInline weak let machine: StateMachine?
        @usableFromInline let run: WorkRun

        @usableFromInline
        init(machine: StateMachine?, run: WorkRun) {
            self.machine = machine
            self.visit = run.visit
            self.run = run
        }

        /// A sender handed out by a stopped machine: its run ended with the machine, so its events are
        /// `.stopped` and its cause is `machineStopped`, like the senders the stop ended.
        @usableFromInline
        static func stopped(visit: Int) -> Sender {
            let run = WorkRun(id: 0, label: nil, visit: visit)
            run.end(.machineStopped)
            return Sender(machine: nil, run: run)
        }

        /// Sends `event` while the run is live. Once the machine has ended the run, drops the event,
        /// records it with outcome `.stale`, reports `statemachine.stale_event` with the cause and returns
        /// `.stale`; `.stopped` when the machine itself is gone.
        @inlinable @discardableResult
        public func send(_ event: Event) -> Outcome {
            guard let machine else { return .stopped }
            return machine.deliver(event, origin: .sender(run))
        }

        /// Whether the run is still live (a later `send` may still find it ended: only `send`'s answer is
        /// authoritative).
        public var isCurrent: Bool { machine != nil && run.cause == nil }

        /// Why the machine ended this sender's run, or `nil` while it has not.
        public var cancellationCause: CancellationCause? { run.cause }
    }
}

/// One run of work, shared by the machine and the senders it handed out: which visit it belongs to and,
/// once the machine ended it, why.
///
/// The machine ends a run only under its lock and checks it under the same lock, so a sender's event
/// is applied exactly when its run was live at that moment. The cause is atomic so that work can read it
/// without the lock.
@usableFromInline
final class WorkRun: Sendable {
    /// Unique within its machine.
    @usableFromInline let id: Int
    /// The `whileIn` label, or `nil` for the run of a visit itself.
    @usableFromInline let label: String?
    @usableFromInline let visit: Int
    /// 0 while live, else ``CancellationCause/code`` of the cause.
    @usableFromInline let endedBy = Atomic<UInt8>(0)

    @inlinable
    init(id: Int, label: String?, visit: Int) {
        self.id = id
        self.label = label
        self.visit = visit
    }

    /// Why the run ended, or `nil` while it is live.
    @inlinable
    var cause: CancellationCause? { CancellationCause(code: endedBy.load(ordering: .acquiring)) }

    /// Ends the run with `cause` (the first cause wins), before its task is cancelled, so the work reads
    /// the cause as soon as it sees cancellation.
    @inlinable
    func end(_ cause: CancellationCause) {
        _ = endedBy.compareExchange(expected: 0, desired: cause.code, ordering: .releasing)
    }
}

extension CancellationCause {
    /// A non-zero code for an atomic word (0 means "not cancelled").
    @inlinable
    var code: UInt8 {
        switch self {
        case .stateExited: 1
        case .machineStopped: 2
        }
    }

    @inlinable
    init?(code: UInt8) {
        switch code {
        case 1: self = .stateExited
        case 2: self = .machineStopped
        default: return nil
        }
    }
}
