import Foundation
import StateMachineKit
import Synchronization
import Testing

@testable import StateMachineInspector

enum Door: Hashable, Sendable {
    case locked, unlocked
}

enum DoorEvent: Hashable, Sendable {
    case coin, push, kick
}

@Sendable func door(_ state: Door, _ event: DoorEvent) -> Transition<Door, DoorEvent> {
    switch (state, event) {
    case (.locked, .coin): .to(.unlocked)
    case (.unlocked, .push): .to(.locked)
    case (_, .kick): .invalid("no kicking")
    case (.locked, .push), (.unlocked, .coin): .stay
    }
}

/// A private temporary directory (0700) for one test's sockets, removed afterwards.
final class SocketFolder {
    let path: String

    init() throws {
        var template = Array("/tmp/inspector-test-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw InspectorError.system("mkdtemp") }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// An inspector started under `name` in a private socket folder, with a door machine registered.
struct InspectedDoor {
    let folder: SocketFolder
    let inspector: Inspector
    let machine: StateMachine<Door, DoorEvent>
    /// What `register` answered.
    let registered: Bool

    init(name: String, historyLimit: Int = 64, sampleEvents: [DoorEvent] = []) throws {
        folder = try SocketFolder()
        inspector = try Inspector.start(name: name, directory: folder.path)
        machine = StateMachine(initial: .locked, label: "door", historyLimit: historyLimit, transition: door)
        registered = inspector.register(machine, sampleEvents: sampleEvents)
    }

    func stop() { inspector.stop() }
}

/// Reads messages from `socketPath` on the stream's own thread until `done` says so (or the stream ends).
func collect(
    _ stream: AsyncThrowingStream<InspectorMessage, any Error>, until done: ([InspectorMessage]) -> Bool
) async throws -> [InspectorMessage] {
    var seen: [InspectorMessage] = []
    for try await message in stream {
        seen.append(message)
        if done(seen) { break }
    }
    return seen
}

/// The messages a program sends on `descriptor`, read on a thread of their own until it closes.
func messages(reading descriptor: Int32) -> AsyncThrowingStream<InspectorMessage, any Error> {
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: InspectorMessage.self)
    let thread = Thread {
        let connection = InspectorConnection(reading: descriptor, name: "socket pair")
        do {
            while let message = try connection.next() { continuation.yield(message) }
            continuation.finish()
        } catch {
            continuation.finish(throwing: error)
        }
    }
    thread.start()
    return stream
}

/// A raw client socket that reads nothing unless asked, for the stalled and garbage clients.
func rawClient(_ path: String) throws -> Int32 {
    try SocketCalls.connected(to: path)
}

@Suite("Inspector over a real socket", .serialized)
struct InspectorServerTests {
    @Test("the directory and the socket are private to the user")
    func directoryAndSocketArePrivate() throws {
        let folder = try SocketFolder()
        let directory = folder.path + "/statetui"
        let inspector = try Inspector.start(name: "private", directory: directory)
        defer { inspector.stop() }
        var info = stat()
        #expect(lstat(directory, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
        #expect(lstat(inspector.socketPath, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(inspector.socketPath == directory + "/private.\(getpid()).sock")
    }

    @Test("a directory others may enter, a symlink or a file is refused")
    func unsafeDirectoriesAreRefused() throws {
        let folder = try SocketFolder()
        let open = folder.path + "/open"
        #expect(mkdir(open, 0o755) == 0)
        #expect(chmod(open, 0o755) == 0)
        let link = folder.path + "/link"
        let target = folder.path + "/target"
        #expect(mkdir(target, 0o700) == 0)
        #expect(symlink(target, link) == 0)
        let file = folder.path + "/file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        for path in [open, link, file] {
            #expect(throws: InspectorError.self) { try Inspector.start(name: "x", directory: path) }
        }
    }

    @Test(
        "names outside letters, digits, dot, underscore and dash are refused",
        arguments: ["", "a/b", "a b", String(repeating: "n", count: 65)])
    func badNamesAreRefused(name: String) throws {
        let folder = try SocketFolder()
        #expect(throws: InspectorError.self) { try Inspector.start(name: name, directory: folder.path) }
    }

    @Test("the peer of a connection is this user")
    func peerIsThisUser() throws {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { for end in pair { close(end) } }
        #expect(SocketCalls.peerUID(pair[0]) == getuid())
    }

    @Test("a client sees hello, every machine, and then each event the machine handles")
    func clientFollowsTransitions() async throws {
        let inspected = try InspectedDoor(name: "shop", sampleEvents: [.coin, .push])
        defer { inspected.stop() }
        #expect(inspected.registered)
        let stream = InspectorConnection.messages(socketPath: inspected.inspector.socketPath)
        var iterator = stream.makeAsyncIterator()
        let hello = try await iterator.next()
        #expect(
            hello
                == .hello(
                    InspectorHello(
                        program: "shop", pid: Int(getpid()), started: inspected.inspector.started, machines: 1)))
        let graph = InspectorGraph(
            states: ["locked", "unlocked"],
            edges: [
                InspectorEdge(from: "locked", event: "coin", to: "unlocked"),
                InspectorEdge(from: "unlocked", event: "push", to: "locked"),
            ])
        #expect(
            try await iterator.next()
                == .machine(
                    InspectorMachine(id: 1, label: "door", state: "locked", visit: 1, sequence: 0, graph: graph)))
        inspected.machine.send(.coin)
        inspected.machine.send(.kick)
        inspected.machine.send(.push)
        var records: [InspectorRecord] = []
        while records.count < 3, let message = try await iterator.next() {
            if case .record(let record) = message { records.append(record) }
        }
        #expect(
            records == [
                InspectorRecord(
                    machine: 1, sequence: 1, visit: 1, before: "locked", event: "coin", outcome: "moved",
                    after: "unlocked"),
                InspectorRecord(
                    machine: 1, sequence: 2, visit: 2, before: "unlocked", event: "kick", outcome: "invalid",
                    reason: "no kicking", after: "unlocked"),
                InspectorRecord(
                    machine: 1, sequence: 3, visit: 2, before: "unlocked", event: "push", outcome: "moved",
                    after: "locked"),
            ])
        inspected.machine.stop()
        var ending: [InspectorMessage] = []
        while let message = try await iterator.next() {
            ending.append(message)
            if case .stopped = message { break }
        }
        #expect(ending.last == .stopped(InspectorStopped(machine: 1)))
        inspected.inspector.stop()
        #expect(try await iterator.next() == .bye)
        #expect(try await iterator.next() == nil)
        #expect(!FileManager.default.fileExists(atPath: inspected.inspector.socketPath))
    }

    @Test("the client's reading thread waits at the buffer limit, and the iteration still gets every message")
    func clientBufferStopsReadingAtItsLimit() async throws {
        let (stream, continuation) = InspectorConnection.makeStream(of: Int.self, bufferLimit: 2)
        let full = DispatchSemaphore(value: 0)
        let yielded = YieldCount()
        let reader = Thread {
            var signalled = false
            for message in 1...10 {
                let taken = InspectorConnection.yield(message, to: continuation) {
                    if !signalled {
                        signalled = true
                        full.signal()
                    }
                    usleep(500)
                }
                guard taken else { return }
                yielded.value.add(1, ordering: .relaxed)
            }
            continuation.finish()
        }
        reader.start()
        // An unbounded buffer would never make the reader wait, and this would time out.
        #expect(full.wait(timeout: .now() + 30) == .success)
        // Waiting to offer the third message: the first two wait in the stream, the rest are still unread.
        #expect(yielded.value.load(ordering: .relaxed) == 2)
        var received: [Int] = []
        for try await message in stream { received.append(message) }
        #expect(received == Array(1...10))
    }

    /// How many messages the reading thread has handed to the stream.
    final class YieldCount: Sendable {
        let value = Atomic<Int>(0)
    }

    @Test("a client iterating behind a small buffer still receives every record in order")
    func slowIterationLosesNothing() async throws {
        let inspected = try InspectedDoor(name: "slow")
        defer { inspected.stop() }
        var iterator = InspectorConnection.messages(socketPath: inspected.inspector.socketPath, bufferLimit: 2)
            .makeAsyncIterator()
        _ = try await iterator.next()
        _ = try await iterator.next()
        for _ in 0..<40 { inspected.machine.send(.push) }
        var sequences: [Int] = []
        while sequences.count < 40, let message = try await iterator.next() {
            if case .record(let record) = message { sequences.append(record.sequence) }
        }
        #expect(sequences == Array(1...40))
    }

    @Test("records the history overwrote before they were read are counted, not buffered")
    func overwrittenRecordsAreMissed() async throws {
        let inspected = try InspectedDoor(name: "busy", historyLimit: 4)
        defer { inspected.stop() }
        let stream = InspectorConnection.messages(socketPath: inspected.inspector.socketPath)
        var iterator = stream.makeAsyncIterator()
        _ = try await iterator.next()
        _ = try await iterator.next()
        // While the inspector's lock is held its reader can hand over at most one batch: the 100 events
        // overwrite the ring of 4 meanwhile.
        inspected.inspector.hub.withLock { _ in
            for _ in 0..<100 { inspected.machine.send(.push) }
        }
        var after: [InspectorMessage] = []
        var covered: [Int] = []
        while covered.last != 100, let message = try await iterator.next() {
            after.append(message)
            switch message {
            case .missed(let missed): covered += (covered.count + 1)...(covered.count + missed.count)
            case .record(let record): covered.append(record.sequence)
            default: break
            }
        }
        // Every record is sent or counted as missed, once and in order, whichever batches the reader got.
        #expect(covered == Array(1...100))
        let records = after.compactMap { message -> InspectorRecord? in
            if case .record(let record) = message { record } else { nil }
        }
        #expect(
            records
                == records.map {
                    InspectorRecord(
                        machine: 1, sequence: $0.sequence, visit: 1, before: "locked", event: "push",
                        outcome: "stayed", after: "locked")
                })
        #expect(records.suffix(4).map(\.sequence) == Array(97...100))
        // Pushes leave the door as it was: no `state` message.
        #expect(after.filter { if case .state = $0 { true } else { false } } == [])
    }

    @Test(
        "a record that leaves the state as it was reaches a client at once, with nothing polling machines",
        .timeLimit(.minutes(1)))
    func recordsThatChangeNoStateArriveAtOnce() async throws {
        let inspected = try InspectedDoor(name: "still")
        defer { inspected.stop() }
        var ends: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        #expect(SocketCalls.setNonBlocking(ends[0]))
        // Attached straight to the hub, not through the listener: the I/O thread never learns of this client
        // and waits in poll for good, so no tick could read the machine for it.
        inspected.inspector.hub.withLock { $0.attach(ends[0], inspector: inspected.inspector) }
        let stream = messages(reading: ends[1])
        var iterator = stream.makeAsyncIterator()
        #expect(
            try await iterator.next()
                == .hello(
                    InspectorHello(
                        program: "still", pid: Int(getpid()), started: inspected.inspector.started, machines: 1)))
        #expect(
            try await iterator.next()
                == .machine(InspectorMachine(id: 1, label: "door", state: "locked", visit: 1, sequence: 0)))
        inspected.machine.send(.kick)
        inspected.machine.send(.push)
        let records = [try await iterator.next(), try await iterator.next()]
        #expect(
            records == [
                .record(
                    InspectorRecord(
                        machine: 1, sequence: 1, visit: 1, before: "locked", event: "kick", outcome: "invalid",
                        reason: "no kicking", after: "locked")),
                .record(
                    InspectorRecord(
                        machine: 1, sequence: 2, visit: 1, before: "locked", event: "push", outcome: "stayed",
                        after: "locked")),
            ])
    }

    @Test("a client that sends garbage loses its own connection only")
    func garbageEndsOnlyThatConnection() async throws {
        let inspected = try InspectedDoor(name: "garbage")
        defer { inspected.stop() }
        let good = InspectorConnection.messages(socketPath: inspected.inspector.socketPath)
        var iterator = good.makeAsyncIterator()
        _ = try await iterator.next()
        _ = try await iterator.next()

        let bad = try rawClient(inspected.inspector.socketPath)
        defer { close(bad) }
        let garbage = [UInt8](repeating: UInt8(ascii: "{"), count: Inspector.incomingLimit + 4096)
        var sent = 0
        while sent < garbage.count {
            let wrote = garbage[sent...].withUnsafeBytes { send(bad, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if wrote <= 0 { break }
            sent += wrote
        }
        // The bad client's connection ends: reading drains what was sent to it, then hits the end.
        var scratch = [UInt8](repeating: 0, count: 4096)
        SocketCalls.setReceiveTimeout(bad, seconds: 10)
        var got = 1
        while got > 0 { got = scratch.withUnsafeMutableBytes { read(bad, $0.baseAddress, $0.count) } }
        #expect(got == 0)

        inspected.machine.send(.coin)
        var next: InspectorMessage?
        repeat {
            next = try await iterator.next()
        } while next.map { if case .record = $0 { false } else { true } } ?? false
        #expect(
            next
                == .record(
                    InspectorRecord(
                        machine: 1, sequence: 1, visit: 1, before: "locked", event: "coin", outcome: "moved",
                        after: "unlocked")))
        #expect(inspected.machine.state == .unlocked)
    }

    @Test(
        "a client that never reads is dropped at the outgoing bound; the program never waits", .timeLimit(.minutes(1)))
    func stalledClientIsDropped() async throws {
        let folder = try SocketFolder()
        let inspector = try Inspector.start(name: "stalled", directory: folder.path)
        defer { inspector.stop() }
        let machine = StateMachine<Door, DoorEvent>(initial: .locked, label: "door", transition: door)
        // Long descriptions fill the stalled client's buffer after a few events.
        let padding = String(repeating: "x", count: 32 << 10)
        inspector.register(machine, describeState: { "\($0) \(padding)" })
        var counts = inspector.clientCounts().makeAsyncIterator()
        let stalled = try rawClient(inspector.socketPath)
        defer { close(stalled) }
        while let count = await counts.next(), count == 0 {}
        #expect(inspector.clientCount == 1)
        // 64 events of ~100 KiB each are several times the outgoing bound, and the machine's history (64
        // records) keeps every one of them for the inspector's reader however it batches them.
        for event in 0..<64 { machine.send(event % 2 == 0 ? .coin : .push) }
        while let count = await counts.next(), count > 0 {}
        #expect(inspector.clientCount == 0)
        #expect(inspector.hub.withLock { $0.clients.allSatisfy { $0.pendingCount <= Inspector.outgoingLimit } })
    }

    /// A CI run under ThreadSanitizer died in `statetui inspect`'s list test: the I/O thread, woken by the
    /// lister's hang-up, found the inspector stopped and closed the wake pipe while `stop()` was about to write
    /// its wake-up byte into it, and that write raised SIGPIPE.
    @Test("once stop() returns a client has the bye and the end, and a later wake-up stays in the inspector's pipe")
    func stopWaitsForTheConnectionsToClose() async throws {
        let inspected = try InspectedDoor(name: "stopping")
        var counts = inspected.inspector.clientCounts().makeAsyncIterator()
        let client = try rawClient(inspected.inspector.socketPath)
        defer { close(client) }
        while let count = await counts.next(), count == 0 {}
        inspected.stop()
        // Everything the program sent is already there, its end included: nothing read here waits.
        var received: [UInt8] = []
        var scratch = [UInt8](repeating: 0, count: 4096)
        var got = 1
        while got > 0 {
            got = scratch.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if got > 0 { received += scratch[..<got] }
        }
        #expect(got == 0)
        let lines = String(decoding: received, as: UTF8.self).split(separator: "\n")
        #expect(try lines.map { try InspectorMessage(line: $0) }.last == .bye)
        // The I/O thread has ended, maybe before it drained stop()'s own wake-up. A machine's reader waking it
        // late writes into the pipe, still open.
        let wakeRead = inspected.inspector.wakeRead
        _ = scratch.withUnsafeMutableBytes { read(wakeRead, $0.baseAddress, $0.count) }
        inspected.inspector.wakeUp()
        #expect(scratch.withUnsafeMutableBytes { read(wakeRead, $0.baseAddress, $0.count) } == 1)
    }

    @Test("the lister finds live programs with their machine counts and removes dead programs' sockets only")
    func listerFindsLiveAndCleansDead() throws {
        let inspected = try InspectedDoor(name: "lister")
        defer { inspected.stop() }
        let ghost = inspected.folder.path + "/ghost.\(Int32.max).sock"
        close(try SocketCalls.listening(at: ghost))
        // Issue 24: a regular file and a symlink under a dead program's name are not the lister's to delete.
        let notes = inspected.folder.path + "/notes.\(Int32.max - 1).sock"
        #expect(FileManager.default.createFile(atPath: notes, contents: Data("mine".utf8)))
        let pointer = inspected.folder.path + "/pointer.\(Int32.max - 2).sock"
        #expect(symlink(notes, pointer) == 0)
        let found = InspectorDiscovery.list(directory: inspected.folder.path)
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "mine")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: pointer) == notes)
        #expect(
            found == [
                InspectableProcess(
                    name: "lister", pid: Int(getpid()), socketPath: inspected.inspector.socketPath, machines: 1,
                    started: inspected.inspector.started)
            ])
        #expect(!FileManager.default.fileExists(atPath: ghost))
    }

    @Test("a target resolves by name, pid or path; unknown and ambiguous names are errors")
    func targetsResolve() throws {
        let folder = try SocketFolder()
        let first = try Inspector.start(name: "twin", directory: folder.path)
        defer { first.stop() }
        #expect(try InspectorDiscovery.resolve("twin", directory: folder.path) == first.socketPath)
        #expect(try InspectorDiscovery.resolve(String(getpid()), directory: folder.path) == first.socketPath)
        #expect(try InspectorDiscovery.resolve(first.socketPath, directory: folder.path) == first.socketPath)
        #expect(throws: InspectorError.self) { try InspectorDiscovery.resolve("nobody", directory: folder.path) }
        #expect(throws: InspectorError.self) { try InspectorDiscovery.resolve(folder.path, directory: folder.path) }
        let other = folder.path + "/other"
        #expect(mkdir(other, 0o700) == 0)
        let second = try Inspector.start(name: "twin", directory: other)
        defer { second.stop() }
        // Same name twice in one directory: a hand-made second socket of the same program under another pid.
        let twin = folder.path + "/twin.1.sock"
        #expect(link(second.socketPath, twin) == 0 || symlink(second.socketPath, twin) == 0)
        #expect(throws: InspectorError.self) { try InspectorDiscovery.resolve("twin", directory: folder.path) }
    }

    @Test("one client past the limit drops the oldest idle one, which is told why")
    func clientsAreBoundedAndTheOldestIdleIsDropped() async throws {
        let inspected = try InspectedDoor(name: "crowd")
        defer { inspected.stop() }
        var clients: [Int32] = []
        defer { for client in clients { close(client) } }
        for _ in 0...Inspector.clientLimit {
            clients.append(try rawClient(inspected.inspector.socketPath))
        }
        // The oldest reads what it was sent, then the notice, then the end of its connection.
        SocketCalls.setReceiveTimeout(clients[0], seconds: 30)
        var received: [UInt8] = []
        var scratch = [UInt8](repeating: 0, count: 4096)
        while true {
            let got = scratch.withUnsafeMutableBytes { read(clients[0], $0.baseAddress, $0.count) }
            if got <= 0 { break }
            received += scratch[..<got]
        }
        let lines = String(decoding: received, as: UTF8.self).split(separator: "\n")
        #expect(
            try lines.map { try InspectorMessage(line: $0).type } == ["hello", "machine", "dropped"])
        #expect(
            lines.last
                == #"{"reason":"more than 64 clients; the oldest idle one goes","type":"dropped"}"#)
        #expect(inspected.inspector.clientCount == Inspector.clientLimit)
    }

    @Test("a client whose program drops it ends with an error that says so")
    func aDroppedConnectionIsAnError() throws {
        let served = try ServedBytes(
            InspectorMessage.hello(InspectorHello(program: "p", pid: 1, started: "now", machines: 0)).line() + "\n"
                + InspectorMessage.dropped(InspectorDropped(reason: "too many")).line() + "\n")
        _ = try served.connection.next()
        #expect(throws: InspectorError("\(served.path): the program dropped this connection: \"too many\"")) {
            try served.connection.next()
        }
    }

    @Test("a peer that never says hello is given up on with a clear error")
    func aSilentPeerTimesOut() throws {
        let served = try ServedBytes("")
        #expect(
            throws: InspectorError(
                "\(served.path): no hello within \(InspectorConnection.helloTimeout) seconds; not an inspector, or it is stuck"
            )
        ) {
            try served.connection.next()
        }
    }

    @Test("escape sequences a peer sends are escaped in the error that quotes them")
    func aPeersEscapesAreEscaped() throws {
        let served = try ServedBytes("\u{1B}]2;TITLE\u{07}\u{1B}[2J\u{9B}31m\n")
        #expect(
            throws: InspectorError(
                #"\#(served.path): not an inspector message: "\u{1B}]2;TITLE\u{7}\u{1B}[2J\u{9B}31m""#)
        ) {
            try served.connection.next()
        }
    }
}

/// A socket that sends `bytes` to the one client it accepts and then stays silent, with that client.
final class ServedBytes {
    let folder: SocketFolder
    let path: String
    let listener: Int32
    let accepted: Int32
    let connection: InspectorConnection

    init(_ bytes: String) throws {
        folder = try SocketFolder()
        path = folder.path + "/peer.1.sock"
        listener = try SocketCalls.listening(at: path)
        connection = try InspectorConnection(socketPath: path)
        accepted = accept(listener, nil, nil)
        guard accepted >= 0 else { throw InspectorError.system("accept") }
        var bytes = bytes
        let sent = bytes.withUTF8 { send(accepted, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.utf8.count else { throw InspectorError.system("send") }
    }

    deinit {
        connection.close()
        close(accepted)
        close(listener)
    }
}

@Suite("What the inspector sends of a batch")
struct InspectorBatchTests {
    /// Machine 1's record of a `push` that left the door locked.
    static func record(_ sequence: Int, visit: Int = 1) -> InspectorRecord {
        InspectorRecord(
            machine: 1, sequence: sequence, visit: visit, before: "locked", event: "push", outcome: "stayed",
            after: "locked")
    }

    /// A hub with one door machine of which records up to `sent` were sent, in state `locked`, visit 1.
    static func hub(sent: Int, machine: StateMachine<Door, DoorEvent>) -> Hub {
        var hub = Hub()
        let entry = MachineEntry(
            machine, sampleEvents: [], maximumStates: 1, describeState: { "\($0)" }, describeEvent: { "\($0)" })
        hub.machines.append(WatchedMachine(id: 1, entry: entry, sent: sent, state: "locked", visit: 1))
        return hub
    }

    @Test("records at or below what was sent are dropped, and missed closes the gap after it exactly")
    func overlapIsDroppedAndGapsCounted() {
        let machine = StateMachine(initial: Door.locked, label: "door", transition: door)
        var hub = Self.hub(sent: 5, machine: machine)
        let overlapping = MachineBatch(
            records: (4...7).map { Self.record($0) }, missed: 0, sequence: 7, state: "locked", visit: 1)
        #expect(hub.messages(for: overlapping, at: 0) == [.record(Self.record(6)), .record(Self.record(7))])
        #expect(hub.machines[0].sent == 7)
        let stale = MachineBatch(records: [Self.record(7)], missed: 0, sequence: 7, state: "locked", visit: 1)
        #expect(hub.messages(for: stale, at: 0) == [])
        let gapped = MachineBatch(
            records: [Self.record(11), Self.record(12, visit: 2)], missed: 4, sequence: 12, state: "unlocked",
            visit: 3)
        #expect(
            hub.messages(for: gapped, at: 0) == [
                .missed(InspectorMissed(machine: 1, count: 3)), .record(Self.record(11)),
                .record(Self.record(12, visit: 2)), .state(InspectorState(machine: 1, state: "unlocked", visit: 3)),
            ])
    }

    @Test("a batch's visit is the one after its newest record: a move starts the next")
    func visitComesFromTheNewestRecord() {
        let machine = StateMachine(initial: Door.locked, label: "door", transition: door)
        machine.send(.kick)
        machine.send(.coin)
        let feedBatch = StateMachine<Door, DoorEvent>.RecordBatch(
            records: machine.history, missed: 0, state: machine.state)
        let batch = MachineBatch(
            feedBatch, after: 0, machine: 1, visit: nil, describeState: { "\($0)" }, describeEvent: { "\($0)" })
        #expect(
            batch
                == MachineBatch(
                    records: [
                        InspectorRecord(
                            machine: 1, sequence: 1, visit: 1, before: "locked", event: "kick", outcome: "invalid",
                            reason: "no kicking", after: "locked"),
                        InspectorRecord(
                            machine: 1, sequence: 2, visit: 1, before: "locked", event: "coin", outcome: "moved",
                            after: "unlocked"),
                    ], missed: 0, sequence: 2, state: "unlocked", visit: 2))
    }
}
