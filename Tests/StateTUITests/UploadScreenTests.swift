import DashboardApp
import MachineDrivers
import ScreenStates
import Support
import TerminalUI
import TerminalUITesting
import Testing

@Suite struct UploadScreenTests {
    static let sizes = [Size(width: 80, height: 24), Size(width: 40, height: 12)]

    /// One screen per `UploadState` case.
    static let everyCase: [(name: String, state: UploadScreenState)] = [
        ("idle", UploadScreenState()),
        ("uploading", UploadScreenState(upload: .uploading(progress: 0.35))),
        ("paused", UploadScreenState(upload: .paused(progress: 0.62), failNext: true)),
        ("completed", UploadScreenState(upload: .completed)),
        ("failed", UploadScreenState(upload: .failed(message: "connection lost at 48%"))),
    ]

    @Test(arguments: everyCase.map(\.name), sizes)
    func eachCaseRenders(name: String, size: Size) throws {
        let screen = try #require(Self.everyCase.first { $0.name == name }?.state)
        let app = AppState(screen: .upload, transfers: DashboardFixtures.screen(), upload: screen)
        assertSnapshot(AppView.render(app, size: size), named: "upload-\(name)-\(size)")
    }

    @Test func resumeShowsOnlyWhenPausedAndRetryOnlyAfterAFailure() {
        for (name, screen) in Self.everyCase {
            var canvas = Canvas(size: Size(width: 80, height: 20))
            UploadFeature.view(screen, in: canvas.bounds, on: &canvas)
            #expect(canvas.text.contains("Resume") == (name == "paused"), "\(name)")
            #expect(canvas.text.contains("Retry") == (name == "failed"), "\(name)")
        }
    }

    @Test func startAsksTheOwnerWhenIdle() {
        var state = UploadScreenState()
        let effects = UploadFeature.reduce(&state, .start)
        #expect(state == UploadScreenState())
        #expect(effects == [.start(fails: false)])
    }

    @Test func spaceResumesWhenPausedAndPausesWhenUploading() {
        var paused = UploadScreenState(upload: .paused(progress: 0.5))
        #expect(UploadFeature.reduce(&paused, .pauseOrResume) == [.resume])
        var uploading = UploadScreenState(upload: .uploading(progress: 0.5))
        #expect(UploadFeature.reduce(&uploading, .pauseOrResume) == [.pause])
    }

    @Test func pauseAfterCompletionIsRefusedWithTheReasonAndNoEffect() {
        var state = UploadScreenState(upload: .completed)
        let effects = UploadFeature.reduce(&state, .pauseOrResume)
        #expect(effects == [])
        #expect(
            state
                == UploadScreenState(
                    upload: .completed, notice: "pause while completed: only an upload in progress can pause"))
    }

    @Test func retryAfterFailureAndCancelWhileUploading() {
        var failed = UploadScreenState(upload: .failed(message: "x"))
        #expect(UploadFeature.reduce(&failed, .retry) == [.retry(fails: false)])
        var uploading = UploadScreenState(upload: .uploading(progress: 0.2))
        #expect(UploadFeature.reduce(&uploading, .cancel) == [.cancel])
    }

    @Test func failNextIsUsedUpByTheNextStart() {
        var state = UploadScreenState()
        #expect(UploadFeature.reduce(&state, .toggleFailNext) == [])
        #expect(state == UploadScreenState(failNext: true))
        #expect(UploadFeature.reduce(&state, .start) == [.start(fails: true)])
        #expect(state == UploadScreenState())
    }

    @Test func recordsCountStaleAndInvalidOnceEach() {
        let machine = UploadMachine()
        machine.apply(.start)
        machine.apply(.resume)
        var state = UploadScreenState()
        #expect(UploadFeature.reduce(&state, .recordsChanged(machine.engine.history)) == [])
        #expect(UploadFeature.reduce(&state, .recordsChanged(machine.engine.history)) == [])
        #expect(state == UploadScreenState(tally: RecordTally(lastSequence: 2, stale: 0, invalid: 1)))
    }

    @Test func aNewMachineStateClearsTheNotice() {
        var state = UploadScreenState(upload: .idle, notice: "old")
        #expect(UploadFeature.reduce(&state, .uploadChanged(.uploading(progress: 0))) == [])
        #expect(state == UploadScreenState(upload: .uploading(progress: 0)))
    }

    @Test(arguments: [
        (Key.character("s"), UploadScreenAction.start), (.character(" "), .pauseOrResume),
        (.character("p"), .pauseOrResume),
        (.character("c"), .cancel), (.character("r"), .retry), (.character("f"), .toggleFailNext),
    ])
    func keys(key: Key, action: UploadScreenAction) {
        #expect(UploadFeature.bindings.action(for: key, in: UploadScreenState()) == action)
    }

    /// One rulebook: in every upload state, a key's effect is the first of its events the upload's transition
    /// function moves or updates on, none when it moves on none, and the help bar offers exactly those keys.
    @Test(arguments: everyCase.map(\.state.upload))
    func keysAndHelpAskTheTransitionFunction(upload: UploadState) {
        let keys: [(String, UploadScreenAction, [UploadEvent])] = [
            ("s", .start, [.start]), ("space/p", .pauseOrResume, [.pause, .resume]), ("c", .cancel, [.cancel]),
            ("r", .retry, [.retry]),
        ]
        let offered = Set(UploadFeature.bindings.barHelp(in: UploadScreenState(upload: upload)).map(\.key))
        for (key, action, candidates) in keys {
            var state = UploadScreenState(upload: upload)
            let effects = UploadFeature.reduce(&state, action)
            let applying = candidates.first {
                switch UploadState.transition(upload, $0) {
                case .to, .update: true
                case .stay, .ignore, .invalid, .postpone: false
                }
            }
            #expect(effects.isEmpty == (applying == nil), "\(key) in \(upload)")
            #expect(offered.contains(key) == (applying != nil), "\(key) in \(upload)")
        }
    }

    @Test func helpOffersOnlyWhatApplies() {
        #expect(UploadFeature.bindings.barHelp(in: UploadScreenState()).map(\.key) == ["s", "f"])
        #expect(
            UploadFeature.bindings.barHelp(in: UploadScreenState(upload: .uploading(progress: 0.1))).map(\.key) == [
                "space/p", "c", "f",
            ])
        #expect(
            UploadFeature.bindings.barHelp(in: UploadScreenState(upload: .paused(progress: 0.1))).map(\.label) == [
                "resume", "cancel", "fail next",
            ])
        #expect(
            UploadFeature.bindings.barHelp(in: UploadScreenState(upload: .failed(message: "x"))).map(\.key) == [
                "r", "f",
            ])
    }
}

/// The upload owner on a manual scheduler: the task is the machine's `whileIn` work, reporting through the
/// sender of its run; nothing here sleeps.
@Suite struct UploadOwnerTests {
    static func owner() -> (UploadOwner, ManualScheduler) {
        let scheduler = ManualScheduler()
        return (UploadOwner(scheduler: scheduler, random: SplitMix64(seed: 7)), scheduler)
    }

    /// Waits until the run the current visit asks for has begun and set up its first chunk.
    static func settle(_ owner: UploadOwner, _ scheduler: ManualScheduler) async {
        while !owner.isSetUp || (owner.task?.isRunning == true && scheduler.pendingCount == 0) { await Task.yield() }
    }

    @Test func chunksReportThroughTheRunUntilComplete() async {
        let (owner, scheduler) = Self.owner()
        #expect(owner.perform(.start(fails: false)) == nil)
        await Self.settle(owner, scheduler)
        scheduler.advance(by: .seconds(5))
        #expect(owner.state == .completed)
        #expect(owner.machine.engine.history.allSatisfy { $0.outcome != .stale })
    }

    @Test func pauseIsRecordedOnlyWhenTheTaskSuspended() async {
        let (owner, scheduler) = Self.owner()
        owner.perform(.start(fails: false))
        await Self.settle(owner, scheduler)
        // Someone else suspended the task: suspending again fails, so the upload is not marked paused.
        #expect(owner.task?.suspend() == true)
        #expect(owner.perform(.pause) == "the upload task could not be suspended, so the upload goes on")
        #expect(owner.state == .uploading(progress: 0))
        #expect(owner.machine.engine.history.map(\.event) == [.start])
    }

    @Test func aPausedUploadSendsNothingAndResumesWhereItStopped() async {
        let (owner, scheduler) = Self.owner()
        owner.perform(.start(fails: false))
        await Self.settle(owner, scheduler)
        scheduler.advance(by: .milliseconds(250))
        #expect(owner.perform(.pause) == nil)
        guard case .paused(let at) = owner.state else {
            Issue.record("not paused: \(owner.state)")
            return
        }
        scheduler.advance(by: .seconds(5))
        #expect(owner.state == .paused(progress: at))
        owner.perform(.resume)
        await Self.settle(owner, scheduler)
        scheduler.advance(by: .seconds(5))
        #expect(owner.state == .completed)
    }

    @Test func aCancelledUploadsLateChunkDiesInTheMachineAsStale() async {
        let (owner, scheduler) = Self.owner()
        owner.perform(.start(fails: false))
        await Self.settle(owner, scheduler)
        scheduler.advance(by: .milliseconds(150))
        owner.perform(.cancel)
        #expect(owner.state == .idle)
        // The chunk already on the wire lands through the cancelled run's sender.
        scheduler.advance(by: .seconds(1))
        #expect(owner.state == .idle)
        let last = owner.machine.engine.history.last
        #expect(last?.outcome == .stale)
        #expect(last?.before == .idle)
        var tally = RecordTally()
        tally.add(owner.machine.engine.history)
        #expect(tally.stale == 1)
    }

    @Test func aFailingUploadFailsHalfWay() async {
        let (owner, scheduler) = Self.owner()
        owner.perform(.start(fails: true))
        await Self.settle(owner, scheduler)
        scheduler.advance(by: .seconds(5))
        guard case .failed(let message) = owner.state else {
            Issue.record("not failed: \(owner.state)")
            return
        }
        #expect(message.hasPrefix("connection lost at"))
    }
}
