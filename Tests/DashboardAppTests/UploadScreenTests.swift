import DashboardApp
import MachineDrivers
import SeedModels
import Support
import TerminalUI
import TerminalUITesting
import Testing

@Suite struct UploadScreenTests {
    static let sizes = [Size(width: 80, height: 24), Size(width: 40, height: 12)]

    /// One screen per `UploadState` case.
    static let everyCase: [(name: String, state: UploadScreenState)] = [
        ("idle", UploadScreenState()),
        ("uploading", UploadScreenState(upload: .uploading(upload: 1, progress: 0.35))),
        ("paused", UploadScreenState(upload: .paused(upload: 1, progress: 0.62), failNext: true)),
        ("completed", UploadScreenState(upload: .completed)),
        (
            "failed",
            UploadScreenState(
                upload: .failed(upload: 1, category: .network, message: "connection lost at 48%", sent: 0.48))
        ),
        (
            "rejected",
            UploadScreenState(
                upload: .failed(upload: 2, category: .rejected, message: "too large for the server", sent: 0))
        ),
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
            #expect(
                canvas.text.contains("Cancel") == ["uploading", "paused", "failed", "rejected"].contains(name),
                "\(name)")
        }
    }

    /// A key is an intent whatever the screen shows: the owner judges it when it meets the machine.
    @Test(arguments: everyCase.map(\.state))
    func eachKeyIsAnIntentForTheOwnerWhateverTheScreenShows(screen: UploadScreenState) {
        let keys: [(UploadScreenAction, UploadScreenEffect)] = [
            (.start, .send([.start(upload: screen.upload.nextUpload)], fails: screen.failNext)),
            (.pauseOrResume, .send([.pause, .resume], fails: false)),
            (.cancel, .send([.cancel], fails: false)),
            (.retry, .send([.retry(upload: screen.upload.nextUpload)], fails: screen.failNext)),
        ]
        for (action, effect) in keys {
            var state = screen
            #expect(UploadFeature.reduce(&state, action) == [effect], "\(action) in \(screen.upload)")
            #expect(state == screen, "\(action) in \(screen.upload)")
        }
    }

    /// The owner judges an intent against the machine's state when it meets it: space pauses an upload in
    /// progress and resumes a paused one; one no candidate applies to is refused with the function's reason.
    @Test func theOwnerSendsTheFirstEventTheMachineAppliesOrGivesTheReason() {
        let owner = UploadOwner(scheduler: ManualClock(), random: SplitMix64(seed: 1))
        #expect(
            owner.perform(.send([.pause, .resume], fails: false))
                == "pause while idle: only an upload in progress can pause")
        #expect(owner.state == .idle)
        // The screen's guess at the number does not matter: the owner numbers the upload itself.
        #expect(owner.perform(.send([.start(upload: 9)], fails: false)) == nil)
        #expect(owner.perform(.send([.pause, .resume], fails: false)) == nil)
        #expect(owner.state == .paused(upload: 1, progress: 0))
        #expect(owner.perform(.send([.pause, .resume], fails: false)) == nil)
        #expect(owner.state == .uploading(upload: 1, progress: 0))
        #expect(owner.perform(.send([.cancel], fails: false)) == nil)
        #expect(owner.perform(.send([.start(upload: 1)], fails: false)) == nil)
        #expect(owner.state == .uploading(upload: 2, progress: 0))
        #expect(
            owner.machine.engine.history.map(\.event) == [
                .start(upload: 1), .pause, .resume, .cancel, .start(upload: 2),
            ])
    }

    /// The fail switch stays up until the machine records the start (or retry) it was for.
    @Test func failNextIsUsedUpOnceTheMachineRecordsAStart() {
        let machine = UploadMachine()
        var state = UploadScreenState()
        #expect(UploadFeature.reduce(&state, .toggleFailNext) == [])
        #expect(state == UploadScreenState(failNext: true))
        #expect(UploadFeature.reduce(&state, .start) == [.send([.start(upload: 1)], fails: true)])
        #expect(state == UploadScreenState(failNext: true))
        machine.apply(.start(upload: 1))
        #expect(UploadFeature.reduce(&state, .recordsChanged(machine.engine.firstBatch)) == [])
        #expect(state == UploadScreenState(tally: RecordTally(lastSequence: 1, stale: 0, invalid: 0)))
    }

    @Test func recordsCountStaleAndInvalidOnceEach() {
        let machine = UploadMachine()
        machine.apply(.start(upload: 1))
        machine.apply(.resume)
        var state = UploadScreenState()
        #expect(UploadFeature.reduce(&state, .recordsChanged(machine.engine.firstBatch)) == [])
        #expect(UploadFeature.reduce(&state, .recordsChanged(machine.engine.firstBatch)) == [])
        #expect(state == UploadScreenState(tally: RecordTally(lastSequence: 2, stale: 0, invalid: 1)))
    }

    @Test func aNewMachineStateClearsTheNotice() {
        var state = UploadScreenState(upload: .idle, notice: "old")
        #expect(UploadFeature.reduce(&state, .uploadChanged(.uploading(upload: 1, progress: 0))) == [])
        #expect(state == UploadScreenState(upload: .uploading(upload: 1, progress: 0)))
    }

    @Test(arguments: [
        (Key.character("s"), UploadScreenAction.start), (.character(" "), .pauseOrResume),
        (.character("p"), .pauseOrResume),
        (.character("c"), .cancel), (.character("r"), .retry), (.character("f"), .toggleFailNext),
    ])
    func keys(key: Key, action: UploadScreenAction) {
        #expect(UploadFeature.bindings.action(for: key, in: UploadScreenState()) == action)
    }

    /// One rulebook: in every upload state, the help bar offers a key exactly when the upload's transition
    /// function moves or updates on one of its events, and the owner sends that event for the key's intent.
    @Test(arguments: everyCase.map(\.state.upload))
    func keysAndHelpAskTheTransitionFunction(upload: UploadState) {
        let keys: [(String, UploadScreenAction, [UploadEvent])] = [
            ("s", .start, [.start(upload: upload.nextUpload)]), ("space/p", .pauseOrResume, [.pause, .resume]),
            ("c", .cancel, [.cancel]), ("r", .retry, [.retry(upload: upload.nextUpload)]),
        ]
        let offered = Set(UploadFeature.bindings.barHelp(in: UploadScreenState(upload: upload)).map(\.key))
        for (key, _, candidates) in keys {
            let applying = candidates.first {
                switch UploadState.transition(upload, $0) {
                case .to, .update: true
                case .stay, .ignore, .invalid, .postpone: false
                }
            }
            #expect(offered.contains(key) == (applying != nil), "\(key) in \(upload)")
        }
    }

    @Test func helpOffersOnlyWhatApplies() {
        #expect(UploadFeature.bindings.barHelp(in: UploadScreenState()).map(\.key) == ["s", "f"])
        #expect(
            UploadFeature.bindings.barHelp(in: UploadScreenState(upload: .uploading(upload: 1, progress: 0.1))).map(
                \.key) == [
                    "space/p", "c", "f",
                ])
        #expect(
            UploadFeature.bindings.barHelp(in: UploadScreenState(upload: .paused(upload: 1, progress: 0.1))).map(
                \.label) == [
                    "resume", "cancel", "fail next",
                ])
        #expect(
            UploadFeature.bindings.barHelp(
                in: UploadScreenState(upload: .failed(upload: 1, category: .network, message: "x", sent: 0))
            ).map(\.key) == ["c", "r", "f"])
        #expect(
            UploadFeature.bindings.barHelp(
                in: UploadScreenState(upload: .failed(upload: 1, category: .rejected, message: "x", sent: 0))
            ).map(\.key) == ["c", "f"])
    }
}

/// The upload owner on a manual scheduler: the task is the machine's `whileIn` work, reporting through the
/// sender of its run; nothing here sleeps.
@Suite(.timeLimit(.minutes(1))) struct UploadOwnerTests {
    static func owner() -> (UploadOwner, ManualClock) {
        let scheduler = ManualClock()
        return (UploadOwner(scheduler: scheduler, random: SplitMix64(seed: 7)), scheduler)
    }

    /// Waits until the run the current visit asks for has begun and set up its first chunk.
    static func settle(_ owner: UploadOwner, _ scheduler: ManualClock) async {
        await scheduler.settle { owner.isSetUp && (owner.task?.isRunning != true || scheduler.pendingCount > 0) }
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
        #expect(owner.state == .uploading(upload: 1, progress: 0))
        #expect(owner.machine.engine.history.map(\.event) == [.start(upload: 1)])
    }

    @Test func aPausedUploadSendsNothingAndResumesWhereItStopped() async {
        let (owner, scheduler) = Self.owner()
        owner.perform(.start(fails: false))
        await Self.settle(owner, scheduler)
        scheduler.advance(by: .milliseconds(250))
        #expect(owner.perform(.pause) == nil)
        guard case .paused(_, let at) = owner.state else {
            Issue.record("not paused: \(owner.state)")
            return
        }
        scheduler.advance(by: .seconds(5))
        #expect(owner.state == .paused(upload: 1, progress: at))
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
        tally.add(owner.machine.engine.firstBatch)
        #expect(tally.stale == 1)
    }

    @Test func aFailingUploadFailsHalfWay() async {
        let (owner, scheduler) = Self.owner()
        owner.perform(.start(fails: true))
        await Self.settle(owner, scheduler)
        scheduler.advance(by: .seconds(5))
        guard case .failed(let upload, let category, let message, let sent) = owner.state else {
            Issue.record("not failed: \(owner.state)")
            return
        }
        #expect(upload == 1)
        #expect(category == .network)
        #expect(message.hasPrefix("connection lost at"))
        // A retry is a second upload that continues from what the first had sent.
        owner.perform(.retry(fails: false))
        #expect(owner.state == .uploading(upload: 2, progress: sent))
        await Self.settle(owner, scheduler)
        scheduler.advance(by: .seconds(5))
        #expect(owner.state == .completed)
        #expect(owner.machine.engine.history.allSatisfy { $0.outcome != .stale && $0.outcome != .ignored })
    }
}
