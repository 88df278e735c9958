import Dispatch
import StateMachineKit
import Support

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

/// Makes a running program's state machines visible to `statetui inspect`, over a private Unix socket.
///
/// ```swift
/// let inspector = try Inspector.start(name: "myserver")
/// inspector.register(machine)
/// ```
///
/// While no client is attached, nothing is read or sent: a registered machine costs what an unregistered
/// one does. While one is, each machine is read through one `records(after:)` reader, the engine's change
/// feed: every record reaches the clients as the machine makes it, and a reader that falls behind gets what
/// it missed in one batch (``InspectorMissed`` says how many records the history ring overwrote first). Each
/// client's outgoing bytes are bounded: a client that stops reading is disconnected, and the program never
/// waits for it. Clients cannot send anything into the program: what they write is read with a bound and
/// discarded, and too much of it ends their connection. The protocol is in <doc:InspectorProtocol>.
public final class Inspector: Sendable {
    /// The name given to ``start(name:directory:)``.
    public let name: String
    /// Where the socket is: `DIRECTORY/NAME.PID.sock`.
    public let socketPath: String
    /// When inspection started, ISO 8601 in UTC.
    public let started: String

    let hub: Locked<Hub>
    let listener: Int32
    /// A pipe whose write end wakes the I/O thread from `poll`. Both ends stay open until the inspector is
    /// released (`deinit`), never closed by the I/O thread: a wake-up may come after the thread has ended (a
    /// ``stop()`` racing its return, a machine's reader delivering late), and a closed end would turn it into
    /// a SIGPIPE that kills the program, or a byte written into whatever file took the descriptor's number.
    let wakeRead: Int32
    let wakeWrite: Int32
    /// Signalled once by the I/O thread when it returns: what ``stop()`` waits for.
    let served = DispatchSemaphore(value: 0)

    /// How many bytes may wait for one client before it is disconnected.
    public static let outgoingLimit = 1 << 20
    /// How many bytes may wait for all clients together; the client that would pass it is disconnected.
    public static let totalOutgoingLimit = 8 << 20
    /// How many clients may be attached at once. One more drops the oldest idle one (the oldest of those
    /// with bytes waiting, else the oldest), which is told so with a ``InspectorMessage/dropped(_:)``.
    public static let clientLimit = 64
    /// How many bytes a client may send (all discarded) before its connection ends.
    public static let incomingLimit = 64 << 10
    /// How many machines may be registered at once; more are refused by ``register(_:sampleEvents:maximumStates:describeState:describeEvent:)``.
    public static let machineLimit = 4096

    private init(name: String, socketPath: String, listener: Int32, wake: (Int32, Int32)) {
        self.name = name
        self.socketPath = socketPath
        self.listener = listener
        (wakeRead, wakeWrite) = wake
        let started = Date().formatted(.iso8601)
        self.started = started
        hub = Locked(Hub(hello: InspectorHello(program: name, pid: Int(getpid()), started: started, machines: 0)))
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Starts inspection under `name` (letters, digits, `.`, `_`, `-`; 1 to 64 of them): creates the
    /// private directory if needed (``InspectorDirectory``), listens on `NAME.PID.sock` in it, and serves
    /// clients on a thread of its own until ``stop()`` or the program's exit.
    ///
    /// - Parameters:
    ///   - name: the program's name in `statetui inspect`'s list.
    ///   - directory: the socket directory; ``InspectorDirectory/current`` when `nil`.
    public static func start(name: String, directory: String? = nil) throws(InspectorError) -> Inspector {
        guard (1...64).contains(name.utf8.count),
            name.utf8.allSatisfy({
                $0.isASCIILetterOrDigit || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
            })
        else {
            throw InspectorError("inspector name must be 1 to 64 letters, digits, '.', '_' or '-': \(name.prefix(80))")
        }
        let folder = directory ?? InspectorDirectory.current
        try InspectorDirectory.prepare(folder)
        let path = folder + "/\(name).\(getpid()).sock"
        // A socket left by an earlier run of this same pid (a re-exec) is ours to replace; anything else in
        // its place is not ours to delete, and bind refuses it below.
        InspectorDiscovery.removeSocket(at: path)
        let listener = try SocketCalls.listening(at: path)
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            let error = InspectorError.system("pipe")
            close(listener)
            unlink(path)
            throw error
        }
        for end in pipeEnds {
            _ = SocketCalls.setNonBlocking(end)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        let inspector = Inspector(name: name, socketPath: path, listener: listener, wake: (pipeEnds[0], pipeEnds[1]))
        InspectorRegistry.shared.add(inspector)
        DetachedThread.start(name: "statetui-inspector") { inspector.serve() }
        return inspector
    }

    /// Makes `machine` inspectable until it stops or is released; `false` when ``machineLimit`` machines
    /// are registered already or inspection has stopped.
    ///
    /// Costs one lock and an append: nothing of the machine is read while no client is attached.
    ///
    /// - Parameters:
    ///   - machine: the machine; held weakly, so registering never keeps it alive.
    ///   - sampleEvents: events to explore the machine's graph with (from its state now), sent to clients
    ///     as ``InspectorMachine/graph``; none when empty. Explored only when a client first asks.
    ///   - maximumStates: where the exploration stops.
    ///   - describeState: how a state is written; `String(describing:)` by default.
    ///   - describeEvent: how an event is written; `String(describing:)` by default.
    @discardableResult
    public func register<State: Hashable & Sendable, Event: Sendable>(
        _ machine: StateMachine<State, Event>, sampleEvents: [Event] = [], maximumStates: Int = 256,
        describeState: @escaping @Sendable (State) -> String = { String(describing: $0) },
        describeEvent: @escaping @Sendable (Event) -> String = { String(describing: $0) }
    ) -> Bool {
        let entry = MachineEntry(
            machine, sampleEvents: sampleEvents, maximumStates: maximumStates, describeState: describeState,
            describeEvent: describeEvent)
        var registered = false
        changeHub { hub in registered = hub.register(entry, inspector: self) }
        return registered
    }

    /// Says `bye` to every client, closes the connections and removes the socket. Registered machines are
    /// let go; later registrations are refused. Called at the program's exit for every inspector not
    /// stopped by then.
    ///
    /// Returns once the I/O thread has closed the connections and ended (it only makes calls that do not
    /// block, so the wait is short): a client then reads the `bye` and the end of its connection at once. A
    /// second call returns at once.
    public func stop() {
        guard end() else { return }
        wakeUp()
        served.wait()
    }

    /// Ends inspection (the bye, the socket removed, the connections left to the I/O thread to close) without
    /// waiting for the I/O thread; `false` when it had ended already. What ``stop()`` does first, and what the
    /// I/O thread does itself when `poll` fails.
    func end() -> Bool {
        let (stopping, countReaders) = hub.withLock { hub in
            defer { hub.countReaders = [:] }
            return (hub.stop(), hub.countReaders.values)
        }
        // Outside the lock: finishing runs each stream's termination handler, which takes it.
        for reader in countReaders { reader.finish() }
        guard stopping else { return false }
        unlink(socketPath)
        InspectorRegistry.shared.remove(self)
        return true
    }

    /// How many clients are attached now.
    public var clientCount: Int { hub.withLock { $0.clients.count } }

    /// How many clients are attached: the count now at once, then the count after each change, until
    /// ``stop()``.
    ///
    /// Buffering is newest-only, as with `StateMachine.states()`: a slow reader sees the count when it asks,
    /// never a backlog. What a program (or a test) awaits to know that a client has attached or gone.
    public func clientCounts() -> AsyncStream<Int> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(1))
        let id = hub.withLock { hub -> Int? in
            continuation.yield(hub.clients.count)
            guard !hub.stopped else { return nil }
            let id = hub.nextCountReader
            hub.nextCountReader += 1
            hub.countReaders[id] = continuation
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.hub.withLock { $0.countReaders.removeValue(forKey: id) }
        }
        return stream
    }

    /// Wakes the I/O thread from `poll` (a full pipe means it is awake already).
    func wakeUp() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Sends every client what `batch` of machine `id`'s feed holds that was not sent yet.
    func deliver(_ batch: MachineBatch, machine id: Int) {
        changeHub { hub in hub.deliver(batch, machine: id) }
    }

    /// Tells every client machine `id` stopped (its feed ended), and forgets it.
    func ended(machine id: Int) {
        changeHub { hub in hub.ended(machine: id) }
    }

    /// Runs `body` on the hub from outside the I/O thread, and wakes that thread when it has something to do
    /// (bytes a socket did not take yet, sockets to close): it waits in `poll` on what it knew before.
    func changeHub(_ body: (inout Hub) -> Void) {
        let busy = hub.withLock { hub in
            body(&hub)
            return !hub.toClose.isEmpty || hub.clients.contains { $0.pendingCount > 0 }
        }
        if busy { wakeUp() }
    }
}

extension UInt8 {
    /// `A`–`Z`, `a`–`z` or `0`–`9`.
    var isASCIILetterOrDigit: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self | 0x20)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}

/// The inspectors that have not stopped, so that the program's exit stops them (says `bye`, removes the
/// sockets).
final class InspectorRegistry: Sendable {
    static let shared = InspectorRegistry()
    private let live = Locked<[ObjectIdentifier: Inspector]>([:])
    private let hooked = Locked(false)

    func add(_ inspector: Inspector) {
        live.withLock { $0[ObjectIdentifier(inspector)] = inspector }
        let first = hooked.withLock { hooked in
            defer { hooked = true }
            return !hooked
        }
        if first { atexit { InspectorRegistry.shared.stopAll() } }
    }

    func remove(_ inspector: Inspector) {
        _ = live.withLock { $0.removeValue(forKey: ObjectIdentifier(inspector)) }
    }

    func stopAll() {
        let inspectors = live.withLock { Array($0.values) }
        for inspector in inspectors { inspector.stop() }
    }
}
