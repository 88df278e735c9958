// The code of the StateMachineInspector overview; see GettingStartedSnippets.swift for the markers.

import Foundation
import StateMachineInspector
import StateMachineKit
import Testing

enum Gate: Hashable, Sendable {
    case closed, open
}

enum GateEvent: Hashable, Sendable {
    case ticket, pass
}

func gate(_ state: Gate, _ event: GateEvent) -> Transition<Gate, GateEvent> {
    switch (state, event) {
    case (.closed, .ticket): .to(.open)
    case (.open, .pass): .to(.closed)
    case (.closed, .pass), (.open, .ticket): .ignore
    }
}

@Suite struct InspectorSnippets {
    @Test func aProgramOptsInWithTwoLines() throws {
        let gates = StateMachine(initial: Gate.closed, label: "gate", transition: gate)
        // snippet: inspector-opt-in
        let inspector = try Inspector.start(name: "turnstiles")
        inspector.register(gates, sampleEvents: [.ticket, .pass])
        // end snippet
        defer { inspector.stop() }
        let found = InspectorDiscovery.list(directory: InspectorDirectory.current).filter {
            $0.pid == Int(getpid()) && $0.name == "turnstiles"
        }
        #expect(
            found == [
                InspectableProcess(
                    name: "turnstiles", pid: Int(getpid()), socketPath: inspector.socketPath, machines: 1,
                    started: inspector.started)
            ])
    }
}
