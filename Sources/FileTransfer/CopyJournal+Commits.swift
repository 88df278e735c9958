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
/// Commits are carried out on the journal's own committer queue, a batch at a time: a commit that arrives while
/// none is under way schedules one, which takes every commit waiting; commits arriving meanwhile wait for the
/// next, taken as soon as this one is done. A copy hands its sealed partial over and its thread goes on to the
/// next file (``commitTogether(_:then:)``); the outcome comes back through the closure it gave. So no thread
/// waits for a batch, and however many copies wait, batches follow each other without a hand-over. The batches of
/// journals given the same ``FileSystemSyncs`` (a tree copy's journals on one file system) share their `syncfs`.
extension CopyJournal {
    /// Whether ``commitTogether(_:then:)`` can make partials durable together here: the file system has a
    /// call that syncs all of it (`syncfs`).
    package var commitsTogether: Bool { directory.syncsFileSystem }

    /// Journals the commitment of `sealed`, renames it onto its final name as
    /// ``StagedFile/commit(expectedSize:expectedDigest:metadataOf:beforeRename:)`` does and journals the
    /// completion, in one batch with the commits of other copies waiting at the same time; returns at once and
    /// gives `deliver` the outcome (on the committer queue) once the rename is durable and the completion
    /// written.
    ///
    /// A failed sync of the file system fails the whole batch, and every batch after it (a later sync may
    /// report success for data the failed one dropped); the partials are kept, and each copy journals its
    /// failure after the commitment record written before the sync, so the entry ends failed. A failed write
    /// of the journal fails the batch with no rename made. A rename that fails fails its own copy only; a
    /// failed sync of the directory fails every copy it renamed.
    package func commitTogether(
        _ sealed: SealedPartial, then deliver: @escaping @Sendable (Result<CommittedFile, TransferError>) -> Void
    ) {
        let schedules = commits.withLock { queue in
            queue.waiting.append(WaitingCommit(sealed: sealed, deliver: deliver))
            guard !queue.scheduled else { return false }
            queue.scheduled = true
            return true
        }
        if schedules { committer.async { [self] in carryOutBatches() } }
    }

    /// How many commits wait for a batch (for tests).
    package var waitingCommitCount: Int { commits.withLock { $0.waiting.count } }

    /// How many commits the queue has room for without growing (for tests).
    package var waitingCommitCapacity: Int { commits.withLock { $0.waiting.capacity } }

    /// Carries out batches, each of every commit waiting when it begins, until none waits; gives each commit its
    /// outcome as its batch ends.
    private func carryOutBatches() {
        while true {
            let taken = commits.withLock { queue -> (batch: [WaitingCommit], failure: TransferError?)? in
                guard !queue.waiting.isEmpty else {
                    queue.scheduled = false
                    return nil
                }
                // Taken, not copied and emptied keeping capacity: the copy would share the storage, so emptying
                // it would make a second buffer as large as the burst, kept for the journal's life.
                let batch = queue.waiting
                queue.waiting = []
                return (batch, queue.failure)
            }
            guard let (batch, failure) = taken else { return }
            let outcomes =
                failure.map { failure in batch.map { _ in CommitOutcome.failed(failure) } } ?? carryOut(batch)
            if let syncFailure = outcomes.lazy.compactMap(\.syncFailure).first {
                commits.withLock { queue in
                    if queue.failure == nil { queue.failure = syncFailure }
                }
            }
            for (waiter, outcome) in zip(batch, outcomes) { waiter.deliver(outcome.result) }
        }
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
            let (syncFileSystem, descriptor) = (fileSystem.syncFileSystem!, directory.descriptor)
            try fileSystemSyncs.group.sync { () throws(Errno) in try syncFileSystem(descriptor) }
        } catch {
            return batch.map { .failed(.writing($0.sealed.partialPath, operation: "sync", error), syncFailed: true) }
        }
        noteAppended(commitments)
        // The journal's name with them, if it was not yet.
        noteNameDurable()
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

/// The commits waiting for a batch, and whether a batch is scheduled or under way.
struct CommitQueue: Sendable {
    var waiting: [WaitingCommit] = []
    var scheduled = false
    /// The failure of a sync of the file system, which fails every batch after it.
    var failure: TransferError?
}

/// One copy's commit while it waits: what it asks for, and who is given its outcome.
struct WaitingCommit: Sendable {
    let sealed: SealedPartial
    let deliver: @Sendable (Result<CommittedFile, TransferError>) -> Void

    init(sealed: SealedPartial, deliver: @escaping @Sendable (Result<CommittedFile, TransferError>) -> Void) {
        self.sealed = sealed
        self.deliver = deliver
    }
}

/// What became of a waiting commit.
enum CommitOutcome: Sendable {
    case committed(CommittedFile)
    case failed(TransferError, syncFailed: Bool = false)

    /// The outcome as the copy is given it.
    var result: Result<CommittedFile, TransferError> {
        switch self {
        case .committed(let file): .success(file)
        case .failed(let error, _): .failure(error)
        }
    }

    var isCommitted: Bool {
        if case .committed = self { true } else { false }
    }

    /// The failure of the sync of the file system, which no later batch may get past.
    var syncFailure: TransferError? {
        if case .failed(let error, true) = self { error } else { nil }
    }
}

/// The `syncfs` calls of the batches of commits of several journals, shared (``SyncGroup``): a batch whose
/// commitments were written before a sync of the file system began is made durable by that sync, whichever
/// journal's batch made it. A tree copy opens a journal in each directory, and one syncs its batches at once with
/// the others: in a tree of many small directories, each directory's few files made a batch, and the batches of
/// the directories under way each waited for a `syncfs` of its own.
///
/// A failed sync fails every batch after it, of every journal sharing it: the file system may report success
/// for data the failed one dropped.
package final class FileSystemSyncs: Sendable {
    let group = SyncGroup()

    package init() {}
}
