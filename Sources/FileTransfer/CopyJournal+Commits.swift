import Dispatch
import Support

/// Commits of small copies made durable together.
///
/// A copy's commit makes durable, in order, the partial's bytes and metadata with the journal's commitment
/// record, then the rename onto the final name and the directory holding it; then it journals the completion.
/// With an `fsync` for each, on a device with a volatile write cache, a tree of small files waited for three
/// device round trips a file. Here the copies that reach their commit at the same time take those steps as one
/// batch, in the same order: one write of each journal's commitment records, one `syncfs` that makes them durable
/// with every partial of the batch, their renames, one sync that makes the renames durable (the directory's `fsync`,
/// or one `syncfs` when the batch holds several directories), and one write of each journal's completions (not
/// waited for, as ``JournalRecord/isWriteAhead`` says).
///
/// Commits are carried out on one committer queue for every journal given the same ``FileSystemSyncs`` (a tree
/// copy's journals on one file system; a journal of its own otherwise), a batch at a time: a commit that arrives
/// while none is under way schedules one, which takes every commit waiting, whatever directory it is in; commits
/// arriving meanwhile wait for the next, taken as soon as this one is done. A copy hands its sealed partial over
/// and its thread goes on to the next file (``commitTogether(_:then:)``); the outcome comes back through the
/// closure it gave. So no thread waits for a batch, and however many copies wait, batches follow each other
/// without a hand-over. A batch of several directories makes one `syncfs` for them all: each directory's journal
/// carried out batches of its own before, and a tree of 1,000 directories of 10 files, whose directories' batches
/// were small, made about 3,400 `syncfs` calls, half of its copy's time.
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
    /// of a journal fails that journal's commits of the batch, with no rename made. A rename that fails fails its
    /// own copy only; a failed sync of the renames fails every copy it was to make durable.
    package func commitTogether(
        _ sealed: SealedPartial, then deliver: @escaping @Sendable (Result<CommittedFile, TransferError>) -> Void
    ) {
        fileSystemSyncs.commitTogether(WaitingCommit(journal: self, sealed: sealed, deliver: deliver))
    }

    /// How many commits wait for a batch, this journal's and those of the journals sharing its batches (for tests).
    package var waitingCommitCount: Int { fileSystemSyncs.commits.withLock { $0.waiting.count } }

    /// How many commits the queue of batches has room for without growing (for tests).
    package var waitingCommitCapacity: Int { fileSystemSyncs.commits.withLock { $0.waiting.capacity } }
}

extension FileSystemSyncs {
    /// Queues `commit` for the next batch; schedules one when none is scheduled or under way.
    func commitTogether(_ commit: WaitingCommit) {
        let schedules = commits.withLock { queue in
            queue.waiting.append(commit)
            guard !queue.scheduled else { return false }
            queue.scheduled = true
            return true
        }
        if schedules { committer.async { [self] in carryOutBatches() } }
    }

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
                // it would make a second buffer as large as the burst, kept for the queue's life.
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

    /// The steps of every commit in `batch`, in the order a single commit takes them: each journal's commitment
    /// records in one write, one sync of the file system for them all, every rename, one sync that makes the renames
    /// durable, then each journal's completions in one write.
    private func carryOut(_ batch: [WaitingCommit]) -> [CommitOutcome] {
        // The batch's journals in the order their first commit came, each with its commits' places in the batch.
        var journals: [(journal: CopyJournal, commits: [Int])] = []
        var place: [ObjectIdentifier: Int] = [:]
        for (index, commit) in batch.enumerated() {
            let key = ObjectIdentifier(commit.journal)
            if let at = place[key] {
                journals[at].commits.append(index)
            } else {
                place[key] = journals.count
                journals.append((commit.journal, [index]))
            }
        }
        var outcomes: [CommitOutcome?] = Array(repeating: nil, count: batch.count)
        // The commitment records are written first, so the one sync of the file system that makes the partials
        // durable makes them durable too (each journal is in the directory its partials are in): a batch waits for
        // two device round trips, not three.
        var written: [(journal: CopyJournal, commits: [Int])] = []
        for entry in journals {
            do throws(TransferError) {
                try entry.journal.write(entry.commits.map { batch[$0].sealed.commitment })
                written.append(entry)
            } catch {
                for index in entry.commits { outcomes[index] = .failed(error) }
            }
        }
        if !syncFileSystem(for: written, of: batch, outcomes: &outcomes) { written = [] }
        var renamed: [(journal: CopyJournal, commits: [Int])] = []
        for (journal, commits) in written {
            journal.noteAppended(commits.map { batch[$0].sealed.commitment })
            // The journal's name with them, if it was not yet.
            journal.noteNameDurable()
            for index in commits {
                do throws(TransferError) {
                    try batch[index].sealed.rename()
                    outcomes[index] = .committed(batch[index].sealed.committed)
                } catch {
                    outcomes[index] = .failed(error)
                }
            }
            let done = commits.filter { outcomes[$0]?.isCommitted == true }
            if !done.isEmpty { renamed.append((journal, done)) }
        }
        // The renames made durable before any completion is written: one directory's by its sync (each destination of
        // a journal's commits is its directory, seen through each copy's file system), several by one sync of the file
        // system, which costs one device round trip where a sync of each directory cost one each.
        if renamed.count == 1, let first = renamed.first?.commits.first {
            do throws(TransferError) {
                try batch[first].sealed.destination.sync()
            } catch {
                for index in renamed.flatMap(\.commits) { outcomes[index] = .failed(error) }
                renamed = []
            }
        } else if !syncFileSystem(for: renamed, of: batch, outcomes: &outcomes) {
            renamed = []
        }
        for (journal, commits) in renamed {
            do throws(TransferError) {
                try journal.append(commits.map { batch[$0].sealed.completion })
            } catch {
                for index in commits { outcomes[index] = .failed(error) }
            }
        }
        return outcomes.map { outcome in
            guard let outcome else { preconditionFailure("Internal inconsistency: a commit of a batch has no outcome") }
            return outcome
        }
    }
}

extension FileSystemSyncs {
    /// One sync of the file system, through the directory of the first journal of `parts`, for every commit of
    /// `parts` (places in `batch`); when it fails, each of them fails with it (and every later batch:
    /// ``CommitOutcome/syncFailure``). Returns whether it succeeded; with no part, there is nothing to sync.
    fileprivate func syncFileSystem(
        for parts: [(journal: CopyJournal, commits: [Int])], of batch: [WaitingCommit],
        outcomes: inout [CommitOutcome?]
    ) -> Bool {
        guard let directory = parts.first?.journal.directory else { return true }
        // Checked by `commitsTogether` before a commit is handed in; every journal sharing these syncs is on the same
        // file system, so one `syncfs` through any of their directories covers them all.
        let (syncFileSystem, descriptor) = (directory.fileSystem.syncFileSystem!, directory.descriptor)
        do throws(Errno) {
            try group.sync { () throws(Errno) in try syncFileSystem(descriptor) }
            return true
        } catch {
            for index in parts.flatMap(\.commits) {
                outcomes[index] = .failed(
                    .writing(batch[index].sealed.partialPath, operation: "sync", error), syncFailed: true)
            }
            return false
        }
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
    /// The journal of the directory the commit is made in.
    let journal: CopyJournal
    let sealed: SealedPartial
    let deliver: @Sendable (Result<CommittedFile, TransferError>) -> Void

    init(
        journal: CopyJournal, sealed: SealedPartial,
        deliver: @escaping @Sendable (Result<CommittedFile, TransferError>) -> Void
    ) {
        self.journal = journal
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
    /// The commits waiting to be made durable together, of every journal sharing these syncs.
    let commits = SleepingLock(CommitQueue())
    /// Where their batches are carried out, one at a time.
    let committer = DispatchQueue(label: "statetui journal commits")

    package init() {}
}
