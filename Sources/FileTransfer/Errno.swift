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

    /// True for the errors that mean the destination has no room left.
    var isOutOfSpace: Bool { self == .noSpace || self == .fileTooLarge || self == .quotaExceeded }
}
