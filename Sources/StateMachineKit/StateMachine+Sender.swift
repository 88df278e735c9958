extension StateMachine {
    /// Delivers events on behalf of one visit; once that visit has ended, its events are dropped.
    ///
    /// This is what replaces generation counters: work started in a visit sends through the sender it
    /// was given, and the machine compares visits every time, so no callback can forget to.
    public struct Sender: Sendable {
        /// The visit this sender belongs to.
        public let visit: Int
        // Weak so that running work never keeps a forgotten machine alive.
        private weak let machine: StateMachine?
        private let activity: WorkActivity?

        init(machine: StateMachine, visit: Int, activity: WorkActivity?) {
            self.machine = machine
            self.visit = visit
            self.activity = activity
        }

        /// Sends `event` if the visit is still current; otherwise drops it, records it with outcome
        /// `.stale`, reports `statemachine.stale_event` and returns `.stale`.
        @discardableResult
        public func send(_ event: Event) -> Outcome {
            guard let machine else { return .stopped }
            return machine.deliver(event, origin: .sender(visit: visit))
        }

        /// Whether the visit is still current (a later `send` may still find it ended).
        public var isCurrent: Bool {
            guard let machine else { return false }
            return machine.visit == visit
        }

        /// Why the machine cancelled the work this sender was given, or `nil` while it has not.
        public var cancellationCause: CancellationCause? { activity?.cause }
    }
}

/// The shared record of one run of `whileIn` work: who it is and why it was cancelled.
@usableFromInline
final class WorkActivity: Sendable {
    let label: String
    let visit: Int
    private let storedCause = Locked<CancellationCause?>(nil)

    init(label: String, visit: Int) {
        self.label = label
        self.visit = visit
    }

    var cause: CancellationCause? { storedCause.withLock { $0 } }

    /// Records the cause before the task is cancelled, so the work reads it as soon as it sees cancellation.
    @usableFromInline
    func markCancelled(_ cause: CancellationCause) {
        storedCause.withLock { if $0 == nil { $0 = cause } }
    }
}
