import Dispatch
import Support

/// Commits of small copies made durable together.
///
/// A copy's commit makes durable, in order, the partial's bytes and metadata with the journal's commitment
/// record, then the rename onto the final name and the directory holding it; then it journals the completion.
/// With an `fsync` for each, on a device with a volatile write cache, a tree of small files waited for three
/// device round trips a file. Here the copies that reach their commit at the same time take those steps as one
/// batch, in the same order: one write of every commitment record, one `syncfs` that makes them durable with
/// every partial of the batch, their renames, one `fsync` of the directory, and one write for every completion
/// (not waited for, as ``JournalRecord/isWriteAhead`` says).
///
/// The first copy to arrive leads a batch of every commit waiting (its own among them); the copies arriving
/// meanwhile wait for the next batch, which the oldest of them leads once this one is done. A copy never
/// leads more than the batch that holds its own commit, and each waiting copy is woken once, with its
/// outcome or its turn to lead.
extension CopyJournal {
    /// Whether ``commitTogether(_:)`` can make partials durable together here: the file system has a
    /// call that syncs all of it (`syncfs`).
    package var commitsTogether: Bool { directory.fileSystem.syncFileSystem != nil }

    /// Journals the commitment of `sealed`, renames it onto its final name as
    /// ``StagedFile/commit(expectedSize:expectedDigest:metadataOf:beforeRename:)`` does and journals the
    /// completion, in one batch with the commits of other copies waiting at the same time; returns once the
    /// rename is durable and the completion written.
    ///
    /// A failed sync of the file system fails the whole batch, and every batch after it (a later sync may
    /// report success for data the failed one dropped); the partials are kept, and each copy journals its
    /// failure after the commitment record written before the sync, so the entry ends failed. A failed write
    /// of the journal fails the batch with no rename made. A rename that fails fails its
    /// own copy only; a failed sync of the directory fails every copy it renamed.
    package func commitTogether(_ sealed: SealedPartial) throws(TransferError) -> CommittedFile {
        let waiter = WaitingCommit(sealed: sealed)
        let leads = commits.withLock { queue in
            queue.waiting.append(waiter)
            guard !queue.leading else { return false }
            queue.leading = true
            return true
        }
        if !leads { waiter.wake.wait() }
        while true {
            switch waiter.outcome.withLock({ $0 }) {
            case .committed(let file)?:
                return file
            case .failed(let error, _)?:
                throw error
            case .lead?, nil:
                leadBatch()
            }
        }
    }

    /// How many commits wait for a batch (for tests).
    package var waitingCommitCount: Int { commits.withLock { $0.waiting.count } }

    /// Takes every waiting commit, carries them out together, gives each its outcome, and hands the lead to the
    /// oldest commit that arrived meanwhile (or ends the lead when none did).
    private func leadBatch() {
        let (batch, failure) = commits.withLock { queue in
            defer { queue.waiting.removeAll(keepingCapacity: true) }
            return (queue.waiting, queue.failure)
        }
        let outcomes = failure.map { failure in batch.map { _ in CommitOutcome.failed(failure) } } ?? carryOut(batch)
        for (waiter, outcome) in zip(batch, outcomes) { waiter.outcome.withLock { $0 = outcome } }
        let next = commits.withLock { queue -> WaitingCommit? in
            if queue.failure == nil, let syncFailure = outcomes.lazy.compactMap(\.syncFailure).first {
                queue.failure = syncFailure
            }
            guard let first = queue.waiting.first else {
                queue.leading = false
                return nil
            }
            first.outcome.withLock { $0 = .lead }
            return first
        }
        for waiter in batch { waiter.wake.signal() }
        next?.wake.signal()
    }

    /// The steps of every commit in `batch`, in the order a single commit takes them.
    private func carryOut(_ batch: [WaitingCommit]) -> [CommitOutcome] {
        let fileSystem = directory.fileSystem
        // The commitment records are written first, so the one sync of the file system that makes the partials
        // durable makes them durable too (the journal is in the directory the partials are in): a batch waits for
        // two device round trips, not three.
        let commitments = batch.map(\.sealed.commitment)
        do throws(TransferError) {
            try write(commitments)
        } catch {
            return batch.map { _ in .failed(error) }
        }
        do throws(Errno) {
            // Checked by `commitsTogether` before a commit is handed in.
            try fileSystem.syncFileSystem!(directory.descriptor)
        } catch {
            return batch.map { .failed(.writing($0.sealed.partialPath, operation: "sync", error), syncFailed: true) }
        }
        noteAppended(commitments)
        var outcomes = batch.map { waiter -> CommitOutcome in
            do throws(TransferError) {
                try waiter.sealed.rename()
                return .committed(waiter.sealed.committed)
            } catch {
                return .failed(error)
            }
        }
        // Every destination of the batch is this journal's directory (each directory has its own journal), seen
        // through each copy's file system; one sync of it covers every rename.
        if let renamed = batch.indices.first(where: { outcomes[$0].isCommitted }) {
            do throws(TransferError) {
                try batch[renamed].sealed.destination.sync()
            } catch {
                outcomes = outcomes.map { $0.isCommitted ? .failed(error) : $0 }
            }
        }
        let completed = batch.indices.filter { outcomes[$0].isCommitted }
        if !completed.isEmpty {
            do throws(TransferError) {
                try append(completed.map { batch[$0].sealed.completion })
            } catch {
                for index in completed { outcomes[index] = .failed(error) }
            }
        }
        return outcomes
    }
}

/// The commits waiting for a batch, and whether a copy leads one now.
struct CommitQueue {
    var waiting: [WaitingCommit] = []
    var leading = false
    /// The failure of a sync of the file system, which fails every batch after it.
    var failure: TransferError?
}

/// One copy's commit while it waits: what it asks for, and the outcome (or its turn to lead) it is woken with.
final class WaitingCommit: Sendable {
    let sealed: SealedPartial
    let wake = DispatchSemaphore(value: 0)
    let outcome = Locked<CommitOutcome?>(nil)

    init(sealed: SealedPartial) {
        self.sealed = sealed
    }
}

/// What became of a waiting commit.
enum CommitOutcome: Sendable {
    case committed(CommittedFile)
    case failed(TransferError, syncFailed: Bool = false)
    /// Not carried out yet: the copy leads the next batch.
    case lead

    var isCommitted: Bool {
        if case .committed = self { true } else { false }
    }

    /// The failure of the sync of the file system, which no later batch may get past.
    var syncFailure: TransferError? {
        if case .failed(let error, true) = self { error } else { nil }
    }
}
