import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One file transfer's effect owner: copies the source into a staged partial in chunks, obeys pause,
/// resume and cancel between chunks, and commits the file only after it verifies.
///
/// `run` is the async, cancellable copy step a state machine's `whileIn` work calls:
/// - `pause()` parks the loop at the next chunk boundary; it then performs no I/O until `resume()`.
/// - cancelling the task that awaits `run` stops the I/O, syncs the partial, journals the checkpoint and
///   returns `.interrupted(offset:)`; the next `run` continues at that offset. The job keeps the
///   running SHA-256 in memory, so that run reads the source only from the offset on; if the source
///   or the partial changed meanwhile, it verifies the kept prefix from disk instead (as crash
///   recovery, a new job, always does).
/// - `cancel()` stops the copy and removes the partial (also when no run is active).
/// - progress callbacks come from bytes written, on the copy thread, once per chunk.
///
/// With a journal, the intention is journaled before the partial is created, checkpoints after each
/// fsync, outcomes at the end, and a new job for the same name reconciles with what the journal says.
public final class CopyJob: Sendable {
    /// The transfer this job performs.
    public let request: CopyRequest
    /// The journal of the destination directory, if the copy is to survive a crash.
    public let journal: CopyJournal?
    /// Chunk size, checkpoint interval and file system.
    public let options: CopyOptions

    private let control = CopyControl()
    /// Where an interrupted or failed run left a durable partial, for a journal-less resume.
    private let resumePoint = Locked<ResumePoint?>(nil)

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
        var hashState: SHA256
        var written: FileStatus
    }

    /// Prepares a job; nothing touches the disk until `run`.
    public init(request: CopyRequest, journal: CopyJournal? = nil, options: CopyOptions = CopyOptions()) {
        self.request = request
        self.journal = journal
        self.options = options
    }

    /// Where the loop is now.
    public var phase: CopyPhase { control.currentPhase }

    /// Asks the loop to park at the next chunk boundary (also before it starts).
    public func pause() {
        control.pause()
    }

    /// Lets a parked loop continue at the offset it reached.
    public func resume() {
        control.resume()
    }

    /// Stops the copy for good and removes the partial; a job cannot run again after a cancel.
    public func cancel() {
        if control.cancel() {
            try? options.fileSystem.remove(request.partialPath)
            try? journal?.append(.cancelled(name: request.name))
        }
    }

    /// Waits until the loop has parked after `pause()`; returns the offset at which it performs no more
    /// I/O, or nil if the run ended before it parked.
    public func untilPaused() async -> Int64? {
        await control.untilPaused()
    }

    /// Copies (or continues copying) until the file is committed, the job is cancelled or the task is
    /// cancelled; throws the cause when the copy fails. Only one run may be active at a time.
    public func run(
        progress: @escaping @Sendable (CopyProgress) -> Void = { _ in }
    ) async throws(TransferError) -> CopyOutcome {
        guard let run = control.beginRun() else {
            preconditionFailure("CopyJob.run called while another run of \(request.name) is active")
        }
        let control = self.control
        let result: Result<CopyOutcome, TransferError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // A thread of its own: the loop blocks in read/write and while paused, which must not
                // hold one of the few threads of the cooperative pool.
                let thread = Thread { [self] in
                    continuation.resume(returning: perform(run: run, progress: progress))
                }
                thread.name = "statetui copy \(request.name)"
                thread.start()
            }
        } onCancel: {
            control.interrupt(run: run)
        }
        return try result.get()
    }

    private func perform(run: Int, progress: @Sendable (CopyProgress) -> Void) -> Result<CopyOutcome, TransferError> {
        let result: Result<CopyOutcome, TransferError>
        do throws(TransferError) {
            result = .success(try copy(run: run, progress: progress))
        } catch {
            try? journal?.append(.failed(name: request.name, reason: error.description))
            result = .failure(error)
        }
        let ended: Bool
        switch result {
        case .success(.completed), .success(.alreadyComplete), .success(.cancelled): ended = true
        case .success(.interrupted), .failure: ended = false
        }
        control.endRun(run, ended: ended)
        return result
    }

    // MARK: - The copy

    private enum Plan {
        case alreadyComplete(CommittedFile)
        case fresh(replaces: SHA256Digest?)
        case resume(offset: Int64)
        /// Continue where an interrupted run of this job stopped, with the hash state it kept.
        case continueInMemory(offset: Int64, kept: KeptProgress)
    }

    private func copy(run: Int, progress: @Sendable (CopyProgress) -> Void) throws(TransferError) -> CopyOutcome {
        Self.ignoreFileSizeSignal()
        let fileSystem = options.fileSystem
        let request = self.request
        try Destination.validate(request.destinationDirectory, fileSystem: fileSystem)
        if control.isCancelled {
            // Cancelled after this run began but before the loop: cancel() left the cleanup to us.
            if control.takeCancelCleanup() {
                try? fileSystem.remove(request.partialPath)
                try? journal?.append(.cancelled(name: request.name))
            }
            return .cancelled
        }

        let source: Int32
        do {
            source = try fileSystem.open(request.source, O_RDONLY, 0)
        } catch {
            throw .sourceUnreadable(path: request.source, reason: error)
        }
        defer { fileSystem.close(source) }
        let sourceStatus: FileStatus
        do {
            sourceStatus = try fileSystem.status(source)
        } catch {
            throw .sourceUnreadable(path: request.source, reason: error)
        }
        guard sourceStatus.isRegularFile else {
            throw .sourceUnreadable(
                path: request.source, reason: sourceStatus.isDirectory ? .isDirectory : Errno(rawValue: EINVAL))
        }
        let size = sourceStatus.size

        var staged: StagedFile
        switch try plan(sourceStatus: sourceStatus) {
        case .alreadyComplete(let file):
            progress(CopyProgress(bytesWritten: file.size, totalBytes: file.size))
            return .alreadyComplete(file)
        case .fresh(let replaces):
            staged = try startFresh(sourceStatus: sourceStatus, replaces: replaces)
        case .resume(let offset):
            staged = try resumeVerified(source, offset: offset, sourceStatus: sourceStatus)
        case .continueInMemory(let offset, let kept):
            do {
                staged = try StagedFile(
                    continuing: request.name, in: request.destinationDirectory, at: offset,
                    hashState: kept.hashState, written: kept.written, chunkSize: options.chunkSize,
                    fileSystem: fileSystem)
            } catch {
                // The partial changed between the plan and the reopen: trust only what is on disk.
                resumePoint.withLock { $0?.kept = nil }
                do {
                    staged = try resumeVerified(source, offset: offset, sourceStatus: sourceStatus)
                } catch {
                    staged = try startFresh(
                        sourceStatus: sourceStatus, replaces: journal?.entry(named: request.name)?.ownedDigest)
                }
            }
        }

        var offset = staged.offset
        var lastCheckpoint = offset
        progress(CopyProgress(bytesWritten: offset, totalBytes: size))
        let checkpointer = try Checkpointer(
            path: request.partialPath, name: request.name, durable: offset, journal: journal, fileSystem: fileSystem)
        do throws(TransferError) {
            while offset < size {
                if let failure = checkpointer.firstFailure {
                    throw failure
                }
                if control.isPauseRequested {
                    // Paused means quiet: no background fsync still running either.
                    checkpointer.drain()
                }
                switch control.next(run: run, offset: offset) {
                case .proceed:
                    break
                case .cancel:
                    _ = control.takeCancelCleanup()
                    _ = checkpointer.abandon()
                    staged.discard()
                    try? journal?.append(.cancelled(name: request.name))
                    resumePoint.withLock { $0 = nil }
                    return .cancelled
                case .interrupt:
                    _ = try checkpointer.finish()
                    try staged.sync()
                    try journal?.append(.checkpoint(name: request.name, offset: offset))
                    let hashState = staged.hashState
                    _ = staged.close()
                    // The status right after the sync is what the next run must find on disk.
                    let written = try? fileSystem.existingStatus(of: request.partialPath)
                    let kept = written.map { KeptProgress(hashState: hashState, written: $0) }
                    resumePoint.withLock {
                        $0 = ResumePoint(offset: offset, sourceStatus: sourceStatus, kept: kept)
                    }
                    return .interrupted(offset: offset)
                }
                let wanted = Int(min(Int64(staged.chunkSize), size - offset))
                let position = offset
                let count = try staged.write { buffer throws(TransferError) in
                    do throws(Errno) {
                        return try fileSystem.readFully(
                            source, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted]), at: position)
                    } catch {
                        throw .sourceUnreadable(path: request.source, reason: error)
                    }
                }
                guard count == wanted else {
                    throw TransferError.sourceChanged(
                        path: request.source, detail: "it ended at \(position + Int64(count)) of \(size) bytes")
                }
                offset += Int64(count)
                progress(CopyProgress(bytesWritten: offset, totalBytes: size))
                if offset - lastCheckpoint >= options.checkpointInterval && offset < size {
                    checkpointer.checkpoint(at: offset)
                    lastCheckpoint = offset
                }
            }
            _ = try checkpointer.finish()
            let after: FileStatus
            do {
                after = try fileSystem.status(source)
            } catch {
                throw TransferError.sourceUnreadable(path: request.source, reason: error)
            }
            guard after.sameContent(as: sourceStatus) else {
                throw TransferError.sourceChanged(
                    path: request.source,
                    detail: "size or modification time differs from when the copy started")
            }
        } catch {
            let durable = checkpointer.abandon()
            switch error {
            case .sourceChanged, .validationFailed:
                // The partial mixes two versions of the source: never keep or resume it.
                staged.discard()
                resumePoint.withLock { $0 = nil }
            case .sourceUnreadable, .destinationNotWritableDirectory, .destinationExists, .outOfSpace, .io:
                // Keep the partial; its durable prefix is resumed on retry.
                let synced = max(staged.close(), durable)
                resumePoint.withLock { $0 = ResumePoint(offset: synced, sourceStatus: sourceStatus, kept: nil) }
            }
            throw error
        }

        // The bytes hashed into the staged file are exactly the bytes read from the source (the same
        // buffers; a resumed prefix was checked against the source above), so the running digest is
        // the source's digest computed while reading.
        let sourceDigest = staged.digest
        let journal = self.journal
        let name = request.name
        let file = try staged.commit(expectedSize: size, expectedDigest: sourceDigest) { () throws(TransferError) in
            try journal?.append(.committing(name: name, size: size, digest: sourceDigest))
        }
        try journal?.append(.completed(name: name, size: size, digest: sourceDigest))
        resumePoint.withLock { $0 = nil }
        return .completed(file)
    }

    /// Reopens the partial at `offset` after checking from disk that its kept prefix is still the
    /// source's prefix (both are read and hashed); if the source changed since the checkpoint, the
    /// partial is worthless and the transfer starts over.
    private func resumeVerified(
        _ source: Int32, offset: Int64, sourceStatus: FileStatus
    ) throws(TransferError) -> StagedFile {
        var staged = try StagedFile(
            resuming: request.name, in: request.destinationDirectory, keeping: offset,
            chunkSize: options.chunkSize, fileSystem: options.fileSystem)
        if try digestOfPrefix(source, length: offset) != staged.digest {
            staged.discard()
            staged = try startFresh(
                sourceStatus: sourceStatus, replaces: journal?.entry(named: request.name)?.ownedDigest)
        }
        return staged
    }

    /// Journals the intention, then creates an empty partial.
    private func startFresh(sourceStatus: FileStatus, replaces: SHA256Digest?) throws(TransferError) -> StagedFile {
        try journal?.append(
            .intent(
                name: request.name, request: request.id, source: request.source, sourceStatus: sourceStatus,
                replaces: replaces))
        return try StagedFile(
            creating: request.name, in: request.destinationDirectory, chunkSize: options.chunkSize,
            fileSystem: options.fileSystem)
    }

    /// Decides, from the journal and the disk, whether to skip, resume or start over.
    private func plan(sourceStatus: FileStatus) throws(TransferError) -> Plan {
        let partial = try existingStatus(request.partialPath)
        let destination = try existingStatus(request.destinationPath)
        let entry = journal?.entry(named: request.name)

        // An interrupted run of this job kept its hash in memory: continue without reading the prefix
        // again, but only if nothing it relies on changed since (the source, the partial, the journal's
        // checkpoint, a file that appeared under the final name).
        if let point = resumePoint.withLock({ $0 }), let kept = point.kept,
            point.sourceStatus.sameContent(as: sourceStatus),
            let partial, partial.isRegularFile, partial.size == point.offset, partial.sameContent(as: kept.written),
            destination == nil || request.overwrite
        {
            let journalAgrees =
                journal == nil
                || entry.map {
                    $0.status == .inProgress && $0.durableOffset == point.offset && $0.source == request.source
                        && $0.sourceStatus?.sameContent(as: sourceStatus) == true
                } == true
            if journalAgrees {
                return .continueInMemory(offset: point.offset, kept: kept)
            }
        }

        if let point = resumePoint.withLock({ $0 }), point.sourceStatus.sameContent(as: sourceStatus),
            let partial, partial.size >= point.offset, journal == nil
        {
            return .resume(offset: point.offset)
        }

        let sameSource =
            entry.map { $0.source == request.source && $0.sourceStatus?.sameContent(as: sourceStatus) == true } ?? false
        if let entry, sameSource {
            switch entry.status {
            case .completed(let size, let digest):
                if let destination, destination.size == size, try digestOfFile(request.destinationPath) == digest {
                    return .alreadyComplete(CommittedFile(path: request.destinationPath, size: size, digest: digest))
                }
            case .committing(let size, let digest):
                if let partial, partial.size == size {
                    return .resume(offset: size)
                }
                if partial == nil, let destination, destination.size == size,
                    try digestOfFile(request.destinationPath) == digest
                {
                    // The rename happened but its completion record did not: record it now.
                    try journal?.append(.completed(name: request.name, size: size, digest: digest))
                    return .alreadyComplete(CommittedFile(path: request.destinationPath, size: size, digest: digest))
                }
            case .inProgress, .failed:
                if let partial, partial.size >= entry.durableOffset {
                    if destination == nil || request.overwrite {
                        return .resume(offset: entry.durableOffset)
                    }
                }
            case .cancelled, .damaged:
                break
            }
        }

        guard let destination else { return .fresh(replaces: nil) }
        if request.overwrite {
            return .fresh(replaces: nil)
        }
        // Only a file this journal wrote (still holding what it wrote) may be replaced without overwrite.
        if let owned = entry?.ownedDigest, destination.isRegularFile,
            try digestOfFile(request.destinationPath) == owned
        {
            return .fresh(replaces: owned)
        }
        throw .destinationExists(path: request.destinationPath)
    }

    private func existingStatus(_ path: String) throws(TransferError) -> FileStatus? {
        do {
            return try options.fileSystem.existingStatus(of: path)
        } catch {
            throw .io(operation: "inspect", path: path, reason: error)
        }
    }

    /// The SHA-256 of a whole file (to verify a completed copy before skipping it).
    private func digestOfFile(_ path: String) throws(TransferError) -> SHA256Digest {
        let fileSystem = options.fileSystem
        let descriptor: Int32
        do {
            descriptor = try fileSystem.open(path, O_RDONLY, 0)
        } catch {
            throw .io(operation: "open", path: path, reason: error)
        }
        defer { fileSystem.close(descriptor) }
        return try digest(of: descriptor, path: path, length: nil)
    }

    /// The SHA-256 of the source's first `length` bytes.
    private func digestOfPrefix(_ source: Int32, length: Int64) throws(TransferError) -> SHA256Digest {
        try digest(of: source, path: request.source, length: length)
    }

    private func digest(of descriptor: Int32, path: String, length: Int64?) throws(TransferError) -> SHA256Digest {
        let fileSystem = options.fileSystem
        let hasher = PipelinedHasher(chunkSize: options.chunkSize)
        var position: Int64 = 0
        while length.map({ position < $0 }) ?? true {
            let wanted = Int(min(Int64(options.chunkSize), (length ?? Int64.max) - position))
            let at = position
            let count = try hasher.fill { buffer throws(TransferError) in
                do throws(Errno) {
                    return try fileSystem.readFully(
                        descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted]), at: at)
                } catch {
                    throw .io(operation: "read", path: path, reason: error)
                }
            }
            if count == 0 { break }
            position += Int64(count)
        }
        return hasher.state.finalize()
    }

    /// Ignores SIGXFSZ once per process, so writing past `ulimit -f` fails with EFBIG (reported as out
    /// of space) instead of killing the process.
    public static func ignoreFileSizeSignal() {
        _ = ignoringFileSizeSignal
    }

    private static let ignoringFileSizeSignal: Bool = {
        signal(SIGXFSZ, SIG_IGN)
        return true
    }()
}
