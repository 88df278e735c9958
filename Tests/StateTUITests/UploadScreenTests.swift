import ScreenStates
import StateTUI
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
        #expect(effects == [.perform(.start)])
    }

    @Test func spaceResumesWhenPausedAndPausesWhenUploading() {
        var paused = UploadScreenState(upload: .paused(progress: 0.5))
        #expect(UploadFeature.reduce(&paused, .pauseOrResume) == [.perform(.resume)])
        var uploading = UploadScreenState(upload: .uploading(progress: 0.5))
        #expect(UploadFeature.reduce(&uploading, .pauseOrResume) == [.perform(.pause)])
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
        #expect(UploadFeature.reduce(&failed, .retry) == [.perform(.retry)])
        var uploading = UploadScreenState(upload: .uploading(progress: 0.2))
        #expect(UploadFeature.reduce(&uploading, .cancel) == [.perform(.cancel)])
    }

    @Test func failNextTogglesAndTellsTheOwner() {
        var state = UploadScreenState()
        #expect(UploadFeature.reduce(&state, .toggleFailNext) == [.setFailNext(true)])
        #expect(state == UploadScreenState(failNext: true))
        #expect(UploadFeature.reduce(&state, .toggleFailNext) == [.setFailNext(false)])
        #expect(state == UploadScreenState())
    }

    @Test func aNewMachineStateClearsTheNotice() {
        var state = UploadScreenState(upload: .idle, notice: "old")
        #expect(UploadFeature.reduce(&state, .uploadChanged(.uploading(progress: 0))) == [])
        #expect(state == UploadScreenState(upload: .uploading(progress: 0)))
    }

    @Test(arguments: [
        (Key.character("s"), UploadAction.start), (.character(" "), .pauseOrResume), (.character("p"), .pauseOrResume),
        (.character("c"), .cancel), (.character("r"), .retry), (.character("f"), .toggleFailNext),
    ])
    func keys(key: Key, action: UploadAction) {
        #expect(UploadFeature.keymap(key, UploadScreenState()) == action)
    }

    @Test func helpOffersOnlyWhatApplies() {
        #expect(UploadFeature.help(UploadScreenState()).map(\.key) == ["s", "f"])
        #expect(
            UploadFeature.help(UploadScreenState(upload: .uploading(progress: 0.1))).map(\.key) == [
                "space/p", "c", "f",
            ])
        #expect(
            UploadFeature.help(UploadScreenState(upload: .paused(progress: 0.1))).map(\.label) == [
                "resume", "cancel", "fail next",
            ])
        #expect(UploadFeature.help(UploadScreenState(upload: .failed(message: "x"))).map(\.key) == ["r", "f"])
    }
}

@Suite struct UploadOwnerTests {
    func owner() -> (UploadOwner, ManualScheduler) {
        let scheduler = ManualScheduler()
        return (UploadOwner(scheduler: scheduler, random: SeededRandom(seed: 7)), scheduler)
    }

    @Test func progressArrivesAsTimePasses() {
        let (owner, scheduler) = owner()
        #expect(owner.perform(.start) == .moved)
        #expect(owner.state == .uploading(progress: 0))
        scheduler.advance(by: .milliseconds(100))
        guard case .uploading(let progress) = owner.state else {
            Issue.record("expected uploading, got \(owner.state)")
            return
        }
        #expect(progress >= 0.08 && progress <= 0.16)
    }

    @Test func aPausedUploadsTaskIsReallySuspended() {
        let (owner, scheduler) = owner()
        owner.perform(.start)
        scheduler.advance(by: .milliseconds(300))
        #expect(owner.perform(.pause) == .moved)
        let paused = owner.state
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: .seconds(5))
        #expect(owner.state == paused)
        #expect(owner.perform(.resume) == .moved)
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: .seconds(5))
        #expect(owner.state == .completed)
    }

    @Test func failNextMakesTheUploadFailHalfWayAndRetryStartsAgain() {
        let (owner, scheduler) = owner()
        owner.setFailNext(true)
        owner.perform(.start)
        scheduler.advance(by: .seconds(5))
        guard case .failed(let message) = owner.state else {
            Issue.record("expected failed, got \(owner.state)")
            return
        }
        #expect(message.hasPrefix("connection lost at "))
        #expect(owner.failsNext == false)
        #expect(owner.perform(.retry) == .moved)
        scheduler.advance(by: .seconds(5))
        #expect(owner.state == .completed)
    }

    @Test func cancelStopsTheTask() {
        let (owner, scheduler) = owner()
        owner.perform(.start)
        #expect(owner.perform(.cancel) == .moved)
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: .seconds(5))
        #expect(owner.state == .idle)
    }

    @Test func pauseAfterCompletionIsInvalidWithTheReason() {
        let (owner, scheduler) = owner()
        owner.perform(.start)
        scheduler.advance(by: .seconds(5))
        #expect(
            owner.perform(.pause) == .invalid("pause while completed: only an upload in progress can pause"))
    }

    @Test func observersSeeEveryChange() {
        let (owner, scheduler) = owner()
        let seen = Recorded<UploadState>()
        owner.observe { state, _ in seen.append(state) }
        owner.perform(.start)
        scheduler.advance(by: .milliseconds(100))
        #expect(seen.values.prefix(2) == [.idle, .uploading(progress: 0)])
        #expect(seen.values.last == owner.state)
    }
}
