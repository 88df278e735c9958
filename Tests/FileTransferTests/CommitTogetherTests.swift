import Dispatch
import Support
import Testing

@testable import FileTransfer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small copies committing at the same time into one directory share one journal write, one sync of the file
/// system (which makes the journal's lines durable with the partials) and one directory fsync, in the order a
/// single commit takes its steps.
@Suite struct CommitTogetherTests {
    /// A file system that records the calls a commit makes, and whose syncs of the whole file system can be
    /// held (the first one waits until released) or fail.
    final class Recorder: Sendable {
        let calls = Locked<[String]>([])
        let syncFileSystemCalls = Locked(0)
        let holdFirst: Bool
        let failure: Errno?
        let entered = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)

        init(holdFirst: Bool = false, failure: Errno? = nil) {
            self.holdFirst = holdFirst
            self.failure = failure
        }

        var fileSystem: FileSystem {
            var fileSystem = FileSystem.posix
            fileSystem.calls.append = { [self] descriptor, bytes throws(Errno) in
                calls.withLock { $0.append("append") }
                return try FileSystem.posix.append(descriptor, bytes)
            }
            fileSystem.calls.sync = { [self] descriptor throws(Errno) in
                calls.withLock { $0.append("fsync") }
                try FileSystem.posix.sync(descriptor)
            }
            fileSystem.calls.renameAt = { [self] directory, from, to throws(Errno) in
                calls.withLock { $0.append("rename \(to)") }
                try FileSystem.posix.renameAt(directory, from, to)
            }
            fileSystem.calls.syncFileSystem = { [self] descriptor throws(Errno) in
                let first = syncFileSystemCalls.withLock { count in
                    count += 1
                    return count == 1
                }
                calls.withLock { $0.append("syncfs") }
                if first && holdFirst {
                    entered.signal()
                    released.wait()
                }
                if let failure { throw failure }
                try FileSystem.posix.syncFileSystem!(descriptor)
            }
            return fileSystem
        }
    }

    /// Commits `sealed` through `journal` and waits for its batch: the outcome, thrown when it failed.
    static func commit(_ sealed: SealedPartial, through journal: CopyJournal) throws(TransferError) -> CommittedFile {
        let outcome = Locked<Result<CommittedFile, TransferError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        journal.commitTogether(sealed) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        // Set before the signal the wait returned for.
        return try outcome.withLock { $0! }.get()
    }

    /// `name` written with `content`, sealed without its own fsync, ready to commit through `journal`.
    static func sealed(_ name: String, _ content: [UInt8], in journal: CopyJournal) throws -> SealedPartial {
        var staged = try StagedFile(creating: name, in: journal.directory, chunkSize: 4096)
        try staged.write(contentsOf: content)
        return try staged.seal(
            expectedSize: Int64(content.count), expectedDigest: ContentDigest.of(content), metadataOf: nil, sync: false)
    }

    /// One commit alone: the commitment appended, then the file system synced (the partial and the commitment
    /// with it; the journal is not fsynced on its own), then the rename, then the directory fsynced, then the
    /// completion appended (not waited for); the file is in place and the journal records it completed.
    @Test func oneCommitTakesTheStepsInTheCrashSafeOrder() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let recorder = Recorder()
        let journal = try CopyJournal(directory: directory.path, fileSystem: recorder.fileSystem)
        let content = pattern(count: 3000)
        try journal.append(CopyJournalTests.intent("a.bin"))
        let sealed = try Self.sealed("a.bin", content, in: journal)
        recorder.calls.withLock { $0.removeAll() }
        let file = try Self.commit(sealed, through: journal)
        #expect(file == CommittedFile(path: directory.file("a.bin"), size: 3000, digest: ContentDigest.of(content)))
        #expect(recorder.calls.withLock { $0 } == ["append", "syncfs", "rename a.bin", "fsync", "append"])
        #expect(contents(of: directory.file("a.bin")) == content)
        #expect(!exists(directory.file(StagedFile.partialName(for: "a.bin"))))
        #expect(journal.entry(named: "a.bin")?.status == .completed(size: 3000, digest: ContentDigest.of(content)))
    }

    /// While the first commit's sync of the file system is held, three more arrive and wait; once it is
    /// released they are carried out as one batch: two syncs of the file system for four files, and for the
    /// three one journal append of their commitments and one of their completions. A partial replaced meanwhile by a file this copy did not write is not
    /// renamed; only its own commit fails.
    @Test func commitsArrivingDuringABatchShareTheNextOne() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let recorder = Recorder(holdFirst: true)
        let journal = try CopyJournal(directory: directory.path, fileSystem: recorder.fileSystem)
        let names = ["first", "b", "c", "planted"]
        let contentByName = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, pattern(count: 100 + $0)) })
        let sealed = try names.map { try Self.sealed($0, contentByName[$0]!, in: journal) }
        let outcomes = Locked<[String: Result<CommittedFile, TransferError>]>([:])
        let done = DispatchGroup()
        // Handed over from this thread: each call returns once its commit is queued, so nothing is waited for.
        func commit(_ index: Int) {
            done.enter()
            journal.commitTogether(sealed[index]) { outcome in
                outcomes.withLock { $0[names[index]] = outcome }
                done.leave()
            }
        }
        recorder.calls.withLock { $0.removeAll() }
        commit(0)
        recorder.entered.wait()
        for index in 1..<names.count { commit(index) }
        #expect(journal.waitingCommitCount == 3)
        // Another file under the partial's name: the batch must not rename it.
        let plantedPartial = directory.file(StagedFile.partialName(for: "planted"))
        // Made beside it first and renamed over it, so the planted file cannot reuse the partial's inode.
        try write([9, 9, 9], to: directory.file("planted.tmp"))
        #expect(rename(directory.file("planted.tmp"), plantedPartial) == 0)
        recorder.released.signal()
        done.wait()

        // The batches were taken, leaving the queue no storage (before, each left a buffer as large as itself).
        #expect(journal.waitingCommitCapacity == 0)
        #expect(recorder.syncFileSystemCalls.withLock { $0 } == 2)
        #expect(recorder.calls.withLock { $0.filter { $0 == "append" } }.count == 4)
        // Only the directory's, once a batch: the syncs of the file system made the commitments durable.
        #expect(recorder.calls.withLock { $0.filter { $0 == "fsync" } }.count == 2)
        for name in ["first", "b", "c"] {
            let content = contentByName[name]!
            let expected = CommittedFile(
                path: directory.file(name), size: Int64(content.count), digest: ContentDigest.of(content))
            #expect(outcomes.withLock { $0[name] }.flatMap { try? $0.get() } == expected)
            #expect(contents(of: directory.file(name)) == content)
        }
        guard case .failure(.unsafeEntry(let path, _))? = outcomes.withLock({ $0["planted"] }) else {
            Issue.record("the planted partial was renamed: \(String(describing: outcomes.withLock { $0["planted"] }))")
            return
        }
        #expect(path == plantedPartial)
        #expect(!exists(directory.file("planted")))
        #expect(contents(of: plantedPartial) == [9, 9, 9])
    }

    /// A batch's sync of the file system makes a new journal's name durable with its commitments: the journal's
    /// next record that a step relies on syncs the journal alone, not its directory too.
    @Test func aBatchsSyncOfTheFileSystemMakesTheJournalsNameDurable() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let recorder = Recorder()
        let journal = try CopyJournal(directory: directory.path, fileSystem: recorder.fileSystem)
        let content = pattern(count: 10)
        _ = try Self.commit(try Self.sealed("a.bin", content, in: journal), through: journal)
        recorder.calls.withLock { $0.removeAll() }
        try journal.append(.committing(name: "b.bin", size: 10, digest: ContentDigest.of(content)))
        #expect(recorder.calls.withLock { $0 } == ["append", "fsync"])
    }

    /// Journals given the same ``FileSystemSyncs`` (a tree copy's, one a directory) share their batches: while the
    /// first journal's batch is held in its sync of the file system, the commits of two other journals wait, and
    /// once it is released they are carried out as one batch: each journal's commitment written, one sync of the
    /// file system for both, both renames, one more sync of the file system for both directories (a batch of one
    /// directory syncs that directory), then each journal's completion. Before, each journal carried out batches of
    /// its own, which shared a sync only when they reached it at the same moment. Every file in place.
    @Test func journalsSharingTheirSyncsShareTheirBatches() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let recorder = Recorder(holdFirst: true)
        let shared = FileSystemSyncs()
        let journals = try ["a", "b", "c"].map { name in
            try CopyJournal(
                directory: try DestinationDirectory(path: try root.directory(name), fileSystem: recorder.fileSystem),
                whenBusy: .refuse, fileSystemSyncs: shared)
        }
        let content = pattern(count: 100)
        let sealed = try journals.map { try Self.sealed("file", content, in: $0) }
        let outcomes = Locked<[Int: Result<CommittedFile, TransferError>]>([:])
        let done = DispatchGroup()
        func commit(_ index: Int) {
            done.enter()
            journals[index].commitTogether(sealed[index]) { outcome in
                outcomes.withLock { $0[index] = outcome }
                done.leave()
            }
        }
        commit(0)
        recorder.entered.wait()
        commit(1)
        commit(2)
        // Both wait for the next batch, whichever journal they were handed to.
        #expect(journals[1].waitingCommitCount == 2)
        recorder.released.signal()
        done.wait()
        #expect(
            recorder.calls.withLock { $0 } == [
                "append", "syncfs", "rename file", "fsync", "append",
                "append", "append", "syncfs", "rename file", "rename file", "syncfs", "append", "append",
            ])
        for (index, name) in ["a", "b", "c"].enumerated() {
            let expected = CommittedFile(
                path: root.file(name) + "/file", size: 100, digest: ContentDigest.of(content))
            #expect(outcomes.withLock { $0[index] }.flatMap { try? $0.get() } == expected)
            #expect(contents(of: root.file(name) + "/file") == content)
        }
    }

    /// In a batch of several journals, one whose commitments cannot be written fails its own commits, its partial
    /// kept and nothing renamed; the other journal's commit in the same batch completes.
    @Test func aJournalThatCannotBeWrittenFailsOnlyItsOwnCommitsOfABatch() throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let recorder = Recorder(holdFirst: true)
        var full = recorder.fileSystem
        full.calls.append = { _, _ throws(Errno) in throw Errno(rawValue: ENOSPC) }
        let shared = FileSystemSyncs()
        let journals = try zip(["a", "b", "c"], [recorder.fileSystem, recorder.fileSystem, full]).map { name, system in
            try CopyJournal(
                directory: try DestinationDirectory(path: try root.directory(name), fileSystem: system),
                whenBusy: .refuse, fileSystemSyncs: shared)
        }
        let content = pattern(count: 100)
        let sealed = try journals.map { try Self.sealed("file", content, in: $0) }
        let outcomes = Locked<[Int: Result<CommittedFile, TransferError>]>([:])
        let done = DispatchGroup()
        for index in journals.indices {
            done.enter()
            journals[index].commitTogether(sealed[index]) { outcome in
                outcomes.withLock { $0[index] = outcome }
                done.leave()
            }
            if index == 0 { recorder.entered.wait() }
        }
        #expect(journals[0].waitingCommitCount == 2)
        recorder.released.signal()
        done.wait()
        let expected = CommittedFile(path: root.file("b") + "/file", size: 100, digest: ContentDigest.of(content))
        #expect(outcomes.withLock { $0[1] }.flatMap { try? $0.get() } == expected)
        #expect(contents(of: root.file("b") + "/file") == content)
        #expect(throws: TransferError.self) { try outcomes.withLock { $0[2] }?.get() }
        #expect(contents(of: root.file("c") + "/file") == nil)
        #expect(contents(of: sealed[2].partialPath) == content)
        #expect(journals[2].entry(named: "file") == nil)
    }

    /// A copy hands its sealed partial over and goes on: ``CopyJournal/commitTogether(_:then:)`` returns while
    /// the batch is still held in its sync of the file system (before, the copy's thread waited for the batch),
    /// and the outcome arrives once the batch is done.
    @Test func aCommitHandedOverReturnsBeforeItsBatchIsDone() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let recorder = Recorder(holdFirst: true)
        let journal = try CopyJournal(directory: directory.path, fileSystem: recorder.fileSystem)
        let content = pattern(count: 100)
        let sealed = try Self.sealed("a.bin", content, in: journal)
        let outcome = Locked<Result<CommittedFile, TransferError>?>(nil)
        let delivered = DispatchSemaphore(value: 0)
        journal.commitTogether(sealed) { result in
            outcome.withLock { $0 = result }
            delivered.signal()
        }
        recorder.entered.wait()
        #expect(outcome.withLock { $0 } == nil)
        #expect(!exists(directory.file("a.bin")))
        recorder.released.signal()
        delivered.wait()
        let expected = CommittedFile(path: directory.file("a.bin"), size: 100, digest: ContentDigest.of(content))
        #expect(outcome.withLock { $0 }.flatMap { try? $0.get() } == expected)
        #expect(contents(of: directory.file("a.bin")) == content)
    }

    /// A sync of the file system that fails fails its batch before anything is renamed or its entry changes,
    /// keeps the partial, and fails every later commit too: a later sync may report success for what it
    /// dropped.
    @Test func aFailedSyncOfTheFileSystemFailsThisAndEveryLaterBatch() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let recorder = Recorder(failure: Errno(rawValue: EIO))
        let journal = try CopyJournal(directory: directory.path, fileSystem: recorder.fileSystem)
        let content = pattern(count: 10)
        let first = try Self.sealed("a.bin", content, in: journal)
        recorder.calls.withLock { $0.removeAll() }
        let partialPath = directory.file(StagedFile.partialName(for: "a.bin"))
        #expect(throws: TransferError.writing(partialPath, operation: "sync", Errno(rawValue: EIO))) {
            try Self.commit(first, through: journal)
        }
        #expect(recorder.calls.withLock { $0 } == ["append", "syncfs"])
        #expect(contents(of: partialPath) == content)
        #expect(!exists(directory.file("a.bin")))
        #expect(journal.entry(named: "a.bin") == nil)

        let second = try Self.sealed("b.bin", content, in: journal)
        #expect(throws: TransferError.writing(partialPath, operation: "sync", Errno(rawValue: EIO))) {
            try Self.commit(second, through: journal)
        }
        #expect(recorder.syncFileSystemCalls.withLock { $0 } == 1)
        #expect(!exists(directory.file("b.bin")))
    }
}
