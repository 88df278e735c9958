import Foundation
import Support
import Testing

@testable import FileTransfer

/// Large files are written straight to storage (`O_DIRECT`) in whole aligned chunks; the end of the file,
/// and everything after a write the file system refuses that way, goes through the page cache. The
/// partial's bytes and digest are the same either way.
@Suite struct DirectWriteTests {
    /// One write as the file system saw it.
    struct Write: Hashable {
        var offset: Int64
        var count: Int
        var direct: Bool
    }

    /// The real file system, recording each write and whether direct writes were on for it (the flag is
    /// only pretended: the bytes go through the cache, so the test holds on any file system), and refusing
    /// direct writes with EINVAL when `refusesDirect`.
    final class Recorder: Sendable {
        let writes = Locked<[Write]>([])
        let direct = Locked(false)

        func fileSystem(refusesDirect: Bool = false) -> FileSystem {
            var fileSystem = FileSystem.posix
            let write = fileSystem.write
            fileSystem.calls.setDirectWrites = { [self] _, on in
                direct.withLock { $0 = on }
                return on
            }
            fileSystem.calls.write = { [self] descriptor, bytes, offset throws(Errno) in
                let isDirect = direct.withLock { $0 }
                writes.withLock { $0.append(Write(offset: offset, count: bytes.count, direct: isDirect)) }
                if isDirect && refusesDirect { throw Errno(rawValue: EINVAL) }
                return try write(descriptor, bytes, offset)
            }
            return fileSystem
        }
    }

    /// Whole chunks go directly and the tail through the cache; a write refused directly is written again
    /// through the cache, and so is every later one.
    @Test(
        arguments: [
            (
                false, 3 * 8192 + 100,
                [
                    Write(offset: 0, count: 8192, direct: true), Write(offset: 8192, count: 8192, direct: true),
                    Write(offset: 16384, count: 8192, direct: true), Write(offset: 24576, count: 100, direct: false),
                ]
            ),
            (
                true, 2 * 8192,
                [
                    Write(offset: 0, count: 8192, direct: true), Write(offset: 0, count: 8192, direct: false),
                    Write(offset: 8192, count: 8192, direct: false),
                ]
            ),
        ] as [(Bool, Int, [Write])])
    func writesGoDirectlyWhileTheyCan(refusesDirect: Bool, count: Int, writes: [Write]) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let recorder = Recorder()
        let content = pattern(count: count)
        var staged = try StagedFile(
            creating: "a.bin", in: directory.path, chunkSize: 8192,
            fileSystem: recorder.fileSystem(refusesDirect: refusesDirect))
        staged.writeDirectly()
        try staged.write(contentsOf: content)
        let file = try staged.commit(expectedSize: Int64(count), expectedDigest: ContentDigest.of(content))
        #expect(recorder.writes.withLock { $0 } == writes)
        #expect(
            file == CommittedFile(path: directory.file("a.bin"), size: Int64(count), digest: ContentDigest.of(content)))
        #expect(contents(of: directory.file("a.bin")) == content)
    }

    /// Writes through the cache in `chunk`-byte pieces, from offset 0 to `count`.
    static func cached(_ count: Int, chunk: Int) -> [Write] {
        stride(from: 0, to: count, by: chunk).map {
            Write(offset: Int64($0), count: min(chunk, count - $0), direct: false)
        }
    }

    /// A job writes a file of at least ``CopyOptions/directWriteMinimumSize`` directly, in
    /// ``CopyOptions/directWriteChunkSize`` pieces, when it gets one of the direct slots; a smaller file, or
    /// one copied while the slots are all taken, goes through the cache in its own chunks. The slot is given
    /// back when the copy ends.
    @Test(
        arguments: [
            (
                16384 + 8192 + 10, 1,
                [
                    Write(offset: 0, count: 8192, direct: true), Write(offset: 8192, count: 8192, direct: true),
                    Write(offset: 16384, count: 8192, direct: true), Write(offset: 24576, count: 10, direct: false),
                ]
            ),
            (16383, 1, cached(16383, chunk: 4096)),
            (16384 + 8192 + 10, 0, cached(16384 + 8192 + 10, chunk: 4096)),
        ] as [(Int, Int, [Write])])
    func aJobWritesLargeFilesDirectlyWhileASlotIsFree(count: Int, slots: Int, writes: [Write]) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.file("source.bin")
        let content = pattern(count: count)
        try write(content, to: source)
        let recorder = Recorder()
        var options = CopyOptions(chunkSize: 4096, fileSystem: recorder.fileSystem())
        options.directWriteMinimumSize = 16384
        options.directWriteChunkSize = 8192
        options.directWriteSlots = DirectWriteSlots(capacity: slots)
        let job = CopyJob(
            request: CopyRequest(id: "1", source: source, destinationDirectory: try directory.directory("out")),
            options: options)
        let outcome = try await job.run()
        let path = directory.file("out/source.bin")
        #expect(
            outcome == .completed(CommittedFile(path: path, size: Int64(count), digest: ContentDigest.of(content))))
        #expect(recorder.writes.withLock { $0 } == writes)
        #expect(contents(of: path) == content)
        #expect(options.directWriteSlots.inUse == 0)
    }

    @Test func slotsAreTakenUpToTheirCapacityAndGivenBack() {
        let slots = DirectWriteSlots(capacity: 2)
        let taken = (0..<3).map { _ in slots.acquire() }
        let inUse = slots.inUse
        slots.release()
        let again = slots.acquire()
        #expect([taken, [again]] == [[true, true, false], [true]])
        #expect(inUse == 2)
    }

    /// On the real file system, whatever it supports: the bytes and the digest are the source's.
    @Test(arguments: [0, 1, 4095, 4096, 4097, 3 * 65536 + 12345])
    func theRealFileSystemKeepsEveryByte(count: Int) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let content = pattern(count: count)
        var staged = try StagedFile(creating: "a.bin", in: directory.path, chunkSize: 65536)
        staged.writeDirectly()
        try staged.write(contentsOf: content)
        let file = try staged.commit(expectedSize: Int64(count), expectedDigest: ContentDigest.of(content))
        #expect(
            file == CommittedFile(path: directory.file("a.bin"), size: Int64(count), digest: ContentDigest.of(content)))
        #expect(contents(of: directory.file("a.bin")) == content)
    }

    @Test(arguments: [(4096, Int64(0), true), (8192, 4096, true), (100, 0, false), (4096, 100, false), (0, 0, true)])
    func aWriteFitsOnlyInWholeAlignedBlocks(count: Int, offset: Int64, fits: Bool) {
        #expect(DirectWrites.fits(count: count, at: offset) == fits)
    }
}
