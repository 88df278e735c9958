import SeedModels
import StateMachineKit
import Synchronization
import Testing

@Suite struct MachineTests {
    /// Every assertion of seed 000's example, against the machine on the engine.
    @Test func seedExampleOnTheEngine() {
        let transfer = TransferMachine()
        expectSeedExample(send: transfer.send, state: { transfer.state })
    }

    /// The engine's outcomes for the same example: progress updates the visit, stale events are
    /// ignored, the current request breaking a rule is invalid with its reason.
    @Test func seedExampleOutcomesAndVisits() {
        let transfer = TransferMachine()
        let events: [TransferEvent] = [
            .start, .progress(request: 1, percent: 20), .pause, .progress(request: 1, percent: 30),
            .succeeded(request: 1, file: "file-1"), .succeeded(request: 1, file: "duplicate"), .start, .cancel,
            .failed(request: 2, message: "Late cancellation outcome"), .start, .progress(request: 2, percent: 90),
            .progress(request: 3, percent: 40), .progress(request: 3, percent: 10),
        ]
        let outcomes = events.map { transfer.apply($0) }
        #expect(
            outcomes == [
                .moved, .updated, .moved, .ignored, .moved, .ignored, .moved, .moved, .ignored, .moved, .ignored,
                .updated, .invalid("progress of request 3 went back from 40 to 10"),
            ])
        #expect(transfer.engine.history.map(\.visit) == [1, 2, 2, 3, 3, 4, 4, 5, 6, 6, 7, 7, 7])
        #expect(transfer.engine.visit == 7)
        #expect(transfer.model == TransferModel(phase: .running(request: 3, percent: 40), lastRequest: 3))
    }

    /// Effects derived from the engine's recorded transitions equal the planner's.
    @Test func effectsFromHistoryMatchThePlanner() {
        let transfer = TransferMachine()
        var planned: [TransferEffect] = []
        for event: TransferEvent in [
            .start, .progress(request: 1, percent: 30), .pause, .resume,
            .failed(request: 1, message: "offline"), .retry, .cancel, .start,
        ] {
            planned += TransferModel.plan(transfer.model, event).effects
            transfer.send(event)
        }
        let recorded = transfer.engine.history.flatMap { TransferModel.effects(from: $0.before, to: $0.after) }
        #expect(
            planned == [
                .begin(request: 1, percent: 0), .suspend(request: 1), .begin(request: 1, percent: 30),
                .begin(request: 2, percent: 30), .cancel(request: 2), .begin(request: 3, percent: 0),
            ])
        #expect(recorded == planned)
    }

    @Test func uploadMachineRunsTheLifecycle() {
        let upload = UploadMachine()
        let outcomes = [
            UploadEvent.start(upload: 1), .progress(upload: 1, fraction: 0.35), .pause,
            .progress(upload: 1, fraction: 0.5),
            .resume, .complete(upload: 2), .complete(upload: 1), .pause,
        ]
        .map { upload.apply($0) }
        #expect(
            outcomes == [
                .moved, .updated, .moved, .ignored, .moved, .ignored, .moved,
                .invalid("pause while completed: only an upload in progress can pause"),
            ])
        #expect(upload.state == .completed)
    }

    @Test func loadMachinePrintsTheSeedSequence() {
        let load = LoadMachine()
        var printed: [String] = []
        for action in [
            LoadAction.refreshTapped, .succeeded(["a", "b"]), .refreshTapped, .failed("offline"),
            .succeeded(["late"]), .refreshTapped, .refreshTapped,
        ] {
            printed.append("\(load.apply(action).verdict?.word ?? "-") \(load.state)")
        }
        #expect(
            printed == [
                "to loading(previous: nil)",
                "to loaded([\"a\", \"b\"])",
                "to loading(previous: [\"a\", \"b\"])",
                "to failed(\"offline\", previous: [\"a\", \"b\"])",
                "ignore failed(\"offline\", previous: [\"a\", \"b\"])",
                "to loading(previous: [\"a\", \"b\"])",
                "stay loading(previous: [\"a\", \"b\"])",
            ])
    }

    /// A current request breaking a rule is reported at error level with its reason and state.
    @Test func invalidProgressIsReportedWithItsReason() {
        let reports = Mutex<[Report]>([])
        let transfer = TransferMachine(reporter: Reporter { report in reports.withLock { $0.append(report) } })
        transfer.send(.start)
        transfer.send(.progress(request: 1, percent: 40))
        transfer.send(.progress(request: 1, percent: 10))
        let invalid = reports.withLock { $0.filter { $0.name == "statemachine.invalid" } }
        #expect(invalid.map(\.level) == [.error])
        #expect(invalid.map(\.label) == ["transfer"])
        #expect(invalid.first?.message.contains("progress of request 1 went back from 40 to 10") == true)
    }

    /// Concurrent starts and cancels from many tasks: every running phase has a request id never
    /// used before, in increasing order.
    @Test func concurrentStartsNeverReuseAnId() async {
        let transfer = TransferMachine(historyLimit: 1_000)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    transfer.send(.start)
                    transfer.send(.cancel)
                }
            }
        }
        let started = transfer.engine.history.compactMap { record -> Int? in
            guard case .start = record.event, record.outcome == .moved else { return nil }
            return record.after.phase.activeRequest
        }
        #expect(started == Array(1...started.count))
        #expect(transfer.model.lastRequest == started.count)
    }
}
