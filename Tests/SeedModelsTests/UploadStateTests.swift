import StateMachineKit
import Testing

@testable import SeedModels

@Suite struct UploadStateTests {
    /// Seed 001's example: pause then resume an upload at 0.35.
    @Test func seedPauseAndResume() {
        var state: UploadState = .uploading(upload: 1, progress: 0.35)
        state.pause()
        #expect(state == .paused(upload: 1, progress: 0.35))
        #expect(state.canResume)
        state.resume()
        #expect(state == .uploading(upload: 1, progress: 0.35))
        #expect(!state.canResume)
    }

    static let all: [UploadState] = [
        .idle, .uploading(upload: 1, progress: 0.35), .paused(upload: 1, progress: 0.35), .completed,
        .failed(upload: 1, category: .network, message: "offline", sent: 0.35),
        .failed(upload: 1, category: .rejected, message: "too large", sent: 0),
    ]

    /// Seed 001's sample methods silently ignore impossible calls.
    @Test(arguments: all) func pauseAndResumeChangeOnlyTheirPhase(state: UploadState) {
        var paused = state
        paused.pause()
        #expect(paused == (state == .uploading(upload: 1, progress: 0.35) ? .paused(upload: 1, progress: 0.35) : state))
        var resumed = state
        resumed.resume()
        #expect(
            resumed == (state == .paused(upload: 1, progress: 0.35) ? .uploading(upload: 1, progress: 0.35) : state))
    }

    @Test(
        arguments: zip(
            all,
            [
                // canResume, canPause, canRetry, canCancel
                [false, false, false, false],
                [false, true, false, true],
                [true, false, false, true],
                [false, false, false, false],
                [false, false, true, true],
                [false, false, false, true],
            ]))
    func viewsAskTheStateWhatApplies(state: UploadState, expected: [Bool]) {
        #expect([state.canResume, state.canPause, state.canRetry, state.canCancel] == expected)
    }

    @Test func pauseAfterCompletionThrowsNamingWhy() {
        var state = UploadState.completed
        #expect(
            throws: UploadStateError(
                state: .completed, event: .pause, reason: "pause while completed: only an upload in progress can pause")
        ) { try state.checkedPause() }
        #expect(state == .completed)
    }

    @Test func resumeWhileUploadingThrowsNamingWhy() {
        var state = UploadState.uploading(upload: 1, progress: 0.5)
        #expect(
            throws: UploadStateError(
                state: .uploading(upload: 1, progress: 0.5), event: .resume,
                reason: "resume while uploading: only a paused upload can resume")
        ) { try state.checkedResume() }
        #expect(state == .uploading(upload: 1, progress: 0.5))
    }

    @Test func errorDescriptionReadsAsASentence() {
        let error = UploadStateError(
            state: .completed, event: .pause, reason: "pause while completed: only an upload in progress can pause")
        #expect(
            error.description
                == "cannot pause in completed: pause while completed: only an upload in progress can pause")
    }

    @Test func checkedVariantsSucceedWhereAllowed() throws {
        var state = UploadState.uploading(upload: 1, progress: 0.2)
        try state.checkedPause()
        #expect(state == .paused(upload: 1, progress: 0.2))
        try state.checkedResume()
        #expect(state == .uploading(upload: 1, progress: 0.2))
    }

    /// The lifecycle seed 001 asks to test: start, progress, pause, resume, complete, fail, retry
    /// after failure (continuing from what was sent), cancel during upload.
    @Test func wholeLifecycle() throws {
        var state = UploadState.idle
        var seen: [UploadState] = []
        for event: UploadEvent in [
            .start(upload: 1), .progress(upload: 1, fraction: 0.4), .pause, .resume,
            .progress(upload: 1, fraction: 0.9), .fail(upload: 1, category: .network, message: "offline"),
            .retry(upload: 2), .progress(upload: 2, fraction: 0.95), .cancel, .start(upload: 3), .complete(upload: 3),
        ] {
            try state.apply(event)
            seen.append(state)
        }
        #expect(
            seen == [
                .uploading(upload: 1, progress: 0), .uploading(upload: 1, progress: 0.4),
                .paused(upload: 1, progress: 0.4), .uploading(upload: 1, progress: 0.4),
                .uploading(upload: 1, progress: 0.9),
                .failed(upload: 1, category: .network, message: "offline", sent: 0.9),
                .uploading(upload: 2, progress: 0.9), .uploading(upload: 2, progress: 0.95),
                .idle, .uploading(upload: 3, progress: 0), .completed,
            ])
    }

    /// The sequence: an upload cancelled and started again, then the first task's completion arrives.
    /// It names the first upload, so the second one goes on.
    @Test func anOldTasksCompletionDoesNotCompleteTheNewUpload() throws {
        var state = UploadState.idle
        for event: UploadEvent in [.start(upload: 1), .cancel, .start(upload: 2), .complete(upload: 1)] {
            try state.apply(event)
        }
        #expect(state == .uploading(upload: 2, progress: 0))
        #expect(UploadState.transition(state, .complete(upload: 1)) == .ignore)
        #expect(UploadState.transition(state, .complete(upload: 2)) == .to(.completed))
    }

    static let up = UploadState.uploading(upload: 2, progress: 0.5)
    static let pa = UploadState.paused(upload: 2, progress: 0.5)
    static let fa = UploadState.failed(upload: 2, category: .network, message: "m", sent: 0.5)
    static let server = UploadState.failed(upload: 2, category: .server, message: "m", sent: 0.5)
    static let rejected = UploadState.failed(upload: 2, category: .rejected, message: "too large", sent: 0.5)

    typealias Row = (UploadState, UploadEvent, Transition<UploadState, UploadEvent>)

    /// Idle and completed rest alike: `start` begins afresh, late reports are ignored, the rest is refused.
    static func resting(_ state: UploadState, _ name: String, lateProgress: Double) -> [Row] {
        [
            (state, .start(upload: 3), .to(.uploading(upload: 3, progress: 0))),
            (state, .progress(upload: 2, fraction: lateProgress), .ignore),
            (state, .pause, .invalid("pause while \(name): only an upload in progress can pause")),
            (state, .resume, .invalid("resume while \(name): only a paused upload can resume")),
            (state, .complete(upload: 2), .ignore),
            (state, .fail(upload: 2, category: .network, message: "m"), .ignore),
            (state, .retry(upload: 3), .invalid("retry while \(name): only a failed upload can be retried")),
            (
                state, .cancel,
                .invalid("cancel while \(name): only an upload in progress, paused or failed can be cancelled")
            ),
        ]
    }

    /// Uploading and paused are both under way: `start` is refused, and completing, failing and cancelling end
    /// them the same way; another upload's reports change nothing.
    static func underway(_ state: UploadState, _ name: String) -> [Row] {
        [
            (state, .start(upload: 3), .invalid("start while \(name): an upload is already in progress")),
            (state, .complete(upload: 2), .to(.completed)),
            (state, .complete(upload: 1), .ignore),
            (state, .fail(upload: 2, category: .network, message: "m"), .to(fa)),
            (state, .fail(upload: 1, category: .network, message: "m"), .ignore),
            (state, .progress(upload: 1, fraction: 0.9), .ignore),
            (state, .retry(upload: 3), .invalid("retry while \(name): only a failed upload can be retried")),
            (state, .cancel, .to(.idle)),
        ]
    }

    /// Every phase against every event.
    static let table: [Row] =
        resting(.idle, "idle", lateProgress: 0.1) + resting(.completed, "completed", lateProgress: 1)
        + underway(up, "uploading") + underway(pa, "paused") + [
            (up, .progress(upload: 2, fraction: 0.75), .update(.uploading(upload: 2, progress: 0.75))),
            (up, .progress(upload: 2, fraction: 1), .update(.uploading(upload: 2, progress: 1))),
            (up, .progress(upload: 2, fraction: 0.5), .stay),
            (up, .progress(upload: 2, fraction: 0.25), .invalid("progress went back from 0.5 to 0.25")),
            (up, .progress(upload: 2, fraction: 1.5), .invalid("progress 1.5 is outside 0…1")),
            (up, .progress(upload: 2, fraction: .nan), .invalid("progress nan is outside 0…1")),
            (up, .pause, .to(pa)),
            (up, .resume, .invalid("resume while uploading: only a paused upload can resume")),
            (pa, .progress(upload: 2, fraction: 0.75), .ignore),
            (pa, .pause, .invalid("pause while paused: only an upload in progress can pause")),
            (pa, .resume, .to(up)),
            (fa, .start(upload: 3), .invalid("start after a failure: retry the failed upload or cancel it first")),
            (fa, .progress(upload: 2, fraction: 0.6), .ignore),
            (fa, .pause, .invalid("pause while failed: only an upload in progress can pause")),
            (fa, .resume, .invalid("resume while failed: only a paused upload can resume")),
            (fa, .complete(upload: 2), .ignore),
            (fa, .fail(upload: 2, category: .network, message: "again"), .ignore),
            (fa, .retry(upload: 3), .to(.uploading(upload: 3, progress: 0.5))),
            (
                fa, .retry(upload: 2),
                .invalid("retry must name a new upload: 2 is not after the failed upload 2")
            ),
            (server, .retry(upload: 3), .to(.uploading(upload: 3, progress: 0))),
            (
                rejected, .retry(upload: 3),
                .invalid("retry after rejected failure (too large): retrying would fail the same way")
            ),
            (fa, .cancel, .to(.idle)),
            (rejected, .cancel, .to(.idle)),
        ]

    @Test(arguments: table) func transitionTable(
        state: UploadState, event: UploadEvent, expected: Transition<UploadState, UploadEvent>
    ) {
        #expect(UploadState.transition(state, event) == expected)
    }

    /// The throwing variant throws exactly for `.invalid` rows and otherwise lands on the target.
    @Test(arguments: table) func applyAgreesWithTheTable(
        state: UploadState, event: UploadEvent, expected: Transition<UploadState, UploadEvent>
    ) {
        var applied = state
        do {
            try applied.apply(event)
            #expect(applied == expected.target(from: state))
        } catch {
            // Compared as text: `progress(.nan)` is never equal to itself.
            #expect(
                error.description
                    == UploadStateError(
                        state: state, event: event,
                        reason: {
                            if case .invalid(let reason) = expected { return reason }
                            return "not invalid"
                        }()
                    ).description)
            #expect(applied == state)
        }
    }
}
