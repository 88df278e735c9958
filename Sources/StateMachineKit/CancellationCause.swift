/// Why the machine cancelled a piece of `whileIn` work.
///
/// The work reads it from ``StateMachine/Sender/cancellationCause`` once it sees cancellation, and
/// the machine reports it (`statemachine.cancelled`, metadata `cause`).
public enum CancellationCause: String, Sendable, Hashable, Codable, CaseIterable {
    /// The visit ended (a `.to`) or an `.update` left the states the work runs in.
    case stateExited
    /// ``StateMachine/stop()`` was called or the machine went away.
    case machineStopped
}
