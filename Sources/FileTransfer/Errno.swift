#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An operating-system error number with its `strerror` text (shaped like swift-system's `Errno`).
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    /// The raw `errno` value.
    public let rawValue: Int32

    /// Wraps a raw `errno` value.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The error the last failed system call left in `errno`.
    public static var current: Errno { Errno(rawValue: errno) }

    /// The OS reason, e.g. "No space left on device".
    public var description: String { String(cString: strerror(rawValue)) }

    /// The OS reason as a copy's errors give it: for "Too many open files", also what to do about it, since a
    /// tree deeper than the process's open-files limit allows reaches it (a copy keeps one descriptor for each
    /// directory level it is in, on each side).
    var explained: String {
        guard self == .tooManyOpenFiles else { return description }
        return description
            + " (a copy keeps one open for each directory level on each side: raise the limit with ulimit -n)"
    }

    /// No such file or directory.
    public static let noSuchFile = Errno(rawValue: ENOENT)
    /// Permission denied.
    static let permissionDenied = Errno(rawValue: EACCES)
    /// No space left on device.
    public static let noSpace = Errno(rawValue: ENOSPC)
    /// File too large (also what `write` returns beyond `ulimit -f` once SIGXFSZ is ignored).
    public static let fileTooLarge = Errno(rawValue: EFBIG)
    /// Disk quota exceeded.
    static let quotaExceeded = Errno(rawValue: EDQUOT)
    /// Is a directory.
    public static let isDirectory = Errno(rawValue: EISDIR)
    /// Not a directory.
    static let notDirectory = Errno(rawValue: ENOTDIR)
    /// Input/output error.
    public static let ioError = Errno(rawValue: EIO)
    /// Too many open files (the process's limit on open descriptors).
    static let tooManyOpenFiles = Errno(rawValue: EMFILE)

    /// True for the errors that mean the destination has no room left.
    var isOutOfSpace: Bool { self == .noSpace || self == .fileTooLarge || self == .quotaExceeded }
}
