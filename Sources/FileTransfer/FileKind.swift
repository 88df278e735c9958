#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What kind of directory entry a file is; only regular files are copied or written.
public enum FileKind: Hashable, Sendable, CustomStringConvertible {
    /// A regular file.
    case regularFile
    /// A directory.
    case directory
    /// A symbolic link (seen only when the link itself is examined, as the copier does in the destination).
    case symbolicLink
    /// A FIFO (named pipe): opening it for reading would wait for a writer.
    case fifo
    /// A Unix-domain socket.
    case socket
    /// A character device (a terminal, `/dev/zero`, ...).
    case characterDevice
    /// A block device (a disk).
    case blockDevice
    /// Anything else the system reports.
    case unknown

    /// The kind encoded in a `st_mode`.
    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regularFile
        case S_IFDIR: self = .directory
        case S_IFLNK: self = .symbolicLink
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        default: self = .unknown
        }
    }

    /// With an article, for messages: `a FIFO (named pipe)`.
    public var description: String {
        switch self {
        case .regularFile: "a regular file"
        case .directory: "a directory"
        case .symbolicLink: "a symbolic link"
        case .fifo: "a FIFO (named pipe)"
        case .socket: "a socket"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .unknown: "not a regular file"
        }
    }
}
