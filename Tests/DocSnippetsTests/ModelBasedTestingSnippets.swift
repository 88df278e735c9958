// The code of the "Model-based testing and counterexamples" article; see GettingStartedSnippets.swift for the
// markers. ArticleSnippetTests also checks the counterexample the article prints against a real run.

import StateMachineKit
import StateMachineTesting
import Testing

// snippet: upload-model
enum Upload: Hashable, Sendable {
    case idle
    case sending(percent: Int)
    case done
}

enum UploadEvent: Hashable, Sendable {
    case start
    case progress(Int)
    case finish
    case cancel
}

/// Percent stays within 0...100 while sending.
func percentInRange(_ state: Upload) -> Bool {
    guard case .sending(let percent) = state else { return true }
    return (0...100).contains(percent)
}
// end snippet

// snippet: upload-buggy
func uploadWithABug(_ state: Upload, _ event: UploadEvent) -> Transition<Upload, UploadEvent> {
    switch (state, event) {
    case (.idle, .start), (.done, .start): .to(.sending(percent: 0))
    case (.sending(let current), .progress(let percent)):
        percent >= current ? .update(.sending(percent: percent)) : .ignore  // forgets the upper bound
    case (.sending, .finish): .to(.done)
    case (.sending, .cancel): .to(.idle)
    case (.sending, .start), (.idle, _), (.done, _): .ignore
    }
}
// end snippet

// snippet: upload-fixed
func upload(_ state: Upload, _ event: UploadEvent) -> Transition<Upload, UploadEvent> {
    switch (state, event) {
    case (.idle, .start), (.done, .start): .to(.sending(percent: 0))
    case (.sending(let current), .progress(let percent)):
        if percent < current {
            .ignore  // a late, smaller report
        } else if percent > 100 {
            .invalid("progress \(percent) is above 100")
        } else {
            .update(.sending(percent: percent))
        }
    case (.sending, .finish): .to(.done)
    case (.sending, .cancel): .to(.idle)
    case (.sending, .start), (.idle, _), (.done, _): .ignore
    }
}
// end snippet

/// The events the article draws sequences from.
let uploadEvents: [UploadEvent] = [.start, .progress(40), .progress(100), .progress(120), .finish, .cancel]

@Suite struct ModelBasedTestingSnippets {
    @Test func theBugIsFoundAndShrunk() throws {
        // snippet: upload-check
        let counterexample = checkModel(
            from: Upload.idle,
            events: [.start, .progress(40), .progress(100), .progress(120), .finish, .cancel],
            transition: uploadWithABug, invariant: percentInRange, seed: 42)
        print(counterexample.map(String.init(describing:)) ?? "no counterexample")
        // end snippet
        let found = try #require(counterexample)
        #expect(found.events == [.start, .progress(120)])
        #expect(found.states == [.sending(percent: 0), .sending(percent: 120)])
    }

    // snippet: upload-expect
    @Test func uploadKeepsPercentInRange() {
        expectModel(
            from: Upload.idle,
            events: [.start, .progress(40), .progress(100), .progress(120), .finish, .cancel],
            transition: upload, invariant: percentInRange)
    }
    // end snippet

    /// The counterexample the article prints: the same run as `upload-check`, with the environment's
    /// `STATE_MACHINE_SEED` left out so the comparison does not depend on how the tests were started.
    static var printedCounterexample: Counterexample<Upload, UploadEvent>? {
        checkModel(
            from: Upload.idle, events: uploadEvents, transition: uploadWithABug, invariant: percentInRange, seed: 42,
            environment: [:])
    }
}
