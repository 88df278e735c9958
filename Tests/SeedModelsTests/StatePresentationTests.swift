import SeedModels
import Testing

/// Every model reads as words with a phase for its colour; the canonical text stays the model's description.
@Suite struct StatePresentationTests {
    @Test(arguments: [
        (TransferModel.initial, StatePresentation(.idle, "idle")),
        (TransferModel(phase: .idle, lastRequest: 3), StatePresentation(.idle, "idle · after request #3")),
        (
            TransferModel(phase: .running(request: 1, percent: 29), lastRequest: 1),
            StatePresentation(.active, "running · 29% · request #1")
        ),
        (
            TransferModel(phase: .paused(request: 2, percent: 40), lastRequest: 2),
            StatePresentation(.paused, "paused · 40% · request #2")
        ),
        (
            TransferModel(phase: .completed(file: "photos.tar"), lastRequest: 2),
            StatePresentation(.done, "completed · photos.tar")
        ),
        (
            TransferModel(phase: .failed(message: "offline"), lastRequest: 4, retainedPercent: 41),
            StatePresentation(.failed, "failed at 41% · offline — r retries")
        ),
        (
            TransferModel(phase: .failed(message: ""), lastRequest: 4),
            StatePresentation(.failed, "failed · failed — r retries")
        ),
    ])
    func aTransferReadsAsWords(model: TransferModel, expected: StatePresentation) {
        #expect(model.presentation == expected)
    }

    @Test(arguments: [
        (UploadState.idle, StatePresentation(.idle, "idle")),
        (.uploading(upload: 1, progress: 0.294), StatePresentation(.active, "uploading · 29%")),
        (.paused(upload: 1, progress: 0.4), StatePresentation(.paused, "paused · 40%")),
        (.uploading(upload: 1, progress: .nan), StatePresentation(.active, "uploading · 0%")),
        (.completed, StatePresentation(.done, "completed")),
        (
            .failed(upload: 1, category: .server, message: "server closed", sent: 0.5),
            StatePresentation(.failed, "failed · server · server closed — r retries")
        ),
        (
            .failed(upload: 1, category: .rejected, message: "too large", sent: 0),
            StatePresentation(.failed, "failed · rejected · too large")
        ),
    ])
    func anUploadReadsAsWords(state: UploadState, expected: StatePresentation) {
        #expect(state.presentation == expected)
    }

    @Test(arguments: [
        (LoadState.idle, StatePresentation(.idle, "idle · nothing loaded")),
        (.loading(previous: nil), StatePresentation(.active, "loading · first load")),
        (.loading(previous: ["a", "b", "c"]), StatePresentation(.active, "loading · 3 items kept")),
        (.loaded(["a"]), StatePresentation(.done, "loaded · 1 item")),
        (.failed("offline", previous: nil), StatePresentation(.failed, "failed · offline — r retries")),
        (
            .failed("offline", previous: ["a", "b"]),
            StatePresentation(.failed, "failed · offline — r retries · 2 items kept")
        ),
    ])
    func aLoadReadsAsWords(state: LoadState, expected: StatePresentation) {
        #expect(state.presentation == expected)
    }

    /// The words never carry the canonical syntax (`running(request: 1, percent: 9)`): no parentheses.
    @Test func theWordsAreNotTheCanonicalText() {
        let model = TransferModel(phase: .running(request: 1, percent: 9), lastRequest: 1)
        #expect(model.presentation.text != String(describing: model.phase))
        #expect(!model.presentation.text.contains("("))
    }
}
