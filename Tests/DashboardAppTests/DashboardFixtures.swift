import DashboardApp
import MachineDrivers
import SeedModels
import StateMachineKit
import TerminalUI

/// Transfer models in each phase, and dashboard states built from them, for reducer and view tests.
enum DashboardFixtures {
    static let idle = TransferModel.initial
    static let running = TransferModel(phase: .running(request: 1, percent: 20), lastRequest: 1)
    static let paused = TransferModel(phase: .paused(request: 3, percent: 57), lastRequest: 3)
    static let completed = TransferModel(phase: .completed(file: "video.mp4"), lastRequest: 2)
    static let failed = TransferModel(phase: .failed(message: "simulated failure"), lastRequest: 4, retainedPercent: 41)

    /// One model per `TransferState` case, named after the case.
    static let everyPhase: [(name: String, model: TransferModel)] = [
        ("idle", idle), ("running", running), ("paused", paused), ("completed", completed), ("failed", failed),
    ]

    /// The size keys are pressed at, as the store maps them: the frame on screen.
    static let size = Size(width: 80, height: 24)

    static let names = ["photos.tar", "backup.img", "dataset.csv", "video.mp4", "notes.md"]

    /// Five rows, one per phase in `everyPhase` order, `selected` chosen.
    static func screen(selected: Int = 0, failing: Set<Int> = [], stale: [Int: Int] = [:]) -> TransfersScreenState {
        TransfersScreenState(
            rows: everyPhase.enumerated().map { index, entry in
                TransferRow(
                    name: names[index], model: entry.model,
                    driverStatus: TransferDriverStatus(failsNextOutcome: failing.contains(index)),
                    tally: RecordTally(lastSequence: stale[index] ?? 0, stale: stale[index] ?? 0))
            },
            selected: selected)
    }

    /// The dashboard on the Transfers screen.
    static func app(
        selected: Int = 0, failing: Set<Int> = [], stale: [Int: Int] = [:], overlay: Overlay? = nil
    ) -> AppState {
        AppState(transfers: screen(selected: selected, failing: failing, stale: stale), overlay: overlay)
    }

    /// The row index whose model is in the phase called `name`.
    static func row(_ name: String) -> Int {
        everyPhase.firstIndex { $0.name == name } ?? 0
    }
}

extension StateMachine {
    /// The senders of `whileIn(where:)` work that does nothing but hand its sender out, one per visit the work
    /// begins in, as each begins: what a test awaits to send late reports from a visit it then ends.
    func workSenders(where runs: @escaping @Sendable (State) -> Bool) -> AsyncStream<Sender> {
        let (senders, handOut) = AsyncStream.makeStream(of: Sender.self)
        whileIn(where: runs, label: "test work") { sender in handOut.yield(sender) }
        return senders
    }

    /// The batch a new `records()` reader is handed first: every record still in history, the ones before it
    /// as missed. For reducer tests that run without a task to read the feed.
    var firstBatch: RecordBatch {
        let snapshot = snapshot()
        return RecordBatch(
            records: snapshot.history, missed: snapshot.sequence - snapshot.history.count, state: snapshot.state)
    }
}

extension AppState {
    /// A dashboard on `screen` with the given screens' states, the others as they start.
    init(
        screen: Screen = .transfers, transfers: TransfersScreenState, upload: UploadScreenState = UploadScreenState(),
        load: LoadScreenState = LoadScreenState(), graph: GraphScreenState = GraphScreenState(),
        history: HistoryScreenState = HistoryScreenState(), overlay: Overlay? = nil, exit: ExitReason? = nil
    ) {
        self.init(
            screen: screen,
            states: [
                .embed(TransfersFeature.self, transfers), .embed(UploadFeature.self, upload),
                .embed(LoadFeature.self, load), .embed(GraphFeature.self, graph), .embed(HistoryFeature.self, history),
            ], overlay: overlay, exit: exit)
    }
}
