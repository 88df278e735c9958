import StateMachineKit
import TerminalUI

/// The History screen: one machine's records at a time, newest at the bottom, followed until the user
/// scrolls; invalid and stale events marked with the engine's report names and counted from the records.
///
/// The screen subscribes to the selected machine's records only while it is shown (``Dashboard``), and
/// shows the value its subscription delivers.
package enum HistoryFeature {
    /// Rows PgUp/PgDn move.
    package static let page = 10

    /// Applies an action. The screen asks for no work: its rows arrive from its subscription.
    package static func reduce(_ state: inout HistoryScreenState, _ action: HistoryScreenAction) {
        switch action {
        case .nextMachine, .previousMachine:
            guard !state.machines.isEmpty else { return }
            let step = action == .nextMachine ? 1 : state.machines.count - 1
            state.selected = (state.selected + step) % state.machines.count
            // The other machine's records come from its own subscription, which starts now.
            state.rows = []
            state.scrolledUp = 0
        case .scroll(let rows):
            // Positive rows scroll down, towards the newest record: fewer rows above it.
            let most = max(0, state.rows.count - 1)
            state.scrolledUp = min(most, max(0, state.scrolledUp - rows))
        case .recordsChanged(let machine, let rows):
            guard machine == state.machine else { return }
            if state.scrolledUp > 0 {
                // Scrolled up: keep the same records in view, so the newcomers push the offset up.
                let last = state.rows.last?.sequence ?? 0
                state.scrolledUp += rows.reversed().prefix { $0.sequence > last }.count
            }
            state.rows = rows
            state.scrolledUp = min(state.scrolledUp, max(0, rows.count - 1))
        }
    }

    private static let scrollHelp = KeyHelp("↑/↓", "scroll")
    private static let pageHelp = KeyHelp("pgup/pgdn", "page")
    private static let endsHelp = KeyHelp("home/end", "oldest/newest")

    private static let wheelHelp = KeyHelp("wheel", "scroll")

    /// Every key of the screen, in the help bar's order: `h`/`→` next machine, `←` previous, `↑`/`↓`/PgUp/
    /// PgDn/Home/End scroll (the bar offers scrolling only when there is something to scroll).
    package static let bindings: [KeyBinding<HistoryScreenState, HistoryScreenAction>] = [
        KeyBinding(
            [.character("h"), .right], .nextMachine, help: KeyHelp("h/→", "next machine"),
            bar: { _ in KeyHelp("h/→", "machine") }),
        KeyBinding([.left], .previousMachine, help: KeyHelp("←", "previous machine"), bar: { _ in nil }),
        KeyBinding(
            [.up, .character("k")], .scroll(-1), help: scrollHelp, bar: { $0.rows.count > 1 ? scrollHelp : nil }),
        KeyBinding(
            [.down, .character("j")], .scroll(1), help: scrollHelp,
            bar: { $0.rows.count > 1 ? scrollHelp : nil }),
        KeyBinding([.pageUp], .scroll(-page), help: pageHelp, bar: { _ in nil }),
        KeyBinding([.pageDown], .scroll(page), help: pageHelp, bar: { _ in nil }),
        KeyBinding([.home], .scroll(Int.min / 2), help: endsHelp, bar: { _ in nil }),
        KeyBinding(
            [.end], .scroll(Int.max / 2), help: endsHelp,
            bar: { $0.scrolledUp > 0 ? KeyHelp("end", "newest") : nil }),
        KeyBinding([], .scroll(-ScrollMove.wheelLines), help: wheelHelp, mouse: [.wheelUp], bar: { _ in nil }),
        KeyBinding([], .scroll(ScrollMove.wheelLines), help: wheelHelp, mouse: [.wheelDown], bar: { _ in nil }),
    ]

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
    package static func view(_ state: HistoryScreenState, in area: Rect, on canvas: inout Canvas) {
        guard !area.isEmpty else { return }
        selector(state, width: area.width).render(in: area.row(0), on: &canvas)
        let rows = state.rows
        let stale = rows.filter { $0.kind == .stale }.count
        let invalid = rows.filter { $0.reportName == Report.Name.invalid }.count
        Line(
            "\(rows.count) records · \(stale) stale · \(invalid) invalid"
                + (state.scrolledUp > 0 ? " · \(state.scrolledUp) up" : ""),
            style: .dim
        ).render(in: area.row(1), on: &canvas)
        let body = area.inset(top: 2)
        guard !rows.isEmpty else {
            Line("No events yet.").render(in: body.row(0), on: &canvas)
            return
        }
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
        let shown = rows[first...last].map(cells).map { row in wide ? row : [row[0], row[1], row[3], row[4], row[5]] }
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
