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

/// A client's connection to one inspected program: reads its messages, one JSON line each.
///
/// The connection never writes: the protocol is read-only. Lines are bounded (``lineLimit``); the first
/// message must be a `hello` of a version this library speaks.
public final class InspectorConnection {
    /// The socket this connection reads.
    public let socketPath: String
    /// The longest line accepted, in bytes.
    public static let lineLimit = 1 << 20
    /// How long a program may take to say `hello` before the connection gives up on it, in seconds.
    public static let helloTimeout = 5

    private(set) var descriptor: Int32
    private var buffer: [UInt8] = []
    /// Where the unread part of `buffer` starts.
    private var start = 0
    private var greeted = false
    /// The read timeout asked for with ``setReadTimeout(seconds:)`` (0: none), in force once greeted.
    private var readTimeout = 0

    /// Connects to the program serving `socketPath`, which must be this user's.
    public init(socketPath: String) throws(InspectorError) {
        self.socketPath = socketPath
        descriptor = try SocketCalls.connected(to: socketPath)
        // A peer that accepts and never speaks is not left to hold the client forever.
        SocketCalls.setReceiveTimeout(descriptor, seconds: Self.helloTimeout)
    }

    /// A connection over an open socket (or any descriptor), read as a program's; `name` stands for the
    /// socket's path in errors. For tests and the fuzz target, which feed it bytes of their own.
    package init(reading descriptor: Int32, name: String) {
        socketPath = name
        self.descriptor = descriptor
    }

    deinit { close() }

    /// Gives up a read that waits longer than `seconds` with an error (0: wait as long as it takes).
    public func setReadTimeout(seconds: Int) {
        readTimeout = max(0, seconds)
        if greeted || (1...Self.helloTimeout).contains(readTimeout) {
            SocketCalls.setReceiveTimeout(descriptor, seconds: readTimeout)
        }
    }

    /// The next message; `nil` when the program closed the connection (it stopped or exited). A line that
    /// is not a message, too long a line, or a first message that is not a supported `hello` is an error.
    public func next() throws(InspectorError) -> InspectorMessage? {
        guard let line = try nextLine() else { return nil }
        let message: InspectorMessage
        do {
            message = try InspectorMessage(line: line)
        } catch {
            throw InspectorError("\(socketPath): not an inspector message: \(Self.escaped(String(line.prefix(80))))")
        }
        if case .dropped(let notice) = message {
            throw InspectorError("\(socketPath): the program dropped this connection: \(Self.escaped(notice.reason))")
        }
        if !greeted {
            guard case .hello(let hello) = message else {
                throw InspectorError("\(socketPath): the first message is \(message.type), not hello")
            }
            guard hello.version == InspectorMessage.version else {
                throw InspectorError(
                    "\(socketPath): protocol version \(hello.version); this statetui speaks \(InspectorMessage.version)"
                )
            }
            greeted = true
            SocketCalls.setReceiveTimeout(descriptor, seconds: readTimeout)
        }
        return message
    }

    /// Closes the connection; ``next()`` returns `nil` after it.
    public func close() {
        if descriptor >= 0 {
            _ = Glibc.close(descriptor)
            descriptor = -1
        }
    }

    /// Outside text made safe for a terminal: control characters (ESC, BEL, C1 …), separators and invisible
    /// format characters written as Swift escapes (`\u{1B}`), in quotes.
    static func escaped(_ text: String) -> String {
        QuotedLiteral.quoted(text) { scalar in
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator, .format, .surrogate, .privateUse, .unassigned:
                "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: nil
            }
        }
    }

    private func nextLine() throws(InspectorError) -> String? {
        var searched = start
        while true {
            if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[start..<newline], as: UTF8.self)
                start = newline + 1
                if start == buffer.count {
                    buffer.removeAll(keepingCapacity: true)
                    start = 0
                }
                return line
            }
            searched = buffer.count
            guard buffer.count - start <= Self.lineLimit else {
                throw InspectorError("\(socketPath): a line longer than \(Self.lineLimit) bytes")
            }
            if start > 0 {
                buffer.removeFirst(start)
                searched -= start
                start = 0
            }
            guard descriptor >= 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if got < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    throw InspectorError(
                        greeted
                            ? "\(socketPath): nothing read for \(readTimeout) seconds"
                            : "\(socketPath): no hello within \(Self.helloTimeout) seconds; not an inspector, or it is stuck"
                    )
                }
                throw .system("\(socketPath): read")
            }
            if got == 0 { return nil }
            buffer += chunk[..<got]
        }
    }
}

/// A program that can be inspected: one socket in the private directory.
public struct InspectableProcess: Sendable, Hashable {
    /// The name the program started inspection under.
    public var name: String
    /// Its process id.
    public var pid: Int
    /// The socket's path.
    public var socketPath: String
    /// How many machines it has registered (`nil` when it did not answer).
    public var machines: Int?
    /// When it started inspection, ISO 8601 (`nil` when it did not answer).
    public var started: String?

    /// Creates a description of an inspectable process.
    public init(name: String, pid: Int, socketPath: String, machines: Int?, started: String?) {
        self.name = name
        self.pid = pid
        self.socketPath = socketPath
        self.machines = machines
        self.started = started
    }
}

/// Finds inspectable programs and the socket a command-line target names.
public enum InspectorDiscovery {
    /// The name and pid in a socket's file name `NAME.PID.sock`, `nil` for any other name.
    public static func parse(fileName: String) -> (name: String, pid: Int)? {
        guard fileName.hasSuffix(".sock") else { return nil }
        let stem = fileName.dropLast(5)
        guard let dot = stem.lastIndex(of: "."), let pid = Int(stem[stem.index(after: dot)...]), pid > 0,
            dot > stem.startIndex
        else { return nil }
        return (String(stem[..<dot]), pid)
    }

    /// The programs with a socket in `directory`, by name then pid. Sockets of processes that no longer
    /// exist are removed; entries that are not sockets (a regular file, a symlink) are left alone. With `ask`, each program is connected to for its machine count and start time.
    public static func list(directory: String, ask: Bool = true) -> [InspectableProcess] {
        guard (try? InspectorDirectory.check(directory)) != nil, let folder = opendir(directory) else { return [] }
        var found: [InspectableProcess] = []
        while let entry = readdir(folder) {
            let fileName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let (name, pid) = parse(fileName: fileName) else { continue }
            // Only sockets are programs; a file or a link under such a name is neither listed nor deleted.
            var info = stat()
            guard fstatat(dirfd(folder), fileName, &info, AT_SYMLINK_NOFOLLOW) == 0,
                info.st_mode & S_IFMT == S_IFSOCK
            else { continue }
            let path = directory + "/" + fileName
            guard processExists(Int32(clamping: pid)) else {
                unlinkat(dirfd(folder), fileName, 0)
                continue
            }
            found.append(InspectableProcess(name: name, pid: pid, socketPath: path, machines: nil, started: nil))
            if found.count >= 1024 { break }
        }
        closedir(folder)
        if ask {
            for index in found.indices {
                guard let hello = greeting(found[index].socketPath) else { continue }
                found[index].machines = hello.machines
                found[index].started = hello.started
            }
        }
        return found.sorted { ($0.name, $0.pid) < ($1.name, $1.pid) }
    }

    /// Removes `path` if it is a socket (a stale one of this program's pid); anything else stays.
    static func removeSocket(at path: String) {
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK { unlink(path) }
    }

    /// The `hello` of the program at `path`, waiting at most a second for it.
    static func greeting(_ path: String) -> InspectorHello? {
        guard let connection = try? InspectorConnection(socketPath: path) else { return nil }
        connection.setReadTimeout(seconds: 1)
        defer { connection.close() }
        guard case .hello(let hello) = try? connection.next() else { return nil }
        return hello
    }

    /// The socket `target` names: a path (containing `/`), a pid, or a name that exactly one program
    /// uses. Unknown and ambiguous targets are errors that list what there is.
    public static func resolve(_ target: String, directory: String) throws(InspectorError) -> String {
        if target.contains("/") {
            var info = stat()
            guard lstat(target, &info) == 0 else { throw .system("cannot inspect \(target)") }
            guard info.st_mode & S_IFMT == S_IFSOCK else { throw InspectorError("\(target) is not a socket") }
            return target
        }
        let programs = list(directory: directory, ask: false)
        let matching =
            if let pid = Int(target) { programs.filter { $0.pid == pid } } else {
                programs.filter { $0.name == target }
            }
        let known = programs.map { "\($0.name) (pid \($0.pid))" }.joined(separator: ", ")
        switch matching.count {
        case 1:
            return matching[0].socketPath
        case 0:
            throw InspectorError(
                "no inspectable program named \(target.prefix(80))"
                    + (known.isEmpty ? "; none is running" : "; there are: \(known)"))
        default:
            throw InspectorError(
                "\(matching.count) programs are named \(target); give a pid: "
                    + matching.map { String($0.pid) }.joined(separator: ", "))
        }
    }
}

extension InspectorConnection {
    /// How many messages ``messages(socketPath:bufferLimit:)`` holds for an iteration that is behind.
    public static let messageBufferLimit = 4096

    /// The messages of the program at `socketPath`, read on a thread of their own, so that no task waits
    /// on the socket. The stream finishes when the program closes the connection, and throws when the
    /// connection cannot be made or a line is not a message; ending the iteration closes the connection.
    ///
    /// At most `bufferLimit` messages wait for the iteration: while that many do, the thread stops reading
    /// the socket, so an iteration slower than the program pushes back on the socket instead of growing
    /// this buffer (the program never waits for a client: it counts the records it could not send and, past
    /// its own bound, lets the connection go).
    public static func messages(
        socketPath: String, bufferLimit: Int = messageBufferLimit
    ) -> AsyncThrowingStream<InspectorMessage, any Error> {
        let (stream, continuation) = makeStream(of: InspectorMessage.self, bufferLimit: bufferLimit)
        // The socket, so that ending the iteration can shut it and wake the thread from its read.
        let shared = Locked<Int32?>(nil)
        continuation.onTermination = { _ in
            shared.withLock { descriptor in
                if let open = descriptor { shutdown(open, Int32(SHUT_RDWR)) }
                descriptor = -1
            }
        }
        DetachedThread.start(name: "statetui-inspect-client") {
            // Held past the reading: the socket is closed (when this is released) only after `shared` says -1, so
            // an iteration ending meanwhile never shuts a descriptor closed already, or one another file took.
            var held: InspectorConnection?
            let outcome = Result { () throws(InspectorError) in
                let connection = try InspectorConnection(socketPath: socketPath)
                held = connection
                let cancelled = shared.withLock { descriptor in
                    if descriptor == -1 { return true }
                    descriptor = connection.descriptor
                    return false
                }
                guard !cancelled else { return }
                while let message = try connection.next() {
                    guard yield(message, to: continuation, waiting: pauseForIteration) else { break }
                }
            }
            shared.withLock { $0 = -1 }
            withExtendedLifetime(held) {}
            switch outcome {
            case .success: continuation.finish()
            case .failure(let error): continuation.finish(throwing: error)
            }
        }
        return stream
    }

    /// A stream that holds at most `bufferLimit` elements (at least one) for its iteration, the oldest: fed
    /// through ``yield(_:to:waiting:)``, which waits for room rather than drop.
    static func makeStream<Element: Sendable>(
        of type: Element.Type, bufferLimit: Int
    ) -> (
        stream: AsyncThrowingStream<Element, any Error>,
        continuation: AsyncThrowingStream<Element, any Error>.Continuation
    ) {
        AsyncThrowingStream.makeStream(
            of: type, throwing: (any Error).self, bufferingPolicy: .bufferingOldest(max(1, bufferLimit)))
    }

    /// Yields `element` to a stream whose buffer keeps its oldest elements, waiting (`wait`, then again)
    /// while the buffer is full: the element is kept, never dropped. `false` once the iteration has ended.
    static func yield<Element: Sendable>(
        _ element: Element, to continuation: AsyncThrowingStream<Element, any Error>.Continuation,
        waiting wait: () -> Void
    ) -> Bool {
        var pending = element
        while true {
            switch continuation.yield(pending) {
            case .enqueued:
                return true
            case .dropped(let refused):
                pending = refused
                wait()
            case .terminated:
                return false
            @unknown default:
                return false
            }
        }
    }

    /// How long the reading thread waits for the iteration to take messages before it offers one again.
    static func pauseForIteration() { usleep(2000) }
}
