import Foundation
import Support
import Testing

@testable import FileTransfer

/// A file read in one chunk is written with no name (`O_TMPFILE`) and named once complete (`linkat`): its directory
/// changes once, not twice (a named partial's creation, with the inode's allocation under the directory's lock, and
/// its rename), a stop leaves nothing behind, and an entry that appears under its name meanwhile is refused, never
/// replaced (issue 23, item 11: the copies of a tree's small files waited for one another on that lock).
@Suite struct UnnamedPartialTests {
    /// The calls that make, name and rename files in the destination, in order, through the real ones; `beforeLink`
    /// runs just before a file with no name is named, `openUnnamedFails` replaces that call's outcome.
    final class Recorder: Sendable {
        let calls = Locked<[String]>([])
        let beforeLink: @Sendable (_ name: String) -> Void
        let openUnnamedFails: Errno?
        let linkFails: Errno?

        init(
            openUnnamedFails: Errno? = nil, linkFails: Errno? = nil,
            beforeLink: @escaping @Sendable (String) -> Void = { _ in }
        ) {
            self.openUnnamedFails = openUnnamedFails
            self.linkFails = linkFails
            self.beforeLink = beforeLink
        }

        var fileSystem: FileSystem {
            var fileSystem = FileSystem.posix
            let (open, link) = (FileSystem.posix.openUnnamed!, FileSystem.posix.linkUnnamed!)
            fileSystem.calls.openUnnamed = { [self] directory, mode throws(Errno) in
                calls.withLock { $0.append("open with no name, mode \(String(mode, radix: 8))") }
                if let openUnnamedFails { throw openUnnamedFails }
                return try open(directory, mode)
            }
            fileSystem.calls.linkUnnamed = { [self] descriptor, directory, name throws(Errno) in
                beforeLink(name)
                calls.withLock { $0.append("name \(name)") }
                if let linkFails { throw linkFails }
                try link(descriptor, directory, name)
            }
            fileSystem.calls.openAt = { [self] directory, name, flags, mode throws(Errno) in
                if flags & O_CREAT != 0 { calls.withLock { $0.append("create \(name)") } }
                return try FileSystem.posix.openAt(directory, name, flags, mode)
            }
            fileSystem.calls.renameAt = { [self] directory, from, to throws(Errno) in
                calls.withLock { $0.append("rename \(from) onto \(to)") }
                try FileSystem.posix.renameAt(directory, from, to)
            }
            return fileSystem
        }
    }

    /// A source `name` of `count` bytes with the permissions `mode` in a new temporary directory, a destination
    /// directory `out` beside it and its journal.
    struct Fixture {
        let directory: TemporaryDirectory
        let destination: String
        let journal: CopyJournal

        init() throws {
            directory = try TemporaryDirectory()
            destination = try directory.directory("out")
            journal = try CopyJournal(directory: destination)
        }

        func source(_ name: String, count: Int, mode: mode_t = 0o640) throws -> (path: String, content: [UInt8]) {
            let path = directory.file(name)
            let content = pattern(count: count, seed: UInt64(count))
            try write(content, to: path)
            #expect(chmod(path, mode) == 0)
            return (path, content)
        }

        func copy(
            _ source: String, with fileSystem: FileSystem, chunkSize: Int = 4096,
            progress: @escaping @Sendable (CopyProgress) -> Void = { _ in }
        ) async throws(TransferError) -> CopyOutcome {
            let request = CopyRequest(id: source, source: source, destinationDirectory: destination)
            let options = CopyOptions(chunkSize: chunkSize, fileSystem: fileSystem)
            return try await CopyJob(request: request, journal: journal, options: options).run(progress: progress)
        }

        /// The names in the destination directory, sorted.
        var entries: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: destination)) ?? []).sorted()
        }
    }

    /// One chunk's worth: no name until complete (nothing but the journal in the directory as it is named), then
    /// the source's bytes and mode under the final name; a file of two chunks, which a stop can cut in two, still
    /// gets a named partial, kept for a resume.
    @Test func aFileReadInOneChunkIsWrittenWithNoNameAndNamedComplete() async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let atLink = Locked<[[String]]>([])
        let destination = fixture.destination
        let recorder = Recorder { _ in
            atLink.withLock {
                $0.append(((try? FileManager.default.contentsOfDirectory(atPath: destination)) ?? []).sorted())
            }
        }
        let (small, content) = try fixture.source("small.bin", count: 4096)
        let outcome = try await fixture.copy(small, with: recorder.fileSystem)
        let final = destination + "/small.bin"
        #expect(outcome == .completed(CommittedFile(path: final, size: 4096, digest: ContentDigest.of(content))))
        #expect(contents(of: final) == content)
        #expect(try FileManager.default.attributesOfItem(atPath: final)[.posixPermissions] as? Int == 0o640)
        #expect(atLink.withLock { $0 } == [[CopyJournal.fileName]])

        let (large, _) = try fixture.source("large.bin", count: 4097)
        _ = try await fixture.copy(large, with: recorder.fileSystem)
        let partial = StagedFile.partialName(for: "large.bin")
        #expect(
            recorder.calls.withLock { $0 } == [
                "open with no name, mode 600", "name small.bin", "create \(partial)",
                "rename \(partial) onto large.bin",
            ])
        #expect(fixture.entries == [CopyJournal.fileName, "large.bin", "small.bin"])
    }

    /// A file read in one chunk reports its progress once, with that chunk: no start at 0 before it, which a
    /// machine would record as one event more and the headless output print as a running line. A file of two
    /// chunks reports where it starts, then each chunk.
    @Test func aFileReadInOneChunkReportsItsProgressOnceAtItsEnd() async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let reported = Locked<[String: [CopyProgress]]>([:])
        for (name, count) in [("small.bin", 4096), ("large.bin", 4097)] {
            let (source, content) = try fixture.source(name, count: count)
            let outcome = try await fixture.copy(source, with: .posix) { progress in
                reported.withLock { $0[name, default: []].append(progress) }
            }
            let final = fixture.destination + "/" + name
            #expect(
                outcome == .completed(CommittedFile(path: final, size: Int64(count), digest: ContentDigest.of(content)))
            )
            #expect(contents(of: final) == content)
        }
        #expect(
            reported.withLock { $0 } == [
                "small.bin": [CopyProgress(bytesWritten: 4096, totalBytes: 4096)],
                "large.bin": [
                    CopyProgress(bytesWritten: 0, totalBytes: 4097), CopyProgress(bytesWritten: 4096, totalBytes: 4097),
                    CopyProgress(bytesWritten: 4097, totalBytes: 4097),
                ],
            ])
    }

    /// `ln -s victim DEST/NAME` or a file put under the name while the copy wrote it (the copy found nothing there):
    /// the copy is refused, the entry left exactly as it was, the victim untouched, and nothing else is left.
    @Test(arguments: [true, false])
    func anEntryThatAppearsUnderTheNameIsNeverReplaced(asLink: Bool) async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let victim = fixture.directory.file("victim")
        try write([7, 7, 7], to: victim)
        let destination = fixture.destination
        let recorder = Recorder { name in
            let planted = destination + "/" + name
            if asLink {
                _ = symlink(victim, planted)
            } else {
                try? write([9, 9], to: planted)
            }
        }
        let (source, _) = try fixture.source("a.bin", count: 100)
        await #expect(
            throws: TransferError.unsafeEntry(
                path: destination + "/a.bin", detail: "an entry appeared under this name while it was copied")
        ) {
            try await fixture.copy(source, with: recorder.fileSystem)
        }
        #expect(contents(of: victim) == [7, 7, 7])
        if asLink {
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: destination + "/a.bin") == victim)
        } else {
            #expect(contents(of: destination + "/a.bin") == [9, 9])
        }
        #expect(fixture.entries == [CopyJournal.fileName, "a.bin"])
    }

    /// Where the file system has no files without a name, the copy makes a named partial, and the directory
    /// remembers it: the next copy into it does not ask again.
    @Test func whereTheFileSystemHasNoneAPartialIsNamedAndTheDirectoryRemembers() async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let recorder = Recorder(openUnnamedFails: Errno(rawValue: EOPNOTSUPP))
        let sources = try ["a.bin", "b.bin"].map { try fixture.source($0, count: 10) }
        for (source, _) in sources {
            _ = try await fixture.copy(source, with: recorder.fileSystem)
        }
        let partials = ["a.bin", "b.bin"].map(StagedFile.partialName(for:))
        #expect(
            recorder.calls.withLock { $0 } == [
                "open with no name, mode 600", "create \(partials[0])", "rename \(partials[0]) onto a.bin",
                "create \(partials[1])", "rename \(partials[1]) onto b.bin",
            ])
        #expect(
            sources.map { contents(of: fixture.destination + "/" + ($0.path as NSString).lastPathComponent) }
                == sources.map(\.content))
    }

    /// A naming that fails fails the copy with its reason, leaves nothing in the directory (the file with no name
    /// is gone once closed) and journals the failure; the directory's next copy, the rerun, makes a named partial
    /// (a file system might make files with no name and refuse to link them) and copies the file.
    @Test func aFailedNamingLeavesNothingAndARerunCopiesTheFile() async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let (source, content) = try fixture.source("a.bin", count: 100)
        let final = fixture.destination + "/a.bin"
        let recorder = Recorder(linkFails: Errno(rawValue: EIO))
        await #expect(throws: TransferError.io(operation: "create", path: final, reason: Errno(rawValue: EIO))) {
            try await fixture.copy(source, with: recorder.fileSystem)
        }
        #expect(fixture.entries == [CopyJournal.fileName])
        #expect(
            fixture.journal.entry(named: "a.bin")?.status
                == .failed(
                    reason: TransferError.io(operation: "create", path: final, reason: Errno(rawValue: EIO)).description
                ))
        let outcome = try await fixture.copy(source, with: recorder.fileSystem)
        #expect(outcome == .completed(CommittedFile(path: final, size: 100, digest: ContentDigest.of(content))))
        #expect(contents(of: final) == content)
        let partial = StagedFile.partialName(for: "a.bin")
        #expect(
            recorder.calls.withLock { $0 } == [
                "open with no name, mode 600", "name a.bin", "create \(partial)", "rename \(partial) onto a.bin",
            ])
    }

    /// The kinds of the records in each write to a journal, in order (`intent`, `committing`…), through the real
    /// calls; `readFails` makes every read of a source fail with EIO.
    final class JournalWrites: Sendable {
        let writes = Locked<[[String]]>([])
        let readFails: Bool

        init(readFails: Bool = false) {
            self.readFails = readFails
        }

        var fileSystem: FileSystem {
            var fileSystem = FileSystem.posix
            fileSystem.calls.append = { [self] descriptor, bytes throws(Errno) in
                // Each line is `CHECKSUM {"KIND":{…}}`.
                let kinds = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map {
                    String($0.drop { $0 != "{" }.dropFirst(2).prefix { $0 != "\"" })
                }
                writes.withLock { $0.append(kinds) }
                return try FileSystem.posix.append(descriptor, bytes)
            }
            if readFails {
                fileSystem.calls.read = { _, _, _ throws(Errno) in throw Errno(rawValue: EIO) }
            }
            return fileSystem
        }
    }

    /// A file with no name is journaled by one record, its batch's commitment carrying its intention
    /// (`committingFresh`; before, the intention was a line of its own, a tenth of a tree copy's CPU time); the
    /// file read back from the journal is the one the journal held in memory, the intention's source and status
    /// included. A named partial's intention is written at once, before the partial is made. A copy that fails
    /// before its commit writes the intention with its failure, and the entry says so.
    @Test func aFileWithNoNameIsJournaledByItsCommitmentAlone() async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let recorded = JournalWrites()
        let journal = try CopyJournal(directory: fixture.destination + "/", fileSystem: recorded.fileSystem)
        func copy(_ source: String, chunkSize: Int = 4096, fileSystem: FileSystem) async throws(TransferError)
            -> CopyOutcome
        {
            let request = CopyRequest(id: source, source: source, destinationDirectory: fixture.destination)
            let options = CopyOptions(chunkSize: chunkSize, fileSystem: fileSystem)
            return try await CopyJob(request: request, journal: journal, options: options).run()
        }
        let (small, _) = try fixture.source("small.bin", count: 4096)
        let copied = try await copy(small, fileSystem: recorded.fileSystem)
        let (large, _) = try fixture.source("large.bin", count: 4097)
        _ = try await copy(large, fileSystem: recorded.fileSystem)
        let (unread, _) = try fixture.source("unread.bin", count: 10)
        await #expect(throws: TransferError.self) {
            try await copy(unread, fileSystem: JournalWrites(readFails: true).fileSystem)
        }
        #expect(
            recorded.writes.withLock { $0 } == [
                ["committingFresh"], ["completed"],
                ["intent"], ["committing"], ["completed"],
                ["intent", "failed"],
            ])
        guard case .completed(let file) = copied, let digest = file.digest else {
            Issue.record("the small file was not copied: \(copied)")
            return
        }
        // What a journal keeps of a status: its size, time and kind (an access time read later differs).
        func kept(_ entry: JournalEntry?) -> JournalEntry? {
            entry.map { entry in
                var kept = entry
                kept.sourceStatus = entry.sourceStatus.map {
                    FileStatus(
                        size: $0.size, modifiedNanoseconds: $0.modifiedNanoseconds, isDirectory: $0.isDirectory,
                        isRegularFile: $0.isRegularFile)
                }
                return kept
            }
        }
        let expected = JournalEntry(
            request: small, source: small, sourceStatus: try FileSystem.posix.statusOfPath(small), durableOffset: 4096,
            status: .completed(size: 4096, digest: digest), ownedDigest: digest)
        let replayed = CopyJournal.replay(contents(of: journal.path) ?? []).entries
        #expect(kept(replayed["small.bin"]) == kept(expected))
        #expect(kept(journal.entry(named: "small.bin")) == kept(expected))
        #expect(
            journal.entry(named: "unread.bin")?.status == .failed(reason: "cannot read \(unread): Input/output error"))
        #expect(journal.entry(named: "unread.bin")?.source == unread)
    }

    /// The process's budget follows the soft limit on open files, up to 256 (as many copies as a headless copy has
    /// under way, so none of its small files falls back to a named partial while its batch waits for `syncfs`).
    @Test(arguments: [(20_000, 256), (Int.max, 256), (4096, 248), (1024, 56), (144, 1), (128, 0), (64, 0)])
    func theBudgetFollowsTheLimitOnOpenFiles(openFiles: Int, most: Int) {
        #expect(UnnamedFiles.Budget.most(forOpenFiles: openFiles) == most)
    }

    /// At most `budget.most` files with no name are open at once (a small file's copy gives its slot back while its
    /// file waits for its batch): past it a copy gets no such file (it makes a named partial), and each way a file
    /// with no name ends (discarded, closed, sealed and named, sealed and dropped) gives its place back.
    @Test func filesWithNoNameAreBoundedAndEachEndingGivesItsPlaceBack() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let destination = try DestinationDirectory(path: directory.path)
        let budget = UnnamedFiles.Budget(most: 2)
        let content: [UInt8] = [1, 2, 3]
        func unnamed(_ name: String) -> StagedFile? { StagedFile.unnamed(name, in: destination, budget: budget) }
        /// `name` written and sealed; nil when no file with no name was made for it.
        func sealed(_ name: String) throws -> SealedPartial? {
            guard var staged = unnamed(name) else { return nil }
            try staged.write(contentsOf: content)
            return try staged.seal(
                expectedSize: 3, expectedDigest: ContentDigest.of(content), metadataOf: nil, sync: false)
        }
        guard let first = unnamed("a"), let second = unnamed("b") else {
            Issue.record("no file with no name was made")
            return
        }
        var counts = [budget.openCount]
        let third = unnamed("c")
        let refused = third == nil
        first.discard()
        counts.append(budget.openCount)
        _ = second.close()
        counts.append(budget.openCount)
        let named = try sealed("d")
        counts.append(budget.openCount)
        try named?.rename()
        counts.append(budget.openCount)
        _ = try sealed("e")
        counts.append(budget.openCount)
        #expect(refused)
        #expect(counts == [2, 1, 0, 1, 0, 0])
        #expect(contents(of: directory.file("d")) == content)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []) == ["d"])
    }

    /// Either way of naming a file with no name gives it the name with its content, and refuses a name already
    /// taken, even by a symbolic link, which is left as it was. The descriptor's own path (`AT_EMPTY_PATH`) may be
    /// refused as a whole (`ENOENT`, a kernel before 6.10 without the privilege): then nothing is named.
    @Test(arguments: UnnamedFiles.LinkWay.allCases)
    func eitherWayNamesTheFileAndNeverReplacesAnEntry(way: UnnamedFiles.LinkWay) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let destination = try DestinationDirectory(path: directory.path)
        let descriptor = try FileSystem.posix.openUnnamed!(destination.descriptor, 0o600)
        defer { close(descriptor) }
        let content: [UInt8] = [7, 8, 9]
        #expect(content.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) } == 3)
        try "elsewhere".write(toFile: directory.file("target"), atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: directory.file("planted"), withDestinationPath: "target")
        func outcome(_ name: String) -> Errno? {
            do throws(Errno) {
                try UnnamedFiles.link(descriptor, in: destination.descriptor, as: name, through: way)
                return nil
            } catch {
                return error
            }
        }
        let first = outcome("named")
        if way == .emptyPath && first == Errno(rawValue: ENOENT) {
            #expect(!exists(directory.file("named")))
            return
        }
        let outcomes = [first, outcome("named"), outcome("planted")]
        #expect(outcomes == [nil, Errno(rawValue: EEXIST), Errno(rawValue: EEXIST)])
        #expect(contents(of: directory.file("named")) == content)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory.file("planted")) == "target")
        #expect(contents(of: directory.file("target")) == Array("elsewhere".utf8))
    }
}
