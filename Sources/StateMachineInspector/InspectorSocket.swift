#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why inspection could not start, or a connection could not be made.
public struct InspectorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, in words.
    public var description: String

    /// Creates an error with its description.
    public init(_ description: String) {
        self.description = description
    }

    /// An error naming the failed call and `errno`'s text.
    static func system(_ what: String, _ code: Int32 = errno) -> InspectorError {
        InspectorError("\(what): \(String(cString: strerror(code)))")
    }
}

/// The private per-user directory that holds the sockets, and the checks that keep it private.
public enum InspectorDirectory {
    /// `$XDG_RUNTIME_DIR/statetui` when that variable names an absolute path, else `/tmp/statetui-UID`.
    public static func path(environment: [String: String]) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return (runtime.hasSuffix("/") ? runtime : runtime + "/") + "statetui"
        }
        return "/tmp/statetui-\(getuid())"
    }

    /// The directory for this process's environment.
    public static var current: String {
        var environment: [String: String] = [:]
        for key in ["XDG_RUNTIME_DIR"] {
            if let value = getenv(key) { environment[key] = String(cString: value) }
        }
        return path(environment: environment)
    }

    /// Creates `path` with mode 0700 if missing, then checks that it is a real directory (not a symlink),
    /// owned by this user, that nobody else may enter.
    public static func prepare(_ path: String) throws(InspectorError) {
        if mkdir(path, 0o700) != 0 && errno != EEXIST { throw .system("cannot create \(path)") }
        try check(path)
    }

    /// Checks, without following a symlink, that `path` is a directory of this user with mode 0700 or
    /// stricter.
    public static func check(_ path: String) throws(InspectorError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .system("cannot inspect \(path)") }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw InspectorError("\(path) is not a directory (a symlink or another file is in its place)")
        }
        guard info.st_uid == getuid() else {
            throw InspectorError("\(path) belongs to uid \(info.st_uid), not to this user (uid \(getuid()))")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw InspectorError(
                "\(path) has mode \(String(info.st_mode & 0o777, radix: 8)); it must be private (0700)")
        }
    }
}

/// `struct ucred` of Linux (pid, uid, gid), which Swift's Glibc module does not export.
struct PeerCredentials {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}

/// The thin layer over the socket calls the server and the client share.
enum SocketCalls {
    /// The longest path a `sockaddr_un` holds (its terminating zero excluded).
    static var maximumPathLength: Int { MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1 }

    /// Runs `body` with `path` as a `sockaddr_un`.
    static func withAddress<Result>(
        _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
    ) throws(InspectorError) -> Result {
        let bytes = Array(path.utf8)
        guard bytes.count <= maximumPathLength, !bytes.contains(0) else {
            throw InspectorError("socket path too long or malformed (\(bytes.count) bytes): \(path)")
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    /// A new Unix stream socket, close-on-exec.
    static func makeSocket() throws(InspectorError) -> Int32 {
        #if canImport(Glibc)
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw .system("socket") }
        return descriptor
    }

    /// A listening socket bound at `path` with mode 0600; an existing file there is an error.
    static func listening(at path: String) throws(InspectorError) -> Int32 {
        let descriptor = try makeSocket()
        let bound = try withAddress(path) { bind(descriptor, $0, $1) }
        guard bound == 0 else {
            let error = InspectorError.system("cannot bind \(path)")
            close(descriptor)
            throw error
        }
        // The directory is 0700 already; the socket's own mode says the same for anyone who copies it.
        guard chmod(path, 0o600) == 0, listen(descriptor, 16) == 0, setNonBlocking(descriptor) else {
            let error = InspectorError.system("cannot listen on \(path)")
            close(descriptor)
            unlink(path)
            throw error
        }
        return descriptor
    }

    /// A connected socket to the server at `path`, whose peer must be this user.
    static func connected(to path: String) throws(InspectorError) -> Int32 {
        let descriptor = try makeSocket()
        let connected = try withAddress(path) { connect(descriptor, $0, $1) }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            switch code {
            case EACCES, EPERM: throw InspectorError("permission denied: \(path)")
            case ECONNREFUSED: throw InspectorError("nobody is listening on \(path) (the program has exited)")
            case ENOENT: throw InspectorError("no such socket: \(path)")
            default: throw .system("cannot connect to \(path)", code)
            }
        }
        guard peerUID(descriptor) == getuid() else {
            close(descriptor)
            throw InspectorError("\(path) is served by another user; refused")
        }
        return descriptor
    }

    /// The uid of the process on the other end (`SO_PEERCRED`), `nil` when it cannot be read.
    static func peerUID(_ descriptor: Int32) -> UInt32? {
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
            length == socklen_t(MemoryLayout<PeerCredentials>.size)
        else { return nil }
        return credentials.uid
    }

    /// Makes reads and writes on `descriptor` return at once instead of waiting.
    static func setNonBlocking(_ descriptor: Int32) -> Bool {
        let flags = fcntl(descriptor, F_GETFL)
        return flags >= 0 && fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0
    }

    /// Makes reads on `descriptor` give up after `seconds` (`EAGAIN`).
    static func setReceiveTimeout(_ descriptor: Int32, seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Writes what it can of `bytes` without waiting; the count written, 0 when the socket is full,
    /// `nil` when the connection is broken.
    static func sendSome(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        let written = send(descriptor, base, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
        if written >= 0 { return written }
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : nil
    }
}

/// Whether process `pid` exists (`kill(pid, 0)`: only `ESRCH` means it does not).
func processExists(_ pid: Int32) -> Bool {
    pid > 0 && (kill(pid, 0) == 0 || errno != ESRCH)
}
