import StateMachineMacros
import Testing

/// `.postpone` in a table: the generated switch postpones, and a machine running it retries the call.
@Suite struct LiftTests {
    @Test func theGeneratedSwitchPostponesAndAgreesWithTheInterpretedTable() {
        let pairs: [(Lift.State, Lift.Event)] = [
            (.idle, .call), (.idle, .arrive), (.moving, .call), (.moving, .arrive),
        ]
        #expect(pairs.map { Lift.transition($0.0, $0.1) } == [.to(.moving), .ignore, .postpone, .to(.idle)])
        #expect(
            pairs.map { Lift.transition($0.0, $0.1) }
                == pairs.map {
                    Lift.table.interpret($0.0, $0.1, stateCase: Lift.stateCase, eventCase: Lift.eventCase)
                })
    }

    @Test func aCallWhileMovingIsServedWhenTheLiftArrives() {
        let machine = StateMachine(initial: Lift.table.initial, label: "lift", transition: Lift.transition)
        machine.send(.call)
        #expect(machine.send(.call) == .postponed)
        #expect(machine.send(.arrive) == .moved)
        #expect(machine.state == .moving)
        #expect(machine.history.map(\.outcome) == [.moved, .postponed, .moved, .moved])
    }

    @Test func theDiagramLeavesThePostponeRowOut() {
        #expect(
            Lift.mermaid == """
                stateDiagram-v2
                    [*] --> idle
                    idle --> moving: call
                    moving --> idle: arrive
                """)
    }
}
