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
    ///
    /// The result is 1-minimal: removing any one event from it makes the sequence pass. A candidate
    /// that fails earlier than its end is cut at its failure, so the result always ends where it fails.
    func shrinkByRemoval(_ failing: [Event], trace: ModelTrace<State>) -> (events: [Event], trace: ModelTrace<State>, steps: Int) {
        var current = failing
        var currentTrace = trace
        var steps = 0
        func tryRemoving(_ range: Range<Int>) -> Bool {
            var candidate = current
            candidate.removeSubrange(range)
            let candidateTrace = run(candidate)
            guard candidateTrace.failure != nil else { return false }
            current = Array(candidate.prefix(candidateTrace.states.count))
            currentTrace = candidateTrace
            steps += 1
            return true
        }
        var chunk = current.count / 2
        while chunk > 1 {
            var start = 0
            while start < current.count {
                if !tryRemoving(start..<min(start + chunk, current.count)) { start += chunk }
            }
            chunk /= 2
        }
        var removedInPass = true
        while removedInPass {
            removedInPass = false
            var position = 0
            while position < current.count {
                if tryRemoving(position..<(position + 1)) {
                    removedInPass = true
                } else {
                    position += 1
                }
            }
        }
        return (current, currentTrace, steps)
    }
}
