import Foundation
import Support

@testable import FileTransfer

/// A fresh directory under /tmp, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/statetui-copy-test-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw Errno.current
        }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Makes a subdirectory and returns its path.
    func directory(_ name: String) throws -> String {
        let sub = file(name)
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        return sub
    }
}

/// Deterministic, non-repeating test content (so a shifted or duplicated chunk changes the digest).
func pattern(count: Int, seed: UInt64 = 1) -> [UInt8] {
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    return (0..<count).map { _ in
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return UInt8(truncatingIfNeeded: state)
    }
}

func write(_ bytes: [UInt8], to path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

func contents(of path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { Array($0) }
}

func exists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: path)
}

func size(of path: String) -> Int64? {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
}

/// Sets a file's modification time explicitly, so a test does not depend on timestamp granularity.
func setModificationTime(of path: String, seconds: Int) throws {
    var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
    guard utimensat(AT_FDCWD, path, &times, 0) == 0 else { throw Errno.current }
}

/// Every read and write the copier makes, in order, plus markers a test adds.
final class CallLog: Sendable {
    enum Entry: Hashable, Sendable {
        case read(path: String, offset: Int64, count: Int)
        case write(path: String, offset: Int64, count: Int)
        case marker(String)
    }

    private let entries = Locked<[Entry]>([])
    private let paths = Locked<[Int32: String]>([:])

    var all: [Entry] { entries.withLock { $0 } }

    func mark(_ text: String) {
        entries.withLock { $0.append(.marker(text)) }
    }

    /// Reads of `path`, as (offset, count).
    func reads(of path: String) -> [Entry] {
        all.filter { if case .read(path, _, _) = $0 { true } else { false } }
    }

    /// Writes between two markers.
    func writes(between first: String, and second: String) -> [Entry] {
        let log = all
        guard let start = log.firstIndex(of: .marker(first)), let end = log.firstIndex(of: .marker(second)) else {
            return log
        }
        return log[start..<end].filter { if case .write = $0 { true } else { false } }
    }

    /// The real file system, recording reads and writes; `failWrite` may replace a write's result.
    func fileSystem(
        failWrite: (@Sendable (_ path: String, _ offset: Int64, _ count: Int) -> Errno?)? = nil
    ) -> FileSystem {
        var fileSystem = FileSystem.posix
        let real = FileSystem.posix
        fileSystem.open = { [self] path, flags, mode throws(Errno) in
            let descriptor = try real.open(path, flags, mode)
            paths.withLock { $0[descriptor] = path }
            return descriptor
        }
        fileSystem.duplicate = { [self] descriptor throws(Errno) in
            let duplicate = try real.duplicate(descriptor)
            // A directory a journal opened through another file system is found by its /proc link.
            let known =
                paths.withLock { $0[descriptor] }
                ?? (try? FileManager.default.destinationOfSymbolicLink(
                    atPath: "/proc/self/fd/\(descriptor)"))
            paths.withLock { $0[duplicate] = known }
            return duplicate
        }
        fileSystem.openAt = { [self] directory, name, flags, mode throws(Errno) in
            let descriptor = try real.openAt(directory, name, flags, mode)
            paths.withLock { $0[descriptor] = ($0[directory] ?? "?") + "/" + name }
            return descriptor
        }
        fileSystem.read = { [self] descriptor, buffer, offset throws(Errno) in
            let count = try real.read(descriptor, buffer, offset)
            let path = paths.withLock { $0[descriptor] ?? "?" }
            entries.withLock { $0.append(.read(path: path, offset: offset, count: count)) }
            return count
        }
        fileSystem.write = { [self] descriptor, bytes, offset throws(Errno) in
            let path = paths.withLock { $0[descriptor] ?? "?" }
            if let error = failWrite?(path, offset, bytes.count) { throw error }
            let count = try real.write(descriptor, bytes, offset)
            entries.withLock { $0.append(.write(path: path, offset: offset, count: count)) }
            return count
        }
        return fileSystem
    }
}

/// Collects progress reports.
final class ProgressLog: Sendable {
    private let reports = Locked<[CopyProgress]>([])

    var all: [CopyProgress] { reports.withLock { $0 } }

    func append(_ progress: CopyProgress) {
        reports.withLock { $0.append(progress) }
    }
}

/// Makes an entry of `kind` in `directory` (a directory, FIFO or bound Unix socket), or names one that
/// exists everywhere (`/dev/null` as the character device); returns its path.
func makeSpecialFile(_ kind: FileKind, in directory: TemporaryDirectory) throws -> String {
    switch kind {
    case .directory:
        return try directory.directory("folder")
    case .fifo:
        let path = directory.file("fifo")
        guard mkfifo(path, 0o600) == 0 else { throw Errno.current }
        return path
    case .characterDevice:
        return "/dev/null"
    case .socket:
        let path = directory.file("socket")
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Errno.current }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8.prefix(raw.count - 1)))
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { throw Errno.current }
        return path
    case .regularFile, .symbolicLink, .blockDevice, .unknown:
        throw Errno(rawValue: EINVAL)
    }
}
