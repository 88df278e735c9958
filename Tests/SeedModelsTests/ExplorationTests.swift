import SeedModels
import StateMachineKit
import Testing

@Suite struct ExplorationTests {
    static func transfer(_ phase: TransferState, _ last: Int, retained: Int? = nil) -> TransferModel {
        TransferModel(phase: phase, lastRequest: last, retainedPercent: retained)
    }

    /// The 14 transfer models reachable with the sample events, in discovery order; ids newer than
    /// request 1 fold onto request 2.
    @Test func transferExploration() {
        let graph = TransferModel.exploreSamples()
        #expect(
            graph.states == [
                Self.transfer(.idle, 0),
                Self.transfer(.running(request: 1, percent: 0), 1),
                Self.transfer(.running(request: 1, percent: 50), 1),
                Self.transfer(.paused(request: 1, percent: 0), 1),
                Self.transfer(.completed(file: "file-1"), 1),
                Self.transfer(.failed(message: "offline"), 1, retained: 0),
                Self.transfer(.idle, 1),
                Self.transfer(.paused(request: 1, percent: 50), 1),
                Self.transfer(.failed(message: "offline"), 1, retained: 50),
                Self.transfer(.running(request: 2, percent: 0), 2),
                Self.transfer(.running(request: 2, percent: 50), 2),
                Self.transfer(.paused(request: 2, percent: 0), 2),
                Self.transfer(.idle, 2),
                Self.transfer(.paused(request: 2, percent: 50), 2),
            ])
        #expect(!graph.isTruncated)
        #expect(graph.deadEnds.isEmpty)
        #expect(
            graph.invalid.map { "\($0.state.phase) \($0.event): \($0.reason)" } == [
                "idle progress(request: 1, percent: 50): progress(request: 1, percent: 50) names request 1, which was never started (the newest is 0)",
                "idle progress(request: 1, percent: 101): progress(request: 1, percent: 101) names request 1, which was never started (the newest is 0)",
                "idle succeeded(request: 1, file: \"file-1\"): succeeded(request: 1, file: \"file-1\") names request 1, which was never started (the newest is 0)",
                "idle succeeded(request: 1, file: \"\"): succeeded(request: 1, file: \"\") names request 1, which was never started (the newest is 0)",
                "idle failed(request: 1, message: \"offline\"): failed(request: 1, message: \"offline\") names request 1, which was never started (the newest is 0)",
                "running(request: 1, percent: 0) progress(request: 1, percent: 101): progress of request 1 to 101 is above 100",
                "running(request: 1, percent: 0) succeeded(request: 1, file: \"\"): completion of request 1 has no file",
                "running(request: 1, percent: 50) progress(request: 1, percent: 101): progress of request 1 to 101 is above 100",
                "running(request: 1, percent: 50) succeeded(request: 1, file: \"\"): completion of request 1 has no file",
                "paused(request: 1, percent: 0) succeeded(request: 1, file: \"\"): completion of request 1 has no file",
                "paused(request: 1, percent: 50) succeeded(request: 1, file: \"\"): completion of request 1 has no file",
            ])
        // Progress is the only .update; everything else that moves is a new visit.
        #expect(
            graph.edges.filter { $0.kind == .update }.map { "\($0.from.phase) -> \($0.to.phase)" } == [
                "running(request: 1, percent: 0) -> running(request: 1, percent: 50)"
            ])
        #expect(graph.edges.count == 33)
    }

    /// The folded exploration agrees with the real model: every path the folded graph takes is a
    /// path the real transition takes, up to renumbering of the ids newer than the samples'.
    @Test func foldingMatchesTheRealModelAlongEveryShortestPath() throws {
        let graph = TransferModel.exploreSamples()
        for target in graph.states {
            let path = try #require(graph.shortestPath { $0 == target })
            var real = TransferModel.initial
            for event in path { real = TransferModel.transition(real, event).target(from: real) }
            #expect(real.folded(beyond: 1) == target)
        }
    }

    @Test func uploadExploration() {
        let graph = UploadState.exploreSamples()
        let failed = { (sent: Double) in
            UploadState.failed(upload: 1, category: .network, message: "offline", sent: sent)
        }
        #expect(
            graph.states == [
                .idle, .uploading(upload: 1, progress: 0), .uploading(upload: 1, progress: 0.5),
                .paused(upload: 1, progress: 0), .completed, failed(0), .paused(upload: 1, progress: 0.5), failed(0.5),
                .uploading(upload: 2, progress: 0), .uploading(upload: 2, progress: 0.5),
                .paused(upload: 2, progress: 0), .paused(upload: 2, progress: 0.5),
            ])
        #expect(!graph.isTruncated)
        #expect(graph.deadEnds.isEmpty)
        #expect(graph.unreachable(of: [UploadState.idle, .completed, failed(0.5)]).isEmpty)
        let invalidCounts = Dictionary(grouping: graph.invalid, by: { "\($0.state)" }).mapValues(\.count)
        #expect(
            invalidCounts == [
                "idle": 4, "completed": 4,
                "uploading(upload: 1, progress: 0.0)": 3, "uploading(upload: 1, progress: 0.5)": 3,
                "paused(upload: 1, progress: 0.0)": 3, "paused(upload: 1, progress: 0.5)": 3,
                "failed(upload: 1, category: network, message: \"offline\", sent: 0.0)": 3,
                "failed(upload: 1, category: network, message: \"offline\", sent: 0.5)": 3,
                "uploading(upload: 2, progress: 0.0)": 3, "uploading(upload: 2, progress: 0.5)": 3,
                "paused(upload: 2, progress: 0.0)": 3, "paused(upload: 2, progress: 0.5)": 3,
            ])
        // The retry continues from what the failed upload had sent, and the first upload's late reports move
        // nothing of the second.
        #expect(
            graph.edges.contains(
                .init(from: failed(0.5), event: .retry(upload: 2), to: .uploading(upload: 2, progress: 0.5), kind: .to))
        )
        #expect(
            !graph.edges.contains {
                $0.from.upload == 2 && [.complete(upload: 1), .progress(upload: 1, fraction: 0.5)].contains($0.event)
            })
    }

    @Test func loadExploration() {
        let graph = LoadState.exploreSamples()
        #expect(
            graph.states == [
                .idle, .loading(previous: nil), .loaded(["a", "b"]), .failed("offline", previous: nil),
                .loading(previous: ["a", "b"]), .failed("offline", previous: ["a", "b"]),
            ])
        #expect(graph.invalid.isEmpty)
        #expect(graph.deadEnds.isEmpty)
        #expect(!graph.isTruncated)
        #expect(
            graph.shortestPath { if case .failed(_, previous: _?) = $0 { true } else { false } }
                == [.refreshTapped, .succeeded(["a", "b"]), .refreshTapped, .failed("offline")])
    }
}
