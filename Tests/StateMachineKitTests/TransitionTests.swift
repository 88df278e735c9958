import StateMachineKit
import Testing

@Suite struct TransitionTests {
    enum Light: Hashable { case red, green }
    enum Press: Hashable { case go }

    @Test(arguments: [
        (Transition<Light, Press>.to(.green), Verdict.to, Light.green, true),
        (.to(.red, timeout: StateTimeout(after: .seconds(1), send: .go)), .to, .red, true),
        (.update(.green), .update, .green, true),
        (.stay, .stay, .red, true),
        (.ignore, .ignore, .red, false),
        (.invalid("no"), .invalid, .red, false),
        (.postpone, .postpone, .red, true),
    ])
    func verdictTargetAndAcceptance(
        transition: Transition<Light, Press>, verdict: Verdict, target: Light, accepted: Bool
    ) {
        #expect(transition.verdict == verdict)
        #expect(transition.target(from: .red) == target)
        #expect(transition.isAccepted == accepted)
    }

    @Test(arguments: [
        (Transition<Light, Press>.to(.green), Transition<String, Press>.to("green")),
        (
            .to(.red, timeout: StateTimeout(after: .seconds(1), send: .go)),
            .to("red", timeout: StateTimeout(after: .seconds(1), send: .go))
        ),
        (.update(.green), .update("green")),
        (.stay, .stay),
        (.ignore, .ignore),
        (.invalid("no"), .invalid("no")),
        (.postpone, .postpone),
    ])
    func mapStateChangesOnlyTheTarget(transition: Transition<Light, Press>, mapped: Transition<String, Press>) {
        #expect(transition.mapState { "\($0)" } == mapped)
    }

    @Test func verdictWordsAreTheSharedContract() {
        #expect(Verdict.allCases.map(\.word) == ["to", "update", "stay", "ignore", "invalid", "postpone"])
    }
}
