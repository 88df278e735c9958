import Dispatch
import Support
import Testing

@testable import FileTransfer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Chunks that wait their turn on a partial's write queue go out in one gathered write (`pwritev`).
@Suite struct GatheredWriteTests {
    /// A call a partial's queue made: a single write, or a gathered one of pieces of these sizes.
    enum Call: Equatable {
        case single(offset: Int64, count: Int)
        case gathered(offset: Int64, counts: [Int])
    }

    /// A file system that records each write and gathered write (or, with `gathering` false, has none),
    /// holds the first call until `release`, and fails every call whose bytes cover `failingAt`.
    final class Recorder: Sendable {
        let calls = Locked<[Call]>([])
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let failingAt: Int64?

        init(failingAt: Int64? = nil) { self.failingAt = failingAt }

        func fileSystem(gathering: Bool = true) -> FileSystem {
            var fileSystem = FileSystem.posix
            let (write, writeGathered) = (fileSystem.write, fileSystem.writeGathered!)
            fileSystem.calls.write = { [self] descriptor, bytes, offset throws(Errno) in
                try record(.single(offset: offset, count: bytes.count), at: offset, count: bytes.count)
                return try write(descriptor, bytes, offset)
            }
            if gathering {
                fileSystem.calls.writeGathered = { [self] descriptor, pieces, offset throws(Errno) in
                    let counts = pieces.map(\.count)
                    try record(.gathered(offset: offset, counts: counts), at: offset, count: counts.reduce(0, +))
                    return try writeGathered(descriptor, pieces, offset)
                }
            }
            return fileSystem
        }

        private func record(_ call: Call, at offset: Int64, count: Int) throws(Errno) {
            let first = calls.withLock { calls in
                calls.append(call)
                return calls.count == 1
            }
            if first {
                started.signal()
                release.wait()
            }
            if let failingAt, offset <= failingAt && failingAt < offset + Int64(count) { throw Errno.noSpace }
        }
    }

    /// The first chunk's write is held at the device while two more are handed in: those two go out in one
    /// call, and the partial holds every byte in order.
    @Test func chunksWaitingTheirTurnAreWrittenInOneCall() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let recorder = Recorder()
        var staged = try StagedFile(
            creating: "a.bin", in: directory.path, chunkSize: 8192, fileSystem: recorder.fileSystem())
        staged.writeInBackground()
        let content = pattern(count: 3 * 8192)
        try staged.write(contentsOf: Array(content[..<8192]))
        recorder.started.wait()
        try staged.write(contentsOf: Array(content[8192...]))
        recorder.release.signal()
        try staged.finishWrites()
        #expect(
            recorder.calls.withLock { $0 } == [
                .single(offset: 0, count: 8192), .gathered(offset: 8192, counts: [8192, 8192]),
            ])
        #expect(contents(of: staged.partialPath) == content)
        staged.discard()
    }

    /// A large file's chunk is hashed while the device still takes its write: the hash never waits for the
    /// device, and the buffer is lent out again only once both are done with it. Before, a chunk was hashed only
    /// after its write had returned, so the hashing queue idled during every write.
    @Test func aChunkIsHashedWhileItsWriteIsHeld() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let recorder = Recorder()
        let path = directory.file("a.bin")
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let writes = QueuedWrites(descriptor: descriptor, path: path, fileSystem: recorder.fileSystem())
        writes.writeInBackground()
        let hasher = PipelinedHasher(chunkSize: 8192, depth: 2, writes: writes)
        let content = pattern(count: 2 * 8192)
        for (index, chunk) in [content[..<8192], content[8192...]].enumerated() {
            let count = hasher.fill(at: Int64(index * 8192)) { buffer in
                buffer.copyBytes(from: chunk)
                return chunk.count
            }
            #expect(count == 8192)
            if index == 0 { recorder.started.wait() }
        }
        // The first write is still held at the device; both chunks were hashed meanwhile.
        #expect(hasher.hashedByteCount == Int64(2 * 8192))
        recorder.release.signal()
        #expect(hasher.digest == ContentDigest.of(content))
        try writes.drain()
        #expect(contents(of: path) == content)
    }

    /// A gathered write that fails is thrown, and nothing queued after it runs: neither the writes handed
    /// in after it nor a checkpoint.
    @Test func aFailedGatheredWriteIsThrownAndNothingRunsAfterIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let recorder = Recorder(failingAt: 8192)
        var staged = try StagedFile(
            creating: "a.bin", in: directory.path, chunkSize: 8192, fileSystem: recorder.fileSystem())
        staged.writeInBackground()
        let partial = staged.partialPath
        let content = pattern(count: 3 * 8192)
        try staged.write(contentsOf: Array(content[..<8192]))
        recorder.started.wait()
        try staged.write(contentsOf: Array(content[8192...]))
        let ranAfter = Locked(false)
        staged.afterWrites { ranAfter.withLock { $0 = true } }
        recorder.release.signal()
        var thrown: TransferError?
        do {
            try staged.finishWrites()
        } catch {
            thrown = error
        }
        #expect(thrown == TransferError.writing(partial, operation: "write", .noSpace))
        #expect(
            recorder.calls.withLock { $0 } == [
                .single(offset: 0, count: 8192), .gathered(offset: 8192, counts: [8192, 8192]),
            ])
        #expect(ranAfter.withLock { $0 } == false)
        #expect(contents(of: partial) == Array(content[..<8192]))
        staged.discard()
    }

    /// A checkpoint queued after a chunk runs when a chunk handed in after it fails, even when both went to
    /// the queue's one turn: piece by piece the failing write is known, so the checkpoint runs; in one
    /// gathered call it is not (the call does not tell how far it got), so the checkpoint does not.
    @Test(arguments: [false, true])
    func aCheckpointBeforeAFailedWriteMadeInTheSameTurnRunsWhenItIsCovered(gathering: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let recorder = Recorder(failingAt: 2 * 8192)
        var staged = try StagedFile(
            creating: "a.bin", in: directory.path, chunkSize: 8192,
            fileSystem: recorder.fileSystem(gathering: gathering))
        staged.writeInBackground()
        let content = pattern(count: 3 * 8192)
        try staged.write(contentsOf: Array(content[..<8192]))
        recorder.started.wait()
        try staged.write(contentsOf: Array(content[8192..<2 * 8192]))
        let checkpointed = Locked(false)
        staged.afterWrites { checkpointed.withLock { $0 = true } }
        try staged.write(contentsOf: Array(content[(2 * 8192)...]))
        recorder.release.signal()
        #expect(throws: TransferError.writing(staged.partialPath, operation: "write", .noSpace)) {
            try staged.finishWrites()
        }
        let second: [Call] =
            gathering
            ? [.gathered(offset: 8192, counts: [8192, 8192])]
            : [.single(offset: 8192, count: 8192), .single(offset: 2 * 8192, count: 8192)]
        #expect(recorder.calls.withLock { $0 } == [.single(offset: 0, count: 8192)] + second)
        #expect(checkpointed.withLock { $0 } == !gathering)
        staged.discard()
    }

    /// A gathered write that stops short is finished piece by piece from where it stopped: each argument
    /// is how many bytes the gathered call wrote and the single writes that must follow it.
    @Test(arguments: [
        (
            1,
            [
                Call.single(offset: 1, count: 8191), .single(offset: 8192, count: 8192),
                .single(offset: 16384, count: 8192),
            ]
        ),
        (8192, [.single(offset: 8192, count: 8192), .single(offset: 16384, count: 8192)]),
        (8193, [.single(offset: 8193, count: 8191), .single(offset: 16384, count: 8192)]),
        (20_000, [.single(offset: 20_000, count: 4576)]),
        (24_575, [.single(offset: 24_575, count: 1)]),
    ])
    func aShortGatheredWriteIsFinishedPieceByPiece(writtenAtOnce: Int, rest: [Call]) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var fileSystem = FileSystem.posix
        let calls = Locked<[Call]>([])
        let write = fileSystem.write
        fileSystem.calls.write = { descriptor, bytes, offset throws(Errno) in
            calls.withLock { $0.append(.single(offset: offset, count: bytes.count)) }
            return try write(descriptor, bytes, offset)
        }
        // Writes the first `writtenAtOnce` bytes of the pieces, each part whole (the real `write`, unrecorded).
        fileSystem.calls.writeGathered = { descriptor, pieces, offset throws(Errno) in
            calls.withLock { $0.append(.gathered(offset: offset, counts: pieces.map(\.count))) }
            var (left, at) = (writtenAtOnce, offset)
            for piece in pieces where left > 0 {
                let count = min(left, piece.count)
                #expect(try write(descriptor, UnsafeRawBufferPointer(rebasing: piece[..<count]), at) == count)
                (left, at) = (left - count, at + Int64(count))
            }
            return writtenAtOnce
        }
        let path = directory.file("a.bin")
        let descriptor = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let content = pattern(count: 3 * 8192)
        try content.withUnsafeBytes { bytes in
            let pieces = (0..<3).map { UnsafeRawBufferPointer(rebasing: bytes[$0 * 8192..<($0 + 1) * 8192]) }
            try fileSystem.writeAll(descriptor, pieces, at: 0)
        }
        #expect(calls.withLock { $0 } == [.gathered(offset: 0, counts: [8192, 8192, 8192])] + rest)
        #expect(contents(of: path) == content)
    }

    /// A file system given its own `write` writes everything through it: it has no gathered call left
    /// that would go around it.
    @Test func replacingTheWriteDropsTheGatheredCall() {
        var fileSystem = FileSystem.posix
        let before = fileSystem.writeGathered != nil
        let write = fileSystem.write
        fileSystem.calls.write = { descriptor, bytes, offset throws(Errno) in try write(descriptor, bytes, offset) }
        #expect([before, fileSystem.writeGathered != nil] == [true, false])
    }
}
