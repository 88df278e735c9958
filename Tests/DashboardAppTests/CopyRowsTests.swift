import FileTransfer
import Foundation
import MachineDrivers
import SeedModels
import StateMachineKit
import Support
import TerminalUI
import Testing

@testable import DashboardApp

/// Issue 23 (item 6): a row of the copy dashboard costs a few hundred bytes. A row never started holds its name
/// and shows the model's initial state; its transfer and machine are made when it is first started, then join
/// the change feed, History and the inspector.
@Suite struct CopyRowsTests {
    /// A source tree of three files and a file of its own, and an empty destination, under a fresh directory.
    private struct Fixture {
        let root = NSTemporaryDirectory() + "statetui-copyrows-" + UUID().uuidString
        var tree: String { root + "/src/tree" }
        var single: String { root + "/src/one.bin" }
        var destination: String { root + "/dest" }

        init() throws {
            for directory in [tree + "/a", tree + "/b", destination] {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            for (path, byte) in [("/a/x", 1), ("/a/y", 2), ("/b/z", 3)] {
                try Data([UInt8(byte)]).write(to: URL(fileURLWithPath: tree + path))
            }
            try Data([4, 5]).write(to: URL(fileURLWithPath: single))
        }

        func files() throws -> CopyFiles {
            try CopySession(
                sources: [tree, single], destinationDirectory: destination, overwrite: false, options: CopyOptions()
            ).takeAllFiles()
        }

        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    private static let names = ["tree/a/x", "tree/a/y", "tree/b/z", "one.bin"]

    /// The dashboard over a session's files makes no machine: every row, and History's list, is there with the
    /// model's initial state and the size the list read (before: no size until a row started, so the total row
    /// said 100% with most files to go); an intent the initial state does not take (pause, cancel) makes nothing
    /// either.
    @Test func aSessionsRowsMakeNoMachineUntilOneStarts() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let files = try fixture.files()
        let runtime = TransfersRuntime(list: files)
        var environment = DashboardEnvironment.live(seed: 1, replacing: [.transfers: runtime])
        environment.mode = .copy(simulatesFaults: false)
        defer { environment.stop() }
        let state = environment.initialState
        #expect(
            state.transfers.rows
                == zip(Self.names, [1, 1, 1, 2]).map { name, size in
                    TransferRow(name: name, model: TransferModel.initial, driverStatus: .init(totalBytes: size))
                })
        #expect(
            TransfersFeature.totalRow(state.transfers) == "total: 0 B of 5 B · 0% · – · ETA – · 0 of 4 files")
        #expect(state.history.machines == Self.names)
        runtime.perform(.send(row: 1, [.pause, .resume]))
        runtime.perform(.send(row: 1, [.cancel]))
        #expect(files.madeRows == [])
        #expect(runtime.transfers.isEmpty)
        #expect(files.phases.map(\.phase) == Array(repeating: TransferModel.initial.phase, count: 4))
    }

    /// Only the open detail pane of the shown screen follows a machine's records, the selected row's, and only
    /// once that row is made: the rows keep no records of their own.
    @Test func onlyTheOpenDetailPaneFollowsTheSelectedMachinesRecords() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let runtime = TransfersRuntime(list: try fixture.files())
        var state = runtime.initialState
        state.select(1)
        func ids(shown: Bool = true) -> [String] {
            TransfersFeature.subscriptions(runtime, state, shown: shown).map(\.id)
        }
        #expect(ids() == ["transfers.records"])
        state.detail = TransferDetail()
        #expect(ids() == ["transfers.records"])
        runtime.makeDriver(at: 1)
        #expect(ids() == ["transfers.records", "transfers.detail.1@0"])
        #expect(ids(shown: false) == ["transfers.records"])
        state.select(2)
        #expect(ids() == ["transfers.records"])
        // The made row's copy is stopped the way the dashboard's exit does it: on a thread that may block.
        await DetachedThread.value(name: "stop") { runtime.stop() }
    }

    /// The help overlay of a copy dashboard lists `f` only with `--simulate-faults` (issue 23, item 9): before, it
    /// offered "f next outcome fails" in every copy dashboard, where the key does nothing. Its digits are its
    /// screens'.
    @Test(arguments: [false, true]) func theHelpListsTheFaultKeyOnlyWhenFaultsAreSimulated(simulates: Bool) throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let runtime = TransfersRuntime(list: try fixture.files())
        var environment = DashboardEnvironment.live(seed: 1, replacing: [.transfers: runtime])
        environment.mode = .copy(simulatesFaults: simulates)
        defer { environment.stop() }
        var state = environment.initialState
        state.overlay = .help
        let help = AppView.helpLayout(state, size: Size(width: 100, height: 40)).lines.map {
            $0.spans.map(\.text).joined()
        }
        #expect(help.contains { $0.contains("f next outcome fails") } == simulates)
        #expect(help.contains { $0.contains("s start") })
        // Its three screens, not the demo dashboard's five (before: "1–5 show a screen").
        let digits = help.filter { $0.contains("show a screen") }.map {
            $0.trimmingCharacters(in: .whitespaces).components(separatedBy: " · ")[0]
        }
        #expect(digits == ["1–3 show a screen"])
    }

    /// Starting a row makes its transfer, for the file the walk read, and only its; the change feed follows it
    /// from its first record, under its own row, and History finds its machine by name.
    @Test func startingARowMakesItsTransferAndTheFeedFollowsIt() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let files = try fixture.files()
        let runtime = TransfersRuntime(list: files)
        let made = MadeNames()
        runtime.whenMade { made.add($0.name) }
        var feed = runtime.records().makeAsyncIterator()
        runtime.perform(.send(row: 2, [.start]))
        #expect(files.madeRows == [2])
        #expect(made.names == ["tree/b/z"])
        let transfer = try #require(files.transfer(at: 2))
        #expect(
            transfer.request
                == CopyRequest(
                    id: "tree/b/z", source: fixture.tree + "/b/z",
                    destinationDirectory: fixture.destination + "/tree/b",
                    name: "z"))
        #expect(runtime.history(of: 2, name: "tree/b/z")?.id == "history.tree/b/z")
        #expect(runtime.history(of: 0, name: "tree/a/x") == nil)
        let first = try #require(await feed.next())
        #expect(first.map(\.index) == [0])
        guard case .transfersRecorded(let changes) = runtime.action(first) else {
            Issue.record("the feed's batch is not the rows' news")
            return
        }
        #expect(changes.map(\.row) == [2])
        #expect(changes.first?.records.records.first?.event == .start)
        await transfer.finish()
        // `S` makes the others, in row order, and starts them; the one already made is not made again.
        runtime.perform(.sendAll([.start]))
        #expect(files.madeRows == [0, 1, 2, 3])
        #expect(made.names == ["tree/b/z", "tree/a/x", "tree/a/y", "one.bin"])
        for transfer in runtime.transfers { await (transfer as? CopyTransfer)?.finish() }
    }
}

extension CopyRowsTests {
    /// A runtime over the fixture's files (keeping its machines or not), its change feed read from the start, and
    /// row 3 (`one.bin`) started.
    private static func startingOneBin(in fixture: Fixture, keepsMachines: Bool = false) throws -> (
        files: CopyFiles, runtime: TransfersRuntime,
        feed: AsyncStream<[StateMachine<TransferModel, TransferEvent>.IndexedRecordBatch]>.Iterator
    ) {
        let files = try fixture.files()
        let runtime = TransfersRuntime(list: files, keepsMachines: keepsMachines)
        let feed = runtime.records().makeAsyncIterator()
        runtime.perform(.send(row: 3, [.start]))
        return (files, runtime, feed)
    }

    /// The runtime's news of the change feed until row `row` is completed: every change of it, in order.
    private static func changes(
        of row: Int, in runtime: TransfersRuntime,
        from feed: inout AsyncStream<[StateMachine<TransferModel, TransferEvent>.IndexedRecordBatch]>.Iterator
    ) async -> [TransferChange] {
        var seen: [TransferChange] = []
        while let batch = await feed.next() {
            guard case .transfersRecorded(let changes) = runtime.action(batch) else { continue }
            seen += changes.filter { $0.row == row }
            if case .completed = seen.last?.records.state.phase { return seen }
        }
        return seen
    }

    /// A completed row lets its transfer go (issue 23, item 6: a completed row cost 3.8 KB, its transfer, machine
    /// and history): once the screen took in the completion, the row keeps its last record and visit, and shows,
    /// reports and lists that. A start makes the transfer again on a machine restored where it ended, numbering
    /// its records on; the feed reads it from the record it was restored with, missing none.
    @Test func aCompletedRowLetsItsTransferGoAndAStartMakesItAgain() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let (files, runtime, started) = try Self.startingOneBin(in: fixture)
        var feed = started
        let first = await Self.changes(of: 3, in: runtime, from: &feed)
        let last = try #require(first.last?.records.records.last)
        let completed = TransferModel(
            phase: .completed(file: fixture.destination + "/one.bin"), lastRequest: 1)
        #expect(last.after == completed)
        #expect(files.transfer(at: 3) == nil)
        #expect(runtime.followedMachines == 0)
        let settled = try #require(files.settled(at: 3))
        #expect(settled.last == last)
        #expect(settled.visit == first.last?.sample.visit)
        #expect(files.settle(3, at: last.sequence) == false)
        #expect(runtime.model(at: 3) == completed)
        #expect(files.phases.map(\.phase) == [.idle, .idle, .idle, completed.phase])
        #expect(runtime.newest(of: 3) == last.sequence)
        #expect(runtime.initialState.rows[3].model == completed)
        // History and the detail pane read its last record, the ones before it counted as missed.
        #expect(runtime.history(of: 3, name: "one.bin")?.id == "history.one.bin")
        var state = runtime.initialState
        state.select(3)
        state.detail = TransferDetail()
        #expect(
            TransfersFeature.subscriptions(runtime, state, shown: true).map(\.id) == [
                "transfers.records", "transfers.detail.3@0",
            ])
        var pane = settled.records().makeAsyncIterator()
        #expect(await pane.next() == .init(records: [last], missed: last.sequence - 1, state: completed))
        #expect(await pane.next() == nil)

        // A start makes it again, restored: the same request numbering, its records numbered on from the last.
        runtime.perform(.send(row: 3, [.start]))
        let again = try #require(files.transfer(at: 3))
        #expect(runtime.followedMachines == 1)
        #expect(again.recordsStart == last.sequence - 1)
        #expect(again.machine.engine.history.first == last)
        #expect(runtime.history(of: 3, name: "one.bin")?.id == "history.one.bin@\(last.sequence - 1)")
        let second = await Self.changes(of: 3, in: runtime, from: &feed)
        #expect(second.first?.records.records.first == last)
        #expect(second.map(\.records.missed) == Array(repeating: 0, count: second.count))
        #expect(second.first?.records.records.dropFirst().first?.event == .start)
        let relast = try #require(second.last?.records.records.last)
        #expect(relast.after.lastRequest == 2)
        #expect(files.settled(at: 3)?.last == relast)
        #expect(files.transfer(at: 3) == nil)
        #expect(runtime.followedMachines == 0)
    }

    /// A completed row let go keeps, in its directory's journal, only the size and digest of the file it wrote
    /// (``CopyJournal/condenseCompleted(named:)``: the whole entry, its source's path and status among it, kept
    /// a completed row at about 1,700 bytes in `make bench`, condensed 1,400). A start with the source unchanged
    /// skips the file by size and time; a start after the source changed replaces the file, which this copy
    /// wrote, without `--overwrite`.
    @Test func aCompletedRowsJournalKeepsWhatItWroteForTheNextStart() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let (files, runtime, started) = try Self.startingOneBin(in: fixture)
        var feed = started
        let journal = try #require(files.transfer(at: 3)?.journal)
        _ = await Self.changes(of: 3, in: runtime, from: &feed)
        #expect(files.transfer(at: 3) == nil)
        let digest = ContentDigest.of([4, 5])
        #expect(
            journal.entry(named: "one.bin")
                == JournalEntry(
                    request: "", source: "", sourceStatus: nil, durableOffset: 2,
                    status: .completed(size: 2, digest: digest), ownedDigest: digest))

        runtime.perform(.send(row: 3, [.start]))
        let unchanged = try #require(files.transfer(at: 3))
        _ = await Self.changes(of: 3, in: runtime, from: &feed)
        #expect(unchanged.status.alreadyThere == "same size and time")

        try Data([7, 8, 9]).write(to: URL(fileURLWithPath: fixture.single))
        runtime.perform(.send(row: 3, [.start]))
        let changed = try #require(files.transfer(at: 3))
        let last = try #require(await Self.changes(of: 3, in: runtime, from: &feed).last)
        #expect(last.records.state.phase == .completed(file: fixture.destination + "/one.bin"))
        #expect(changed.status.alreadyThere == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: fixture.destination + "/one.bin")) == Data([7, 8, 9]))
    }

    /// With `keepsMachines` (`--inspectable`: the inspector follows every machine), a completed row keeps its
    /// transfer and its machine.
    @Test func aRuntimeThatKeepsMachinesLetsNoCompletedRowGo() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let (files, runtime, started) = try Self.startingOneBin(in: fixture, keepsMachines: true)
        var feed = started
        let changes = await Self.changes(of: 3, in: runtime, from: &feed)
        let transfer = try #require(files.transfer(at: 3))
        #expect(transfer.machine.engine.history.last == changes.last?.records.records.last)
        #expect(files.settled(at: 3) == nil)
        #expect(runtime.followedMachines == 1)
        await transfer.finish()
    }
}

/// The names of the drivers a runtime made, in the order it made them.
private final class MadeNames: Sendable {
    private let made = Locked<[String]>([])
    func add(_ name: String) { made.withLock { $0.append(name) } }
    var names: [String] { made.withLock { $0 } }
}
