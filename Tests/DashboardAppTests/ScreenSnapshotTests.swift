import DashboardApp
import MachineDrivers
import SeedModels
import StateMachineKit
import TerminalUI
import TerminalUITesting
import Testing

/// Every screen, and the Transfers detail pane, at 80×24, 120×40 and 200×60, with readable states, sizes, rate
/// and ETA. `SNAPSHOT_UPDATE=1` rewrites the files in `__Snapshots__`.
@Suite struct ScreenSnapshotTests {
    static let sizes = [Size(width: 80, height: 24), Size(width: 120, height: 40), Size(width: 200, height: 60)]

    /// The five fixture rows with sizes and two samples each a second apart, one name too long for narrow
    /// columns, and a failed row whose error is long.
    static func transfers() -> TransfersScreenState {
        var screen = DashboardFixtures.screen(selected: 4, failing: [1])
        screen.rows[2].name = "quarterly-dataset-export-2026-11-30-final-version.csv"
        screen.rows[4].model = TransferModel(
            phase: .failed(
                message: "write to /srv/backup/notes.md.partial failed: No space left on device (errno 28); "
                    + "the journal kept 41% so r resumes from there once space is freed"),
            lastRequest: 4, retainedPercent: 41)
        for index in screen.rows.indices {
            screen.rows[index].driverStatus.totalBytes = Int64(index + 1) * 48_000_000
            let model = screen.rows[index].model
            var earlier = model
            if case .running(let request, let percent) = model.phase {
                earlier.phase = .running(request: request, percent: percent - 8)
            }
            screen.rows[index].take(earlier, TransferSample(at: .seconds(10), visit: 2))
            screen.rows[index].take(model, TransferSample(at: .seconds(11), visit: 2, timeout: .seconds(25)))
        }
        screen.rows[4].take(records: notesRecords)
        return screen
    }

    /// The records of the machine of row 4 (`notes.md`): what its row counts and its open detail pane lists.
    static let notesRecords = {
        let machine = TransferMachine(label: "notes.md")
        for event in [
            TransferEvent.start, .progress(request: 1, percent: 41), .pause, .failed(request: 9, message: "x"),
        ] {
            _ = machine.apply(event)
        }
        defer { machine.engine.stop() }
        return machine.engine.firstBatch
    }()

    @Test(arguments: sizes)
    func transfersScreen(size: Size) {
        let app = AppState(transfers: Self.transfers())
        assertSnapshot(AppView.render(app, size: size), named: "screen-transfers-\(size)")
    }

    @Test(arguments: sizes)
    func transfersCanonicalText(size: Size) {
        var app = AppState(transfers: Self.transfers())
        app.transfers.showsCanonical = true
        assertSnapshot(AppView.render(app, size: size), named: "screen-transfers-canonical-\(size)")
    }

    @Test(arguments: sizes)
    func transfersDetailPane(size: Size) {
        var app = AppState(transfers: Self.transfers())
        app.transfers.detail = TransferDetail(records: Self.notesRecords.records)
        assertSnapshot(AppView.render(app, size: size), named: "screen-transfers-detail-\(size)")
    }

    @Test(arguments: sizes)
    func uploadScreen(size: Size) {
        let app = AppState(
            screen: .upload, transfers: DashboardFixtures.screen(),
            upload: UploadScreenState(upload: .uploading(upload: 1, progress: 0.29)))
        assertSnapshot(AppView.render(app, size: size), named: "screen-upload-\(size)")
    }

    @Test(arguments: sizes)
    func loadScreen(size: Size) {
        let app = AppState(
            screen: .load, transfers: DashboardFixtures.screen(),
            load: LoadScreenState(load: .failed("offline", previous: ["alpha", "beta"])))
        assertSnapshot(AppView.render(app, size: size), named: "screen-load-\(size)")
    }

    @Test(arguments: sizes)
    func graphScreen(size: Size) {
        let app = AppState(
            screen: .graph, transfers: DashboardFixtures.screen(), graph: GraphScreenState(model: .transfer))
        assertSnapshot(AppView.render(app, size: size), named: "screen-graph-\(size)")
    }

    @Test(arguments: sizes)
    func historyScreenSearched(size: Size) {
        var history = HistorySearchTests.state()
        history.rows = HistorySearchTests.rows(80)
        history.search = HistorySearch(pattern: "pause", isEditing: false, match: 75)
        history.scrolledUp = 3
        let app = AppState(screen: .history, transfers: DashboardFixtures.screen(), history: history)
        assertSnapshot(AppView.render(app, size: size), named: "screen-history-\(size)")
    }
}
