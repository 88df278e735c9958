extension StateMachine {
    /// One event as the machine handled it: the entries of ``StateMachine/history``.
    public struct Record: Sendable {
        /// Position of this event among all events the machine recorded, from 1.
        public var sequence: Int
        /// The visit the machine was in when the event arrived (for `.moved`, the visit it left).
        public var visit: Int
        /// The state before the event.
        public var before: State
        /// The event.
        public var event: Event
        /// What happened.
        public var outcome: Outcome
        /// The state after the event.
        public var after: State

        /// Creates a record.
        @inlinable
        public init(sequence: Int, visit: Int, before: State, event: Event, outcome: Outcome, after: State) {
            self.sequence = sequence
            self.visit = visit
            self.before = before
            self.event = event
            self.outcome = outcome
            self.after = after
        }
    }
}

extension StateMachine.Record: Equatable where Event: Equatable {}
extension StateMachine.Record: Hashable where Event: Hashable {}
extension StateMachine.Record: Codable where State: Codable, Event: Codable {}

extension StateMachine.Record: CustomStringConvertible {
    /// `#3 visit 2: locked + coin -> unlocked (moved)`.
    public var description: String {
        "#\(sequence) visit \(visit): \(before) + \(event) -> \(after) (\(outcome))"
    }
}
