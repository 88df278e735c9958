/// A sequence of events that breaks a model's invariant, shrunk as far as the checker could.
///
/// Its `description` is Swift you can paste into a test: one event per line, each with the state
/// after it as a comment, under a header saying what failed and how to replay the run.
public struct Counterexample<State, Event>: CustomStringConvertible {
    /// The state the sequence starts from.
    public let initial: State
    /// The events, in order; the last one is where the check failed (empty when the initial state does).
    public let events: [Event]
    /// The state after each event: `states[i]` is where the machine was after `events[i]`.
    public let states: [State]
    /// What failed, in words (the invariant, or a rejected event that changed the state).
    public let failure: String
    /// The seed of the run that found it; `STATE_MACHINE_SEED=<seed>` replays the run.
    public let seed: UInt64
    /// The length of the failing prefix of the random sequence, before shrinking.
    public let originalLength: Int
    /// How many times a shorter failing sequence replaced the current one while shrinking.
    public let shrinkSteps: Int
    /// Whether no shorter failing sequence exists, or only no single event can be removed.
    public let minimality: Minimality

    /// How far a counterexample is known to be shrunk.
    public enum Minimality: Hashable, Sendable {
        /// No failing sequence is shorter: the reachable states, or every sequence shorter than this
        /// one, were searched breadth first.
        case shortest
        /// Removing any single event makes the sequence pass, but a shorter sequence of other events may
        /// still fail: the search for one did not finish within its budget of states (or, for a live
        /// machine, was not made).
        case oneMinimal
    }

    /// Creates a counterexample; `states` must hold one state per event.
    public init(
        initial: State, events: [Event], states: [State], failure: String, seed: UInt64,
        originalLength: Int, shrinkSteps: Int, minimality: Minimality = .oneMinimal
    ) {
        precondition(
            states.count == events.count,
            "Counterexample needs one state per event, got \(states.count) states for \(events.count) events")
        self.initial = initial
        self.events = events
        self.states = states
        self.failure = failure
        self.seed = seed
        self.originalLength = originalLength
        self.shrinkSteps = shrinkSteps
        self.minimality = minimality
    }

    /// The sequence as pasteable Swift, one event per line with the state after it.
    public var description: String {
        var lines = [
            "// Counterexample: \(failure)",
            "// seed \(seed) (replay: \(ModelSeed.environmentVariable)=\(seed)); "
                + "\(events.count) of \(originalLength) events after \(shrinkSteps) shrink steps, \(minimalityText)",
            "// initial state: \(Self.singleLine(String(describing: initial)))",
            "let events: [\(Event.self)] = [",
        ]
        for (event, state) in zip(events, states) {
            lines.append(
                "    \(swiftCase(String(describing: event))),  // → \(Self.singleLine(String(describing: state)))")
        }
        lines.append("]")
        return lines.joined(separator: "\n")
    }

    /// What the header says of ``minimality``.
    private var minimalityText: String {
        switch minimality {
        case .shortest: "shortest"
        case .oneMinimal: "1-minimal (no single event can be removed; a shorter sequence may exist)"
        }
    }

    /// Keeps a description on its comment line: line breaks print as `\n`.
    static func singleLine(_ text: String) -> String {
        text.replacingLineBreaks()
    }
}

extension Counterexample: Sendable where State: Sendable, Event: Sendable {}
extension Counterexample: Equatable where State: Equatable, Event: Equatable {}

extension String {
    /// The text with `\n` and `\r` written as escapes.
    fileprivate func replacingLineBreaks() -> String {
        var result = ""
        for character in self {
            switch character {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\r\n": result += "\\r\\n"
            default: result.append(character)
            }
        }
        return result
    }
}
