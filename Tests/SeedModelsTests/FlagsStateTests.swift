import SeedModels
import Testing

@Suite struct FlagsStateTests {
    @Test func seedCounterExample() {
        var bad = FlagsState()
        bad.isLoading = true
        bad.error = "offline"
        #expect(bad.isLoading && bad.error != nil)
        #expect(bad.reading == .impossible("loading together with an error"))
    }

    /// All 8 combinations in order, each with its reading: 5 real screens, 1 ambiguous, 2 impossible.
    @Test func eightCombinationsAndWhatEachShows() {
        let combinations = FlagsState.combinations()
        #expect(combinations.count == 2 * 2 * 2)
        #expect(
            combinations.map(\.reading) == [
                .screen(.idle),
                .screen(.failed("offline", previous: nil)),
                .screen(.loaded(["a", "b"])),
                .ambiguous(
                    .failed("offline", previous: ["a", "b"]),
                    "loaded items with an error still showing, or a failure keeping the previous items"),
                .screen(.loading(previous: nil)),
                .impossible("loading together with an error"),
                .screen(.loading(previous: ["a", "b"])),
                .impossible("loading together with an error, over the previous items"),
            ])
        #expect(
            combinations.filter(\.isImpossible).map(\.description) == [
                "FlagsState(isLoading: true, items: nil, error: \"offline\")",
                "FlagsState(isLoading: true, items: [\"a\", \"b\"], error: \"offline\")",
            ])
    }

    /// Every real screen maps to flags that read back as that screen: the enum fits inside the flags.
    @Test(arguments: [
        LoadState.idle, .loading(previous: nil), .loading(previous: ["a", "b"]), .loaded(["a", "b"]),
        .failed("offline", previous: nil), .failed("offline", previous: ["a", "b"]),
    ])
    func everyLoadStateHasFlagsThatReadBack(state: LoadState) {
        let flags = FlagsState(state)
        switch flags.reading {
        case .screen(let screen), .ambiguous(let screen, _): #expect(screen == state)
        case .impossible(let reason): Issue.record("\(state) became impossible flags: \(reason)")
        }
    }
}
