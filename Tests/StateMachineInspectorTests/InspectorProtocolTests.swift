import Foundation
import StateMachineKit
import Testing

@testable import StateMachineInspector

@Suite("Inspector protocol and the client's reducer")
struct InspectorProtocolTests {
    static let messages: [InspectorMessage] = [
        .hello(InspectorHello(program: "shop", pid: 42, started: "2026-11-30T19:27:00Z", machines: 1)),
        .machine(
            InspectorMachine(
                id: 1, label: "door", state: "locked", visit: 1, sequence: 0,
                graph: InspectorGraph(
                    states: ["locked", "unlocked"],
                    edges: [InspectorEdge(from: "locked", event: "coin", to: "unlocked")]))),
        .machine(InspectorMachine(id: 2, label: "cart", state: "empty", visit: 3, sequence: 9)),
        .state(InspectorState(machine: 1, state: "unlocked", visit: 2)),
        .record(
            InspectorRecord(
                machine: 1, sequence: 1, visit: 1, before: "locked", event: "coin", outcome: "moved",
                after: "unlocked")),
        .record(
            InspectorRecord(
                machine: 1, sequence: 2, visit: 2, before: "unlocked", event: "kick", outcome: "invalid",
                reason: "no kicking", after: "unlocked")),
        .missed(InspectorMissed(machine: 1, count: 12)),
        .stopped(InspectorStopped(machine: 2)),
        .bye,
    ]

    @Test("every message reads back from its JSON line as itself", arguments: messages)
    func messageRoundTripsThroughItsLine(message: InspectorMessage) throws {
        let line = message.line()
        #expect(!line.contains("\n"))
        #expect(try InspectorMessage(line: line) == message)
    }

    @Test("a message is one flat object whose type field names it")
    func messageIsFlatWithATypeField() throws {
        let line = InspectorMessage.missed(InspectorMissed(machine: 3, count: 7)).line()
        #expect(line == #"{"count":7,"machine":3,"type":"missed"}"#)
        #expect(InspectorMessage.bye.line() == #"{"type":"bye"}"#)
    }

    @Test(
        "lines that are not messages are refused",
        arguments: [#"{"type":"launch","machine":1}"#, #"{"machine":1}"#, "not json", #"{"type":"state"}"#])
    func garbageLineIsRefused(line: String) {
        #expect(throws: (any Error).self) { try InspectorMessage(line: line) }
    }

    @Test("characters a terminal acts on that JSON leaves raw (DEL, C1 such as CSI) are written as escapes")
    func terminalControlsAreEscapedInLines() throws {
        let message = InspectorMessage.state(InspectorState(machine: 1, state: "\u{9B}2J\u{7F}\u{2028}é", visit: 1))
        #expect(message.line() == #"{"machine":1,"state":"\u009b2J\u007f\u2028é","type":"state","visit":1}"#)
        #expect(try InspectorMessage(line: message.line()) == message)
    }

    @Test("the reducer follows machines through their messages")
    func reducerFollowsMachines() {
        var program = InspectedProgram(recordLimit: 2)
        for message in Self.messages.dropLast() { program.apply(message) }
        var door = InspectedMachine(
            InspectorMachine(
                id: 1, label: "door", state: "locked", visit: 1, sequence: 0,
                graph: InspectorGraph(
                    states: ["locked", "unlocked"],
                    edges: [InspectorEdge(from: "locked", event: "coin", to: "unlocked")])))
        door.state = "unlocked"
        door.visit = 2
        door.sequence = 2
        door.lastEvent = "kick"
        door.invalidCount = 1
        door.missed = 12
        door.records = [
            InspectorRecord(
                machine: 1, sequence: 1, visit: 1, before: "locked", event: "coin", outcome: "moved", after: "unlocked"),
            InspectorRecord(
                machine: 1, sequence: 2, visit: 2, before: "unlocked", event: "kick", outcome: "invalid",
                reason: "no kicking", after: "unlocked"),
        ]
        var learned = LearnedGraph(initial: "locked")
        learned.add(state: "unlocked")
        learned.add(InspectorEdge(from: "locked", event: "coin", to: "unlocked"))
        door.learned = learned
        var cart = InspectedMachine(InspectorMachine(id: 2, label: "cart", state: "empty", visit: 3, sequence: 9))
        cart.stopped = true
        var expected = InspectedProgram(recordLimit: 2)
        expected.hello = InspectorHello(program: "shop", pid: 42, started: "2026-11-30T19:27:00Z", machines: 1)
        expected.status = .live
        expected.machines = [door, cart]
        #expect(program == expected)

        program.apply(.bye)
        program.disconnected()
        expected.status = .ended
        #expect(program == expected)
    }

    @Test("a connection closed without bye is lost; records are bounded, repeated ones ignored")
    func lostConnectionAndBoundedRecords() {
        var program = InspectedProgram(recordLimit: 3)
        program.apply(.hello(InspectorHello(program: "p", pid: 1, started: "t", machines: 1)))
        program.apply(.machine(InspectorMachine(id: 5, label: "m", state: "s0", visit: 1, sequence: 0)))
        let records = (1...5).map {
            InspectorRecord(
                machine: 5, sequence: $0, visit: $0, before: "s\($0 - 1)", event: "e", outcome: "stale", after: "s\($0)"
            )
        }
        for record in records + records { program.apply(.record(record)) }
        program.apply(
            .record(
                InspectorRecord(
                    machine: 99, sequence: 1, visit: 1, before: "a", event: "b", outcome: "moved", after: "c")))
        program.disconnected()
        #expect(program.status == .lost)
        #expect(program.machine(5)?.records == Array(records.suffix(3)))
        #expect(program.machine(5)?.staleCount == 5)
        #expect(program.machines.map(\.id) == [5])
    }

    @Test("the learned graph keeps distinct transitions within its bounds")
    func learnedGraphIsBounded() {
        var graph = LearnedGraph(initial: "0")
        for index in 0..<(LearnedGraph.edgeLimit + 10) {
            graph.add(InspectorEdge(from: "0", event: "e\(index)", to: "0"))
        }
        graph.add(InspectorEdge(from: "0", event: "e0", to: "0"))
        #expect(graph.edges.count == LearnedGraph.edgeLimit)
        #expect(graph.dropped == 10)
        #expect(graph.graph.truncated)
        #expect(graph.states == ["0"])
    }

    @Test(
        "socket file names give the program's name and pid",
        arguments: [
            ("shop.12.sock", "shop", 12), ("my.server.7.sock", "my.server", 7),
        ])
    func socketFileNameParses(fileName: String, name: String, pid: Int) {
        let parsed = InspectorDiscovery.parse(fileName: fileName).map { "\($0.name) \($0.pid)" }
        #expect(parsed == "\(name) \(pid)")
    }

    @Test(
        "other file names are not sockets of a program",
        arguments: ["shop.sock", ".12.sock", "shop.x.sock", "a.0.sock", "shop.12"])
    func otherFileNamesAreSkipped(fileName: String) {
        #expect(InspectorDiscovery.parse(fileName: fileName) == nil)
    }
}
