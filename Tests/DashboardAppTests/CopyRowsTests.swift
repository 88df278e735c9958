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
        #expect(ids() == ["transfers.records", "transfers.detail.1"])
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

/// The names of the drivers a runtime made, in the order it made them.
private final class MadeNames: Sendable {
    private let made = Locked<[String]>([])
    func add(_ name: String) { made.withLock { $0.append(name) } }
    var names: [String] { made.withLock { $0 } }
}
