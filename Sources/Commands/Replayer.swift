import SeedModels
import StateMachineKit

/// One model's machine fed canonical text a line at a time (what `statetui replay` drives).
package struct Replayer {
    /// The result of one line: the engine's verdict and the state after it, in canonical text.
    package struct Step: Hashable, Sendable, CustomStringConvertible {
        /// The verdict, nil only if the machine had stopped (a replay never stops it).
        package var verdict: Verdict?
        /// The state after the event.
        package var state: String

        /// A step's result.
        package init(verdict: Verdict?, state: String) {
            self.verdict = verdict
            self.state = state
        }

        /// `update running(request: 1, percent: 20)`: the verdict word, one space, the state.
        package var description: String { "\(verdict?.word ?? "stopped") \(state)" }
    }

    private let step: (String) throws(CanonicalTextError) -> Step

    /// A replayer applying each line through `step`.
    package init(_ step: @escaping (String) throws(CanonicalTextError) -> Step) {
        self.step = step
    }

    /// Parses `line` as the model's event and applies it; throws, changing nothing, when the line
    /// is not one of the model's forms.
    package func apply(_ line: String) throws(CanonicalTextError) -> Step {
        try step(line)
    }
}
