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

    /// The `st_mode` type bits `mknod(2)` makes an entry of this kind with; nil for the kinds it does not make
    /// (a regular file is written, a directory and a symbolic link have calls of their own).
    var nodeType: mode_t? {
        switch self {
        case .fifo: S_IFIFO
        case .socket: S_IFSOCK
        case .characterDevice: S_IFCHR
        case .blockDevice: S_IFBLK
        case .regularFile, .directory, .symbolicLink, .unknown: nil
        }
    }

    /// True for the kinds a copy makes anew as what they are rather than reading them: a symbolic link, a FIFO,
    /// a socket, a device.
    package var isCopiedAsIs: Bool {
        self == .symbolicLink || nodeType != nil
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
