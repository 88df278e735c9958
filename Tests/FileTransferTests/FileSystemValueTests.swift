import Support
import Testing

@testable import FileTransfer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``FileSystem`` holds its calls once for all its copies, and still behaves as a value: replacing a call changes
/// the one file system it was replaced in.
@Suite struct FileSystemValueTests {
    /// What each write of a file system did: the bytes it wrote, or the error it threw.
    static func writeOutcome(_ fileSystem: FileSystem, to descriptor: Int32) -> Result<Int, Errno> {
        let bytes: [UInt8] = [1, 2, 3]
        return bytes.withUnsafeBytes { bytes in
            Result { () throws(Errno) in try fileSystem.write(descriptor, bytes, 0) }
        }
    }

    @Test func aCallReplacedInOneCopyLeavesTheOthersAsTheyWere() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let descriptor = try FileSystem.posix.open(directory.file("f"), O_RDWR | O_CREAT, 0o600)
        defer { FileSystem.posix.close(descriptor) }
        var changed = FileSystem.posix
        let kept = changed
        changed.calls.write = { _, _, _ throws(Errno) in throw Errno.noSpace }
        var second = changed
        second.calls.write = { _, bytes, _ throws(Errno) in bytes.count * 10 }

        let outcomes = [kept, changed, second, FileSystem.posix].map { Self.writeOutcome($0, to: descriptor) }
        #expect(outcomes == [.success(3), .failure(.noSpace), .success(30), .success(3)])
        // A replaced `write` drops the gathered writes of the copy it was replaced in only.
        #expect(
            [kept, changed, second, FileSystem.posix].map { $0.writeGathered != nil } == [true, false, false, true])
    }

    /// Inside an extension of the file system, `close`, `open` and `access` written bare are the file system's calls,
    /// not the C library's functions of the same names.
    @Test func aBareCallInAnExtensionIsTheFileSystems() {
        let called = Locked<[String]>([])
        var fileSystem = FileSystem.posix
        fileSystem.calls.close = { _ in called.withLock { $0.append("close") } }
        fileSystem.calls.open = { _, _, _ throws(Errno) in
            called.withLock { $0.append("open") }
            return 7
        }
        fileSystem.calls.access = { _, _ throws(Errno) in called.withLock { $0.append("access") } }
        #expect(fileSystem.openCheckAndClose("/nonexistent/statetui-bare-call") == .success(7))
        #expect(called.withLock { $0 } == ["access", "open", "close"])
    }
}

extension FileSystem {
    /// Checks, opens and closes `path` with calls written bare, as the file system's own extensions write them.
    fileprivate func openCheckAndClose(_ path: String) -> Result<Int32, Errno> {
        Result { () throws(Errno) in
            try access(path, F_OK)
            let descriptor = try open(path, O_RDONLY, 0)
            close(descriptor)
            return descriptor
        }
    }
}
