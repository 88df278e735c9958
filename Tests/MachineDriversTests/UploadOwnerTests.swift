import MachineDrivers
import SeedModels
import StateMachineKit
import Support
import Testing

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

    /// The owner judges an intent against the machine's state when it meets it: space pauses an upload in
    /// progress and resumes a paused one; one no candidate applies to is refused with the function's reason.
    @Test func theOwnerSendsTheFirstEventTheMachineAppliesOrGivesTheReason() {
        let owner = UploadOwner(scheduler: ManualClock(), random: SplitMix64(seed: 1))
        #expect(
            owner.performFirst(of: [.pause, .resume], fails: false)
                == "pause while idle: only an upload in progress can pause")
        #expect(owner.state == .idle)
        // The screen's guess at the number does not matter: the owner numbers the upload itself.
        #expect(owner.performFirst(of: [.start(upload: 9)], fails: false) == nil)
        #expect(owner.performFirst(of: [.pause, .resume], fails: false) == nil)
        #expect(owner.state == .paused(upload: 1, progress: 0))
        #expect(owner.performFirst(of: [.pause, .resume], fails: false) == nil)
        #expect(owner.state == .uploading(upload: 1, progress: 0))
        #expect(owner.performFirst(of: [.cancel], fails: false) == nil)
        #expect(owner.performFirst(of: [.start(upload: 1)], fails: false) == nil)
        #expect(owner.state == .uploading(upload: 2, progress: 0))
        #expect(
            owner.machine.engine.history.map(\.event) == [
                .start(upload: 1), .pause, .resume, .cancel, .start(upload: 2),
            ])
    }

    /// The fail switch stays up until the machine records the start (or retry) it was for.
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
        #expect(owner.machine.engine.history.filter { $0.outcome == .stale }.count == 1)
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
