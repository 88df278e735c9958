import Foundation
import Support
import Testing

@testable import FileTransfer

/// The destination directory as hostile ground: entries planted under the partial's, the journal's or
/// the final name, and the directory's path replaced during a copy. Nothing outside the directory the
/// copy started in is ever written, and no symbolic link the copy did not create is followed.
@Suite struct HostileDestinationTests {
    /// A source, a destination directory, and a "victim" file outside the destination that planted
    /// entries point at.
    struct Fixture {
        let directory: TemporaryDirectory
        let source: String
        let destination: String
        let victim: String
        let content = pattern(count: 5 * CopyJobTests.chunk + 17, seed: 11)
        let victimContent = Array("precious, not to be touched\n".utf8)

        init() throws {
            directory = try TemporaryDirectory()
            source = directory.file("a")
            destination = try directory.directory("dest")
            victim = directory.file("victim")
            try write(content, to: source)
            try write(victimContent, to: victim)
        }

        var partialPath: String { destination + "/" + StagedFile.partialName(for: "a") }
        var finalPath: String { destination + "/a" }
        var journalPath: String { destination + "/" + CopyJournal.fileName }

        func job(journal: CopyJournal? = nil, overwrite: Bool = false, fileSystem: FileSystem = .posix) -> CopyJob {
            CopyJob(
                request: CopyRequest(id: "1", source: source, destinationDirectory: destination, overwrite: overwrite),
                journal: journal, options: CopyOptions(chunkSize: CopyJobTests.chunk, fileSystem: fileSystem))
        }

        func committed() -> CopyOutcome {
            .completed(CommittedFile(path: finalPath, size: Int64(content.count), digest: ContentDigest.of(content)))
        }
    }

    /// The kind of the entry at `path` itself (a symbolic link is not followed).
    static func kind(at path: String) throws -> FileKind {
        var raw = stat()
        guard lstat(path, &raw) == 0 else { throw Errno.current }
        return FileKind(mode: raw.st_mode)
    }

    /// `ln -s victim DEST/.statetui-partial.HASH`: the link is replaced, never written through; the victim
    /// keeps its content and the final `a` is a regular file with the source's bytes.
    @Test(arguments: [false, true])
    func aPlantedPartialSymlinkIsReplacedNotFollowed(withJournal: Bool) async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        try FileManager.default.createSymbolicLink(atPath: fixture.partialPath, withDestinationPath: fixture.victim)
        let journal = withJournal ? try CopyJournal(directory: fixture.destination) : nil
        let outcome = try await fixture.job(journal: journal).run()
        #expect(outcome == fixture.committed())
        #expect(contents(of: fixture.victim) == fixture.victimContent)
        #expect(try Self.kind(at: fixture.finalPath) == .regularFile)
        #expect(contents(of: fixture.finalPath) == fixture.content)
    }

    /// A partial the journal says is in progress, but which is a hard link to a file elsewhere: it is
    /// not resumed (writing it would change the victim); the copy starts over in a file of its own.
    @Test func aPlantedHardLinkedPartialIsNotResumed() async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let journal = try CopyJournal(directory: fixture.destination)
        let status = try FileSystem.posix.statusOfPath(fixture.source)
        try journal.append(
            .intent(name: "a", request: "1", source: fixture.source, sourceStatus: status, replaces: nil))
        try journal.append(.checkpoint(name: "a", offset: 4))
        try FileManager.default.linkItem(atPath: fixture.victim, toPath: fixture.partialPath)
        let outcome = try await fixture.job(journal: journal).run()
        #expect(outcome == fixture.committed())
        #expect(contents(of: fixture.victim) == fixture.victimContent)
        #expect(contents(of: fixture.finalPath) == fixture.content)
    }

    /// Reopening a partial by name refuses a symbolic link, a second hard link and a FIFO.
    @Test(arguments: [
        (FileKind.symbolicLink, "it is a symbolic link, which the copy never follows"),
        (.regularFile, "it has 2 hard links, so writing it would change another file"),
        (.fifo, "it is a FIFO (named pipe), not a regular file"),
    ])
    func resumingRefusesAPartialThatIsNotAPrivateRegularFile(planted: FileKind, detail: String) throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        switch planted {
        case .symbolicLink:
            try FileManager.default.createSymbolicLink(atPath: fixture.partialPath, withDestinationPath: fixture.victim)
        case .regularFile:
            try FileManager.default.linkItem(atPath: fixture.victim, toPath: fixture.partialPath)
        case .fifo, .directory, .socket, .characterDevice, .blockDevice, .unknown:
            #expect(mkfifo(fixture.partialPath, 0o600) == 0)
        }
        #expect(throws: TransferError.unsafeEntry(path: fixture.partialPath, detail: detail)) {
            _ = try StagedFile(resuming: "a", in: fixture.destination, keeping: 0)
        }
        #expect(contents(of: fixture.victim) == fixture.victimContent)
    }

    /// `ln -s somefile DEST/.statetui-journal`: the journal refuses to open (nothing appended to the
    /// target); a FIFO there is refused at once instead of blocking the open.
    @Test func aPlantedJournalSymlinkOrFIFOIsRefused() throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        try FileManager.default.createSymbolicLink(atPath: fixture.journalPath, withDestinationPath: fixture.victim)
        #expect(
            throws: TransferError.unsafeEntry(
                path: fixture.journalPath, detail: "it is a symbolic link, which the copy never follows")
        ) {
            _ = try CopyJournal(directory: fixture.destination)
        }
        #expect(contents(of: fixture.victim) == fixture.victimContent)
        try FileManager.default.removeItem(atPath: fixture.journalPath)
        #expect(mkfifo(fixture.journalPath, 0o600) == 0)
        #expect(
            throws: TransferError.unsafeEntry(
                path: fixture.journalPath, detail: "it is a FIFO (named pipe), not a regular file")
        ) {
            _ = try CopyJournal(directory: fixture.destination)
        }
    }

    /// A symbolic link under the final name is an existing destination: refused without `overwrite`
    /// (even when its target holds the very bytes of a completed copy), and with `overwrite` replaced
    /// by the regular file, the target untouched.
    @Test func aSymlinkAtTheFinalNameIsNeverFollowed() async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        try FileManager.default.createSymbolicLink(atPath: fixture.finalPath, withDestinationPath: fixture.victim)
        await #expect(throws: TransferError.destinationExists(path: fixture.finalPath)) {
            try await fixture.job().run()
        }
        #expect(contents(of: fixture.victim) == fixture.victimContent)

        let outcome = try await fixture.job(overwrite: true).run()
        #expect(outcome == fixture.committed())
        #expect(try Self.kind(at: fixture.finalPath) == .regularFile)
        #expect(contents(of: fixture.victim) == fixture.victimContent)
    }

    /// The journal says `a` completed, and a symbolic link to a file with the same bytes sits under the
    /// final name: the copy does not count that as done.
    @Test func aSymlinkToMatchingBytesDoesNotCountAsACompletedCopy() async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let journal = try CopyJournal(directory: fixture.destination)
        #expect(try await fixture.job(journal: journal).run() == fixture.committed())
        let lookalike = fixture.directory.file("lookalike")
        try FileManager.default.moveItem(atPath: fixture.finalPath, toPath: lookalike)
        try FileManager.default.createSymbolicLink(atPath: fixture.finalPath, withDestinationPath: lookalike)
        await #expect(throws: TransferError.destinationExists(path: fixture.finalPath)) {
            try await fixture.job(journal: journal).run()
        }
    }

    /// The destination's path is replaced in the middle of a copy (renamed away, a symbolic link to
    /// another directory put in its place): the copy finishes in the directory it started in, and
    /// nothing is written where the link points.
    @Test func replacingTheDestinationPathMidCopyDoesNotRedirectIt() async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let elsewhere = try fixture.directory.directory("elsewhere")
        let moved = fixture.directory.file("dest-moved")
        let journal = try CopyJournal(directory: fixture.destination)
        let job = fixture.job(journal: journal)
        let stopAt = Int64(2 * CopyJobTests.chunk)
        let replace = MidRun(at: stopAt) {
            try FileManager.default.moveItem(atPath: fixture.destination, toPath: moved)
            try FileManager.default.createSymbolicLink(atPath: fixture.destination, withDestinationPath: elsewhere)
        }
        #expect(try await job.run(progress: replace.progress) == fixture.committed())
        #expect(replace.report.calls == 1 && replace.report.thrown == [])
        #expect(contents(of: moved + "/a") == fixture.content)
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere) == [])
        #expect(exists(moved + "/" + CopyJournal.fileName))
    }

    /// A source whose name is the journal's or a partial's is refused before anything but the failure
    /// record is written: copied, it would replace the journal or another transfer's partial.
    @Test(arguments: [CopyJournal.fileName, StagedFile.partialName(for: "b")])
    func aSourceNamedLikeTheCopysOwnFilesIsRefused(name: String) async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let journal = try CopyJournal(directory: fixture.destination)
        let job = CopyJob(
            request: CopyRequest(
                id: "1", source: fixture.source, destinationDirectory: fixture.destination, name: name),
            journal: journal)
        await #expect(
            throws: TransferError.unsafeEntry(
                path: fixture.destination + "/" + name,
                detail: "the name is reserved for the copy's journal and partial files")
        ) {
            try await job.run()
        }
        // The journal is still the journal: only the failure was appended, as a whole record.
        let replay = CopyJournal.replay(contents(of: fixture.journalPath) ?? [])
        #expect(replay.problems == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.destination) == [CopyJournal.fileName])
    }

    /// Names that would reach beyond the directory are refused before any system call.
    @Test(arguments: ["", ".", "..", "sub/a", "../a", "a\u{0}b"])
    func aNameThatIsNotOneEntryIsRefused(name: String) throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let destination = try DestinationDirectory(path: fixture.destination)
        #expect(
            throws: TransferError.unsafeEntry(
                path: fixture.destination + "/" + name, detail: "it is not a single file name inside the directory")
        ) {
            _ = try destination.status(of: name)
        }
    }
}

/// Sparse sources: holes are not read or written, only extended, and hashed as zeros.
@Suite struct SparseCopyTests {
    /// A 64 MiB file with 1 MiB of data in its middle and at its end copies byte-identical (size and
    /// SHA-256), and the copy occupies about what the source occupies, not 64 MiB.
    @Test func aSparseSourceStaysSparse() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.file("sparse.img")
        let destination = try directory.directory("out")
        let size = 64 << 20
        let data = pattern(count: 1 << 20, seed: 3)
        _ = FileManager.default.createFile(atPath: source, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: source))
        try handle.seek(toOffset: UInt64(20 << 20))
        try handle.write(contentsOf: Data(data))
        try handle.seek(toOffset: UInt64(size - data.count))
        try handle.write(contentsOf: Data(data))
        try handle.close()

        var expected = ContentDigest()
        expected.updateZeros(count: 20 << 20)
        data.withUnsafeBytes { expected.update($0) }
        expected.updateZeros(count: Int64(size - (20 << 20) - 2 * data.count))
        data.withUnsafeBytes { expected.update($0) }

        let job = CopyJob(request: CopyRequest(id: "1", source: source, destinationDirectory: destination))
        let outcome = try await job.run()
        let copy = destination + "/sparse.img"
        #expect(
            outcome == .completed(CommittedFile(path: copy, size: Int64(size), digest: expected.finalize())))
        var raw = stat()
        #expect(stat(copy, &raw) == 0)
        #expect(Int64(raw.st_size) == Int64(size))
        // st_blocks counts 512-byte units; 2 MiB of data plus metadata, far from 64 MiB.
        #expect(Int64(raw.st_blocks) * 512 < 8 << 20)
        #expect(contents(of: copy).map { ContentDigest.of($0) } == expected.finalize())
    }

    /// Verifying a sparse file reads only its data: a rerun comparing content (`--checksum`) of a 64 MiB
    /// file holding 64 KiB reads those 64 KiB of the source and of the copy (and the copy's end), never
    /// the holes, and finds the copy the same.
    @Test func comparingASparseCopyReadsOnlyItsData() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.file("sparse.img")
        let destination = try directory.directory("out")
        let data = pattern(count: 64 << 10, seed: 5)
        _ = FileManager.default.createFile(atPath: source, contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: source))
        try handle.truncate(atOffset: 64 << 20)
        try handle.seek(toOffset: 32 << 20)
        try handle.write(contentsOf: Data(data))
        try handle.close()
        let request = CopyRequest(id: "1", source: source, destinationDirectory: destination)
        _ = try await CopyJob(request: request).run()

        let log = CallLog()
        var options = CopyOptions(fileSystem: log.fileSystem())
        options.comparesContent = true
        let outcome = try await CopyJob(request: request, options: options).run()

        var expected = ContentDigest()
        expected.updateZeros(count: 32 << 20)
        data.withUnsafeBytes { expected.update($0) }
        expected.updateZeros(count: (64 << 20) - (32 << 20) - Int64(data.count))
        let copy = destination + "/sparse.img"
        #expect(outcome == .alreadyComplete(CommittedFile(path: copy, size: 64 << 20, digest: expected.finalize())))
        let reads: [CallLog.Entry] = log.all.filter { if case .read = $0 { true } else { false } }
        let dataOnly: [CallLog.Entry] = [
            .read(path: copy, offset: 32 << 20, count: data.count),
            // The whole copy is read to its end, which one empty read finds.
            .read(path: copy, offset: 64 << 20, count: 0),
            .read(path: source, offset: 32 << 20, count: data.count),
        ]
        #expect(reads == dataOnly)
    }

    /// A resumed sparse partial is checked from its data alone: its kept prefix's digest is the one of
    /// the same bytes written densely, and its hole is never read.
    @Test func resumingASparsePartialReadsOnlyItsData() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let destination = try directory.directory("out")
        let data = pattern(count: 8192, seed: 6)
        let partial = destination + "/" + StagedFile.partialName(for: "a.bin")
        _ = FileManager.default.createFile(atPath: partial, contents: nil, attributes: [.posixPermissions: 0o600])
        let handle = try #require(FileHandle(forWritingAtPath: partial))
        try handle.seek(toOffset: 16 << 20)
        try handle.write(contentsOf: Data(data))
        try handle.close()

        let log = CallLog()
        let kept = Int64(16 << 20) + 4096
        let resumed = try StagedFile(
            resuming: "a.bin", in: DestinationDirectory(path: destination, fileSystem: log.fileSystem()), keeping: kept)
        #expect(resumed.digest == ContentDigest.of([UInt8](repeating: 0, count: 16 << 20) + data.prefix(4096)))
        #expect(log.all == [.read(path: partial, offset: 16 << 20, count: 4096)])
        _ = resumed.close()
    }
}

/// The destination directory's one descriptor serves every job writing into it: a job's view of it
/// (``DestinationDirectory/using(_:)``) opens nothing, and the descriptor stays open while any view does.
@Suite struct SharedDestinationDescriptorTests {
    @Test func everyJobsViewOfADirectorySharesItsOneDescriptor() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let opened = Locked(0)
        var counting = FileSystem.posix
        counting.calls.duplicate = { descriptor throws(Errno) in
            opened.withLock { $0 += 1 }
            return try FileSystem.posix.duplicate(descriptor)
        }
        counting.calls.open = { path, flags, mode throws(Errno) in
            opened.withLock { $0 += 1 }
            return try FileSystem.posix.open(path, flags, mode)
        }
        var directory: DestinationDirectory? = try DestinationDirectory(path: temporary.path)
        let descriptor = try #require(directory?.descriptor)
        let views = try (0..<1000).map { _ in try #require(directory?.using(counting)) }
        #expect(Set(views.map(\.descriptor)) == [descriptor])
        #expect(opened.withLock { $0 } == 0)
        // The directory itself goes; its views still reach it through the same descriptor.
        directory = nil
        try "x".write(toFile: temporary.file("kept"), atomically: false, encoding: .utf8)
        #expect(try views[999].status(of: "kept")?.kind == .regularFile)
    }
}
