import StateMachineKit
import TerminalUI

/// The History screen: the selected machine's records, newest at the bottom, scrollable; invalid and stale
/// events marked with the engine's report names.
public enum HistoryFeature {
    /// Rows PgUp/PgDn move.
    public static let page = 10

    /// Applies an action.
    public static func reduce(_ state: inout HistoryScreenState, _ action: HistoryAction) -> [HistoryEffect] {
        switch action {
        case .nextMachine, .previousMachine:
            let all = HistoryScreenState.Machine.allCases
            let step = action == .nextMachine ? 1 : all.count - 1
            state.machine = all[(state.machine.rawValue + step) % all.count]
            state.scrolledUp = 0
        case .scrollUp(let rows):
            let most = max(0, state.selectedRows.count - 1)
            state.scrolledUp = min(most, max(0, state.scrolledUp + rows))
        case .recordsChanged(let machine, let rows):
            state.rows[machine] = rows
            if machine == state.machine {
                state.scrolledUp = min(state.scrolledUp, max(0, rows.count - 1))
            }
        }
        return []
    }

    /// `h`/`→` next machine, `←` previous, `↑`/`↓`/PgUp/PgDn/Home/End scroll.
    public static func keymap(_ key: Key, _ state: HistoryScreenState) -> HistoryAction? {
        switch key {
        case .character("h"), .right: .nextMachine
        case .left: .previousMachine
        case .up, .character("k"): .scrollUp(1)
        case .down, .character("j"): .scrollUp(-1)
        case .pageUp: .scrollUp(page)
        case .pageDown: .scrollUp(-page)
        case .home: .scrollUp(Int.max / 2)
        case .end: .scrollUp(Int.min / 2)
        default: nil  // not a state switch: any other key does nothing here
        }
    }

    /// Every key of the screen, for the `?` overlay.
    public static let allKeys: [KeyHelp] = [
        KeyHelp("h/→", "next machine"), KeyHelp("←", "previous machine"), KeyHelp("↑/↓", "scroll"),
        KeyHelp("pgup/pgdn", "page"), KeyHelp("home/end", "oldest/newest"),
    ]

    /// The keys that apply now: scrolling only when there is something to scroll.
    public static func help(_ state: HistoryScreenState) -> [KeyHelp] {
        var keys = [KeyHelp("h/→", "machine")]
        if state.selectedRows.count > 1 { keys.append(KeyHelp("↑/↓", "scroll")) }
        if state.scrolledUp > 0 { keys.append(KeyHelp("end", "newest")) }
        return keys
    }

    /// The name of a machine on the screen.
    public static func title(_ machine: HistoryScreenState.Machine) -> String {
        switch machine {
        case .transfers: "transfers"
        case .upload: "upload"
        case .load: "load"
        }
    }

    /// Draws the machine selector, a header and the rows that fit, newest at the bottom.
    public static func view(_ state: HistoryScreenState, in area: Rect, on canvas: inout Canvas) {
        guard !area.isEmpty else { return }
        var spans = [Span("Machine", style: .bold)]
        for machine in HistoryScreenState.Machine.allCases {
            spans.append(Span(" \(title(machine)) ", style: machine == state.machine ? .reverse : .plain))
        }
        Line(spans).render(in: area.row(0), on: &canvas)
        let rows = state.selectedRows
        let marked = rows.filter { $0.reportName != nil }.count
        Line(
            "\(rows.count) records · \(marked) marked" + (state.scrolledUp > 0 ? " · \(state.scrolledUp) up" : ""),
            style: .dim
        ).render(in: area.row(1), on: &canvas)
        let body = area.inset(top: 2)
        guard !rows.isEmpty else {
            Line("No events yet.").render(in: body.row(0), on: &canvas)
            return
        }
        let tableRows = rows.map(cells)
        // Newest at the bottom: the last visible row is `scrolledUp` above the newest.
        let visible = max(1, body.height - 1)
        let last = rows.count - 1 - min(state.scrolledUp, rows.count - 1)
        let first = max(0, last - visible + 1)
        let wide = body.width >= 60
        let columns: [TableColumn] =
            [TableColumn(" ", width: .fixed(1)), TableColumn("#", width: .fixed(3), alignment: .right)]
            + (wide ? [TableColumn("visit", width: .fixed(5), alignment: .right)] : [])
            + [
                TableColumn("event", width: .fill(2)), TableColumn("verdict", width: .fixed(wide ? 7 : 3)),
                TableColumn("state after / report", width: .fill(3)),
            ]
        let shown = tableRows[first...last].map { row in wide ? row : [row[0], row[1], row[3], row[4], row[5]] }
        Table(columns: columns, rows: Array(shown)).render(in: body, on: &canvas)
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
