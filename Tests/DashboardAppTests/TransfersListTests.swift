import SeedModels
import TerminalUI
import TerminalUITesting
import Testing

@testable import DashboardApp

/// The Transfers list filters, sorts and pages as every list does (``ListQuery``): `/` filters by name or state,
/// `o` cycles the sort column, and ↑↓, PgUp/PgDn and `g`/`G` move through the rows drawn; the rows keep their
/// places (their machines address them), only the order drawn changes. `SNAPSHOT_UPDATE=1` rewrites the goldens.
@Suite struct TransfersListTests {
    typealias F = DashboardFixtures

    /// `state` after pressing `keys` at 80×24, as the store maps them.
    static func pressing(_ keys: [Key], in state: AppState) -> AppState {
        var state = state
        for key in keys {
            if let action = Keymap.action(for: key, in: state, size: F.size) { _ = AppReducer.reduce(&state, action) }
        }
        return state
    }

    static func typing(_ text: String) -> [Key] { text.map { Key.character($0) } }

    @Test func slashFiltersByNameAndTheAppsKeysGoIntoTheFilter() {
        let state = Self.pressing([.character("/")] + Self.typing("q1d") + [.backspace, .backspace], in: F.app())
        #expect(state.exit == nil)
        #expect(state.transfers.query == ListQuery(filter: "q", isEditing: true))
        let kept = Self.pressing(Self.typing("") + [.backspace] + Self.typing("video") + [.enter], in: state)
        var expected = F.screen(selected: 3)
        expected.changeQuery(.beginFilter)
        for character in "video" { expected.changeQuery(.input(character)) }
        expected.changeQuery(.keepFilter)
        #expect(kept.transfers == expected)
        #expect(kept.transfers.shown == [3])
        #expect(kept.transfers.selected == 3)
    }

    @Test func theFilterReadsTheStateInWordsToo() {
        let state = Self.pressing([.character("/")] + Self.typing("paused") + [.enter], in: F.app())
        #expect(state.transfers.shown == [F.row("paused")])
        #expect(state.transfers.selected == F.row("paused"))
    }

    /// With a filter and a sort, a change of some rows places those rows again and gives the order made anew:
    /// rows that start or stop matching, and rows that move (before, every row was filtered and sorted again after
    /// every change of any, which froze a copy dashboard of 3,000 files for minutes).
    @Test(arguments: [[Key.character("o")], [], [.character("o"), .character("o"), .character("o")]])
    func aChangeOfSomeRowsPlacesThemAsTheOrderMadeAnew(sort: [Key]) {
        var state = Self.pressing([.character("/")] + Self.typing("in") + [.enter] + sort, in: F.app())
        let models = [
            (1, TransferModel(phase: .completed(file: "backup.img"), lastRequest: 1)),
            (0, TransferModel(phase: .running(request: 1, percent: 70), lastRequest: 1)),
            (3, TransferModel(phase: .paused(request: 3, percent: 10), lastRequest: 3)),
            (0, TransferModel(phase: .failed(message: "gone"), lastRequest: 1)),
        ]
        for (row, model) in models {
            _ = AppReducer.reduce(&state, .transfers(.machineChanged(row: row, model)))
            var expected = state.transfers
            expected.reorder()
            #expect(state.transfers == expected)
        }
        #expect(state.transfers.rows.map(\.model) != F.screen().rows.map(\.model))
    }

    @Test func escClearsTheFilterAndTheSelectionStays() {
        let filtered = Self.pressing([.character("/")] + Self.typing("video") + [.enter], in: F.app())
        let cleared = Self.pressing([.escape], in: filtered)
        var expected = F.screen(selected: 3)
        expected.changeQuery(.clearFilter)
        #expect(cleared.transfers == expected)
        #expect(cleared.transfers.shown == [0, 1, 2, 3, 4])
    }

    @Test func oCyclesTheSortColumnAndTheCursorMovesInTheOrderDrawn() {
        // Name: backup.img, dataset.csv, notes.md, photos.tar, video.mp4.
        let byName = Self.pressing([.character("o")], in: F.app())
        #expect(byName.transfers.query == ListQuery(sortColumn: 0))
        #expect(byName.transfers.shown == [1, 2, 4, 0, 3])
        #expect(Self.pressing([.character("g")], in: byName).transfers.selected == 1)
        #expect(Self.pressing([.character("G")], in: byName).transfers.selected == 3)
        #expect(Self.pressing([.character("g"), .down], in: byName).transfers.selected == 2)
        #expect(Self.pressing([.end, .up], in: byName).transfers.selected == 0)
        // Done, most first: completed, paused at 57%, failed at 41%, running at 20%, idle.
        let byDone = Self.pressing([.character("o"), .character("o"), .character("o")], in: F.app())
        #expect(byDone.transfers.query == ListQuery(sortColumn: 2))
        #expect(byDone.transfers.shown == [3, 2, 4, 1, 0])
        // State: running, paused, failed, idle, completed.
        let byState = Self.pressing([.character("o")], in: byDone)
        #expect(byState.transfers.query == ListQuery(sortColumn: 3))
        #expect(byState.transfers.shown == [1, 2, 4, 0, 3])
        let none = Self.pressing([.character("o")], in: byState)
        #expect(none.transfers == F.screen())
    }

    @Test func pagingMovesAPageOfTheRowsDrawn() {
        let rows = (0..<100).map { TransferRow(name: "file-\($0)") }
        let state = AppState(transfers: TransfersScreenState(rows: rows))
        // Only file-1 and file-10 … file-19: eleven rows drawn, the cursor on file-1.
        let filtered = Self.pressing([.character("/")] + Self.typing("file-1") + [.enter], in: state)
        #expect(filtered.transfers.shownCount == 11)
        #expect(Self.pressing([.pageDown], in: filtered).transfers.selected == 19)
        #expect(Self.pressing([.character("G"), .pageUp], in: filtered).transfers.selected == 1)
    }

    @Test func aClickSelectsTheRowDrawnUnderIt() {
        let byName = Self.pressing([.character("o")], in: F.app())
        // The third row drawn (notes.md), below the table's header.
        let area = AppView.contentArea(F.size)
        let click = Key.mouse(MouseEvent(.press(.left), at: Point(x: area.x + 2, y: area.y + 3)))
        #expect(Keymap.action(for: click, in: byName, size: F.size) == .transfers(.select(row: 4)))
    }

    @Test func theHelpBarOffersKeepingAndClearingWhileTheFilterIsTyped() {
        let typing = Self.pressing([.character("/")], in: F.app())
        #expect(Keymap.barHelp(typing).map(\.key).prefix(2) == ["enter", "esc"])
    }

    @Test(arguments: [Size(width: 80, height: 24), Size(width: 120, height: 40)])
    func aFilteredSortedListShowsWhatIsAsked(size: Size) {
        let state = Self.pressing([.character("o"), .character("/")] + Self.typing("o"), in: F.app())
        assertSnapshot(AppView.render(state, size: size), named: "transfers-filtered-sorted-\(size)")
    }
}
