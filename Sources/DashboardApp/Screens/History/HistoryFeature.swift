import SeedModels
import StateMachineKit
import TerminalUI

/// The History screen: one machine's records at a time, newest at the bottom, followed until the user
/// scrolls; invalid and stale events marked with the engine's report names and counted from the records.
///
/// The screen subscribes to the selected machine's records only while it is shown (``Dashboard``), and
/// shows the value its subscription delivers.
package enum HistoryFeature {
    /// The rows a page holds when the drawn height is not known (the live dashboard resolves every page
    /// against the drawn list: ``laidOut(_:in:)``).
    package static let page = 10

    /// Applies an action. The screen asks for no work: its rows arrive from its subscription.
    @discardableResult
    package static func reduce(_ state: inout HistoryScreenState, _ action: HistoryScreenAction) -> [Never] {
        apply(&state, action)
        return []
    }

    private static func apply(_ state: inout HistoryScreenState, _ action: HistoryScreenAction) {
        switch action {
        case .nextMachine, .previousMachine:
            guard !state.machines.isEmpty else { return }
            let step = action == .nextMachine ? 1 : state.machines.count - 1
            state.selected = (state.selected + step) % state.machines.count
            // The other machine's records come from its own subscription, which starts now.
            state.rows = []
            state.missed = 0
            state.scrolledUp = 0
            state.search?.match = nil
        case .scroll(let rows):
            // Positive rows scroll down, towards the newest record: fewer rows above it.
            let most = max(0, state.rows.count - 1)
            state.scrolledUp = min(most, max(0, state.scrolledUp - rows))
        case .move(let move, let rows):
            let height = max(1, rows)
            let count = state.rows.count
            let top = move.offset(from: count - height - state.scrolledUp, count: count, height: height)
            state.scrolledUp = max(0, count - height - top)
        case .beginSearch:
            HistorySearch.apply(.begin, to: &state.search)
        case .searchInput(let character):
            HistorySearch.apply(.input(character), to: &state.search)
        case .searchBackspace:
            HistorySearch.apply(.backspace, to: &state.search)
        case .submitSearch(let rows):
            guard HistorySearch.submit(&state.search) else { return }
            land(&state, from: state.rows.count, older: true, height: rows)
        case .findMatch(let older, let rows):
            guard let search = state.search, search.isSubmitted else { return }
            let current = search.match.flatMap { match in state.shownRows.firstIndex { $0.sequence == match } }
            land(&state, from: current ?? state.rows.count, older: older, height: rows)
        case .cancelSearch:
            HistorySearch.apply(.cancel, to: &state.search)
        case .toggleStateText:
            state.showsCanonical.toggle()
        case .cycleSort:
            var query = ListQuery(sortColumn: state.sortColumn)
            query.apply(.cycleSort, columns: HistorySort.titles.count)
            state.sortColumn = query.sortColumn
        case .recordsChanged(let machine, let rows, let missed):
            guard machine == state.machine else { return }
            let last = state.rows.last?.sequence ?? 0
            let fresh = rows.drop { $0.sequence <= last }
            // Only what fell out after the newest row held: a batch read again from the start repeats rows held.
            state.missed += RecordTally.missed(missed, before: rows.first?.sequence, after: last)
            // Scrolled up: keep the same records in view, so the newcomers push the offset up.
            if state.scrolledUp > 0 { state.scrolledUp += fresh.count }
            state.rows = Array((state.rows + fresh).suffix(HistoryScreenState.rowLimit))
            state.scrolledUp = min(state.scrolledUp, max(0, state.rows.count - 1))
        }
    }

    /// Lands the search on the next row matching it from index `start` (exclusive), towards older rows or newer
    /// ones, wrapping around, scrolled just enough for a list `height` rows tall to show it; no match leaves
    /// the view where it is.
    static func land(_ state: inout HistoryScreenState, from start: Int, older: Bool, height: Int) {
        let rows = state.shownRows
        guard let search = state.search,
            let index = search.next(among: rows.count, from: start, up: older, text: { rows[$0].searchText })
        else {
            state.search?.match = nil
            return
        }
        state.search?.match = rows[index].sequence
        state.scrolledUp = rowsUp(showing: index, state, height: max(1, height))
    }

    /// The rows scrolled up that show row `index` in a list `height` rows tall, moving as little as possible.
    static func rowsUp(showing index: Int, _ state: HistoryScreenState, height: Int) -> Int {
        let count = state.rows.count
        let last = count - 1 - min(state.scrolledUp, max(0, count - 1))
        let first = max(0, last - height + 1)
        let bottom: Int
        if index > last {
            bottom = index
        } else if index < first {
            bottom = min(count - 1, index + height - 1)
        } else {
            bottom = last
        }
        return min(max(0, count - height), max(0, count - 1 - bottom))
    }

    /// How many rows the list shows in the screen's `area`: less the selector, the status line and the header.
    package static func visibleRows(in area: Rect) -> Int {
        max(1, area.height - 3)
    }

    /// `action` with its page resolved against the list drawn in `area` (the screen's area): the rows a move,
    /// a search or a match scrolls by are the rows shown.
    package static func laidOut(_ action: HistoryScreenAction, in area: Rect) -> HistoryScreenAction {
        let rows = visibleRows(in: area)
        switch action {
        case .move(let move, _): return .move(move, rows: rows)
        case .submitSearch: return .submitSearch(rows: rows)
        case .findMatch(let older, _): return .findMatch(older: older, rows: rows)
        case .nextMachine, .previousMachine, .scroll, .beginSearch, .searchInput, .searchBackspace, .cancelSearch,
            .toggleStateText, .cycleSort, .recordsChanged:
            return action
        }
    }

    /// What a key types while a search pattern is being typed: every printable character goes into it (the
    /// app-wide keys `q`, `?` and the digits included); nil otherwise. Enter, Esc and Backspace are in
    /// ``bindings``.
    package static func textInput(_ key: Key, _ state: HistoryScreenState) -> HistoryScreenAction? {
        ListKeys.searchInput(key, state.search) { .searchInput($0) }
    }

    private static let scrollHelp = KeyHelp("↑↓", "scroll")
    private static let machineHelp = KeyHelp("[ / ]", "previous / next machine")

    @Sendable private static func browsing(_ state: HistoryScreenState) -> Bool { !state.isTypingSearch }

    private static let wheelHelp = KeyHelp("wheel", "scroll")

    /// Every key of the screen, in the help bar's order: `[`/`]` the previous or next machine, the list's moves
    /// (``ListKeys``: ↑↓/`kj`, PgUp/PgDn, `g`/Home the oldest page, `G`/End the newest, which follows; the bar
    /// offers scrolling only when there is something to scroll), `/` search, `n`/`N` the next match; while a
    /// pattern is typed, Enter searches, Esc cancels and Backspace erases (the characters themselves are
    /// ``textInput(_:_:)``). Pressed on the drawn screen, a page is the rows drawn (``laidOut(_:in:)``).
    package static let bindings: [KeyBinding<HistoryScreenState, HistoryScreenAction>] =
        [
            KeyBinding(
                [.character("]")], .nextMachine, help: machineHelp, bar: { _ in KeyHelp("[ ]", "machine") },
                applies: browsing),
            KeyBinding([.character("[")], .previousMachine, help: machineHelp, bar: { _ in nil }, applies: browsing),
        ]
        + ListKeys.moves(
            page: page, rows: { _, area in visibleRows(in: area) }, applies: browsing,
            bar: { state, move in
                switch move {
                case .lineUp, .lineDown: state.rows.count > 1 ? scrollHelp : nil
                case .bottom: state.isFollowing ? nil : KeyHelp("end", "follow")
                case .pageUp, .pageDown, .top: nil
                }
            },
            move: { .move($0, rows: $1) })
        + (ListKeys.search(
            search: { $0.search }, begin: .beginSearch, find: { .findMatch(older: $0, rows: page) },
            submit: .submitSearch(rows: page), backspace: .searchBackspace, cancel: .cancelSearch)
        + [
            ListKeys.sort(sortTitles: HistorySort.titles, applies: browsing, .cycleSort),
            KeyBinding(
                [.character("v")], .toggleStateText, help: KeyHelp("v", "states as words / canonical text"),
                bar: { _ in nil }, applies: browsing),
            KeyBinding([], .scroll(-ScrollMove.wheelLines), help: wheelHelp, mouse: [.wheelUp], bar: { _ in nil }),
            KeyBinding([], .scroll(ScrollMove.wheelLines), help: wheelHelp, mouse: [.wheelDown], bar: { _ in nil }),
        ]).map { $0.laidOut { action, _, context in laidOut(action, in: context.area) } }

    /// The machine selector: every name with the selected one highlighted when they fit in `width`,
    /// otherwise only the selected one and its place.
    static func selector(_ state: HistoryScreenState, width: Int) -> Line {
        var spans = [Span("Machine", style: .bold)]
        let all = state.machines.enumerated().map { index, name in
            Span(" \(name) ", style: index == state.selected ? .reverse : .plain)
        }
        if DisplayWidth.of("Machine") + all.reduce(0, { $0 + DisplayWidth.of($1.text) }) <= width {
            spans += all
        } else if let machine = state.machine {
            spans += [
                Span(" ‹ "), Span(machine, style: .reverse), Span(" › \(state.selected + 1)/\(state.machines.count)"),
            ]
        }
        return Line(spans)
    }

    /// Draws the machine selector, the status line (counts, follow mode, the search) and the rows that fit,
    /// newest at the bottom; the row the search landed on is highlighted.
    package static func view(_ state: HistoryScreenState, in area: Rect, on canvas: inout Canvas) {
        guard !area.isEmpty else { return }
        selector(state, width: area.width).render(in: area.row(0), on: &canvas)
        status(state).render(in: area.row(1), on: &canvas)
        let body = area.inset(top: 2)
        let rows = state.shownRows
        guard !rows.isEmpty else {
            Line("No events yet.").render(in: body.row(0), on: &canvas)
            return
        }
        // Newest at the bottom: the last visible row is `scrolledUp` above the newest, and a page is always full.
        let visible = visibleRows(in: area)
        let last = max(rows.count - 1 - min(state.scrolledUp, rows.count - 1), min(rows.count, visible) - 1)
        let first = max(0, last - visible + 1)
        let wide = body.width >= 60
        let columns: [TableColumn] =
            [TableColumn(" ", width: .fixed(1)), TableColumn("#", width: .fixed(3), alignment: .right)]
            + (wide ? [TableColumn("visit", width: .fixed(5), alignment: .right)] : [])
            + [
                TableColumn(HistorySort.header("event", column: 0, sortedBy: state.sortColumn), width: .fill(2)),
                TableColumn(
                    HistorySort.header("verdict", column: 1, sortedBy: state.sortColumn),
                    width: .fixed(wide ? (state.sortColumn == 1 ? 8 : 7) : 3)),
                TableColumn(
                    HistorySort.header("state after / report", column: 2, sortedBy: state.sortColumn), width: .fill(3)),
            ]
        let shown = rows[first...last].map { cells($0, canonical: state.showsCanonical) }.map { row in
            wide ? row : [row[0], row[1], row[3], row[4], row[5]]
        }
        let matched = state.search?.match.flatMap { match in rows[first...last].firstIndex { $0.sequence == match } }
        Table(columns: columns, rows: Array(shown), selected: matched.map { $0 - first }).render(in: body, on: &canvas)
    }

    /// The status line: the pattern being typed, or the counts, whether the newest is followed and the search.
    static func status(_ state: HistoryScreenState) -> Line {
        if let search = state.search, search.isEditing { return Line(search.typingSpans) }
        let rows = state.rows
        let stale = rows.filter { $0.kind == .stale }.count
        let invalid = rows.filter { $0.reportName == Report.Name.invalid }.count
        let missed = state.missed > 0 ? "\(state.missed) missed · " : ""
        var spans = [
            Span("\(rows.count) records · \(stale) stale · \(invalid) invalid · \(missed)", style: .dim),
            state.isFollowing
                ? Span("following", style: PresentedPhase.active.style)
                : Span("paused — End to follow", style: PresentedPhase.paused.style.adding(.bold)),
        ]
        if let search = state.search { spans.append(search.summary(matching: rows.filter(search.matches).count)) }
        if state.sortColumn != nil { spans.append(Span(HistorySort.status(state.sortColumn), style: .dim)) }
        return Line(spans)
    }

    /// One row's cells: mark, sequence, visit, event, verdict, state after (or the report and reason), the state
    /// in words unless `canonical`.
    static func cells(_ row: HistoryRow, canonical: Bool = false) -> [Line] {
        let mark: Line
        let verdict: Line
        let after: Line
        switch row.kind {
        case .decided(let decided):
            mark = " "
            verdict = Line(decided.word)
            after = row.afterLine(canonical: canonical)
        case .invalid(let reason):
            mark = Line("!", style: .bold)
            verdict = Line("invalid", style: .bold)
            after = Line("\(Report.Name.invalid): \(reason)", style: .reverse)
        case .stale:
            mark = Line("~", style: .bold)
            verdict = Line("stale", style: .bold)
            after = Line("\(Report.Name.staleEvent): dropped, \(row.afterText(canonical: canonical))", style: .reverse)
        case .stopped:
            mark = "x"
            verdict = "stopped"
            after = row.afterLine(canonical: canonical)
        case .overflowed:
            mark = Line("!", style: .bold)
            verdict = Line("dropped", style: .bold)
            after = Line("\(Report.Name.postponeOverflow): \(row.afterText(canonical: canonical))", style: .reverse)
        }
        return [mark, Line("\(row.sequence)"), Line("\(row.visit)"), Line(row.event), verdict, after]
    }
}
