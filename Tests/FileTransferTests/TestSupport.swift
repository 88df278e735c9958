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

    /// The path of a descriptor this file system opened; one opened through another file system (a
    /// journal's directory, shared by the jobs writing into it) is found by its /proc link.
    private func path(of descriptor: Int32) -> String? {
        paths.withLock { $0[descriptor] }
            ?? (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)"))
    }

    /// The real file system, recording reads and writes; `failWrite` may replace a write's result.
    func fileSystem(
        failWrite: (@Sendable (_ path: String, _ offset: Int64, _ count: Int) -> Errno?)? = nil
    ) -> FileSystem {
        var fileSystem = FileSystem.posix
        let real = FileSystem.posix
        fileSystem.calls.open = { [self] path, flags, mode throws(Errno) in
            let descriptor = try real.open(path, flags, mode)
            paths.withLock { $0[descriptor] = path }
            return descriptor
        }
        fileSystem.calls.duplicate = { [self] descriptor throws(Errno) in
            let duplicate = try real.duplicate(descriptor)
            let known = path(of: descriptor)
            paths.withLock { $0[duplicate] = known }
            return duplicate
        }
        fileSystem.calls.openAt = { [self] directory, name, flags, mode throws(Errno) in
            let descriptor = try real.openAt(directory, name, flags, mode)
            let parent = path(of: directory) ?? "?"
            paths.withLock { $0[descriptor] = parent + "/" + name }
            return descriptor
        }
        fileSystem.calls.read = { [self] descriptor, buffer, offset throws(Errno) in
            let count = try real.read(descriptor, buffer, offset)
            let path = paths.withLock { $0[descriptor] ?? "?" }
            entries.withLock { $0.append(.read(path: path, offset: offset, count: count)) }
            return count
        }
        fileSystem.calls.write = { [self] descriptor, bytes, offset throws(Errno) in
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

/// Work a test does on the copy thread between two chunks, when the job reports `offset` bytes written:
/// the loop is then between chunks and asks its lifecycle nothing until the work returns. What the work
/// threw is kept for the test to check.
final class MidRun: Sendable {
    let offset: Int64
    private let work: @Sendable () throws -> Void
    private let thrown = Locked<[String]>([])
    private let calls = Locked(0)

    init(at offset: Int64, _ work: @escaping @Sendable () throws -> Void) {
        self.offset = offset
        self.work = work
    }

    /// The progress callback to hand to `run`.
    func progress(_ progress: CopyProgress) {
        reached(progress.bytesWritten)
    }

    /// Runs the work when `position` is the offset it waits for.
    func reached(_ position: Int64) {
        guard position == offset else { return }
        calls.withLock { $0 += 1 }
        do {
            try work()
        } catch {
            thrown.withLock { $0.append(String(describing: error)) }
        }
    }

    /// How often the work ran and what it threw: `(1, [])` when it ran once, cleanly.
    var report: (calls: Int, thrown: [String]) { (calls.withLock { $0 }, thrown.withLock { $0 }) }
}

/// Runs `job` and cancels the task awaiting it from the copy thread when `offset` bytes are written, so
/// the run is interrupted exactly there (the cancellation reaches the job's lifecycle before the loop
/// asks it about the next chunk). Returns the run's outcome.
func runInterrupted(_ job: CopyJob, at offset: Int64) async throws -> CopyOutcome {
    let handle = Locked<Task<CopyOutcome, any Error>?>(nil)
    let (started, start) = AsyncStream<Void>.makeStream()
    let running = Task {
        // Wait until the handle is stored, so the copy thread always finds it.
        for await _ in started { break }
        return try await job.run { progress in
            if progress.bytesWritten == offset { handle.withLock { $0 }?.cancel() }
        }
    }
    handle.withLock { $0 = running }
    start.yield()
    start.finish()
    return try await running.value
}

extension CopyOptions {
    /// Treats every file as large, so its writes run in the background, while keeping them in the cache and
    /// in the test's chunk size (no slot to write straight to storage).
    mutating func writeInBackground() {
        directWriteMinimumSize = 0
        directWriteSlots = DirectWriteSlots(capacity: 0)
    }
}
