import Dispatch
import Support

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One file transfer's effect owner: copies the source into a staged partial in chunks, stops between
/// chunks when its run's task is cancelled (a pause or a stop) or the job is cancelled, and commits the
/// file only after it verifies.
///
/// `run` is the async, cancellable copy step a state machine's `whileIn` work calls (a dashboard pauses a
/// transfer by ending that work):
/// - cancelling the task that awaits `run` stops the I/O, syncs the partial, journals the checkpoint and
///   returns `.interrupted(offset:)`; the next `run` continues at that offset. The job keeps the
///   running SHA-256 in memory, so that run reads the source only from the offset on; if the source
///   or the partial changed meanwhile, it verifies the kept prefix from disk instead (as crash
///   recovery, a new job, always does).
/// - `cancel()` stops the copy and removes the partial (also when no run is active).
/// - progress callbacks come from bytes written, on the copy thread, once per chunk.
///
/// The job's lifecycle is a state machine on the engine (`CopyLifecycle`, driven by `CopyControl`): it
/// decides whether a run may begin, what the loop does between chunks and who removes the partial after
/// a cancel.
///
/// With a journal, the intention is journaled before the partial is created (a small file's with no name, with
/// its commitment), checkpoints after each
/// fsync, outcomes at the end, and a new job for the same name reconciles with what the journal says.
public final class CopyJob: Sendable {
    /// The transfer this job performs.
    public let request: CopyRequest
    /// The journal of the destination directory, if the copy is to survive a crash.
    public let journal: CopyJournal?
    /// Chunk size, checkpoint interval and file system.
    public let options: CopyOptions

    private let control: CopyControl
    /// The destination directory, held open from the first use on (the journal's, when there is one).
    private let openedDirectory = Locked<DestinationDirectory?>(nil)
    /// Where an interrupted or failed run left a durable partial, for a journal-less resume.
    private let resumePoint = Locked<ResumePoint?>(nil)
    /// The intention of the file with no name the run under way made, which no record announced: its commitment
    /// carries it (``JournalRecord/committingFresh(name:intention:size:digest:)``), or, should the run fail, it is
    /// journaled with the failure. Taken as the run ends (``end(_:_:)``).
    private let unannounced = Locked<JournalRecord.Intention?>(nil)

    private struct ResumePoint {
        var offset: Int64
        var sourceStatus: FileStatus
        /// What an interrupted run left in memory, so the next run in this process continues without
        /// reading the kept prefix again; nil after a failure (the disk is then the only truth).
        var kept: KeptProgress?
    }

    /// The running SHA-256 of the partial's first `offset` bytes and the partial's status on disk
    /// right after the interrupted run synced it (any later change makes the memory stale).
    private struct KeptProgress {
        var hashState: ContentDigest
        var written: FileStatus
    }

    /// Prepares a job; nothing touches the disk until `run`.
    public init(request: CopyRequest, journal: CopyJournal? = nil, options: CopyOptions = CopyOptions()) {
        self.request = request
        self.journal = journal
        self.options = options
        self.control = CopyControl(fileName: request.name)
    }

    /// Where the job is in its life.
    var lifecycle: CopyLifecycle { control.state }

    /// Stops the copy for good and removes the partial (at once when no run is active, else when the run
    /// stops at its next chunk boundary); a job cannot run again after a cancel.
    public func cancel() {
        control.cancel { discardPartial() }
    }

    /// Stops the run under way at its next chunk boundary, as cancelling the task that runs it does, keeping
    /// the partial durable for the next run; nothing when no run is under way (a run that begins afterwards
    /// is not affected: its own task's cancellation stops it).
    public func interrupt() {
        control.interruptCurrentRun()
    }

    /// Removes the partial and journals the cancellation: done once, by whoever the lifecycle names.
    private func discardPartial() {
        try? directory().remove(StagedFile.partialName(for: request.name))
        try? journal?.append(.cancelled(name: request.name))
        resumePoint.withLock { $0 = nil }
    }

    /// The destination directory, opened once for this job (the journal's own directory, when there
    /// is a journal), so every run works in the same directory as the journal even if its path is
    /// replaced meanwhile. Reached through this job's file system.
    private func directory() throws(TransferError) -> DestinationDirectory {
        let options = self.options
        let path = request.destinationDirectory
        let journal = self.journal
        return try openedDirectory.withLock { opened throws(TransferError) in
            if let opened { return opened }
            let made: DestinationDirectory
            if let journal {
                made = journal.directory.using(options.fileSystem)
            } else {
                made = try DestinationDirectory(path: path, fileSystem: options.fileSystem)
            }
            opened = made
            return made
        }
    }

    /// Copies (or continues copying) until the file is committed, the job is cancelled or the task is
    /// cancelled; throws the cause when the copy fails. Only one run may be active at a time.
    ///
    /// `filesClosed` is called when the run has closed its files and waits for its commit batch (a small file
    /// committed with others, ``CopyJournal/commitTogether(_:then:)``), before the run returns; a run that ends
    /// otherwise does not call it.
    ///
    /// `stopAsked` is asked once, as soon as the run is under way: true stops it at its first chunk boundary, as a
    /// cancellation of the task would. It is how a caller that stops runs with ``interrupt()`` (which reaches only
    /// a run under way) reaches one it stopped before the run began: it sets what `stopAsked` reads before it
    /// calls ``interrupt()``, so one of the two always reaches the run.
    ///
    /// `sizeHint` is what the caller knows of the source's size (a tree's walk read it); under
    /// ``commitTogetherMaximumSize``, the run waits its turn on the small files' few threads
    /// (``SmallCopyRunners``) instead of a queue of its own. The copy never trusts it: the file's own status decides
    /// everything else.
    public func run(
        sizeHint: Int64? = nil,
        progress: @escaping @Sendable (CopyProgress) -> Void = { _ in },
        filesClosed: @escaping @Sendable () -> Void = {},
        stopAsked: () -> Bool = { false }
    ) async throws(TransferError) -> CopyOutcome {
        guard let run = control.beginRun() else { return .cancelled }
        if stopAsked() { control.interrupt(run) }
        let control = self.control
        let result: Result<CopyOutcome, TransferError> = await withTaskCancellationHandler {
            // Checked, though `perform` gives `finish` its run's outcome once on every path: a runner may resume
            // it before this task has suspended, and ThreadSanitizer does not see the hand-over of an unchecked
            // one then (swiftlang/swift#57803): it reported a race on the task's frame, which no check may hide.
            await withCheckedContinuation { continuation in
                // Off the cooperative pool: the loop blocks in read/write, which must not hold one of its
                // few threads. A small file waits its turn on the small files' runners; any other gets a serial
                // queue of its own, which runs on a pooled thread (dispatch's overcommit pool), so thousands of
                // files do not each create and end a thread.
                let work: @Sendable () -> Void = { [self] in
                    perform(run: run, progress: progress, filesClosed: filesClosed) {
                        continuation.resume(returning: $0)
                    }
                }
                if let sizeHint, sizeHint < Self.commitTogetherMaximumSize {
                    SmallCopyRunners.shared.run(work)
                } else {
                    DispatchQueue(label: "statetui copy").async(execute: work)
                }
            }
        } onCancel: {
            control.interrupt(run)
        }
        return try result.get()
    }

    /// Copies, then gives `finish` the run's outcome once the run has ended: at once, or for a small file
    /// committed with others (``CopyJournal/commitTogether(_:then:)``) once its batch is done, this thread
    /// having gone on meanwhile.
    private func perform(
        run: CopyControl.Machine.Sender, progress: @Sendable (CopyProgress) -> Void,
        filesClosed: @Sendable () -> Void, finish: @escaping @Sendable (Result<CopyOutcome, TransferError>) -> Void
    ) {
        let step: CopyStep
        do throws(TransferError) {
            step = try copy(progress: progress)
        } catch {
            finish(end(run, .failure(error)))
            return
        }
        switch step {
        case .done(let outcome):
            finish(end(run, .success(outcome)))
        case .committing(let sealed, let journal):
            // The source and the partial are closed: another copy may open its files while this one waits.
            filesClosed()
            journal.commitTogether(sealed) { [self] committed in
                if case .success = committed { resumePoint.withLock { $0 = nil } }
                finish(end(run, committed.map(CopyOutcome.completed)))
            }
        }
    }

    /// Ends `run` with `result`, journaling a failure first; returns `result`.
    private func end(
        _ run: CopyControl.Machine.Sender, _ result: Result<CopyOutcome, TransferError>
    ) -> Result<CopyOutcome, TransferError> {
        let intention = unannounced.withLock { $0.take() }
        if case .failure(let error) = result {
            // A file with no name that failed is journaled as one announced before: its intention, then the failure.
            let failure = JournalRecord.failed(name: request.name, reason: error.description)
            try? journal?.append(
                intention.map { [.intent(intention: $0, name: request.name), failure] } ?? [failure])
        }
        let end: CopyRunEnd
        switch result {
        case .success(.completed), .success(.alreadyComplete): end = .completed
        case .success(.cancelled): end = .cancelled
        case .success(.interrupted), .failure: end = .stopped
        }
        control.endRun(run, end) { discardPartial() }
        return result
    }

    // MARK: - The copy

    private enum Plan {
        case alreadyComplete(CommittedFile)
        case write(Start)
    }

    /// Where the bytes of a run start.
    private enum Start {
        /// A new partial; `nameIsFree` when no entry was found under the final name (or none looked for, in a
        /// directory this run made), so a small file may be written with no name and named once complete.
        case fresh(replaces: SHA256Digest?, nameIsFree: Bool = false)
        case resume(offset: Int64)
        /// Continue where an interrupted run of this job stopped, with the hash state it kept.
        case continueInMemory(offset: Int64, kept: KeptProgress)

        /// Where the bytes already in the partial end.
        var offset: Int64 {
            switch self {
            case .fresh: 0
            case .resume(let offset), .continueInMemory(let offset, _): offset
            }
        }
    }

    /// Where a run's copying ended: with its outcome, or with a small file's sealed partial handed to the
    /// journal to commit with others.
    private enum CopyStep {
        case done(CopyOutcome)
        case committing(SealedPartial, CopyJournal)
    }

    /// How a run's byte loop ended.
    private enum LoopEnd {
        /// The source's end was reached after `copied` bytes.
        case endOfFile(copied: Int64)
        case cancelled
        case interrupted(offset: Int64)
    }

    /// What a run's copying left.
    private enum Copied: ~Copyable {
        /// The whole source, `size` bytes, is in the partial, durable and unchanged: ready to commit.
        case whole(StagedFile, size: Int64)
        /// Cancelled for good; the partial is closed (the run's end removes it).
        case cancelled
        /// Stopped to resume at `offset`; the partial is durable up to there and closed.
        case interrupted(offset: Int64)
    }

    private func copy(progress: @Sendable (CopyProgress) -> Void) throws(TransferError) -> CopyStep {
        Self.ignoreFileSizeSignal()
        guard !StagedFile.isReserved(request.name) else {
            // Copied under such a name, the file would replace the journal or another file's partial.
            throw .unsafeEntry(path: request.destinationPath, detail: StagedFile.reservedNameDetail)
        }
        let directory = try self.directory()
        switch control.next() {
        case .proceed:
            break
        case .cancel:
            // Cancelled after this run began but before the loop: the run's end removes the partial.
            return .done(.cancelled)
        case .interrupt:
            // Stopped before it opened anything (while it waited its turn, say): nothing changed on disk, and the
            // next run starts where an earlier one left the partial.
            return .done(.interrupted(offset: resumePoint.withLock { $0?.offset } ?? 0))
        }

        let (source, sourceStatus) = try openSource()
        defer { options.fileSystem.close(source) }
        let start: Start
        switch try plan(source, sourceStatus: sourceStatus, in: directory) {
        case .alreadyComplete(let file):
            // No progress: nothing was copied, and the outcome carries the size.
            try directory.matchMetadata(of: request.name, to: sourceStatus)
            return .done(.alreadyComplete(file))
        case .write(let planned):
            start = planned
        }
        // A large file is written in the background while the next chunk is read, and straight to storage in
        // larger chunks while a slot is free. A small file gets small buffers (three of the chunk size each):
        // the size from `stat` is only a hint (a file under /proc reports 0 and is read on in chunks of that
        // size until its end).
        let large = sourceStatus.size >= options.directWriteMinimumSize
        let direct = large && options.directWriteSlots.acquire()
        defer { if direct { options.directWriteSlots.release() } }
        let chunkSize =
            direct
            ? options.directWriteChunkSize
            : min(options.chunkSize, max(Self.smallestChunkSize, Int(clamping: sourceStatus.size)))
        guard
            var staged = try stage(
                start, source: source, sourceStatus: sourceStatus, in: directory, chunkSize: chunkSize,
                progress: progress)
        else {
            // Stopped while the kept prefix was verified: the partial holds its checkpoint's bytes, as before.
            return .done(control.next() == .cancel ? .cancelled : .interrupted(offset: start.offset))
        }
        if large {
            staged.writeInBackground()
        }
        if direct {
            staged.writeDirectly()
        }
        let copied = try copyBytes(
            from: source, sourceStatus: sourceStatus, into: staged, in: directory, progress: progress)
        switch consume copied {
        case .cancelled:
            return .done(.cancelled)
        case .interrupted(let offset):
            return .done(.interrupted(offset: offset))
        case .whole(let staged, let size):
            return try commit(staged, copied: size, source: source, sourceStatus: sourceStatus)
        }
    }

    /// The partial a run writes into, where `start` says: a new one, or a kept one (its prefix checked
    /// against the source unless this job's memory still holds its hash); nil when the run's control stopped
    /// the check (``resumeVerified(_:offset:sourceStatus:in:chunkSize:progress:)``).
    private func stage(
        _ start: Start, source: Int32, sourceStatus: FileStatus, in directory: DestinationDirectory, chunkSize: Int,
        progress: @Sendable (CopyProgress) -> Void
    ) throws(TransferError) -> StagedFile? {
        switch start {
        case .fresh(let replaces, let nameIsFree):
            return try startFresh(
                sourceStatus: sourceStatus, replaces: replaces, in: directory, chunkSize: chunkSize,
                unnamed: nameIsFree && sourceStatus.size <= Int64(chunkSize)
                    && sourceStatus.size < Self.commitTogetherMaximumSize)
        case .resume(let offset):
            return try resumeVerified(
                source, offset: offset, sourceStatus: sourceStatus, in: directory, chunkSize: chunkSize,
                progress: progress)
        case .continueInMemory(let offset, let kept):
            do {
                return try StagedFile(
                    continuing: request.name, in: directory, at: offset, hashState: kept.hashState,
                    written: kept.written, chunkSize: chunkSize)
            } catch {
                // The partial changed between the plan and the reopen: trust only what is on disk.
                resumePoint.withLock { $0?.kept = nil }
                do {
                    return try resumeVerified(
                        source, offset: offset, sourceStatus: sourceStatus, in: directory, chunkSize: chunkSize,
                        progress: progress)
                } catch {
                    return try startFresh(
                        sourceStatus: sourceStatus, replaces: journal?.entry(named: request.name)?.ownedDigest,
                        in: directory, chunkSize: chunkSize)
                }
            }
        }
    }

    /// Copies the source from the partial's offset to its end, checkpointing on the way. On a failure
    /// the partial is kept for a resume (its durable prefix), or discarded when it mixes two versions of
    /// the source; the error is thrown on.
    private func copyBytes(
        from source: Int32, sourceStatus: FileStatus, into staged: consuming StagedFile,
        in directory: DestinationDirectory, progress: @Sendable (CopyProgress) -> Void
    ) throws(TransferError) -> Copied {
        // Where the copy starts, before the first chunk (a resumed one continues past its kept prefix). Not for a
        // file with no name: read and written in one chunk, it reports once, with that chunk, so a small file's
        // machine records one event less and the headless output shows no running line for it, only its outcome.
        if !staged.isUnnamed {
            progress(CopyProgress(bytesWritten: staged.offset, totalBytes: sourceStatus.size))
        }
        // A file with no name is never resumed: no checkpoint of it is journaled.
        let checkpointer = Checkpointer(
            partial: staged.partialDescriptor, path: staged.partialLocation, name: request.name,
            durable: staged.offset, journal: staged.isUnnamed ? nil : journal, fileSystem: options.fileSystem)
        do throws(TransferError) {
            switch try loop(
                from: source, sourceStatus: sourceStatus, into: &staged, checkpointer: checkpointer, progress: progress)
            {
            case .endOfFile(let copied):
                try staged.finishWrites()
                _ = try checkpointer.finish()
                try checkUnchanged(source, since: sourceStatus)
                return .whole(staged, size: copied)
            case .cancelled:
                try? staged.finishWrites()
                _ = checkpointer.abandon()
                _ = staged.close()
                return .cancelled
            case .interrupted(let offset):
                try staged.finishWrites()
                _ = try checkpointer.finish()
                if staged.isUnnamed {
                    // Nothing of a file with no name outlives its descriptor: the next run starts again.
                    _ = staged.close()
                    resumePoint.withLock { $0 = nil }
                    return .interrupted(offset: 0)
                }
                try staged.sync()
                try journal?.append(.checkpoint(name: request.name, offset: offset))
                let hashState = staged.hashState
                _ = staged.close()
                // The status right after the sync is what the next run must find on disk.
                let written = try? directory.status(of: StagedFile.partialName(for: request.name))
                let kept = written.map { KeptProgress(hashState: hashState, written: $0) }
                resumePoint.withLock { $0 = ResumePoint(offset: offset, sourceStatus: sourceStatus, kept: kept) }
                return .interrupted(offset: offset)
            }
        } catch {
            try? staged.finishWrites()
            let durable = checkpointer.abandon()
            switch error {
            case .sourceChanged, .validationFailed:
                // The partial mixes two versions of the source: never keep or resume it.
                staged.discard()
                resumePoint.withLock { $0 = nil }
            case .sourceUnreadable, .destinationNotWritableDirectory, .destinationExists, .outOfSpace, .io,
                .notARegularFile, .unsafeEntry, .destinationBusy, .sameFile:
                // Keep the partial; its durable prefix is resumed on retry (a file with no name is gone).
                let unnamed = staged.isUnnamed
                let synced = max(staged.close(), durable)
                resumePoint.withLock {
                    $0 = unnamed ? nil : ResumePoint(offset: synced, sourceStatus: sourceStatus, kept: nil)
                }
            }
            throw error
        }
    }

    /// The byte loop: one chunk (or one whole hole) a turn, asking the run's control between turns
    /// whether to go on, stop for good or stop to resume later.
    private func loop(
        from source: Int32, sourceStatus: FileStatus, into staged: inout StagedFile, checkpointer: Checkpointer,
        progress: @Sendable (CopyProgress) -> Void
    ) throws(TransferError) -> LoopEnd {
        let size = sourceStatus.size
        var offset = staged.offset
        var queued = QueuedDurability(checkpoint: offset, writeback: offset)
        // Where the source's data and holes lie: holes are not read, only extended and hashed as zeros.
        var segment = FileSegment(isHole: false, end: offset)
        // Until the end of the file, not until `st_size`: files under /proc report 0 bytes and hold more.
        // Past `st_size` everything read is data; a source that grew meanwhile is caught by the status
        // check after the loop.
        var pastSize = false
        while true {
            if offset >= size && !pastSize {
                guard try hasData(source, at: offset) else { return .endOfFile(copied: offset) }
                // Data past `st_size`: a file that grew fails now; one whose status never tells its size
                // (/proc) is read on until its end.
                try checkUnchanged(source, since: sourceStatus)
                pastSize = true
            }
            if let failure = checkpointer.firstFailure {
                throw failure
            }
            switch control.next() {
            case .proceed:
                break
            case .cancel:
                return .cancelled
            case .interrupt:
                return .interrupted(offset: offset)
            }
            segment = nextSegment(
                after: segment, of: source, sourceStatus: sourceStatus, at: offset, chunk: staged.chunkSize)
            let (wanted, count) = try copyPiece(of: segment, from: source, at: offset, into: &staged)
            if offset >= size {
                // A short read past `st_size` is the end of the file.
                pastSize = count == wanted
            } else if count != wanted {
                throw TransferError.sourceChanged(
                    path: request.source, detail: "it ended at \(offset + Int64(count)) of \(size) bytes")
            }
            offset += Int64(count)
            queueDurability(at: offset, size: size, after: &queued, of: staged, checkpointer: checkpointer)
            // After the checkpoint is queued: whoever watches the progress finds every checkpoint up to it queued.
            progress(CopyProgress(bytesWritten: offset, totalBytes: max(size, offset)))
        }
    }

    /// Files smaller than this commit together with the other copies into their directory committing at the
    /// same time (``CopyJournal/commitTogether(_:then:)``): one sync of the file system for all of their
    /// partials instead of an `fsync` each. A larger file's own `fsync` costs little beside its bytes, and
    /// syncing the whole file system for it would also wait for every other large file being written.
    static let commitTogetherMaximumSize: Int64 = 1 << 20

    /// Where the byte loop last queued a checkpoint and the start of a writeback.
    private struct QueuedDurability {
        var checkpoint: Int64
        var writeback: Int64
    }

    /// The stretch of the source the piece at `offset` comes from: `current` while it lasts, then the next data
    /// or hole (searched for only when the source may have holes), or a chunk of data past `st_size`.
    private func nextSegment(
        after current: FileSegment, of source: Int32, sourceStatus: FileStatus, at offset: Int64, chunk: Int
    ) -> FileSegment {
        let size = sourceStatus.size
        if offset >= size {
            return FileSegment(isHole: false, end: offset + Int64(chunk))
        }
        guard offset >= current.end else { return current }
        return sourceStatus.mayHaveHoles
            ? options.fileSystem.segment(of: source, at: offset, size: size)
            : FileSegment(isHole: false, end: size)
    }

    /// Queues a checkpoint at `offset` once a checkpoint interval was copied since the last one (never at the
    /// end of the file, which the commit syncs), or else the start of writing back the bytes since the last
    /// writeback once a writeback interval was. Both run behind the writes, so a checkpoint syncs only bytes
    /// already written.
    private func queueDurability(
        at offset: Int64, size: Int64, after queued: inout QueuedDurability, of staged: borrowing StagedFile,
        checkpointer: Checkpointer
    ) {
        if offset - queued.checkpoint >= options.checkpointInterval && offset < size {
            staged.afterWrites { checkpointer.checkpoint(at: offset) }
            queued = QueuedDurability(checkpoint: offset, writeback: offset)
        } else if offset - queued.writeback >= Self.writebackInterval {
            let from = queued.writeback
            staged.afterWrites { checkpointer.startWriteback(from: from, to: offset) }
            queued.writeback = offset
        }
    }

    /// Copies the next piece of `segment` at `offset`: a chunk of data read from the source, or a whole
    /// hole in one step (an `ftruncate`, its zeros fed to the digest as a count). Returns how many
    /// bytes were wanted and how many were copied (fewer at the end of the file).
    private func copyPiece(
        of segment: FileSegment, from source: Int32, at offset: Int64, into staged: inout StagedFile
    ) throws(TransferError) -> (wanted: Int, count: Int) {
        let wanted = Int(segment.isHole ? segment.end - offset : min(Int64(staged.chunkSize), segment.end - offset))
        if segment.isHole {
            return (wanted, try staged.writeHole(count: wanted))
        }
        let fileSystem = options.fileSystem
        let path = request.source
        let count = try staged.write { buffer throws(TransferError) in
            do throws(Errno) {
                return try fileSystem.readFully(
                    source, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted]), at: offset)
            } catch {
                throw .sourceUnreadable(path: path, reason: error)
            }
        }
        return (wanted, count)
    }

    /// Commits the partial of `copied` bytes under its final name with the source's metadata, the
    /// intention and the outcome journaled around the rename; a small file's partial is sealed and handed to
    /// the journal to commit with others (``CopyJournal/commitTogether(_:then:)``).
    private func commit(
        _ staged: consuming StagedFile, copied: Int64, source: Int32, sourceStatus: FileStatus
    ) throws(TransferError) -> CopyStep {
        // The bytes hashed into the staged file are exactly the bytes read from the source (the same
        // buffers; a resumed prefix was checked against the source above), so the running digest is
        // the source's digest computed while reading.
        let sourceDigest = staged.digest
        let name = request.name
        // The destination's path is made only for the warning.
        func attributesNotCopied(_ reason: Errno) {
            options.warn(.extendedAttributesNotCopied(path: request.destinationPath, reason: reason))
        }
        let intention = unannounced.withLock { $0 }
        if let journal, copied < Self.commitTogetherMaximumSize, journal.commitsTogether {
            let sealed = try staged.seal(
                expectedSize: copied, expectedDigest: sourceDigest, metadataOf: sourceStatus, attributesFrom: source,
                attributesNotCopied: attributesNotCopied, sync: false, intention: intention)
            return .committing(sealed, journal)
        }
        let journal = self.journal
        let file = try staged.commit(
            expectedSize: copied, expectedDigest: sourceDigest, metadataOf: sourceStatus, attributesFrom: source,
            attributesNotCopied: attributesNotCopied
        ) { () throws(TransferError) in
            try journal?.append(.commitment(name: name, size: copied, digest: sourceDigest, intention: intention))
        }
        try journal?.append(.completed(name: name, size: copied, digest: sourceDigest))
        resumePoint.withLock { $0 = nil }
        return .done(.completed(file))
    }

    /// Throws `sourceChanged` unless the source still has the size and modification time it had at `start`.
    private func checkUnchanged(_ source: Int32, since start: FileStatus) throws(TransferError) {
        let now: FileStatus
        do {
            now = try options.fileSystem.status(source)
        } catch {
            throw .sourceUnreadable(path: request.source, reason: error)
        }
        guard now.sameContent(as: start) else {
            throw .sourceChanged(
                path: request.source, detail: "size or modification time differs from when the copy started")
        }
    }

    /// True when the source holds data at `offset`, where `st_size` says it ends: one byte is read.
    private func hasData(_ source: Int32, at offset: Int64) throws(TransferError) -> Bool {
        var byte: UInt8 = 0
        do {
            return try withUnsafeMutableBytes(of: &byte) { buffer throws(Errno) in
                try options.fileSystem.readFully(source, into: buffer, at: offset)
            } > 0
        } catch {
            throw .sourceUnreadable(path: request.source, reason: error)
        }
    }

    /// Reopens the partial at `offset` after checking from disk that its kept prefix is still the
    /// source's prefix (both are read and hashed); if the source changed since the checkpoint, the
    /// partial is worthless and the transfer starts over.
    ///
    /// The check reads the prefix twice, which takes seconds for gigabytes: the run reports the offset it
    /// resumes at before it begins (the row and the first line show where the copy continues), and asks the
    /// run's control before each chunk, so a pause, a stop or a cancel ends the check at once; nil then, with
    /// the partial as its checkpoint left it. Before, a restart of a 1.6 GB partial showed 0% and kept Ctrl-C
    /// waiting for 2 s (minutes for 100 GB).
    private func resumeVerified(
        _ source: Int32, offset: Int64, sourceStatus: FileStatus, in directory: DestinationDirectory, chunkSize: Int,
        progress: @Sendable (CopyProgress) -> Void
    ) throws(TransferError) -> StagedFile? {
        progress(CopyProgress(bytesWritten: offset, totalBytes: sourceStatus.size))
        let control = self.control
        let proceed: (Int64) -> Bool = { _ in control.next() == .proceed }
        guard
            var staged = try StagedFile.resuming(
                request.name, in: directory, keeping: offset, chunkSize: chunkSize, proceed: proceed)
        else { return nil }
        guard let sourceDigest = try digest(of: source, path: request.source, length: offset, proceed: proceed) else {
            _ = staged.close()
            return nil
        }
        if sourceDigest != staged.digest {
            staged.discard()
            staged = try startFresh(
                sourceStatus: sourceStatus, replaces: journal?.entry(named: request.name)?.ownedDigest,
                in: directory, chunkSize: chunkSize)
        }
        return staged
    }

    /// Journals the intention, then creates an empty partial (replacing, never following, any entry
    /// under the partial's name); with `unnamed`, a file with no name where the file system has them
    /// (``StagedFile/unnamed(_:in:chunkSize:)``): for a file with no entry under its name that is read in one
    /// chunk (by its size from `stat`), which a stop cannot cut in two, so there is nothing to resume.
    ///
    /// A file with no name is journaled only when it is committed, its intention carried by its commitment
    /// (``unannounced``, ``JournalRecord/committingFresh(name:intention:size:digest:)``): nothing of it is on disk
    /// for an intention to tell a later run of before then. A line of its own, the intention cost a tree of empty
    /// files a tenth of the copy's CPU time (10,000 files, tmpfs, 8 alternated rounds: 0.62 s against 0.69 s).
    private func startFresh(
        sourceStatus: FileStatus, replaces: SHA256Digest?, in directory: DestinationDirectory, chunkSize: Int,
        unnamed: Bool = false
    ) throws(TransferError) -> StagedFile {
        let intention = JournalRecord.Intention(request: request.id, source: request.source, sourceStatus: sourceStatus)
        // A name is free only when nothing is under it, so a file with no name never replaces one.
        if unnamed, replaces == nil,
            let staged = StagedFile.unnamed(
                request.name, in: directory, chunkSize: chunkSize, budget: options.unnamedFiles)
        {
            unannounced.withLock { $0 = intention }
            return staged
        }
        try journal?.append(.intent(intention: intention, name: request.name, replaces: replaces))
        return try StagedFile(creating: request.name, in: directory, chunkSize: chunkSize)
    }

    /// How a source is opened: not blocking, so a FIFO put under its name after it was checked cannot hang
    /// the copy (``openSource()`` clears it once the file is known to be regular).
    private static let sourceFlags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW

    /// Opens the source without blocking and only if it is a regular file: its kind is checked before
    /// the open (opening a FIFO waits for a writer, opening a device may act on it) and again on the
    /// opened descriptor (the path may have been replaced in between); then `O_NONBLOCK` is cleared.
    /// The source's own name is never followed: a symbolic link is copied as a link by the session, so one
    /// found here (a file of a tree replaced by a link after the walk read it) is refused, not read.
    private func openSource() throws(TransferError) -> (descriptor: Int32, status: FileStatus) {
        let fileSystem = options.fileSystem
        let path = request.source
        _ = try Self.regularFile(path) { () throws(Errno) in try fileSystem.statusAt(AT_FDCWD, path) }
        let descriptor: Int32
        do {
            descriptor = try fileSystem.open(path, Self.sourceFlags, 0)
        } catch .init(rawValue: ELOOP) {
            throw .notARegularFile(path: path, kind: .symbolicLink)
        } catch {
            throw .sourceUnreadable(path: path, reason: error)
        }
        do throws(TransferError) {
            let status = try Self.regularFile(path) { () throws(Errno) in try fileSystem.status(descriptor) }
            do {
                try fileSystem.clearNonBlocking(descriptor, Self.sourceFlags)
            } catch {
                throw .sourceUnreadable(path: path, reason: error)
            }
            return (descriptor, status)
        } catch {
            fileSystem.close(descriptor)
            throw error
        }
    }

    /// The status `read` gives of the source at `path`, which must be a regular file's; an error reading it
    /// makes the source unreadable.
    private static func regularFile(
        _ path: String, _ read: () throws(Errno) -> FileStatus
    ) throws(TransferError) -> FileStatus {
        let status: FileStatus
        do {
            status = try read()
        } catch {
            throw .sourceUnreadable(path: path, reason: error)
        }
        guard status.kind == .regularFile else {
            throw .notARegularFile(path: path, kind: status.kind)
        }
        return status
    }

    /// Decides, from the journal and the disk, whether to skip, resume or start over. Only a private
    /// regular file under the partial's name is ever resumed; anything else there is replaced.
    private func plan(
        _ source: Int32, sourceStatus: FileStatus, in directory: DestinationDirectory
    ) throws(TransferError) -> Plan {
        let entry = journal?.entry(named: request.name)
        // A partial is resumed only as the journal's entry or this job's memory of an earlier run says; with
        // neither (a file this destination has not seen) it is not looked for, and the new partial replaces
        // whatever is under its name.
        let mayResume = entry != nil || resumePoint.withLock { $0 != nil }
        let partial =
            mayResume
            ? try directory.status(of: StagedFile.partialName(for: request.name))
                .flatMap { $0.isPrivateRegularFile ? $0 : nil } : nil
        // In a directory this run made, nothing is under the name before its first run: it is not looked up. The
        // lookup of a missing name searches the directory's blocks under its lock, which the copies creating and
        // renaming files beside it hold; skipping it took a tree of empty files on ext4 8% less time.
        let destination = !mayResume && directory.isNew ? nil : try directory.status(of: request.name)
        if let destination, destination.identity == sourceStatus.identity {
            // The destination is the source itself (or a hard link to it): writing it would destroy it.
            throw .sameFile(source: request.source, destination: request.destinationPath)
        }
        if let start = startFromMemory(
            sourceStatus: sourceStatus, partial: partial, destination: destination, entry: entry)
        {
            return .write(start)
        }
        if let entry, entry.source == request.source, entry.sourceStatus?.sameContent(as: sourceStatus) == true,
            let planned = try planFromJournal(entry, partial: partial, destination: destination, in: directory)
        {
            return planned
        }
        return try planAgainstDestination(
            destination, source: source, sourceStatus: sourceStatus, entry: entry, in: directory)
    }

    /// Where an earlier run of this job in this process left off, if nothing it relies on changed since
    /// (the source, the partial, the journal's checkpoint, a file that appeared under the final name).
    private func startFromMemory(
        sourceStatus: FileStatus, partial: FileStatus?, destination: FileStatus?, entry: JournalEntry?
    ) -> Start? {
        guard let point = resumePoint.withLock({ $0 }), point.sourceStatus.sameContent(as: sourceStatus),
            let partial
        else { return nil }
        // An interrupted run kept its hash in memory: continue without reading the prefix again.
        if let kept = point.kept, partial.size == point.offset, partial.sameContent(as: kept.written),
            destination == nil || request.overwrite
        {
            let journalAgrees =
                entry.map {
                    $0.status == .inProgress && $0.durableOffset == point.offset && $0.source == request.source
                        && $0.sourceStatus?.sameContent(as: sourceStatus) == true
                } ?? (journal == nil)
            if journalAgrees {
                return .continueInMemory(offset: point.offset, kept: kept)
            }
        }
        if partial.size >= point.offset, journal == nil {
            return .resume(offset: point.offset)
        }
        return nil
    }

    /// What the journal's record of this same source says to do: skip a completed copy still in place,
    /// finish a commit a crash cut short, or resume a partial; nil when it says nothing usable.
    private func planFromJournal(
        _ entry: JournalEntry, partial: FileStatus?, destination: FileStatus?, in directory: DestinationDirectory
    ) throws(TransferError) -> Plan? {
        switch entry.status {
        case .completed(let size, let digest):
            if let destination, destination.size == size, try digestOfFile(request.name, in: directory) == digest {
                return .alreadyComplete(CommittedFile(path: request.destinationPath, size: size, digest: digest))
            }
        case .committing(let size, let digest):
            if let partial, partial.size == size {
                return .write(.resume(offset: size))
            }
            if partial == nil, let destination, destination.size == size,
                try digestOfFile(request.name, in: directory) == digest
            {
                // The rename happened but its completion record did not: record it now.
                try journal?.append(.completed(name: request.name, size: size, digest: digest))
                return .alreadyComplete(CommittedFile(path: request.destinationPath, size: size, digest: digest))
            }
        case .inProgress, .failed:
            if let partial, partial.size >= entry.durableOffset, destination == nil || request.overwrite {
                return .write(.resume(offset: entry.durableOffset))
            }
        case .cancelled, .damaged:
            break
        }
        return nil
    }

    /// With nothing to resume: start fresh, skip a destination that already holds the source, replace
    /// one this journal wrote (or any, with `overwrite`), or refuse.
    private func planAgainstDestination(
        _ destination: FileStatus?, source: Int32, sourceStatus: FileStatus, entry: JournalEntry?,
        in directory: DestinationDirectory
    ) throws(TransferError) -> Plan {
        guard let destination else { return .write(.fresh(replaces: nil, nameIsFree: true)) }
        guard destination.kind != .directory else {
            // Caught before a byte is copied: the rename at the end could only fail.
            throw .unsafeEntry(
                path: request.destinationPath, detail: "it is a directory, which a file copy never replaces")
        }
        // Like rsync: a regular file there with the source's size and modification time is the source's
        // copy (a rerun, the times being copied too) and is skipped without reading; with
        // `comparesContent`, or when only the times differ, the content decides. This holds with
        // `overwrite` too, which replaces only the files that differ.
        if destination.kind == .regularFile, destination.size == sourceStatus.size,
            let same = try sameCopy(destination, source: source, sourceStatus: sourceStatus, in: directory)
        {
            // Its metadata is set in place on a skip: when other names share its inode that the source's file does
            // not have, that would change them too, so it is copied anew (the content is the source's: nothing
            // is lost, with or without `overwrite`).
            return destination.sharesMetadataWithOtherNames(asCopyOf: sourceStatus, asUser: effectiveUser)
                ? .write(.fresh(replaces: nil)) : .alreadyComplete(same)
        }
        if request.overwrite {
            return .write(.fresh(replaces: nil))
        }
        // Only a file this journal wrote (still holding what it wrote) may be replaced without overwrite.
        if let owned = entry?.ownedDigest, destination.kind == .regularFile,
            try digestOfFile(request.name, in: directory) == owned
        {
            return .write(.fresh(replaces: owned))
        }
        throw .destinationExists(path: request.destinationPath)
    }

    /// The destination file, a regular file of its source's size, as the source's copy: by its size and time
    /// unread (unless `comparesContent`), else by its content; nil when it differs.
    private func sameCopy(
        _ destination: FileStatus, source: Int32, sourceStatus: FileStatus, in directory: DestinationDirectory
    ) throws(TransferError) -> CommittedFile? {
        if !options.comparesContent, destination.isUnchangedCopy(of: sourceStatus),
            let committed = try committedCopy(size: sourceStatus.size, in: directory)
        {
            return committed
        }
        if let digest = try digestOfFile(request.name, in: directory),
            try digestOfPrefix(source, length: sourceStatus.size) == digest
        {
            return CommittedFile(path: request.destinationPath, size: sourceStatus.size, digest: digest)
        }
        return nil
    }

    /// The file under the final name as a committed copy not read (no digest), when it is a regular file
    /// of `size` bytes; nil otherwise (a symbolic link there is not followed).
    private func committedCopy(size: Int64, in directory: DestinationDirectory) throws(TransferError) -> CommittedFile?
    {
        guard let descriptor = try directory.openExisting(request.name, flags: O_RDONLY, writable: false) else {
            return nil
        }
        defer { options.fileSystem.close(descriptor) }
        guard (try? options.fileSystem.status(descriptor))?.size == size else { return nil }
        return CommittedFile(path: request.destinationPath, size: size, digest: nil)
    }

    /// The SHA-256 of the whole file `name` in the destination (to verify a completed copy before
    /// skipping it); nil unless it is a regular file (a symbolic link there is not followed).
    private func digestOfFile(_ name: String, in directory: DestinationDirectory) throws(TransferError)
        -> SHA256Digest?
    {
        let descriptor: Int32?
        do {
            descriptor = try directory.openExisting(name, flags: O_RDONLY, writable: false)
        } catch .unsafeEntry {
            return nil
        }
        guard let descriptor else { return nil }
        defer { options.fileSystem.close(descriptor) }
        return try digest(of: descriptor, path: directory.path(of: name), length: nil)
    }

    /// The SHA-256 of the source's first `length` bytes.
    private func digestOfPrefix(_ source: Int32, length: Int64) throws(TransferError) -> SHA256Digest {
        try digest(of: source, path: request.source, length: length)
    }

    /// The ``ContentDigest`` of the open file's first `length` bytes (all of it when nil), its holes
    /// skipped.
    private func digest(of descriptor: Int32, path: String, length: Int64?) throws(TransferError) -> SHA256Digest {
        guard let digest = try digest(of: descriptor, path: path, length: length, proceed: { _ in true }) else {
            preconditionFailure("Internal inconsistency: a digest taken without a stop was stopped")
        }
        return digest
    }

    /// ``digest(of:path:length:)`` asking `proceed` with the bytes read so far before each chunk; nil when it
    /// said to stop.
    private func digest(of descriptor: Int32, path: String, length: Int64?, proceed: (Int64) -> Bool)
        throws(TransferError) -> SHA256Digest?
    {
        let hasher = PipelinedHasher(chunkSize: options.chunkSize)
        do {
            guard
                try hasher.feedContent(of: descriptor, length: length, fileSystem: options.fileSystem, proceed: proceed)
                    != nil
            else { return nil }
        } catch {
            throw .io(operation: "read", path: path, reason: error)
        }
        return hasher.state.finalize()
    }

    /// How many new bytes between two write-back starts (``Checkpointer/startWriteback(from:to:)``).
    static let writebackInterval: Int64 = 8 << 20

    /// The smallest buffer a file is copied through, whatever its size says.
    static let smallestChunkSize = ChunkBuffers.shared.size

    /// Ignores SIGXFSZ once per process, so writing past `ulimit -f` fails with EFBIG (reported as out
    /// of space) instead of killing the process.
    static func ignoreFileSizeSignal() {
        _ = ignoringFileSizeSignal
    }

    private static let ignoringFileSizeSignal: Bool = {
        signal(SIGXFSZ, SIG_IGN)
        return true
    }()
}
