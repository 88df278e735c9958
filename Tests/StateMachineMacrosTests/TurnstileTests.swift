import StateMachineMacros
import Testing

/// The macro-generated turnstile behaves as its table says, and agrees with the table interpreted at run time.
@Suite struct TurnstileTests {
    typealias State = Turnstile.State
    typealias Event = Turnstile.Event

    @Test(arguments: [
        (
            State.locked, Event.coin,
            Transition<State, Event>.to(.unlocked, timeout: StateTimeout(after: .seconds(5), send: .relock))
        ),
        (.locked, .push, .ignore),
        (.locked, .kick, .to(.broken)),
        (.locked, .repair, .ignore),
        (.unlocked, .push, .to(.locked)),
        (.unlocked, .relock, .to(.locked)),
        (.unlocked, .coin, .invalid("already paid")),
        (.unlocked, .kick, .ignore),
        (.broken, .repair, .to(.locked)),
        (.broken, .coin, .stay),
        (.broken, .push, .ignore),
    ])
    func generatedTransitionFollowsTheTable(state: State, event: Event, expected: Transition<State, Event>) {
        #expect(Turnstile.transition(state, event) == expected)
    }

    @Test func generatedSwitchAgreesWithTheInterpretedTableForEveryPair() {
        let pairs = [State.locked, .unlocked, .broken].flatMap { state in
            [Event.coin, .push, .kick, .repair, .relock].map { (state, $0) }
        }
        let generated = pairs.map { Turnstile.transition($0.0, $0.1) }
        let interpreted = pairs.map {
            Turnstile.table.interpret($0.0, $0.1, stateCase: Turnstile.stateCase, eventCase: Turnstile.eventCase)
        }
        #expect(generated == interpreted)
    }

    @Test func aCoinThenAPushWalksThroughTheTurnstile() {
        var state = Turnstile.table.initial
        var verdicts: [Verdict] = []
        for event in [Event.push, .coin, .coin, .push, .kick, .coin, .repair] {
            let transition = Turnstile.transition(state, event)
            verdicts.append(transition.verdict)
            state = transition.target(from: state)
        }
        #expect(verdicts == [.ignore, .to, .invalid, .to, .to, .stay, .to])
        #expect(state == .locked)
    }

    @Test func mermaidDiagramListsTheMoves() {
        #expect(
            Turnstile.mermaid == """
                stateDiagram-v2
                    [*] --> locked
                    locked --> unlocked: coin
                    locked --> broken: kick
                    unlocked --> locked: push
                    unlocked --> locked: relock
                    broken --> locked: repair
                """)
    }

    @Test func caseNamesCoverTheEnums() {
        #expect(Turnstile.StateCase.allCases == [.locked, .unlocked, .broken])
        #expect(Turnstile.eventCase(.relock) == .relock)
        #expect(Turnstile.stateCase(.broken) == .broken)
    }
}
