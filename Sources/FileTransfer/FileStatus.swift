#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The facts about a file the copier relies on to notice that a source changed.
public struct FileStatus: Hashable, Sendable, Codable {
    /// Size in bytes.
    public var size: Int64
    /// Last modification time, nanoseconds since the epoch.
    public var modifiedNanoseconds: Int64
    /// True for a directory.
    public var isDirectory: Bool
    /// True for a regular file.
    public var isRegularFile: Bool

    /// Describes a file.
    public init(size: Int64, modifiedNanoseconds: Int64, isDirectory: Bool, isRegularFile: Bool) {
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
        self.isDirectory = isDirectory
        self.isRegularFile = isRegularFile
    }

    init(_ raw: stat) {
        #if canImport(Darwin)
        let time = raw.st_mtimespec
        #else
        let time = raw.st_mtim
        #endif
        let mode = raw.st_mode & S_IFMT
        self.init(
            size: Int64(raw.st_size),
            modifiedNanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec),
            isDirectory: mode == S_IFDIR,
            isRegularFile: mode == S_IFREG)
    }

    /// True when size and modification time are the same, i.e. the content is presumed unchanged.
    public func sameContent(as other: FileStatus) -> Bool {
        size == other.size && modifiedNanoseconds == other.modifiedNanoseconds
    }
}
