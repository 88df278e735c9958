import Foundation
import Support
import Testing

@testable import FileTransfer

@Suite struct StagedFileTests {
    @Test func commitRenamesTheVerifiedPartialOntoTheFinalName() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let content = pattern(count: 10_000)
        var staged = try StagedFile(creating: "a.bin", in: directory.path, chunkSize: 4096)
        try staged.write(contentsOf: content)
        #expect(staged.offset == 10_000)
        #expect(exists(directory.file(StagedFile.partialName(for: "a.bin"))))
        #expect(!exists(directory.file("a.bin")))
        let file = try staged.commit(expectedSize: 10_000, expectedDigest: ContentDigest.of(content))
        #expect(file == CommittedFile(path: directory.file("a.bin"), size: 10_000, digest: ContentDigest.of(content)))
        #expect(contents(of: directory.file("a.bin")) == content)
        #expect(!exists(directory.file(StagedFile.partialName(for: "a.bin"))))
    }

    /// A staged `a.bin` in `directory` holding the bytes 1, 2, 3.
    static func stagedOneTwoThree(in directory: TemporaryDirectory) throws -> StagedFile {
        var staged = try StagedFile(creating: "a.bin", in: directory.path)
        try staged.write(contentsOf: [1, 2, 3])
        return staged
    }

    /// The source's size and the bytes it hashed differ from what was staged (1, 2, 3).
    @Test(
        arguments: [
            (
                3, [1, 2, 4],
                "SHA-256 \(ContentDigest.of([1, 2, 3] as [UInt8])) differs from the source's \(ContentDigest.of([1, 2, 4] as [UInt8]))"
            ),
            (4, [1, 2, 3], "holds 3 bytes, the source has 4"),
        ] as [(Int64, [UInt8], String)])
    func aMismatchFailsValidationAndLeavesNoFile(size: Int64, sourceBytes: [UInt8], detail: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let staged = try Self.stagedOneTwoThree(in: directory)
        // A consumed ~Copyable value cannot be captured by #expect's closure, hence do/catch.
        var caught: TransferError?
        do {
            _ = try staged.commit(expectedSize: size, expectedDigest: ContentDigest.of(sourceBytes))
        } catch {
            caught = error
        }
        #expect(caught == .validationFailed(path: directory.file(StagedFile.partialName(for: "a.bin")), detail: detail))
        #expect(!exists(directory.file("a.bin")))
        #expect(!exists(directory.file(StagedFile.partialName(for: "a.bin"))))
    }

    /// Another run removed this partial and wrote its own under the same name (the two copies
    /// into one directory): committing or discarding must leave that file alone and publish nothing.
    @Test(arguments: [true, false])
    func aPartialReplacedByAnotherRunIsNeitherRenamedNorRemoved(committing: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let staged = try Self.stagedOneTwoThree(in: directory)
        let partial = directory.file(StagedFile.partialName(for: "a.bin"))
        #expect(unlink(partial) == 0)
        try write([9, 9, 9], to: partial)
        var caught: TransferError?
        if committing {
            do {
                _ = try staged.commit(expectedSize: 3, expectedDigest: ContentDigest.of([1, 2, 3] as [UInt8]))
            } catch {
                caught = error
            }
        } else {
            staged.discard()
        }
        #expect(
            caught
                == (committing ? .unsafeEntry(path: partial, detail: "it is no longer the file this copy wrote") : nil))
        #expect(contents(of: partial) == [9, 9, 9])
        #expect(!exists(directory.file("a.bin")))
    }

    /// A final name of any length the file system allows has a partial name that fits: a 240- or 255-byte
    /// name used to need a 273-byte `.NAME.statetui-partial` and failed.
    @Test(arguments: [1, 240, 255])
    func aNameOfUpTo255BytesIsCopied(length: Int) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let name = String(repeating: "é", count: length / 2) + String(repeating: "a", count: length % 2)
        let content = pattern(count: 5000)
        try write(content, to: directory.file(name))
        let destination = try directory.directory("out")
        let request = CopyRequest(id: "1", source: directory.file(name), destinationDirectory: destination)
        let outcome = try await CopyJob(request: request).run()
        #expect(
            outcome
                == .completed(
                    CommittedFile(path: destination + "/" + name, size: 5000, digest: ContentDigest.of(content))))
        #expect(StagedFile.partialName(for: name).utf8.count == 34)
    }

    /// An error about a long path quotes at most 200 characters of it, whatever the name's length.
    @Test func anErrorQuotesAtMost200CharactersOfAPath() {
        let path = "/d/" + String(repeating: "n", count: 597)
        #expect(
            TransferError.sourceUnreadable(path: path, reason: .noSuchFile).description
                == "cannot read /d/" + String(repeating: "n", count: 197) + "…(400 more): No such file or directory")
    }

    @Test func discardRemovesThePartial() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let staged = try Self.stagedOneTwoThree(in: directory)
        staged.discard()
        #expect(!exists(directory.file(StagedFile.partialName(for: "a.bin"))))
        #expect(!exists(directory.file("a.bin")))
    }

    @Test func resumingCutsToTheCheckpointAndRehashesThePrefix() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let content = pattern(count: 9000)
        var first = try StagedFile(creating: "a.bin", in: directory.path, chunkSize: 1024)
        try first.write(contentsOf: Array(content[..<5000]))
        try first.sync()
        // Bytes after the checkpoint that were never made durable: the resume must drop them.
        try first.write(contentsOf: [9, 9, 9])
        #expect(first.close() == 5000)
        #expect(size(of: directory.file(StagedFile.partialName(for: "a.bin"))) == 5003)

        var resumed = try StagedFile(resuming: "a.bin", in: directory.path, keeping: 5000, chunkSize: 1024)
        #expect(resumed.offset == 5000)
        #expect(resumed.digest == ContentDigest.of(content[..<5000]))
        try resumed.write(contentsOf: Array(content[5000...]))
        let file = try resumed.commit(expectedSize: 9000, expectedDigest: ContentDigest.of(content))
        #expect(file.digest == ContentDigest.of(content))
        #expect(contents(of: directory.file("a.bin")) == content)
    }

    @Test func resumingBeyondThePartialFailsValidation() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var first = try StagedFile(creating: "a.bin", in: directory.path)
        try first.write(contentsOf: [1, 2, 3])
        _ = first.close()
        #expect(
            throws: TransferError.validationFailed(
                path: directory.file(StagedFile.partialName(for: "a.bin")),
                detail: "holds 3 bytes, fewer than the checkpoint's 10"
            )
        ) {
            _ = try StagedFile(resuming: "a.bin", in: directory.path, keeping: 10)
        }
    }

    /// A write that fails (made inline, or in the background) is thrown by that write or the next one or the
    /// sync, and nothing is written after it (its bytes would follow a gap), nor is work queued behind the
    /// writes run (a checkpoint there would call bytes durable that were never written).
    @Test(arguments: [false, true])
    func aFailedWriteIsThrownAndNothingIsWrittenOrCheckpointedAfterIt(inBackground: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let offsets = Locked<[Int64]>([])
        var fileSystem = FileSystem.posix
        let write = fileSystem.write
        fileSystem.calls.write = { descriptor, bytes, offset throws(Errno) in
            offsets.withLock { $0.append(offset) }
            if offset == 8192 { throw Errno.noSpace }
            return try write(descriptor, bytes, offset)
        }
        var staged = try StagedFile(creating: "a.bin", in: directory.path, chunkSize: 8192, fileSystem: fileSystem)
        if inBackground {
            staged.writeInBackground()
        }
        let partial = staged.partialPath
        var thrown: TransferError?
        do {
            try staged.write(contentsOf: pattern(count: 4 * 8192))
            try staged.sync()
        } catch {
            thrown = error
        }
        let ranAfter = Locked(false)
        staged.afterWrites { ranAfter.withLock { $0 = true } }
        var thrownAgain: TransferError?
        do {
            try staged.finishWrites()
        } catch {
            thrownAgain = error
        }
        let expected = TransferError.writing(partial, operation: "write", .noSpace)
        #expect([thrown, thrownAgain] == [expected, expected])
        #expect(offsets.withLock { $0 } == [0, 8192])
        #expect(ranAfter.withLock { $0 } == false)
        #expect(contents(of: partial) == pattern(count: 8192))
        staged.discard()
    }

    @Test func creatingInAMissingDirectoryNamesTheReason() throws {
        #expect(
            throws: TransferError.destinationNotWritableDirectory(
                path: "/nonexistent-statetui", reason: Errno.noSuchFile.description)
        ) {
            _ = try StagedFile(creating: "a", in: "/nonexistent-statetui")
        }
    }
}
