// The code of the "Adopting StateMachineKit" article; see GettingStartedSnippets.swift for the markers. The
// article's package manifest is no snippet: `make test-adopt` builds a package from that very block.

import Foundation
import StateMachineInspector
import StateMachineKit
import StateMachineMacros
import StateMachineTesting
import Testing

// snippet: adopting-first-machine
enum Kettle: Hashable, Sendable {
    case cold, heating, boiled
}

enum KettleEvent: Hashable, Sendable {
    case switchOn, boil, switchOff
}

func kettle(_ state: Kettle, _ event: KettleEvent) -> Transition<Kettle, KettleEvent> {
    switch (state, event) {
    case (.cold, .switchOn): .to(.heating)
    case (.heating, .boil): .to(.boiled)
    case (.heating, .switchOff), (.boiled, .switchOff): .to(.cold)
    case (.cold, .boil): .invalid("cold water does not boil")
    case (.cold, .switchOff), (.heating, .switchOn), (.boiled, .switchOn), (.boiled, .boil): .ignore
    }
}
// end snippet

// snippet: adopting-macro
@StateMachine
enum Turnstile {
    enum State: Hashable, Sendable { case locked, unlocked }
    enum Event: Hashable, Sendable { case coin, push }

    static let table = Table(
        initial: .locked,
        rows: [
            .on(.locked, .coin, to: .unlocked),
            .on(.locked, .push, .ignore),
            .on(.unlocked, .push, to: .locked),
            .on(.unlocked, .coin, .invalid("already paid")),
        ])
}
// end snippet

@Suite struct AdoptingSnippets {
    @Test func aFirstMachine() {
        // snippet: adopting-first-send
        let machine = StateMachine(initial: Kettle.cold, label: "kettle", transition: kettle)
        machine.send(.switchOn)  // .moved
        machine.send(.boil)  // .moved
        let state = machine.state  // .boiled
        // end snippet
        #expect(state == .boiled)
        #expect(machine.history.map(\.outcome) == [.moved, .moved])
    }

    @Test func theMacroWritesTheTransitionFunction() {
        // snippet: adopting-macro-machine
        let machine = StateMachine(
            initial: Turnstile.table.initial, label: "turnstile", transition: Turnstile.transition)
        machine.send(.coin)  // .moved
        machine.send(.coin)  // .invalid("already paid")
        // end snippet
        #expect(machine.history.map(\.outcome) == [.moved, .invalid("already paid")])
        #expect(machine.state == .unlocked)
    }

    @Test func theFeedHandsOutEveryRecord() async {
        let machine = StateMachine(initial: Kettle.cold, label: "kettle", transition: kettle)
        // snippet: adopting-feed
        machine.send(.switchOff)  // ignored: the state stays, the feed still wakes
        machine.send(.switchOn)

        var lines: [String] = []
        for await batch in machine.records(after: 0) {
            if batch.missed > 0 { lines.append("\(batch.missed) records fell out of the history") }
            lines += batch.records.map(\.description)
            if batch.state == .heating { break }
        }
        // #1 visit 1: cold + switchOff -> cold (ignored)
        // #2 visit 1: cold + switchOn -> heating (moved)
        // end snippet
        #expect(
            lines == [
                "#1 visit 1: cold + switchOff -> cold (ignored)", "#2 visit 1: cold + switchOn -> heating (moved)",
            ])
    }

    @Test func theTesterAssertsEveryRecord() {
        // snippet: adopting-tester
        let machine = StateMachine(initial: Kettle.cold, label: "kettle", transition: kettle)
        let tester = MachineTester(machine)
        tester.send(.switchOn, .moved, .heating)
        tester.send(.switchOn, .ignored, .heating)
        tester.send(.boil, .moved, .boiled)
        tester.finish()
        // end snippet
    }

    @Test func theInspectorServesTheMachines() throws {
        let machine = StateMachine(
            initial: Turnstile.table.initial, label: "turnstile", transition: Turnstile.transition)
        // snippet: adopting-inspector
        let inspector = try Inspector.start(name: "turnstile-app")
        inspector.register(machine, sampleEvents: [.coin, .push])
        // … and when the program ends:
        inspector.stop()
        // end snippet
        #expect(
            InspectorDiscovery.list(directory: InspectorDirectory.current).filter {
                $0.pid == Int(getpid()) && $0.name == "turnstile-app"
            } == [])
    }
}
