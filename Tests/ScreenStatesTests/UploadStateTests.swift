import StateMachineKit
import Testing

@testable import ScreenStates

@Suite struct UploadStateTests {
    /// Seed 001's example: pause then resume an upload at 0.35.
    @Test func seedPauseAndResume() {
        var state: UploadState = .uploading(progress: 0.35)
        state.pause()
        #expect(state == .paused(progress: 0.35))
        #expect(state.canResume)
        state.resume()
        #expect(state == .uploading(progress: 0.35))
        #expect(!state.canResume)
    }

    static let all: [UploadState] = [
        .idle, .uploading(progress: 0.35), .paused(progress: 0.35), .completed, .failed(message: "offline"),
    ]

    /// Seed 001's sample methods silently ignore impossible calls.
    @Test(arguments: all) func pauseAndResumeChangeOnlyTheirPhase(state: UploadState) {
        var paused = state
        paused.pause()
        #expect(paused == (state == .uploading(progress: 0.35) ? .paused(progress: 0.35) : state))
        var resumed = state
        resumed.resume()
        #expect(resumed == (state == .paused(progress: 0.35) ? .uploading(progress: 0.35) : state))
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
                [false, false, true, false],
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
        var state = UploadState.uploading(progress: 0.5)
        #expect(
            throws: UploadStateError(
                state: .uploading(progress: 0.5), event: .resume,
                reason: "resume while uploading: only a paused upload can resume")
        ) { try state.checkedResume() }
        #expect(state == .uploading(progress: 0.5))
    }

    @Test func errorDescriptionReadsAsASentence() {
        let error = UploadStateError(
            state: .completed, event: .pause, reason: "pause while completed: only an upload in progress can pause")
        #expect(
            error.description
                == "cannot pause in completed: pause while completed: only an upload in progress can pause")
    }

    @Test func checkedVariantsSucceedWhereAllowed() throws {
        var state = UploadState.uploading(progress: 0.2)
        try state.checkedPause()
        #expect(state == .paused(progress: 0.2))
        try state.checkedResume()
        #expect(state == .uploading(progress: 0.2))
    }

    /// The lifecycle seed 001 asks to test: start, progress, pause, resume, complete, fail, retry
    /// after failure, cancel during upload.
    @Test func wholeLifecycle() throws {
        var state = UploadState.idle
        var seen: [UploadState] = []
        for event: UploadEvent in [
            .start, .progress(0.4), .pause, .resume, .progress(0.9), .fail(message: "offline"),
            .retry, .progress(0.5), .cancel, .start, .complete,
        ] {
            try state.apply(event)
            seen.append(state)
        }
        #expect(
            seen == [
                .uploading(progress: 0), .uploading(progress: 0.4), .paused(progress: 0.4), .uploading(progress: 0.4),
                .uploading(progress: 0.9), .failed(message: "offline"), .uploading(progress: 0),
                .uploading(progress: 0.5),
                .idle, .uploading(progress: 0), .completed,
            ])
    }

    static let up = UploadState.uploading(progress: 0.5)
    static let pa = UploadState.paused(progress: 0.5)
    static let fa = UploadState.failed(message: "m")

    typealias Row = (UploadState, UploadEvent, Transition<UploadState, UploadEvent>)

    /// Idle and completed rest alike: `start` begins afresh, late reports are ignored, the rest is refused.
    static func resting(_ state: UploadState, _ name: String, lateProgress: Double) -> [Row] {
        [
            (state, .start, .to(.uploading(progress: 0))),
            (state, .progress(lateProgress), .ignore),
            (state, .pause, .invalid("pause while \(name): only an upload in progress can pause")),
            (state, .resume, .invalid("resume while \(name): only a paused upload can resume")),
            (state, .complete, .ignore),
            (state, .fail(message: "m"), .ignore),
            (state, .retry, .invalid("retry while \(name): only a failed upload can be retried")),
            (state, .cancel, .invalid("cancel while \(name): only an upload in progress or paused can be cancelled")),
        ]
    }

    /// Uploading and paused are both under way: `start` is refused, and completing, failing and cancelling end
    /// them the same way.
    static func underway(_ state: UploadState, _ name: String) -> [Row] {
        [
            (state, .start, .invalid("start while \(name): an upload is already in progress")),
            (state, .complete, .to(.completed)),
            (state, .fail(message: "m"), .to(fa)),
            (state, .retry, .invalid("retry while \(name): only a failed upload can be retried")),
            (state, .cancel, .to(.idle)),
        ]
    }

    /// Every phase against every event.
    static let table: [Row] =
        resting(.idle, "idle", lateProgress: 0.1) + resting(.completed, "completed", lateProgress: 1)
        + underway(up, "uploading") + underway(pa, "paused") + [
            (up, .progress(0.75), .update(.uploading(progress: 0.75))),
            (up, .progress(1), .update(.uploading(progress: 1))),
            (up, .progress(0.5), .stay),
            (up, .progress(0.25), .invalid("progress went back from 0.5 to 0.25")),
            (up, .progress(1.5), .invalid("progress 1.5 is outside 0…1")),
            (up, .progress(.nan), .invalid("progress nan is outside 0…1")),
            (up, .pause, .to(pa)),
            (up, .resume, .invalid("resume while uploading: only a paused upload can resume")),
            (pa, .progress(0.75), .ignore),
            (pa, .pause, .invalid("pause while paused: only an upload in progress can pause")),
            (pa, .resume, .to(up)),
            (fa, .start, .invalid("start after a failure: retry the failed upload or cancel it first")),
            (fa, .progress(0.6), .ignore),
            (fa, .pause, .invalid("pause while failed: only an upload in progress can pause")),
            (fa, .resume, .invalid("resume while failed: only a paused upload can resume")),
            (fa, .complete, .ignore),
            (fa, .fail(message: "again"), .ignore),
            (fa, .retry, .to(.uploading(progress: 0))),
            (fa, .cancel, .invalid("cancel while failed: only an upload in progress or paused can be cancelled")),
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
