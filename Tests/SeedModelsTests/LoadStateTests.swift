import SeedModels
import StateMachineKit
import Testing

@Suite struct LoadStateTests {
    /// Seed 002's check, the sequence it prints, line for line.
    @Test func seedPrintedSequence() {
        var state = LoadState.idle
        var printed: [String] = []
        for action in [
            LoadAction.refreshTapped, .succeeded(["a", "b"]), .refreshTapped, .failed("offline"),
            .succeeded(["late"]), .refreshTapped,
        ] {
            state = reduce(state, action)
            printed.append(String(describing: state))
        }
        #expect(
            printed == [
                "loading(previous: nil)",
                "loaded([\"a\", \"b\"])",
                "loading(previous: [\"a\", \"b\"])",
                "failed(\"offline\", previous: [\"a\", \"b\"])",
                "failed(\"offline\", previous: [\"a\", \"b\"])",
                "loading(previous: [\"a\", \"b\"])",
            ])
    }

    static let states: [LoadState] = [
        .idle, .loading(previous: nil), .loading(previous: ["a"]), .loaded(["a"]),
        .failed("m", previous: nil), .failed("m", previous: ["a"]),
    ]
    static let actions: [LoadAction] = [.refreshTapped, .succeeded(["b"]), .failed("x")]

    typealias Row = (LoadState, LoadAction, LoadState, Verdict)

    /// Seed 002's table for every state shape and action, with the engine verdict.
    static let table: [Row] = [
        (.idle, .refreshTapped, .loading(previous: nil), .to),
        (.idle, .succeeded(["b"]), .idle, .ignore),
        (.idle, .failed("x"), .idle, .ignore),
        (.loading(previous: nil), .refreshTapped, .loading(previous: nil), .stay),
        (.loading(previous: nil), .succeeded(["b"]), .loaded(["b"]), .to),
        (.loading(previous: nil), .failed("x"), .failed("x", previous: nil), .to),
        (.loading(previous: ["a"]), .refreshTapped, .loading(previous: ["a"]), .stay),
        (.loading(previous: ["a"]), .succeeded(["b"]), .loaded(["b"]), .to),
        (.loading(previous: ["a"]), .failed("x"), .failed("x", previous: ["a"]), .to),
        (.loaded(["a"]), .refreshTapped, .loading(previous: ["a"]), .to),
        (.loaded(["a"]), .succeeded(["b"]), .loaded(["a"]), .ignore),
        (.loaded(["a"]), .failed("x"), .loaded(["a"]), .ignore),
        (.failed("m", previous: nil), .refreshTapped, .loading(previous: nil), .to),
        (.failed("m", previous: nil), .succeeded(["b"]), .failed("m", previous: nil), .ignore),
        (.failed("m", previous: nil), .failed("x"), .failed("m", previous: nil), .ignore),
        (.failed("m", previous: ["a"]), .refreshTapped, .loading(previous: ["a"]), .to),
        (.failed("m", previous: ["a"]), .succeeded(["b"]), .failed("m", previous: ["a"]), .ignore),
        (.failed("m", previous: ["a"]), .failed("x"), .failed("m", previous: ["a"]), .ignore),
    ]

    @Test(arguments: table) func reduceAndTransitionFollowTheTable(
        state: LoadState, action: LoadAction, next: LoadState, verdict: Verdict
    ) {
        #expect(reduce(state, action) == next)
        let transition = LoadState.transition(state, action)
        #expect(transition.verdict == verdict)
        #expect(transition.target(from: state) == next)
    }

    @Test func tableCoversEveryStateShapeAndAction() {
        let covered = Set(Self.table.map { "\($0.0) \($0.1)" })
        #expect(covered.count == Self.states.count * Self.actions.count)
    }
}
