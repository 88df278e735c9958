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

/// Records of one machine as the inspector read them, in words: a batch of its feed, or the machine read
/// at once.
struct MachineBatch: Sendable, Equatable {
    /// The records after the reader's cursor still in history, oldest first.
    var records: [InspectorRecord]
    /// How many records after the cursor fell out of the history before they were read.
    var missed: Int
    /// The sequence number of the newest record the batch accounts for.
    var sequence: Int
    var state: String
    /// The visit after the newest record; `nil` when the batch cannot tell (no record kept in history).
    var visit: Int?

    /// `batch` in words: `cursor` is the sequence it was read after; `visit` is the machine's visit, for
    /// when no record tells it.
    init<State: Hashable & Sendable, Event: Sendable>(
        _ batch: StateMachine<State, Event>.RecordBatch, after cursor: Int, machine id: Int, visit: Int?,
        describeState: (State) -> String, describeEvent: (Event) -> String
    ) {
        records = batch.records.map { record in
            InspectorRecord(
                machine: id, sequence: record.sequence, visit: record.visit, before: describeState(record.before),
                event: describeEvent(record.event), outcome: record.outcome.name, reason: record.outcome.reason,
                after: describeState(record.after))
        }
        missed = batch.missed
        sequence = cursor + batch.missed + batch.records.count
        state = describeState(batch.state)
        // A record's visit is the one its event arrived in: a move starts the next.
        if let last = batch.records.last {
            self.visit = last.outcome == .moved ? last.visit + 1 : last.visit
        } else {
            self.visit = visit
        }
    }

    init(records: [InspectorRecord], missed: Int, sequence: Int, state: String, visit: Int?) {
        self.records = records
        self.missed = missed
        self.sequence = sequence
        self.state = state
        self.visit = visit
    }
}

/// A machine read at once (one `snapshot()`), in words: its records after the sequence asked for, if any.
struct MachineReading: Sendable {
    var batch: MachineBatch
    var stopped: Bool
}

/// A registered machine behind closures, so that machines of any `State` and `Event` sit in one list. The
/// closures hold the machine weakly: registering never keeps a machine alive.
struct MachineEntry: Sendable {
    let label: String
    /// Reads the machine at once (one `snapshot()`): its records after the given sequence, none for `nil`.
    /// For announcing a machine, and for the records not yet sent when inspection stops.
    let read: @Sendable (_ id: Int, _ after: Int?) -> MachineReading?
    let isAlive: @Sendable () -> Bool
    /// Explores the graph from the state at registration with the sample events; `nil` without any.
    let explore: @Sendable () -> InspectorGraph?
    /// Starts the one `records(after:)` reader that hands the inspector every batch of the machine's records
    /// after the given sequence, then says the machine ended (stopped or gone) unless it was cancelled.
    let watch: @Sendable (Inspector, _ id: Int, _ after: Int) -> Task<Void, Never>

    init<State: Hashable & Sendable, Event: Sendable>(
        _ machine: StateMachine<State, Event>, sampleEvents: [Event], maximumStates: Int,
        describeState: @escaping @Sendable (State) -> String, describeEvent: @escaping @Sendable (Event) -> String
    ) {
        label = machine.label
        read = { [weak machine] id, after in
            guard let machine else { return nil }
            let snapshot = machine.snapshot()
            let stopped = machine.isStopped
            let cursor = after ?? snapshot.sequence
            let kept = snapshot.history.filter { $0.sequence > cursor }
            let batch = StateMachine<State, Event>.RecordBatch(
                records: kept, missed: max(0, snapshot.sequence - cursor - kept.count), state: snapshot.state)
            return MachineReading(
                batch: MachineBatch(
                    batch, after: min(cursor, snapshot.sequence), machine: id, visit: snapshot.visit,
                    describeState: describeState, describeEvent: describeEvent),
                stopped: stopped)
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
        watch = { [weak machine] inspector, id, after in
            // The reader is added now, under the inspector's lock, so that its cursor is what was sent.
            let feed = machine?.records(after: after)
            return Task.detached { [weak inspector, weak machine] in
                var cursor = after
                if let feed {
                    for await batch in feed {
                        let words = MachineBatch(
                            batch, after: cursor, machine: id, visit: batch.records.isEmpty ? machine?.visit : nil,
                            describeState: describeState, describeEvent: describeEvent)
                        cursor = words.sequence
                        inspector?.deliver(words, machine: id)
                    }
                }
                // The feed ended after the last records: the machine stopped or went away, unless the last
                // client left.
                if !Task.isCancelled { inspector?.ended(machine: id) }
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
    /// The streams of ``Inspector/clientCounts()`` still read, by id; told every change of ``clients``.
    var countReaders: [Int: AsyncStream<Int>.Continuation] = [:]
    var nextCountReader = 1

    // MARK: Machines

    mutating func register(_ entry: MachineEntry, inspector: Inspector) -> Bool {
        guard !stopped else { return false }
        if machines.count >= 64 { pruneReleased() }
        guard machines.count < Inspector.machineLimit else { return false }
        var watched = WatchedMachine(id: nextMachine, entry: entry)
        nextMachine += 1
        if !clients.isEmpty, let reading = entry.read(watched.id, nil) {
            broadcast([.machine(Self.announce(&watched, reading.batch))])
            watched.watcher = entry.watch(inspector, watched.id, watched.sent)
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

    /// The `machine` message of `watched` as read in `batch`, which is now what was sent of it.
    static func announce(_ watched: inout WatchedMachine, _ batch: MachineBatch) -> InspectorMachine {
        watched.sent = batch.sequence
        watched.state = batch.state
        if let visit = batch.visit { watched.visit = visit }
        return announce(&watched)
    }

    /// The `machine` message of `watched` as it was last sent.
    static func announce(_ watched: inout WatchedMachine) -> InspectorMachine {
        if watched.graph == nil { watched.graph = .some(watched.entry.explore()) }
        return InspectorMachine(
            id: watched.id, label: watched.entry.label, state: watched.state, visit: watched.visit,
            sequence: watched.sent, graph: watched.graph ?? nil)
    }

    /// Sends the clients what `batch` of machine `id`'s feed holds that was not sent yet.
    mutating func deliver(_ batch: MachineBatch, machine id: Int) {
        guard !clients.isEmpty, let index = machines.firstIndex(where: { $0.id == id }) else { return }
        let messages = messages(for: batch, at: index)
        if !messages.isEmpty { broadcast(messages) }
    }

    /// Says machine `id` stopped (its feed ended: it stopped or went away) and forgets it.
    mutating func ended(machine id: Int) {
        guard let index = machines.firstIndex(where: { $0.id == id }) else { return }
        machines[index].watcher?.cancel()
        machines.remove(at: index)
        if !clients.isEmpty { broadcast([.stopped(InspectorStopped(machine: id))]) }
    }

    /// The messages that tell what `batch` holds beyond what was sent of machine `index`, which it then is:
    /// records at or below the sequence sent already are dropped (a reader from before the last client left
    /// may still hand them over), and `missed` closes the gap between the last sent and the first record.
    mutating func messages(for batch: MachineBatch, at index: Int) -> [InspectorMessage] {
        let sent = machines[index].sent
        guard batch.sequence > sent else { return [] }
        let id = machines[index].id
        var messages: [InspectorMessage] = []
        let missed = batch.sequence - batch.records.count - sent
        if missed > 0 { messages.append(.missed(InspectorMissed(machine: id, count: missed))) }
        for record in batch.records where record.sequence > sent { messages.append(.record(record)) }
        let visit = batch.visit ?? machines[index].visit
        if batch.state != machines[index].state || visit != machines[index].visit {
            messages.append(.state(InspectorState(machine: id, state: batch.state, visit: visit)))
        }
        machines[index].sent = batch.sequence
        machines[index].state = batch.state
        machines[index].visit = visit
        return messages
    }

    // MARK: Clients

    /// Attaches a client on `descriptor` and sends it `hello` and every machine as last sent. The first
    /// client reads every machine as it is now and starts their feed readers; a later one joins the others,
    /// whose readers send everyone what follows.
    mutating func attach(_ descriptor: Int32, inspector: Inspector) {
        guard !stopped else {
            toClose.append(descriptor)
            return
        }
        pruneReleased()
        let first = clients.isEmpty
        var announced: [InspectorMessage] = []
        var index = 0
        while index < machines.count {
            if first {
                let id = machines[index].id
                guard let reading = machines[index].entry.read(id, nil), !reading.stopped else {
                    machines.remove(at: index)
                    continue
                }
                announced.append(.machine(Self.announce(&machines[index], reading.batch)))
                machines[index].watcher = machines[index].entry.watch(inspector, id, machines[index].sent)
            } else {
                announced.append(.machine(Self.announce(&machines[index])))
            }
            index += 1
        }
        if clients.count >= Inspector.clientLimit { dropForRoom() }
        var greeting = hello
        greeting.machines = announced.count
        clients.append(InspectorClient(id: nextClient, descriptor: descriptor))
        nextClient += 1
        send([.hello(greeting)] + announced, to: clients.count - 1)
        clientsChanged()
    }

    /// Tells the readers of ``Inspector/clientCounts()`` how many clients are attached now.
    func clientsChanged() {
        for reader in countReaders.values { reader.yield(clients.count) }
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
        clientsChanged()
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
        // What the machines did that their readers have not handed over yet goes out before the bye: the
        // program may be exiting, and its tasks may never run again.
        if !clients.isEmpty {
            var messages: [InspectorMessage] = []
            for index in machines.indices {
                let reading = machines[index].entry.read(machines[index].id, machines[index].sent)
                if let reading { messages += self.messages(for: reading.batch, at: index) }
                if reading?.stopped ?? true { messages.append(.stopped(InspectorStopped(machine: machines[index].id))) }
            }
            if !messages.isEmpty { broadcast(messages) }
        }
        broadcast([.bye])
        stopped = true
        for index in machines.indices { machines[index].watcher?.cancel() }
        machines.removeAll()
        for client in clients { toClose.append(client.descriptor) }
        clients.removeAll()
        clientsChanged()
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
