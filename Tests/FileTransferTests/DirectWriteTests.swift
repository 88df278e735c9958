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
            fileSystem.setDirectWrites = { [self] _, on in
                direct.withLock { $0 = on }
                return on
            }
            fileSystem.write = { [self] descriptor, bytes, offset throws(Errno) in
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

    /// A job writes a file of at least ``CopyOptions/directWriteMinimumSize`` directly, in
    /// ``CopyOptions/directWriteChunkSize`` pieces; a smaller one through the cache in its own chunks.
    @Test(
        arguments: [
            (
                Int64(16384), 16384 + 8192 + 10,
                [
                    Write(offset: 0, count: 8192, direct: true), Write(offset: 8192, count: 8192, direct: true),
                    Write(offset: 16384, count: 8192, direct: true), Write(offset: 24576, count: 10, direct: false),
                ]
            ),
            (
                Int64(16384), 16383,
                [Write(offset: 0, count: 4096, direct: false), Write(offset: 4096, count: 4096, direct: false)]
                    + [
                        Write(offset: 8192, count: 4096, direct: false),
                        Write(offset: 12288, count: 4095, direct: false),
                    ]
            ),
        ] as [(Int64, Int, [Write])])
    func aJobWritesLargeFilesDirectly(minimum: Int64, count: Int, writes: [Write]) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.file("source.bin")
        let content = pattern(count: count)
        try write(content, to: source)
        let recorder = Recorder()
        var options = CopyOptions(chunkSize: 4096, fileSystem: recorder.fileSystem())
        options.directWriteMinimumSize = minimum
        options.directWriteChunkSize = 8192
        let job = CopyJob(
            request: CopyRequest(id: "1", source: source, destinationDirectory: try directory.directory("out")),
            options: options)
        let outcome = try await job.run()
        let path = directory.file("out/source.bin")
        #expect(
            outcome == .completed(CommittedFile(path: path, size: Int64(count), digest: ContentDigest.of(content))))
        #expect(recorder.writes.withLock { $0 } == writes)
        #expect(contents(of: path) == content)
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
