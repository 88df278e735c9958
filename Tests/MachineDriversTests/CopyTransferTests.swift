import FileTransfer
import Foundation
import MachineDrivers
import SeedModels
import StateMachineKit
import Support
import Testing

/// A file system whose writes to the partial wait for the test's permission, one at a time, and are
/// logged; the test decides exactly how many chunks a copy writes before a pause, cancel or stop.
private final class GatedWrites: Sendable {
    private struct State {
        var permits = 0
        var waiting = 0
        var writes: [Int64] = []
        var paths: [Int32: String] = [:]
        var reads: [Read] = []
    }

    /// One read the copy made: which file (by path) at which offset.
    struct Read: Hashable {
        var path: String
        var offset: Int64
    }

    private let condition = NSCondition()
    private let state = Locked(State())
    /// Told each time a write starts waiting or completes.
    let wakes = Wakes()

    /// The offsets of the partial's writes that completed, in order.
    var writeOffsets: [Int64] { state.withLock { $0.writes } }

    /// Every read the copy made, in order.
    var reads: [Read] { state.withLock { $0.reads } }

    /// How many writes are blocked waiting for a permit.
    var waiting: Int { state.withLock { $0.waiting } }

    /// Lets `count` more writes through.
    func allow(_ count: Int) {
        condition.lock()
        state.withLock { $0.permits += count }
        condition.broadcast()
        condition.unlock()
    }

    var fileSystem: FileSystem {
        var fileSystem = FileSystem.posix
        let write = fileSystem.write
        let open = fileSystem.open
        let openAt = fileSystem.openAt
        let read = fileSystem.read
        fileSystem.calls.open = { [self] path, flags, mode throws(Errno) in
            let descriptor = try open(path, flags, mode)
            state.withLock { $0.paths[descriptor] = path }
            return descriptor
        }
        let duplicate = fileSystem.duplicate
        fileSystem.calls.duplicate = { [self] descriptor throws(Errno) in
            let copy = try duplicate(descriptor)
            state.withLock { $0.paths[copy] = $0.paths[descriptor] }
            return copy
        }
        fileSystem.calls.openAt = { [self] directory, name, flags, mode throws(Errno) in
            let descriptor = try openAt(directory, name, flags, mode)
            state.withLock { $0.paths[descriptor] = ($0.paths[directory] ?? "?") + "/" + name }
            return descriptor
        }
        fileSystem.calls.read = { [self] descriptor, buffer, offset throws(Errno) in
            let count = try read(descriptor, buffer, offset)
            state.withLock { $0.reads.append(Read(path: $0.paths[descriptor] ?? "?", offset: offset)) }
            return count
        }
        fileSystem.calls.write = { [self] descriptor, bytes, offset throws(Errno) in
            condition.lock()
            state.withLock { $0.waiting += 1 }
            wakes.wake()
            while state.withLock({ $0.permits == 0 }) { condition.wait() }
            state.withLock {
                $0.permits -= 1
                $0.waiting -= 1
            }
            condition.unlock()
            let count = try write(descriptor, bytes, offset)
            state.withLock { $0.writes.append(offset) }
            wakes.wake()
            return count
        }
        return fileSystem
    }
}

/// A directory under /tmp with a source file of `chunks` chunks of 4 KiB.
private struct CopyFixture {
    static let chunk = 4096
    let root: String
    let source: String
    let destination: String
    let content: [UInt8]

    init(chunks: Int = 8) throws {
        root = NSTemporaryDirectory() + "statetui-copytransfer-" + UUID().uuidString
        destination = root + "/out"
        source = root + "/source.bin"
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
        var generator = SystemRandomNumberGenerator()
        content = (0..<(chunks * Self.chunk)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try Data(content).write(to: URL(fileURLWithPath: source))
    }

    var partial: String { destination + "/" + StagedFile.partialName(for: "source.bin") }
    var final: String { destination + "/source.bin" }

    func size(_ path: String) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
    }

    func transfer(fileSystem: FileSystem, source: String? = nil, journalAppends: Wakes? = nil) throws -> CopyTransfer {
        var journalFileSystem = FileSystem.posix
        if let journalAppends {
            let append = journalFileSystem.append
            journalFileSystem.calls.append = { descriptor, bytes throws(Errno) in
                defer { journalAppends.wake() }
                return try append(descriptor, bytes)
            }
        }
        return CopyTransfer(
            source: source ?? self.source, destinationDirectory: destination,
            journal: try CopyJournal(directory: destination, fileSystem: journalFileSystem),
            options: CopyOptions(chunkSize: Self.chunk, checkpointInterval: 1 << 30, fileSystem: fileSystem))
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }
}

/// A file system whose rename onto the final name (the commit) waits until the test releases it.
private final class HeldRename: Sendable {
    private let condition = NSCondition()
    private let state = Locked((held: false, released: false))
    /// Told when the commit reaches its rename.
    let wakes = Wakes()

    /// Whether the commit is waiting at its rename.
    var isHeld: Bool { state.withLock { $0.held } }

    /// Lets the rename go on.
    func release() {
        condition.lock()
        state.withLock { $0.released = true }
        condition.broadcast()
        condition.unlock()
    }

    /// The real calls, but the rename of a partial and the naming of a file with no name (a file read in one
    /// chunk) wait for ``release()``.
    var fileSystem: FileSystem {
        var fileSystem = FileSystem.posix
        let rename = fileSystem.renameAt
        fileSystem.calls.renameAt = { [self] directory, from, to throws(Errno) in
            holdUntilReleased()
            try rename(directory, from, to)
        }
        if let link = fileSystem.linkUnnamed {
            fileSystem.calls.linkUnnamed = { [self] descriptor, directory, name throws(Errno) in
                holdUntilReleased()
                try link(descriptor, directory, name)
            }
        }
        return fileSystem
    }

    private func holdUntilReleased() {
        condition.lock()
        state.withLock { $0.held = true }
        wakes.wake()
        while !state.withLock({ $0.released }) { condition.wait() }
        condition.unlock()
    }
}

/// News from the copy's threads that something a test waits for may have changed. The copy runs on threads of
/// its own, so no clock is involved: a test waits for this news, never for time and never by spinning, and
/// news that never comes fails the suite's time limit.
private final class Wakes: Sendable {
    private let news: AsyncStream<Void>
    private let tell: AsyncStream<Void>.Continuation

    init() {
        (news, tell) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Tells the waiting test to look again.
    func wake() {
        tell.yield()
    }

    /// Waits until `condition` holds, looking again after each piece of news (and after `then`, if given).
    func wait(until condition: () -> Bool, then: () async -> Void = {}) async {
        var iterator = news.makeAsyncIterator()
        while !condition() {
            await iterator.next()
            await then()
        }
    }
}

/// Waits, through `machine`'s states, until `condition` holds of its state; records an issue when the machine
/// stops first.
private func untilState(of machine: TransferMachine, _ condition: (TransferState) -> Bool) async {
    for await model in machine.engine.states() where condition(model.phase) { return }
    Issue.record("the machine stopped before the state awaited, at \(machine.state)")
}

/// Waits, through `machine`'s states, until it has no active request: its copy completed or failed.
private func untilEnded(_ machine: TransferMachine) async {
    await untilState(of: machine) { $0.activeRequest == nil }
}

extension CopyFixture {
    /// A transfer of the fixture's file started with its writes gated: returns once `written` chunks are
    /// written, the next one waits for its write, and `ready` holds of the machine.
    func startedTransfer(
        written: Int, journalAppends: Wakes? = nil, ready: (TransferState) -> Bool = { _ in true }
    ) async throws -> (writes: GatedWrites, transfer: CopyTransfer) {
        let writes = GatedWrites()
        let transfer = try self.transfer(fileSystem: writes.fileSystem, journalAppends: journalAppends)
        transfer.machine.send(.start)
        writes.allow(written)
        await writes.wakes.wait { writes.writeOffsets.count == written && writes.waiting == 1 }
        await untilState(of: transfer.machine, ready)
        return (writes, transfer)
    }
}

@Suite(.serialized, .timeLimit(.minutes(1))) struct CopyTransferTests {
    /// Pausing stops the I/O: the chunk in flight finishes, its progress callback arrives after the
    /// running visit ended and is dropped as stale, and nothing more is written while paused. Resume
    /// continues at the offset reached, and the file completes byte-identical.
    @Test func pauseWritesNothingAndALateChunkCallbackIsStale() async throws {
        let fixture = try CopyFixture()
        defer { fixture.remove() }
        let (writes, transfer) = try await fixture.startedTransfer(written: 2) {
            $0 == .running(request: 1, percent: 25)
        }
        let machine = transfer.machine

        machine.send(.pause)
        writes.allow(1)  // the chunk that was in flight when the pause arrived
        await transfer.settle()
        let pausedSize = fixture.size(fixture.partial)
        #expect(machine.model == TransferModel(phase: .paused(request: 1, percent: 25), lastRequest: 1))
        let stale = machine.engine.history.filter { $0.outcome == .stale }
        #expect(stale.map(\.event) == [.progress(request: 1, percent: 37)])
        #expect(writes.writeOffsets == [0, 4096, 8192])
        #expect(pausedSize == Int64(3 * 4096))

        // While paused, writes are allowed but none is attempted: the partial stays as it is.
        writes.allow(100)
        await transfer.settle()
        #expect(writes.waiting == 0)
        #expect(fixture.size(fixture.partial) == pausedSize)
        #expect(writes.writeOffsets == [0, 4096, 8192])
        let readsBeforeResume = writes.reads.count

        machine.send(.resume)
        await untilEnded(machine)
        await transfer.settle()
        #expect(machine.model == TransferModel(phase: .completed(file: fixture.final), lastRequest: 1))
        // Resume continued at the offset reached: every chunk written exactly once, in order.
        #expect(writes.writeOffsets == (0..<8).map { Int64($0 * 4096) })
        // The job kept its running SHA-256 across the pause: the resumed visit read neither the
        // copied prefix of the source nor the partial, only the rest of the source (and, at 8 × 4096, the
        // read that finds the end of the file).
        #expect(
            Array(writes.reads.dropFirst(readsBeforeResume))
                == (3..<9).map { GatedWrites.Read(path: fixture.source, offset: Int64($0 * 4096)) })
        #expect(FileManager.default.contents(atPath: fixture.final) == Data(fixture.content))
        #expect(!FileManager.default.fileExists(atPath: fixture.partial))
    }

    /// Cancel while a chunk is in flight: the work stops, the partial is removed, nothing reaches the
    /// final name, and the journal records the cancellation.
    @Test func cancelRemovesThePartial() async throws {
        let fixture = try CopyFixture()
        defer { fixture.remove() }
        let journalAppends = Wakes()
        let (writes, transfer) = try await fixture.startedTransfer(written: 2, journalAppends: journalAppends) {
            $0 == .running(request: 1, percent: 25)
        }

        transfer.machine.send(.cancel)
        writes.allow(1)
        // The idle visit's work removes the partial and journals the cancellation once the running visit's work
        // has stopped. Every journal line is written inside one of the transfer's serial operations, so once a
        // line was appended, settling waits until that operation ended.
        await journalAppends.wait(until: { transfer.journal?.entry(named: "source.bin")?.status == .cancelled }) {
            await transfer.settle()
        }
        #expect(transfer.machine.model == TransferModel(phase: .idle, lastRequest: 1))
        #expect(!FileManager.default.fileExists(atPath: fixture.partial))
        #expect(!FileManager.default.fileExists(atPath: fixture.final))
        #expect(transfer.journal?.entry(named: "source.bin")?.status == .cancelled)
    }

    /// Progress 100 is not completion: when the last byte is written the machine shows 100 but is still
    /// running; `succeeded` arrives only once the commit renamed the file onto its final name.
    @Test func succeededArrivesOnlyAfterTheCommit() async throws {
        let fixture = try CopyFixture(chunks: 2)
        defer { fixture.remove() }
        final class Observed: Sendable {
            let atRename = Locked<TransferState?>(nil)
            let machine = Locked<TransferMachine?>(nil)
        }
        let observed = Observed()
        var fileSystem = FileSystem.posix
        let rename = fileSystem.renameAt
        fileSystem.calls.renameAt = { directory, from, to throws(Errno) in
            observed.atRename.withLock { $0 = observed.machine.withLock { $0?.state } }
            try rename(directory, from, to)
        }
        let transfer = try fixture.transfer(fileSystem: fileSystem)
        observed.machine.withLock { $0 = transfer.machine }
        transfer.machine.send(.start)
        await untilEnded(transfer.machine)
        await transfer.settle()
        #expect(observed.atRename.withLock { $0 } == .running(request: 1, percent: 100))
        #expect(transfer.machine.state == .completed(file: fixture.final))
        // The first progress, at 0 %, is sent because the job learned the file's size then: the machine records
        // it, so a screen reading the records reads the size with them.
        let events = transfer.machine.engine.history.map(\.event)
        #expect(
            events == [
                .start, .progress(request: 1, percent: 0), .progress(request: 1, percent: 50),
                .progress(request: 1, percent: 100), .succeeded(request: 1, file: fixture.final),
            ])
    }

    /// A run that moves no byte reports its outcome alone: an empty file, and then the same file found already
    /// there by a second transfer (skipped by size and time), each record their start and their completion, no
    /// progress of 100% between them (it said nothing the completion does not, and cost an event a file).
    @Test func aRunThatMovesNoBytesRecordsOnlyItsStartAndItsOutcome() async throws {
        let fixture = try CopyFixture(chunks: 0)
        defer { fixture.remove() }
        var histories: [[TransferEvent]] = []
        for _ in 0..<2 {
            let transfer = try fixture.transfer(fileSystem: .posix)
            transfer.machine.send(.start)
            await untilEnded(transfer.machine)
            await transfer.settle()
            histories.append(transfer.machine.engine.history.map(\.event))
            #expect(transfer.machine.state == .completed(file: fixture.final))
        }
        let alone: [TransferEvent] = [.start, .succeeded(request: 1, file: fixture.final)]
        #expect(histories == [alone, alone])
        #expect(FileManager.default.contents(atPath: fixture.final) == Data())
    }

    /// A completed transfer keeps its machine and lets go of its job and its last run: before, the run's stopper
    /// stayed with the visit it ran in, and with it the run's finished task and its allocations, about 2.4 KB for
    /// every completed row of a copy dashboard (issue 23, item 6).
    @Test func aCompletedTransferHoldsNeitherItsJobNorItsRun() async throws {
        let fixture = try CopyFixture(chunks: 2)
        defer { fixture.remove() }
        let transfer = try fixture.transfer(fileSystem: .posix)
        #expect(transfer.holdings == (job: false, stopper: false))
        transfer.machine.send(.start)
        await untilEnded(transfer.machine)
        await transfer.settle()
        #expect(transfer.machine.state == .completed(file: fixture.final))
        #expect(transfer.holdings == (job: false, stopper: false))
    }

    /// A small file waiting for its commit batch holds no descriptor, so it gives its slot back: with one slot
    /// between them, a second copy opens its source while the first one's batch is held at its rename (before,
    /// the first copy kept the slot until its commit was done, so every batch held at most as many files as
    /// there are slots), and both complete.
    @Test func aSmallFileWaitingForItsCommitGivesItsSlotBack() async throws {
        let fixture = try CopyFixture(chunks: 1)
        defer { fixture.remove() }
        let second = fixture.root + "/second.bin"
        try Data(fixture.content.reversed()).write(to: URL(fileURLWithPath: second))
        let rename = HeldRename()
        var fileSystem = rename.fileSystem
        let opened = Locked<[String]>([])
        let open = fileSystem.open
        fileSystem.calls.open = { path, flags, mode throws(Errno) in
            defer {
                opened.withLock { $0.append(path) }
                rename.wakes.wake()
            }
            return try open(path, flags, mode)
        }
        let journal = try CopyJournal(directory: fixture.destination)
        let (slots, options) = (CopySlots(limit: 1), CopyOptions(chunkSize: CopyFixture.chunk, fileSystem: fileSystem))
        let transfers = [fixture.source, second].map {
            CopyTransfer(
                source: $0, destinationDirectory: fixture.destination, journal: journal, options: options, slots: slots)
        }
        transfers[0].perform(.start)
        await rename.wakes.wait { rename.isHeld }
        transfers[1].perform(.start)
        await rename.wakes.wait { opened.withLock { $0.contains(second) } }
        #expect(rename.isHeld)
        rename.release()
        for transfer in transfers {
            await untilEnded(transfer.machine)
            await transfer.settle()
        }
        #expect(
            transfers.map(\.machine.model) == [
                TransferModel(phase: .completed(file: fixture.final), lastRequest: 1),
                TransferModel(phase: .completed(file: fixture.destination + "/second.bin"), lastRequest: 1),
            ])
        #expect(
            FileManager.default.contents(atPath: fixture.destination + "/second.bin")
                == Data(fixture.content.reversed()))
        #expect(slots.usage == (taken: 0, waiting: 0))
    }

    /// Seed 001's "suspend first, update state only if that worked": a pause pressed while the job commits
    /// (held at its rename) cannot stop a job past its last chunk, so the machine stays running, the commit
    /// completes and the machine ends `completed`; a cancel then changes nothing, and the journal keeps saying
    /// "completed" for the file in place (before: the machine moved to `paused`, the completion came back
    /// stale, and a cancel journaled "cancelled" for a committed file).
    ///
    /// A stop (SIGINT, the end of a run: ``CopyTransfer/finish()``) stops a run the same way, and the machine
    /// records the completion before it stops, so whoever counts the states afterwards counts the file in place.
    /// Before, the machine was stopped first: it stayed `running` at 100% with the file committed, and a headless
    /// copy interrupted by Ctrl-C left such files out of its summary.
    @Test(arguments: [false, true])
    func aPauseOrAStopDuringTheCommitEndsCompletedAndACancelJournalsNothing(stopping: Bool) async throws {
        let fixture = try CopyFixture(chunks: 2)
        defer { fixture.remove() }
        let rename = HeldRename()
        let transfer = try fixture.transfer(fileSystem: rename.fileSystem)
        transfer.perform(.start)
        await rename.wakes.wait { rename.isHeld }

        if stopping { transfer.askToStop() } else { transfer.perform(.pause) }
        #expect(transfer.machine.state == .running(request: 1, percent: 100))
        #expect(!transfer.machine.engine.isStopped)
        rename.release()
        if stopping { await transfer.finish() } else { await transfer.settle() }
        #expect(transfer.machine.model == TransferModel(phase: .completed(file: fixture.final), lastRequest: 1))
        #expect(transfer.machine.engine.isStopped == stopping)

        transfer.perform(.cancel)  // refused by the machine: a completed transfer has nothing to cancel
        await transfer.settle()
        #expect(transfer.machine.model == TransferModel(phase: .completed(file: fixture.final), lastRequest: 1))
        #expect(
            transfer.journal?.entry(named: "source.bin")?.status
                == .completed(size: Int64(fixture.content.count), digest: ContentDigest.of(fixture.content)))
        #expect(FileManager.default.contents(atPath: fixture.final) == Data(fixture.content))
    }

    /// A stop of a copy between chunks stops it at the chunk boundary as a pause does: the machine records it
    /// `paused` at the percent written, then stops, and the partial keeps those bytes for the next run. A transfer
    /// with no run under way stops at once.
    @Test func aStopBetweenChunksEndsPausedAtItsOffset() async throws {
        let fixture = try CopyFixture()
        defer { fixture.remove() }
        let (writes, transfer) = try await fixture.startedTransfer(written: 2) {
            $0 == .running(request: 1, percent: 25)
        }
        transfer.askToStop()
        #expect(!transfer.machine.engine.isStopped)
        writes.allow(1)  // the chunk in flight finishes; the job stops at the boundary after it
        await transfer.finish()
        #expect(transfer.machine.model == TransferModel(phase: .paused(request: 1, percent: 37), lastRequest: 1))
        #expect(transfer.machine.engine.isStopped)
        #expect(writes.writeOffsets == [0, 4096, 8192])
        #expect(fixture.size(fixture.partial) == Int64(3 * CopyFixture.chunk))

        let idle = try fixture.transfer(fileSystem: .posix)
        idle.askToStop()
        #expect(idle.machine.engine.isStopped)
        #expect(idle.machine.model == .initial)
    }

    /// A pause of a copy that is between chunks stops it at the chunk boundary first; the machine moves to
    /// `paused` at the percent the job stopped at, and resuming completes the file.
    @Test func aPauseStopsTheJobFirstThenPausesAtItsOffset() async throws {
        let fixture = try CopyFixture()
        defer { fixture.remove() }
        let (writes, transfer) = try await fixture.startedTransfer(written: 2) {
            $0 == .running(request: 1, percent: 25)
        }
        transfer.perform(.pause)
        #expect(transfer.machine.state == .running(request: 1, percent: 25))
        writes.allow(1)  // the chunk in flight finishes; the job stops at the boundary after it
        await transfer.settle()
        #expect(transfer.machine.model == TransferModel(phase: .paused(request: 1, percent: 37), lastRequest: 1))
        #expect(writes.writeOffsets == [0, 4096, 8192])
        #expect(transfer.machine.engine.history.filter { $0.outcome == .stale }.isEmpty)

        writes.allow(100)
        transfer.perform(.resume)
        await untilEnded(transfer.machine)
        await transfer.settle()
        #expect(transfer.machine.model == TransferModel(phase: .completed(file: fixture.final), lastRequest: 1))
        #expect(FileManager.default.contents(atPath: fixture.final) == Data(fixture.content))
    }

    /// A missing source fails the transfer with the OS reason in `failed(request:message:)`.
    /// The dashboard's row shows a name with control characters escaped, on one line; the request keeps
    /// the name itself.
    @Test func theRowNameHasItsControlCharactersEscaped() {
        let transfer = CopyTransfer(source: "/src/two\nlines\u{1B}[2J", destinationDirectory: "/dest", journal: nil)
        #expect([transfer.name, transfer.request.name] == [#"two\nlines\u{1B}[2J"#, "two\nlines\u{1B}[2J"])
    }

    @Test func aMissingSourceFailsWithTheOSReason() async throws {
        let fixture = try CopyFixture(chunks: 1)
        defer { fixture.remove() }
        let missing = fixture.root + "/missing.bin"
        let transfer = try fixture.transfer(fileSystem: .posix, source: missing)
        transfer.machine.send(.start)
        await untilEnded(transfer.machine)
        await transfer.settle()
        #expect(
            transfer.machine.model
                == TransferModel(
                    phase: .failed(message: "cannot read \(missing): No such file or directory"), lastRequest: 1,
                    retainedPercent: 0))
    }

    /// Stopping (SIGINT, SIGTERM) ends the work cleanly: the chunk in flight finishes, the partial is
    /// synced and kept with its checkpoint journaled, and a new transfer continues from it.
    @Test func stopKeepsThePartialAndTheNextRunContinuesFromIt() async throws {
        let fixture = try CopyFixture()
        defer { fixture.remove() }
        let (writes, transfer) = try await fixture.startedTransfer(written: 3)
        transfer.machine.engine.stop()  // the first half of `stop()`: the work is cancelled now
        writes.allow(1)  // the chunk in flight finishes
        await transfer.finish()  // and the run has ended
        #expect(fixture.size(fixture.partial) == Int64(4 * 4096))
        #expect(transfer.journal?.entry(named: "source.bin")?.durableOffset == Int64(4 * 4096))

        let again = GatedWrites()
        again.allow(100)
        let restarted = try fixture.transfer(fileSystem: again.fileSystem)
        restarted.machine.send(.start)
        await untilEnded(restarted.machine)
        await restarted.settle()
        #expect(restarted.machine.state == .completed(file: fixture.final))
        // Its status says it copied from half way: a state of 0% (its start) was never one it copied at.
        #expect(restarted.status == TransferDriverStatus(totalBytes: Int64(8 * 4096), copyingFromPercent: 50))
        #expect(again.writeOffsets == (4..<8).map { Int64($0 * 4096) })
        #expect(FileManager.default.contents(atPath: fixture.final) == Data(fixture.content))
    }

    /// `f` arms a simulated fault: the next chunk written fails with EIO, the transfer fails with that
    /// reason marked as simulated and keeps its partial, and retry (a new request id) continues from it to a verified file.
    @Test func anInjectedWriteFailureFailsWithTheReasonAndRetryCompletes() async throws {
        let fixture = try CopyFixture()
        defer { fixture.remove() }
        let (writes, transfer) = try await fixture.startedTransfer(written: 3)
        let machine = transfer.machine
        transfer.failNextOutcome()  // the fourth write is already under way; the fifth fails
        writes.allow(100)
        await untilEnded(machine)
        await transfer.settle()
        #expect(
            machine.model
                == TransferModel(
                    phase: .failed(
                        message: "cannot write \(fixture.partial): Input/output error"
                            + CopyTransfer.simulatedFaultNote), lastRequest: 1,
                    retainedPercent: 50))
        #expect(fixture.size(fixture.partial) == Int64(4 * 4096))

        machine.send(.retry)
        await untilEnded(machine)
        await transfer.settle()
        #expect(machine.model == TransferModel(phase: .completed(file: fixture.final), lastRequest: 2))
        #expect(FileManager.default.contents(atPath: fixture.final) == Data(fixture.content))
    }
}
