import ScreenStates
import StateMachineKit
import TerminalUI

/// The History screen: one machine's records at a time, newest at the bottom, followed until the user
/// scrolls; invalid and stale events marked with the engine's report names and counted from the records.
///
/// The screen subscribes to the selected machine's records only while it is shown (``Dashboard``), and
/// shows the value its subscription delivers.
public enum HistoryFeature {
    /// Rows PgUp/PgDn move when the drawn height is not known (the live dashboard always knows it).
    public static let page = 10

    /// Applies an action.
    public static func reduce(_ state: inout HistoryScreenState, _ action: HistoryAction) -> [HistoryEffect] {
        switch action {
        case .nextMachine, .previousMachine:
            guard !state.machines.isEmpty else { return [] }
            let step = action == .nextMachine ? 1 : state.machines.count - 1
            state.selected = (state.selected + step) % state.machines.count
            // The other machine's records come from its own subscription, which starts now.
            state.rows = []
            state.scrolledUp = 0
            state.search?.match = nil
        case .scrollUp(let rows):
            let most = max(0, state.rows.count - 1)
            state.scrolledUp = min(most, max(0, state.scrolledUp + rows))
        case .scrollTo(let rowsUp):
            state.scrolledUp = min(max(0, state.rows.count - 1), max(0, rowsUp))
        case .beginSearch:
            state.search = HistorySearch()
        case .searchInput(let character):
            guard var search = state.search, search.isEditing, search.pattern.count < HistorySearch.maximumLength,
                !character.isNewline
            else { return [] }
            search.pattern.append(character)
            state.search = search
        case .searchBackspace:
            guard state.search?.isEditing == true, state.search?.pattern.isEmpty == false else { return [] }
            state.search?.pattern.removeLast()
        case .showMatch(let match, let rowsUp):
            guard var search = state.search, !search.pattern.isEmpty else {
                state.search = nil
                return []
            }
            search.isEditing = false
            search.match = match
            state.search = search
            state.scrolledUp = min(max(0, state.rows.count - 1), max(0, rowsUp))
        case .cancelSearch:
            state.search = nil
        case .recordsChanged(let machine, let rows):
            guard machine == state.machine else { return [] }
            if state.scrolledUp > 0 {
                // Scrolled up: keep the same records in view, so the newcomers push the offset up.
                let last = state.rows.last?.sequence ?? 0
                state.scrolledUp += rows.reversed().prefix { $0.sequence > last }.count
            }
            state.rows = rows
            state.scrolledUp = min(state.scrolledUp, max(0, rows.count - 1))
        }
        return []
    }

    /// The screen's keys when the drawn height is not known: pages of ``page`` rows.
    public static func keymap(_ key: Key, _ state: HistoryScreenState) -> HistoryAction? {
        keymap(key, state, visibleRows: page)
    }

    /// The screen's keys for a list showing `visibleRows` rows: while a pattern is typed every printable key
    /// goes into it (Enter searches, Esc cancels, Backspace erases); otherwise `h`/`→` next machine, `←`
    /// previous, `↑`/`↓`/`k`/`j` a row, PgUp/PgDn a page, Home/End a full page at either end, `/` search,
    /// `n`/`N` older/newer match, Esc forgets the search.
    public static func keymap(_ key: Key, _ state: HistoryScreenState, visibleRows: Int) -> HistoryAction? {
        let height = max(1, visibleRows)
        if state.isTypingSearch {
            switch key {
            case .character(let character): return character.isNewline ? nil : .searchInput(character)
            case .backspace: return .searchBackspace
            case .escape: return .cancelSearch
            case .enter: return match(state, from: state.rows.count, older: true, height: height)
            case .control, .up, .down, .left, .right, .home, .end, .pageUp, .pageDown, .insert, .delete, .tab,
                .backTab, .function, .resize, .mouse:
                return nil
            }
        }
        let count = state.rows.count
        let top = max(0, count - height)
        switch key {
        case .character("h"), .right: return .nextMachine
        case .left: return .previousMachine
        case .up, .character("k"): return .scrollTo(rowsUp: min(top, state.scrolledUp + 1))
        case .down, .character("j"): return .scrollTo(rowsUp: max(0, state.scrolledUp - 1))
        case .pageUp: return .scrollTo(rowsUp: min(top, state.scrolledUp + height))
        case .pageDown: return .scrollTo(rowsUp: max(0, state.scrolledUp - height))
        case .home: return .scrollTo(rowsUp: top)
        case .end: return .scrollTo(rowsUp: 0)
        case .character("/"): return .beginSearch
        case .character("n"), .character("N"):
            guard let search = state.search, !search.pattern.isEmpty else { return nil }
            let older = key == .character("n")
            let current = search.match.flatMap { match in state.rows.firstIndex { $0.sequence == match } }
            return match(state, from: current ?? count, older: older, height: height)
        case .escape: return state.search == nil ? nil : .cancelSearch
        case .character, .control, .insert, .delete, .tab, .backTab, .enter, .backspace, .function, .resize,
            .mouse:
            return nil
        }
    }

    /// The next row matching the search from index `start` (exclusive), towards older rows or newer ones,
    /// wrapping around; the action lands on it, scrolled just enough for a list `height` rows tall to show it.
    static func match(_ state: HistoryScreenState, from start: Int, older: Bool, height: Int) -> HistoryAction? {
        guard let search = state.search else { return nil }
        let pattern = HistorySearch(pattern: search.pattern, isEditing: false)
        let count = state.rows.count
        guard count > 0 else { return .showMatch(match: nil, rowsUp: state.scrolledUp) }
        let order = (1...count).map { step in ((older ? start - step : start + step) % count + count) % count }
        guard let index = order.first(where: { pattern.matches(state.rows[$0]) }) else {
            return .showMatch(match: nil, rowsUp: state.scrolledUp)
        }
        return .showMatch(match: state.rows[index].sequence, rowsUp: rowsUp(showing: index, state, height: height))
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
    public static func visibleRows(in area: Rect) -> Int {
        max(1, area.height - 3)
    }

    /// Every key of the screen, for the `?` overlay.
    public static let allKeys: [KeyHelp] = [
        KeyHelp("h/→", "next machine"), KeyHelp("←", "previous machine"), KeyHelp("↑/↓", "scroll"),
        KeyHelp("pgup/pgdn", "page"), KeyHelp("home/end", "oldest/newest page"), KeyHelp("/", "search"),
        KeyHelp("n/N", "older/newer match"), KeyHelp("esc", "end the search"),
    ]

    /// The keys that apply now: scrolling only when there is something to scroll.
    public static func help(_ state: HistoryScreenState) -> [KeyHelp] {
        if state.isTypingSearch { return [KeyHelp("enter", "search"), KeyHelp("esc", "cancel")] }
        var keys = [KeyHelp("h/→", "machine")]
        if state.rows.count > 1 { keys.append(KeyHelp("↑/↓", "scroll")) }
        if state.scrolledUp > 0 { keys.append(KeyHelp("end", "follow")) }
        keys.append(KeyHelp("/", "search"))
        if state.search != nil { keys.append(KeyHelp("n/N", "match")) }
        return keys
    }

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

    /// Draws the machine selector, a header counting the records and the rows that fit, newest at the bottom.
    public static func view(_ state: HistoryScreenState, in area: Rect, on canvas: inout Canvas) {
        guard !area.isEmpty else { return }
        selector(state, width: area.width).render(in: area.row(0), on: &canvas)
        status(state).render(in: area.row(1), on: &canvas)
        let body = area.inset(top: 2)
        let rows = state.rows
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
                TableColumn("event", width: .fill(2)), TableColumn("verdict", width: .fixed(wide ? 7 : 3)),
                TableColumn("state after / report", width: .fill(3)),
            ]
        let shown = rows[first...last].map(cells).map { row in wide ? row : [row[0], row[1], row[3], row[4], row[5]] }
        let matched = state.search?.match.flatMap { match in rows[first...last].firstIndex { $0.sequence == match } }
        Table(columns: columns, rows: Array(shown), selected: matched.map { $0 - first }).render(in: body, on: &canvas)
    }

    /// The status line: the pattern being typed, or the counts, whether the newest is followed and the search.
    static func status(_ state: HistoryScreenState) -> Line {
        if let search = state.search, search.isEditing {
            return Line([
                Span("/", style: .bold), Span(search.pattern), Span("▏", style: .bold),
                Span("  enter searches · esc cancels", style: .dim),
            ])
        }
        let rows = state.rows
        let stale = rows.filter { $0.kind == .stale }.count
        let invalid = rows.filter { $0.reportName == Report.Name.invalid }.count
        var spans = [
            Span("\(rows.count) records · \(stale) stale · \(invalid) invalid · ", style: .dim),
            state.isFollowing
                ? Span("following", style: PresentedPhase.active.style)
                : Span("paused — End to follow", style: PresentedPhase.paused.style.adding(.bold)),
        ]
        if let search = state.search {
            let found = search.match.map { _ in "" } ?? " — no match"
            let count = rows.filter(search.matches).count
            spans.append(Span(" · /\(search.pattern) (\(count) rows)\(found)", style: .bold))
        }
        return Line(spans)
    }

    /// One row's cells: mark, sequence, visit, event, verdict, state after (or the report and reason).
    static func cells(_ row: HistoryRow) -> [Line] {
        let mark: Line
        let verdict: Line
        let after: Line
        switch row.kind {
        case .decided(let decided):
            mark = " "
            verdict = Line(decided.word)
            after = Line(row.after)
        case .invalid(let reason):
            mark = Line("!", style: .bold)
            verdict = Line("invalid", style: .bold)
            after = Line("\(Report.Name.invalid): \(reason)", style: .reverse)
        case .stale:
            mark = Line("~", style: .bold)
            verdict = Line("stale", style: .bold)
            after = Line("\(Report.Name.staleEvent): dropped, \(row.after)", style: .reverse)
        case .stopped:
            mark = "x"
            verdict = "stopped"
            after = Line(row.after)
        case .overflowed:
            mark = Line("!", style: .bold)
            verdict = Line("dropped", style: .bold)
            after = Line("\(Report.Name.postponeOverflow): \(row.after)", style: .reverse)
        }
        return [mark, Line("\(row.sequence)"), Line("\(row.visit)"), Line(row.event), verdict, after]
    }
}
