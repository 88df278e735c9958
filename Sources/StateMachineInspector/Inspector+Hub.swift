import StateMachineKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A machine as the inspector last read it, in words.
struct MachineReading: Sendable {
    var state: String
    var visit: Int
    /// The sequence number of the machine's newest record.
    var sequence: Int
    /// The records after the sequence asked for that the history still holds, oldest first.
    var records: [InspectorRecord]
    var stopped: Bool
}

/// A registered machine behind closures, so that machines of any `State` and `Event` sit in one list. The
/// closures hold the machine weakly: registering never keeps a machine alive.
struct MachineEntry: Sendable {
    let label: String
    /// Reads the machine (one `snapshot()`): its records after the given sequence (none for `Int.max`).
    let read: @Sendable (_ id: Int, _ after: Int) -> MachineReading?
    let isAlive: @Sendable () -> Bool
    /// Explores the graph from the state at registration with the sample events; `nil` without any.
    let explore: @Sendable () -> InspectorGraph?
    /// Starts the one `states()` reader that flushes the machine on every change, then once at its end.
    let watch: @Sendable (Inspector, Int) -> Task<Void, Never>

    init<State: Hashable & Sendable, Event: Sendable>(
        _ machine: StateMachine<State, Event>, sampleEvents: [Event], maximumStates: Int,
        describeState: @escaping @Sendable (State) -> String, describeEvent: @escaping @Sendable (Event) -> String
    ) {
        label = machine.label
        read = { [weak machine] id, after in
            guard let machine else { return nil }
            let snapshot = machine.snapshot()
            let stopped = machine.isStopped
            var records: [InspectorRecord] = []
            if after != .max {
                for record in snapshot.history where record.sequence > after {
                    records.append(
                        InspectorRecord(
                            machine: id, sequence: record.sequence, visit: record.visit,
                            before: describeState(record.before), event: describeEvent(record.event),
                            outcome: record.outcome.name, reason: record.outcome.reason,
                            after: describeState(record.after)))
                }
            }
            return MachineReading(
                state: describeState(snapshot.state), visit: snapshot.visit, sequence: snapshot.sequence,
                records: records, stopped: stopped)
        }
        isAlive = { [weak machine] in machine != nil }
        if sampleEvents.isEmpty {
            explore = { nil }
        } else {
            let initial = machine.state
            explore = { [weak machine] in
                guard let machine else { return nil }
                let graph = machine.explore(from: initial, events: sampleEvents, maximumStates: max(1, maximumStates))
                return InspectorGraph(
                    states: graph.states.map(describeState),
                    edges: graph.edges.map {
                        InspectorEdge(
                            from: describeState($0.from), event: describeEvent($0.event), to: describeState($0.to))
                    },
                    truncated: graph.isTruncated)
            }
        }
        watch = { [weak machine] inspector, id in
            Task.detached { [weak inspector] in
                if let stream = machine?.states() {
                    for await _ in stream {
                        inspector?.flush(machine: id)
                        // Newest-only: changes made meanwhile are read together, and a busy machine's senders
                        // do not pay a reader's wake-up for every event.
                        try? await Task.sleep(for: Inspector.readInterval)
                    }
                }
                // The stream ended: the machine stopped or went away, unless the last client left.
                if !Task.isCancelled { inspector?.flush(machine: id) }
            }
        }
    }
}

extension Outcome {
    /// The outcome's name in the protocol: `moved`, `invalid`, ….
    var name: String {
        switch self {
        case .moved: "moved"
        case .updated: "updated"
        case .stayed: "stayed"
        case .ignored: "ignored"
        case .invalid: "invalid"
        case .stopped: "stopped"
        case .stale: "stale"
        case .postponed: "postponed"
        case .overflowed: "overflowed"
        }
    }

    /// Why the event was invalid; `nil` for every other outcome.
    var reason: String? {
        if case .invalid(let reason) = self { reason } else { nil }
    }
}

/// One attached client: its socket and the bytes not yet written to it.
struct InspectorClient {
    let id: Int
    let descriptor: Int32
    var outgoing: [UInt8] = []
    /// How much of `outgoing` is written already.
    var written = 0
    /// How many bytes it sent (all discarded).
    var received = 0

    var pendingCount: Int { outgoing.count - written }
}

/// One registered machine and what has been sent of it.
struct WatchedMachine {
    let id: Int
    let entry: MachineEntry
    /// The sequence of the newest record sent (or announced in a `machine` message).
    var sent = 0
    var state = ""
    var visit = 0
    /// The explored graph, once a client asked for it (explored at most once).
    var graph: InspectorGraph??
    var watcher: Task<Void, Never>?
}

/// Everything the inspector's lock protects. Machines are read under it (their own lock is taken inside
/// this one, never the other way round); sockets are written without waiting.
struct Hub {
    var machines: [WatchedMachine] = []
    var clients: [InspectorClient] = []
    /// Sockets of dropped clients, closed by the I/O thread only, so that it never polls a reused number.
    var toClose: [Int32] = []
    var nextMachine = 1
    var nextClient = 1
    var stopped = false
    var hello = InspectorHello(program: "", pid: 0, started: "", machines: 0)

    // MARK: Machines

    mutating func register(_ entry: MachineEntry, inspector: Inspector) -> Bool {
        guard !stopped else { return false }
        if machines.count >= 64 { pruneReleased() }
        guard machines.count < Inspector.machineLimit else { return false }
        var watched = WatchedMachine(id: nextMachine, entry: entry)
        nextMachine += 1
        if !clients.isEmpty, let reading = entry.read(watched.id, .max) {
            broadcast([.machine(Self.announce(&watched, reading))])
            watched.watcher = entry.watch(inspector, watched.id)
        }
        machines.append(watched)
        return true
    }

    /// Forgets the machines that were released, saying so to the clients.
    mutating func pruneReleased() {
        let gone = machines.filter { !$0.entry.isAlive() }
        guard !gone.isEmpty else { return }
        machines.removeAll { !$0.entry.isAlive() }
        for machine in gone { machine.watcher?.cancel() }
        if !clients.isEmpty { broadcast(gone.map { .stopped(InspectorStopped(machine: $0.id)) }) }
    }

    /// The `machine` message of `watched` from `reading`, which is now what was sent of it.
    static func announce(_ watched: inout WatchedMachine, _ reading: MachineReading) -> InspectorMachine {
        watched.sent = reading.sequence
        watched.state = reading.state
        watched.visit = reading.visit
        if watched.graph == nil { watched.graph = .some(watched.entry.explore()) }
        return InspectorMachine(
            id: watched.id, label: watched.entry.label, state: reading.state, visit: reading.visit,
            sequence: reading.sequence, graph: watched.graph ?? nil)
    }

    /// Reads machine `id` and sends the clients what changed since the last read.
    mutating func flush(machine id: Int) {
        guard !clients.isEmpty, let index = machines.firstIndex(where: { $0.id == id }) else { return }
        let messages = changes(at: index)
        if !messages.isEmpty { broadcast(messages) }
    }

    /// Reads every machine (the tick: records that changed no state wake no reader).
    mutating func flushAll() {
        guard !clients.isEmpty else { return }
        var messages: [InspectorMessage] = []
        var index = 0
        while index < machines.count {
            let before = machines.count
            messages += changes(at: index)
            if machines.count == before { index += 1 }
        }
        if !messages.isEmpty { broadcast(messages) }
    }

    /// What changed in machine `index` since it was last sent; a stopped or released machine is announced
    /// and forgotten.
    mutating func changes(at index: Int) -> [InspectorMessage] {
        changes(at: index, reading: machines[index].entry.read(machines[index].id, machines[index].sent))
    }

    /// What `reading` of machine `index` tells that was not sent yet.
    mutating func changes(at index: Int, reading: MachineReading?) -> [InspectorMessage] {
        let id = machines[index].id
        guard let reading else {
            machines[index].watcher?.cancel()
            machines.remove(at: index)
            return [.stopped(InspectorStopped(machine: id))]
        }
        var messages: [InspectorMessage] = []
        let missed = reading.sequence - machines[index].sent - reading.records.count
        if missed > 0 { messages.append(.missed(InspectorMissed(machine: id, count: missed))) }
        messages += reading.records.map { .record($0) }
        if reading.state != machines[index].state || reading.visit != machines[index].visit {
            messages.append(.state(InspectorState(machine: id, state: reading.state, visit: reading.visit)))
        }
        machines[index].sent = reading.sequence
        machines[index].state = reading.state
        machines[index].visit = reading.visit
        if reading.stopped {
            machines[index].watcher?.cancel()
            machines.remove(at: index)
            messages.append(.stopped(InspectorStopped(machine: id)))
        }
        return messages
    }

    // MARK: Clients

    /// Attaches a client on `descriptor`: brings the others up to date, then sends it `hello` and every
    /// machine as it is; the first client starts the machines' readers.
    mutating func attach(_ descriptor: Int32, inspector: Inspector) {
        guard !stopped else {
            toClose.append(descriptor)
            return
        }
        pruneReleased()
        let first = clients.isEmpty
        var messages: [InspectorMessage] = []
        var announced: [InspectorMessage] = []
        var index = 0
        while index < machines.count {
            let id = machines[index].id
            let reading = machines[index].entry.read(id, first ? .max : machines[index].sent)
            let before = machines.count
            if !first || reading == nil || reading?.stopped == true {
                messages += changes(at: index, reading: reading)
            }
            guard machines.count == before, let reading else { continue }
            announced.append(.machine(Self.announce(&machines[index], reading)))
            if first { machines[index].watcher = machines[index].entry.watch(inspector, id) }
            index += 1
        }
        if !messages.isEmpty { broadcast(messages) }
        if clients.count >= Inspector.clientLimit { dropForRoom() }
        var greeting = hello
        greeting.machines = announced.count
        clients.append(InspectorClient(id: nextClient, descriptor: descriptor))
        nextClient += 1
        send([.hello(greeting)] + announced, to: clients.count - 1)
    }

    /// Makes room for one more client: drops the oldest that has bytes waiting (it does not read), else the
    /// oldest, after telling it why in a last line it may still read.
    mutating func dropForRoom() {
        guard let index = clients.firstIndex(where: { $0.pendingCount > 0 }) ?? clients.indices.first else { return }
        let notice = Self.encode([
            .dropped(InspectorDropped(reason: "more than \(Inspector.clientLimit) clients; the oldest idle one goes"))
        ])
        _ = notice.withUnsafeBytes { SocketCalls.sendSome(clients[index].descriptor, $0) }
        drop(client: index)
    }

    /// Drops client `index`: its socket is closed by the I/O thread; the last one stops the readers.
    mutating func drop(client index: Int) {
        toClose.append(clients[index].descriptor)
        clients.remove(at: index)
        if clients.isEmpty {
            for index in machines.indices {
                machines[index].watcher?.cancel()
                machines[index].watcher = nil
            }
        }
    }

    /// Counts `count` discarded bytes from client `id`; too many end its connection.
    mutating func received(_ count: Int, from id: Int) {
        guard let index = clients.firstIndex(where: { $0.id == id }) else { return }
        clients[index].received += count
        if clients[index].received > Inspector.incomingLimit { drop(client: index) }
    }

    /// Drops client `id` (it hung up or failed).
    mutating func drop(id: Int) {
        if let index = clients.firstIndex(where: { $0.id == id }) { drop(client: index) }
    }

    /// Writes what client `id` can take now.
    mutating func writePending(to id: Int) {
        if let index = clients.firstIndex(where: { $0.id == id }) { _ = write(client: index) }
    }

    /// Queues `messages` for every client.
    mutating func broadcast(_ messages: [InspectorMessage]) {
        let bytes = Self.encode(messages)
        var index = clients.count - 1
        while index >= 0 {
            queue(bytes, to: index)
            index -= 1
        }
    }

    mutating func send(_ messages: [InspectorMessage], to index: Int) {
        queue(Self.encode(messages), to: index)
    }

    /// Appends `bytes` to client `index`'s outgoing buffer and writes what the socket takes; a client with
    /// more than ``Inspector/outgoingLimit`` bytes waiting is dropped, and so is the one that would make all
    /// clients' waiting bytes pass ``Inspector/totalOutgoingLimit``.
    mutating func queue(_ bytes: [UInt8], to index: Int) {
        if clients[index].written > 0 && clients[index].written == clients[index].outgoing.count {
            clients[index].outgoing.removeAll(keepingCapacity: true)
            clients[index].written = 0
        }
        let waiting = clients.reduce(0) { $0 + $1.pendingCount }
        guard clients[index].pendingCount + bytes.count <= Inspector.outgoingLimit,
            waiting + bytes.count <= Inspector.totalOutgoingLimit
        else {
            drop(client: index)
            return
        }
        clients[index].outgoing += bytes
        _ = write(client: index)
    }

    /// Writes without waiting; `false` when the client was dropped (its connection broke).
    mutating func write(client index: Int) -> Bool {
        while clients[index].pendingCount > 0 {
            let written = clients[index].outgoing.withUnsafeBytes { raw in
                SocketCalls.sendSome(
                    clients[index].descriptor, UnsafeRawBufferPointer(rebasing: raw[clients[index].written...]))
            }
            guard let written else {
                drop(client: index)
                return false
            }
            if written == 0 { break }
            clients[index].written += written
        }
        if clients[index].pendingCount == 0 {
            clients[index].outgoing.removeAll(keepingCapacity: clients[index].outgoing.count <= 64 << 10)
            clients[index].written = 0
        }
        return true
    }

    /// Says `bye` to every client and ends inspection; `false` when it had ended already.
    mutating func stop() -> Bool {
        guard !stopped else { return false }
        // What the machines did since the last read goes out before the bye.
        flushAll()
        broadcast([.bye])
        stopped = true
        for index in machines.indices { machines[index].watcher?.cancel() }
        machines.removeAll()
        for client in clients { toClose.append(client.descriptor) }
        clients.removeAll()
        return true
    }

    static func encode(_ messages: [InspectorMessage]) -> [UInt8] {
        var bytes: [UInt8] = []
        for message in messages {
            bytes += message.line().utf8
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }
}
