import SeedModels
import TerminalUI
import TerminalUITesting
import Testing

@testable import DashboardApp

/// History pages by the drawn height, shows a full page at either end, follows the newest until the user
/// scrolls and searches with `/`, `n` and `N`.
@Suite struct HistorySearchTests {
    /// Thirty records of the first transfer: events `event1` … `event30`, every fifth one an invalid `pause`.
    static func rows(_ count: Int = 30) -> [HistoryRow] {
        (1...count).map { sequence in
            HistoryRow(
                machine: "photos.tar", sequence: sequence, visit: 1,
                event: sequence % 5 == 0 ? "pause" : "event\(sequence)",
                kind: sequence % 5 == 0 ? .invalid("pause while idle") : .decided(.update), after: "state\(sequence)")
        }
    }

    static func state(scrolledUp: Int = 0, search: HistorySearch? = nil) -> HistoryScreenState {
        HistoryScreenState(machines: DashboardFixtures.names, rows: rows(), scrolledUp: scrolledUp, search: search)
    }

    /// Applies the keys in order through the screen's key table (and its text input while a pattern is typed),
    /// each action laid out for a list `visibleRows` tall.
    static func typing(_ keys: [Key], into state: HistoryScreenState, visibleRows: Int = 8) -> HistoryScreenState {
        let area = Rect(x: 0, y: 0, width: 80, height: visibleRows + 3)
        var state = state
        for key in keys {
            if let action = HistoryFeature.textInput(key, state) ?? HistoryFeature.bindings.action(for: key, in: state)
            {
                HistoryFeature.reduce(&state, HistoryFeature.laidOut(action, in: area))
            }
        }
        return state
    }

    @Test(arguments: [
        ([Key.pageUp], 7), ([.pageUp, .pageUp], 14), ([.pageUp, .pageDown], 0), ([.home], 22), ([.home, .pageUp], 22),
        ([.home, .end], 0), ([.up, .up, .down], 1), ([.pageDown], 0), ([.home, .down], 21),
    ])
    func pagesAreTheVisibleHeightAndTheEndsShowAFullPage(keys: [Key], scrolledUp: Int) {
        #expect(Self.typing(keys, into: Self.state()) == Self.state(scrolledUp: scrolledUp))
    }

    /// Home at 80×24 draws the oldest record on the first row and a full page below it (in the screen's
    /// content area there, 78×20, laid out from the origin).
    @Test func homeShowsTheOldestFullPage() {
        let content = AppView.contentArea(Size(width: 80, height: 24))
        let area = Rect(x: 0, y: 0, width: content.width, height: content.height)
        let visible = HistoryFeature.visibleRows(in: area)
        let state = Self.typing([.home], into: Self.state(), visibleRows: visible)
        var canvas = Canvas(size: Size(width: area.width, height: area.height))
        HistoryFeature.view(state, in: area, on: &canvas)
        let text = canvas.lines
        #expect(text[3].contains("event1 "))
        #expect(text[2 + visible].contains("event\(visible) "))
        #expect(text[1].contains("paused — End to follow"))
    }

    @Test func typingAPatternSearchesFromTheNewestAndNAndShiftNMove() {
        var state = Self.typing([.character("/")] + "PAUSE".map { Key.character($0) } + [.enter], into: Self.state())
        #expect(state.search == HistorySearch(pattern: "PAUSE", isEditing: false, match: 30))
        #expect(state.scrolledUp == 0)
        state = Self.typing([.character("n")], into: state)
        #expect(state.search?.match == 25)
        state = Self.typing([.character("n"), .character("n")], into: state)
        #expect(state.search?.match == 15)
        // Row 15 is above the 8 rows shown from the newest: the view scrolls just enough to show it at the top.
        #expect(state.scrolledUp == 8)
        state = Self.typing([.character("N")], into: state)
        #expect(state.search?.match == 20)
        state = Self.typing([.escape], into: state)
        #expect(state == Self.state(scrolledUp: 8))
    }

    @Test func theBarOffersNAndShiftNAsOneEntryWhileASearchHasMatches() {
        let searching = Self.typing(
            [.character("/")] + "PAUSE".map { Key.character($0) } + [.enter], into: Self.state())
        let bar = HistoryFeature.bindings.barHelp(in: searching)
        #expect(bar.filter { $0.key == "n/N" } == [KeyHelp("n/N", "match")])
    }

    @Test func aPatternWithNoMatchSaysSoAndKeepsTheView() {
        let state = Self.typing([.character("/"), .character("z"), .character("q"), .enter], into: Self.state())
        #expect(state.search == HistorySearch(pattern: "zq", isEditing: false, match: nil))
        #expect(HistoryFeature.status(state).plainText.hasSuffix("/zq (0 rows) — no match"))
    }

    @Test func thePatternIsBoundedAndEditable() {
        let long = Array(repeating: Key.character("x"), count: 100)
        var state = Self.typing([.character("/")] + long, into: Self.state())
        #expect(state.search?.pattern.count == HistorySearch.maximumLength)
        state = Self.typing([.backspace, .escape], into: state)
        #expect(state == Self.state())
    }

    /// While typing, `q`, the digits and `?` go into the pattern, not to the app.
    @Test func appKeysGoIntoThePatternWhileTyping() {
        var app = AppState(screen: .history, transfers: TransfersScreenState(rows: []), history: Self.state())
        for key in [Key.character("/"), .character("q"), .character("2"), .character("?")] {
            if let action = Keymap.action(for: key, in: app, size: DashboardFixtures.size) {
                _ = AppReducer.reduce(&app, action)
            }
        }
        #expect(app.history.search?.pattern == "q2?")
        #expect(app.exit == nil)
        #expect(app.screen == .history)
    }

    /// Through the dashboard's sized keymap a page is the rows drawn at that size: the height less the tab
    /// bar, the help bar, the frame's two edges, the selector, the status line and the header.
    @Test(arguments: [(Size(width: 80, height: 24), 17), (Size(width: 200, height: 60), 53)])
    func theDashboardPagesByTheDrawnHeight(size: Size, page: Int) {
        var app = AppState(screen: .history, transfers: TransfersScreenState(rows: []), history: Self.state())
        app.history.rows = Self.rows(200)
        #expect(Keymap.action(for: .pageUp, in: app, size: size) == .history(.move(.pageUp, rows: page)))
        #expect(Keymap.action(for: .character("n"), in: app, size: size) == nil)
        app.history.search = HistorySearch(pattern: "pause", isEditing: false)
        #expect(
            Keymap.action(for: .character("N"), in: app, size: size) == .history(.findMatch(older: false, rows: page)))
    }

    @Test func followingIsShownUntilTheUserScrolls() {
        #expect(HistoryFeature.status(Self.state()).plainText.hasSuffix("following"))
        #expect(HistoryFeature.status(Self.state(scrolledUp: 2)).plainText.hasSuffix("paused — End to follow"))
    }

    @Test func oCyclesTheSortByEventOutcomeAndStateThenTimeOrder() {
        var expected = Self.state()
        for column in [0, 1, 2, nil] as [Int?] {
            expected.sortColumn = column
            let presses = (column ?? 3) + 1
            #expect(Self.typing(Array(repeating: .character("o"), count: presses), into: Self.state()) == expected)
        }
        let byEvent = (1...30).filter { $0 % 5 != 0 }.sorted { "event\($0)" < "event\($1)" } + [5, 10, 15, 20, 25, 30]
        #expect(Self.typing([.character("o")], into: Self.state()).shownRows.map(\.sequence) == byEvent)
    }

    @Test func aSearchLandsOnTheMatchingRowsInTheSortedOrder() {
        let sorted = Self.typing(
            [.character("o"), .character("/")] + "event2".map(Key.character) + [.enter], into: Self.state())
        var expected = Self.state()
        expected.sortColumn = 0
        // Sorted by event: event29 is the lowest row matching, above event3, event4, event6 … event9 and the pauses.
        expected.search = HistorySearch(pattern: "event2", isEditing: false, match: 29)
        expected.scrolledUp = 5
        #expect(sorted == expected)
        #expect(Self.typing([.character("n")], into: sorted).search?.match == 28)
    }

    @Test func theSortedListMarksItsColumnAndSaysSo() {
        var canvas = Canvas(size: Size(width: 80, height: 14))
        HistoryFeature.view(
            Self.typing([.character("o"), .character("o")], into: Self.state()), in: canvas.bounds, on: &canvas)
        assertSnapshot(canvas, named: "history-sorted-by-outcome-80x14")
    }
}
