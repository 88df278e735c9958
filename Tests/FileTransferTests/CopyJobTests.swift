import Foundation
import Support
import Testing

@testable import FileTransfer

/// The copy loop: progress, cancel, interruption and the fault cases.
@Suite struct CopyJobTests {
    static let chunk = 4096

    /// A source file of `chunks` chunks plus a tail, a destination directory, and a job over them.
    struct Fixture {
        let directory: TemporaryDirectory
        let source: String
        let destination: String
        let content: [UInt8]
        let log = CallLog()

        init(count: Int = 10 * CopyJobTests.chunk + 123, seed: UInt64 = 7) throws {
            directory = try TemporaryDirectory()
            source = directory.file("source.bin")
            destination = try directory.directory("out")
            content = pattern(count: count, seed: seed)
            try write(content, to: source)
        }

        var finalPath: String { destination + "/source.bin" }
        var partialPath: String { destination + "/" + StagedFile.partialName(for: "source.bin") }

        func request(overwrite: Bool = false) -> CopyRequest {
            CopyRequest(id: "1", source: source, destinationDirectory: destination, overwrite: overwrite)
        }

        func options(
            checkpointEvery chunks: Int = 3,
            failWrite: (@Sendable (String, Int64, Int) -> Errno?)? = nil
        ) -> CopyOptions {
            CopyOptions(
                chunkSize: CopyJobTests.chunk, checkpointInterval: Int64(chunks * CopyJobTests.chunk),
                fileSystem: log.fileSystem(failWrite: failWrite))
        }

        func job(journal: CopyJournal? = nil, overwrite: Bool = false, options: CopyOptions? = nil) -> CopyJob {
            CopyJob(request: request(overwrite: overwrite), journal: journal, options: options ?? self.options())
        }

        /// The source reads the copy loop made (offset, count), excluding prefix verification.
        func sourceReads() -> [CallLog.Entry] {
            log.reads(of: source)
        }

        var committed: CommittedFile {
            CommittedFile(path: finalPath, size: Int64(content.count), digest: ContentDigest.of(content))
        }
    }

    /// The read offsets of a straight copy from `start` to the end of `content`, then the read that finds
    /// the end of the file (the copy never trusts `st_size` alone).
    static func chunkReads(of fixture: Fixture, from start: Int) -> [CallLog.Entry] {
        stride(from: start, to: fixture.content.count, by: chunk).map {
            .read(path: fixture.source, offset: Int64($0), count: min(chunk, fixture.content.count - $0))
        } + [.read(path: fixture.source, offset: Int64(fixture.content.count), count: 0)]
    }

    @Test func copiesVerifiesAndCommitsWithProgressFromBytesWritten() async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let progress = ProgressLog()
        let outcome = try await fixture.job().run { progress.append($0) }
        #expect(outcome == .completed(fixture.committed))
        #expect(contents(of: fixture.finalPath) == fixture.content)
        #expect(!exists(fixture.partialPath))
        let total = Int64(fixture.content.count)
        let expected =
            [CopyProgress(bytesWritten: 0, totalBytes: total)]
            + stride(from: Self.chunk, to: fixture.content.count, by: Self.chunk).map {
                CopyProgress(bytesWritten: Int64($0), totalBytes: total)
            } + [CopyProgress(bytesWritten: total, totalBytes: total)]
        #expect(progress.all == expected)
    }

    @Test func copiesAnEmptyFile() async throws {
        let fixture = try Fixture(count: 0)
        defer { fixture.directory.remove() }
        let outcome = try await fixture.job().run()
        #expect(outcome == .completed(fixture.committed))
        #expect(contents(of: fixture.finalPath) == [])
    }

    @Test func anInterruptStopsTheLoopAtTheNextChunkBoundaryAndKeepsThePartial() async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let job = fixture.job()
        let stopAt = Int64(4 * Self.chunk)
        #expect(try await runInterrupted(job, at: stopAt) == .interrupted(offset: stopAt))
        #expect(size(of: fixture.partialPath) == stopAt)
        #expect(job.lifecycle == .ready)
        #expect(fixture.sourceReads() == Array(Self.chunkReads(of: fixture, from: 0).prefix(4)))
    }

    /// `interrupt()` stops the run under way as its task's cancellation does, from any thread (here the copy's
    /// own, at a chunk's progress): the partial is kept at the boundary. With no run under way it does
    /// nothing: the next run completes. A caller whose own task is cancelled reaches the run through it at once,
    /// even before it could cancel the run's task (a copy's visit ending while the job's task is not yet kept).
    @Test func interruptStopsTheRunUnderWayAndNothingElse() async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let job = fixture.job()
        job.interrupt()
        let stopAt = Int64(3 * Self.chunk)
        let outcome = try await job.run { if $0.bytesWritten == stopAt { job.interrupt() } }
        #expect(outcome == .interrupted(offset: stopAt))
        #expect(size(of: fixture.partialPath) == stopAt)
        #expect(job.lifecycle == .ready)
        job.interrupt()
        #expect(try await job.run() == .completed(fixture.committed))
    }

    /// A run whose task was cancelled before it started stops before it opens anything: no partial, nothing read.
    @Test func aTaskCancelledBeforeTheRunStartsStopsBeforeItOpensAnything() async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let job = fixture.job()
        let running = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await job.run()
        }
        #expect(try await running.value == .interrupted(offset: 0))
        #expect(fixture.sourceReads() == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.destination) == [])
        #expect(job.lifecycle == .ready)
        #expect(try await job.run() == .completed(fixture.committed))
    }

    /// A stop that came before the run began, which ``CopyJob/interrupt()`` cannot reach, reaches it through
    /// `stopAsked`: the run stops before it opens anything, as a task cancelled before it started does (before, it
    /// made its partial and journaled its intent, then stopped at the first chunk: a copy that waited its turn and
    /// was stopped meanwhile wrote a partial for nothing). `stopAsked` is asked once the run is under way, and a run
    /// not asked to stop completes.
    @Test func aStopAskedBeforeTheRunBeganStopsItBeforeItOpensAnything() async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let job = fixture.job()
        let asked = Locked<[CopyLifecycle]>([])
        let outcome = try await job.run(stopAsked: {
            asked.withLock { $0.append(job.lifecycle) }
            return true
        })
        #expect(outcome == .interrupted(offset: 0))
        #expect(asked.withLock { $0 } == [.running])
        #expect(fixture.sourceReads() == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.destination) == [])
        #expect(job.lifecycle == .ready)
        #expect(try await job.run(stopAsked: { false }) == .completed(fixture.committed))
    }

    /// A run told its source is small waits its turn on the small files' runners (``SmallCopyRunners``); one told
    /// nothing, or told of a large file, runs on a queue of its own. Either way the file completes.
    @Test(arguments: [(nil, false), (Int64(1000), true), (Int64(1 << 20), false)])
    func aSmallFileIsCopiedOnTheSmallFilesRunners(sizeHint: Int64?, onRunners: Bool) async throws {
        let fixture = try Fixture(count: 3 * Self.chunk)
        defer { fixture.directory.remove() }
        let threads = Locked<Set<String>>([])
        let outcome = try await fixture.job().run(
            sizeHint: sizeHint,
            progress: { _ in
                let name = currentThreadName()
                threads.withLock { _ = $0.insert(name) }
            })
        #expect(outcome == .completed(fixture.committed))
        let names = threads.withLock { $0 }
        #expect(!names.isEmpty)
        #expect(names.allSatisfy { $0 == "statetui copy" } == onRunners)
    }

    @Test func cancelWhileRunningRemovesThePartial() async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let job = fixture.job()
        let outcome = try await job.run { if $0.bytesWritten == Int64(3 * Self.chunk) { job.cancel() } }
        #expect(outcome == .cancelled)
        #expect(job.lifecycle == .cancelled)
        #expect(!exists(fixture.partialPath))
        #expect(!exists(fixture.finalPath))
    }

    @Test func aCancelAfterTheLastChunkIsTooLateAndTheFileIsCommitted() async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let job = fixture.job()
        let total = Int64(fixture.content.count)
        let outcome = try await job.run { if $0.bytesWritten == total { job.cancel() } }
        #expect(outcome == .completed(fixture.committed))
        #expect(job.lifecycle == .completed)
        #expect(contents(of: fixture.finalPath) == fixture.content)
    }

    @Test func aCancelDuringARunThatFailsRemovesThePartialWhenTheRunEnds() async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let journal = try CopyJournal(directory: fixture.destination)
        let job = fixture.job(journal: journal)
        let total = Int64(fixture.content.count)
        // The cancel arrives after the last chunk; then the source turns out changed, so the run fails
        // instead of committing, and the run removes the partial the cancel asked to remove.
        let change = MidRun(at: total) {
            job.cancel()
            try write(fixture.content + [1], to: fixture.source)
        }
        await #expect(
            throws: TransferError.sourceChanged(
                path: fixture.source, detail: "size or modification time differs from when the copy started")
        ) {
            try await job.run(progress: change.progress)
        }
        #expect(change.report.calls == 1 && change.report.thrown == [])
        #expect(job.lifecycle == .cancelled)
        // The failure was journaled, then the cancellation the run performed for the cancel.
        #expect(journal.entry(named: "source.bin")?.status == .cancelled)
        #expect(!exists(fixture.partialPath))
        #expect(!exists(fixture.finalPath))
    }

    /// Reads of the source and of the partial after a marker, in order.
    static func reads(after marker: String, in fixture: Fixture) -> [CallLog.Entry] {
        Array(
            fixture.log.all.drop { $0 != .marker(marker) }.filter {
                switch $0 {
                case .read(fixture.source, _, _), .read(fixture.partialPath, _, _): true
                case .read, .write, .marker: false
                }
            })
    }

    /// Reads of `path` over its first `length` bytes, chunk by chunk (the verified path's prefix check).
    static func prefixReads(of path: String, length: Int64) -> [CallLog.Entry] {
        stride(from: 0, to: Int(length), by: chunk).map {
            CallLog.Entry.read(path: path, offset: Int64($0), count: min(chunk, Int(length) - $0))
        }
    }

    /// Runs a job until it is interrupted (its task cancelled from the copy thread) at `stopAt`.
    static func interrupt(_ job: CopyJob, at stopAt: Int64) async throws {
        #expect(try await runInterrupted(job, at: stopAt) == .interrupted(offset: stopAt))
        #expect(job.lifecycle == .ready)
    }

    @Test(arguments: [false, true])
    func taskCancellationInterruptsKeepsThePartialAndTheNextRunContinuesFromMemory(journaled: Bool) async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let job = fixture.job(journal: journaled ? try CopyJournal(directory: fixture.destination) : nil)
        let stopAt = Int64(5 * Self.chunk)
        try await Self.interrupt(job, at: stopAt)
        #expect(size(of: fixture.partialPath) == stopAt)

        fixture.log.mark("second run")
        let outcome = try await job.run()
        #expect(outcome == .completed(fixture.committed))
        #expect(contents(of: fixture.finalPath) == fixture.content)
        // The second run kept the running SHA-256 in memory: it read neither the kept prefix of the
        // source nor the partial, only the rest of the source, once, in order.
        #expect(Self.reads(after: "second run", in: fixture) == Self.chunkReads(of: fixture, from: Int(stopAt)))
    }

    /// How the partial is changed on disk while the job is interrupted.
    enum PartialChange: String, CaseIterable, CustomStringConvertible {
        /// One byte of the kept prefix flipped in place: same size, another modification time.
        case corruptedInPlace
        /// Bytes appended after the offset the job reached.
        case extended
        /// Cut below the offset the job reached.
        case truncated

        var description: String { rawValue }
    }

    @Test(arguments: PartialChange.allCases)
    func aPartialChangedWhileInterruptedIsVerifiedFromDiskNotTrustedFromMemory(change: PartialChange) async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let job = fixture.job()
        let stopAt = Int64(5 * Self.chunk)
        try await Self.interrupt(job, at: stopAt)

        var partial = try #require(contents(of: fixture.partialPath))
        let expectedReads: [CallLog.Entry]
        switch change {
        case .corruptedInPlace:
            partial[100] ^= 0xFF
            try write(partial, to: fixture.partialPath)
            // An explicit time, so the change shows even within the file system's timestamp granularity.
            try setModificationTime(of: fixture.partialPath, seconds: 1_000_000)
            // Both prefixes are hashed from disk, they differ, and the copy starts over from nothing.
            expectedReads =
                Self.prefixReads(of: fixture.partialPath, length: stopAt)
                + Self.prefixReads(of: fixture.source, length: stopAt) + Self.chunkReads(of: fixture, from: 0)
        case .extended:
            try write(partial + [1, 2, 3], to: fixture.partialPath)
            // Cut back to the offset, both prefixes hashed from disk, they agree: continue at the offset.
            expectedReads =
                Self.prefixReads(of: fixture.partialPath, length: stopAt)
                + Self.prefixReads(of: fixture.source, length: stopAt)
                + Self.chunkReads(of: fixture, from: Int(stopAt))
        case .truncated:
            try write(Array(partial.prefix(Self.chunk)), to: fixture.partialPath)
            // Fewer bytes than the offset: nothing to continue, the copy starts over.
            expectedReads = Self.chunkReads(of: fixture, from: 0)
        }

        fixture.log.mark("second run")
        let outcome = try await job.run()
        #expect(outcome == .completed(fixture.committed))
        #expect(contents(of: fixture.finalPath) == fixture.content)
        #expect(Self.reads(after: "second run", in: fixture) == expectedReads)
    }

    /// A restart checks the kept prefix from disk (the partial's, then the source's) before it copies on: it
    /// reports the offset it resumes at first, and asks the run's control before each chunk of the check, so an
    /// interrupt or a cancel arriving then stops it before another byte is read. Before, the check ran to its
    /// end first (both prefixes read whole): a restart of a 1.6 GB partial kept Ctrl-C waiting for 2 s.
    @Test(arguments: [false, true])
    func aRestartsPrefixCheckStopsWhenAsked(cancels: Bool) async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let journal = try CopyJournal(directory: fixture.destination)
        let stopAt = Int64(6 * Self.chunk)
        try await Self.interrupt(fixture.job(journal: journal), at: stopAt)
        // Another run of the command: a new job, which knows the partial from the journal alone.
        let restarted = fixture.job(journal: journal)
        let progress = ProgressLog()
        fixture.log.mark("restart")
        let outcome = try await restarted.run { report in
            progress.append(report)
            if cancels { restarted.cancel() } else { restarted.interrupt() }
        }
        #expect(progress.all == [CopyProgress(bytesWritten: stopAt, totalBytes: Int64(fixture.content.count))])
        #expect(Self.reads(after: "restart", in: fixture) == [])
        if cancels {
            #expect(outcome == .cancelled)
            #expect(!exists(fixture.partialPath))
            #expect(journal.entry(named: "source.bin")?.status == .cancelled)
        } else {
            #expect(outcome == .interrupted(offset: stopAt))
            #expect(contents(of: fixture.partialPath) == Array(fixture.content.prefix(Int(stopAt))))
            #expect(try await restarted.run() == .completed(fixture.committed))
            #expect(contents(of: fixture.finalPath) == fixture.content)
        }
    }

    @Test func aSourceChangedWhileInterruptedRestartsInsteadOfContinuingFromMemory() async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let job = fixture.job()
        let stopAt = Int64(5 * Self.chunk)
        try await Self.interrupt(job, at: stopAt)

        let changed = pattern(count: fixture.content.count, seed: 99)
        try write(changed, to: fixture.source)
        try setModificationTime(of: fixture.source, seconds: 1_000_000)
        fixture.log.mark("second run")
        let outcome = try await job.run()
        #expect(
            outcome
                == .completed(
                    CommittedFile(
                        path: fixture.finalPath, size: Int64(changed.count), digest: ContentDigest.of(changed))))
        #expect(contents(of: fixture.finalPath) == changed)
        #expect(Self.reads(after: "second run", in: fixture) == Self.chunkReads(of: fixture, from: 0))
    }

    @Test func cancelAfterAnInterruptedRunRemovesThePartial() async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let job = fixture.job()
        try await Self.interrupt(job, at: Int64(Self.chunk))
        #expect(exists(fixture.partialPath))
        job.cancel()
        #expect(job.lifecycle == .cancelled)
        #expect(!exists(fixture.partialPath))
        // A cancelled job stays cancelled and leaves the disk alone: a new job may own the partial now.
        try write([1, 2], to: fixture.partialPath)
        #expect(try await job.run() == .cancelled)
        #expect(contents(of: fixture.partialPath) == [1, 2])
    }

    @Test func aMissingSourceFailsWithTheOSReason() async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let request = CopyRequest(
            id: "1", source: fixture.directory.file("missing.bin"),
            destinationDirectory: fixture.destination)
        await #expect(
            throws: TransferError.sourceUnreadable(
                path: fixture.directory.file("missing.bin"),
                reason: .noSuchFile)
        ) {
            try await CopyJob(request: request).run()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.destination) == [])
    }

    /// Only regular files are copied: a directory, a FIFO (whose open would wait for a writer forever),
    /// a character device and a socket each fail at once with their kind named, and nothing is created
    /// in the destination.
    @Test(.timeLimit(.minutes(1)), arguments: [FileKind.directory, .fifo, .characterDevice, .socket])
    func aSourceThatIsNotARegularFileIsRefusedWithoutBlocking(kind: FileKind) async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let source = try makeSpecialFile(kind, in: fixture.directory)
        let request = CopyRequest(
            id: "1", source: source, destinationDirectory: fixture.destination, name: "copy")
        await #expect(throws: TransferError.notARegularFile(path: source, kind: kind)) {
            try await CopyJob(request: request).run()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.destination) == [])
    }

    /// A source that is a symbolic link when its transfer opens it (a file of a tree replaced by a link after the
    /// walk read it, to lead the copy to a file outside the tree) is refused, not followed: whether the link is
    /// there when its kind is checked, or appears between the check and the open (the check is made to see the
    /// file it was). Before, the open followed it and copied the other file under the tree's name.
    @Test(arguments: [false, true])
    func aSourceReplacedByASymbolicLinkIsNotFollowed(betweenCheckAndOpen: Bool) async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let secret = fixture.directory.file("secret")
        try write([1, 2, 3], to: secret)
        let source = fixture.directory.file("was-a-file")
        try #require(symlink(secret, source) == 0)
        var fileSystem = FileSystem.posix
        if betweenCheckAndOpen {
            // The check sees the regular file the walk saw; the link is what the open meets.
            fileSystem.calls.statusAt = { directory, name throws(Errno) in
                name == source
                    ? try FileSystem.posix.statusOfPath(name) : try FileSystem.posix.statusAt(directory, name)
            }
        }
        let request = CopyRequest(id: "1", source: source, destinationDirectory: fixture.destination)
        await #expect(throws: TransferError.notARegularFile(path: source, kind: .symbolicLink)) {
            try await CopyJob(request: request, options: CopyOptions(fileSystem: fileSystem)).run()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.destination) == [])
    }

    @Test func aDestinationThatIsNotADirectoryIsRefusedBeforeAnythingStarts() async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let request = CopyRequest(id: "1", source: fixture.source, destinationDirectory: fixture.source)
        let log = CallLog()
        await #expect(
            throws: TransferError.destinationNotWritableDirectory(
                path: fixture.source, reason: "Not a directory")
        ) {
            try await CopyJob(request: request, options: CopyOptions(fileSystem: log.fileSystem())).run()
        }
        #expect(log.all == [])
        #expect(
            throws: TransferError.destinationNotWritableDirectory(
                path: fixture.directory.file("nowhere"), reason: "No such file or directory")
        ) {
            try Destination.validate(fixture.directory.file("nowhere"))
        }
    }

    /// In a directory this run made (``DestinationDirectory/isNew``), a name's first run does not look for a file
    /// under it, since nothing can be there; in one it found, it does. A later run of the name in the same process
    /// (a dashboard row started again) looks in either, and finds the copy made.
    @Test(arguments: [false, true])
    func aNameIsLookedForUnlessItsDirectoryIsNew(directoryIsNew: Bool) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.file("source.bin")
        let content = pattern(count: 3000, seed: 3)
        try write(content, to: source)
        let top = try DestinationDirectory(path: try directory.directory("out"))
        if !directoryIsNew { _ = try directory.directory("out/sub") }
        let sub = try top.subdirectory("sub")
        #expect(sub.isNew == directoryIsNew)
        let lookedFor = Locked<[String]>([])
        var fileSystem = FileSystem.posix
        fileSystem.calls.statusAt = { parent, name throws(Errno) in
            lookedFor.withLock { $0.append(name) }
            return try FileSystem.posix.statusAt(parent, name)
        }
        let journal = try CopyJournal(directory: sub)
        let request = CopyRequest(id: "1", source: source, destinationDirectory: sub.path)
        let file = CommittedFile(
            path: sub.path + "/source.bin", size: Int64(content.count), digest: ContentDigest.of(content))
        let first = try await CopyJob(request: request, journal: journal, options: CopyOptions(fileSystem: fileSystem))
            .run()
        #expect(first == .completed(file))
        #expect(lookedFor.withLock { $0.contains("source.bin") } == !directoryIsNew)

        lookedFor.withLock { $0 = [] }
        let again = try await CopyJob(request: request, journal: journal, options: CopyOptions(fileSystem: fileSystem))
            .run()
        #expect(again == .alreadyComplete(file))
        #expect(lookedFor.withLock { $0.contains("source.bin") })
        #expect(contents(of: file.path) == content)
    }

    @Test func anExistingDestinationIsNeverOverwrittenWithoutOverwrite() async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        try write([1, 2, 3], to: fixture.finalPath)
        let journal = try CopyJournal(directory: fixture.destination)
        await #expect(throws: TransferError.destinationExists(path: fixture.finalPath)) {
            try await fixture.job(journal: journal).run()
        }
        #expect(contents(of: fixture.finalPath) == [1, 2, 3])
        #expect(!exists(fixture.partialPath))

        let outcome = try await fixture.job(journal: journal, overwrite: true).run()
        #expect(outcome == .completed(fixture.committed))
        #expect(contents(of: fixture.finalPath) == fixture.content)
    }

    /// Runs `job` with `change` made part way: it fails as a source changed with `detail`, the change ran once
    /// without throwing, and nothing is left under the final or the partial name.
    static func expectSourceChanged(_ job: CopyJob, _ change: MidRun, _ fixture: Fixture, detail: String) async {
        await #expect(throws: TransferError.sourceChanged(path: fixture.source, detail: detail)) {
            try await job.run(progress: change.progress)
        }
        #expect(change.report.calls == 1 && change.report.thrown == [])
        // Neither the final nor the partial name exists.
        #expect([fixture.finalPath, fixture.partialPath].filter(exists) == [])
    }

    @Test func aSourceThatGrowsDuringTheCopyFailsValidation() async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let job = fixture.job()
        let change = MidRun(at: Int64(2 * Self.chunk)) {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: fixture.source))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data([1, 2, 3]))
            try handle.close()
        }
        await Self.expectSourceChanged(
            job, change, fixture, detail: "size or modification time differs from when the copy started")
    }

    @Test func aSourceRewrittenInPlaceFailsValidation() async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        try setModificationTime(of: fixture.source, seconds: 1_000_000)
        let job = fixture.job()
        let change = MidRun(at: Int64(6 * Self.chunk)) {
            // Same size, different bytes in the part already copied; the new modification time gives it away.
            try write(pattern(count: fixture.content.count, seed: 99), to: fixture.source)
            try setModificationTime(of: fixture.source, seconds: 2_000_000)
        }
        await Self.expectSourceChanged(
            job, change, fixture, detail: "size or modification time differs from when the copy started")
    }

    @Test func aSourceThatShrinksDuringTheCopyFailsValidation() async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let job = fixture.job()
        let change = MidRun(at: Int64(2 * Self.chunk)) {
            try write(Array(fixture.content[..<(3 * Self.chunk + 10)]), to: fixture.source)
        }
        await Self.expectSourceChanged(
            job, change, fixture, detail: "it ended at \(3 * Self.chunk + 10) of \(fixture.content.count) bytes")
    }

    /// Also with the writes in the background (a large file's), where the loop has read on past the failed
    /// write: the checkpoint after it is never journaled.
    @Test(arguments: [Errno.noSpace, .fileTooLarge], [false, true])
    func runningOutOfSpaceKeepsThePartialForRetry(reason: Errno, inBackground: Bool) async throws {
        let fixture = try Fixture()
        defer { fixture.directory.remove() }
        let journal = try CopyJournal(directory: fixture.destination)
        let failAt = Int64(7 * Self.chunk)
        var fullDisk = fixture.options(checkpointEvery: 3) { path, offset, _ in
            path.contains("/.statetui-partial.") && offset >= failAt ? reason : nil
        }
        if inBackground {
            fullDisk.writeInBackground()
        }
        await #expect(throws: TransferError.outOfSpace(path: fixture.partialPath, reason: reason)) {
            try await fixture.job(journal: journal, options: fullDisk).run()
        }
        #expect(size(of: fixture.partialPath) == failAt)
        #expect(
            journal.entry(named: "source.bin")?.status
                == .failed(
                    reason: "no room to write \(fixture.partialPath): \(reason)"))
        #expect(journal.entry(named: "source.bin")?.durableOffset == Int64(6 * Self.chunk))

        // Retry with room: it continues from the last durable checkpoint (6 chunks).
        fixture.log.mark("retry")
        let outcome = try await fixture.job(journal: journal).run()
        #expect(outcome == .completed(fixture.committed))
        #expect(contents(of: fixture.finalPath) == fixture.content)
        let retryWrites = fixture.log.all.drop { $0 != .marker("retry") }.compactMap {
            if case .write(fixture.partialPath, let offset, _) = $0 { offset } else { nil }
        }
        #expect(retryWrites.first == Int64(6 * Self.chunk))
    }
}

/// The calling thread's name, as the kernel keeps it (`/proc/thread-self/comm`, without its newline).
private func currentThreadName() -> String {
    let file = open("/proc/thread-self/comm", O_RDONLY | O_CLOEXEC)
    guard file >= 0 else { return "" }
    defer { close(file) }
    var bytes = [UInt8](repeating: 0, count: 32)
    let count = read(file, &bytes, bytes.count)
    guard count > 0 else { return "" }
    return String(decoding: bytes[..<count], as: UTF8.self).trimmingCharacters(in: .newlines)
}
