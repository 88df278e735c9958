import Support

/// What happened when one sequence of events ran against a model: the states after each event
/// applied, and the failure that stopped it, if any.
struct ModelTrace<State> {
    /// The state after each applied event; the last one is the failing state when `failure` is set.
    var states: [State]
    /// What failed, or nil when every event kept the model's rules.
    var failure: String?
}

/// Random search and shrinking, shared by the pure and the live model checks.
///
/// `run` replays a whole sequence from the initial state and stops at the first failure, so the
/// failing prefix of a candidate is `candidate.prefix(trace.states.count)`.
struct ModelSearch<State, Event> {
    /// The alphabet random sequences are drawn from.
    let events: [Event]
    /// Replays a sequence from scratch.
    let run: ([Event]) -> ModelTrace<State>

    /// Runs `sequences` random sequences of `maximumLength` events; returns the first failing prefix.
    func findFailure(sequences: Int, maximumLength: Int, seed: UInt64) -> (events: [Event], trace: ModelTrace<State>)? {
        precondition(sequences >= 0, "checkModel: sequences must not be negative, got \(sequences)")
        precondition(maximumLength >= 0, "checkModel: maximumLength must not be negative, got \(maximumLength)")
        precondition(
            !events.isEmpty || maximumLength == 0,
            "checkModel: events is empty, so no sequence of length \(maximumLength) can be drawn")
        var generator = SplitMix64(seed: seed)
        var sequence: [Event] = []
        sequence.reserveCapacity(maximumLength)
        for _ in 0..<sequences {
            sequence.removeAll(keepingCapacity: true)
            for _ in 0..<maximumLength {
                sequence.append(events[generator.next(below: events.count)])
            }
            let trace = run(sequence)
            if trace.failure != nil {
                return (Array(sequence.prefix(trace.states.count)), trace)
            }
        }
        return nil
    }

    /// Removes chunks of halving size, then single events, until no single removal still fails.
    func shrinkByRemoval(_ failing: [Event], trace: ModelTrace<State>) -> (
        events: [Event], trace: ModelTrace<State>, steps: Int
    ) {
        var shrinker = RemovalShrinker(failing: failing, trace: trace)
        while let candidate = shrinker.nextCandidate() {
            shrinker.record(candidate, run(candidate))
        }
        return (shrinker.current, shrinker.trace, shrinker.steps)
    }
}

/// Shrinks a failing sequence by removing chunks of halving size, then single events, until no single
/// removal still fails: the result is 1-minimal.
///
/// It proposes candidates and is told how each ran, so the same steps drive a pure model and a live
/// machine that must be awaited. A candidate that fails earlier than its end is cut at its failure,
/// so the current sequence always ends where it fails.
struct RemovalShrinker<State, Event> {
    /// The shortest failing sequence so far.
    private(set) var current: [Event]
    /// How `current` ran.
    private(set) var trace: ModelTrace<State>
    /// How many candidates replaced `current`.
    private(set) var steps = 0
    /// How many events the next candidate removes.
    private var chunk: Int
    /// Where the next removal starts.
    private var position = 0
    /// Whether chunks are down to single events, the phase that repeats until a pass removes nothing.
    private var removingSingles: Bool
    /// Whether the current pass over single events removed one.
    private var removedInPass = false

    /// Starts from a failing sequence and the trace of its run.
    init(failing: [Event], trace: ModelTrace<State>) {
        current = failing
        self.trace = trace
        chunk = failing.count / 2
        removingSingles = chunk <= 1
        if removingSingles { chunk = 1 }
    }

    /// The next sequence to try, or nil when shrinking is done.
    mutating func nextCandidate() -> [Event]? {
        while position >= current.count {
            if !removingSingles {
                chunk /= 2
                if chunk <= 1 {
                    removingSingles = true
                    chunk = 1
                }
            } else if removedInPass {
                removedInPass = false
            } else {
                return nil
            }
            position = 0
        }
        var candidate = current
        candidate.removeSubrange(position..<min(position + chunk, current.count))
        return candidate
    }

    /// Records how the last candidate ran: a failure replaces `current`, a pass moves on.
    mutating func record(_ candidate: [Event], _ candidateTrace: ModelTrace<State>) {
        guard candidateTrace.failure != nil else {
            position += chunk
            return
        }
        current = Array(candidate.prefix(candidateTrace.states.count))
        trace = candidateTrace
        steps += 1
        if removingSingles { removedInPass = true }
    }
}
