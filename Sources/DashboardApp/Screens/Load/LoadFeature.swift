import ScreenStates
import TerminalUI

/// The Load screen (seed 002): the enum and the bag of flags driven by the same actions, side by side, and
/// the table of all 8 flag combinations.
package enum LoadFeature {
    /// Applies an action: the flags change right here (that is the flag model), from every action the
    /// machine recorded; the enum only in the machine.
    package static func reduce(_ state: inout LoadScreenState, _ action: LoadScreenAction) -> [LoadScreenEffect] {
        switch action {
        case .refresh:
            // Asked of the transition function: a refresh while loading is `stay`, so nothing is sent.
            guard EventRule.applies(LoadAction.refreshTapped, in: state.load, LoadState.transition) else { return [] }
            let fails = state.failNext
            state.failNext = false
            return [.refresh(fails: fails)]
        case .toggleFailNext:
            state.failNext.toggle()
            return []
        case .deliverLateResponse:
            return [.answerLate]
        case .loadChanged(let load):
            state.load = load
            return []
        case .recordsChanged(let records):
            for record in state.tally.newRecords(records) {
                state.flags = flags(state.flags, after: record.event)
                if record.event == .refreshTapped && record.outcome == .moved { state.requests += 1 }
            }
            state.tally.add(records)
            return []
        }
    }

    /// How flag-based code typically handles each action: every handler sets the flags it thinks about
    /// and forgets the others. A refresh never clears the old error, a success never clears it either, and
    /// nothing ignores a late response — so the flags reach screens the enum cannot.
    package static func flags(_ flags: FlagsState, after action: LoadAction) -> FlagsState {
        var flags = flags
        switch action {
        case .refreshTapped:
            flags.isLoading = true
        case .succeeded(let items):
            flags.isLoading = false
            flags.items = items
        case .failed(let message):
            flags.isLoading = false
            flags.error = message
        }
        return flags
    }

    /// Every key of the screen, in the help bar's order: `r` refresh (offered only when the transition
    /// function lets a refresh change the state; pressed, the reducer asks it again), `f` fail the next
    /// response, `l` a late response (after a failure only: the demonstration of seed 002's late success; the
    /// machine drops it as stale).
    package static let bindings: [KeyBinding<LoadScreenState, LoadScreenAction>] = [
        KeyBinding(
            [.character("r")], .refresh, help: KeyHelp("r", "refresh"), judge: .machine,
            bar: { KeyHelp("r", isFailed($0.load) ? "retry" : "refresh") },
            applies: { EventRule.applies(LoadAction.refreshTapped, in: $0.load, LoadState.transition) }),
        KeyBinding(
            [.character("f")], .toggleFailNext, help: KeyHelp("f", "fail the next response"),
            bar: { KeyHelp("f", $0.failNext ? "don't fail next" : "fail next") }),
        KeyBinding(
            [.character("l")], .deliverLateResponse, help: KeyHelp("l", "late response (after a failure)"),
            bar: { _ in KeyHelp("l", "late response") }, applies: { isFailed($0.load) }),
    ]

    private static func isFailed(_ load: LoadState) -> Bool {
        switch load {
        case .failed: true
        case .idle, .loading, .loaded: false
        }
    }

    /// Draws both panes and, when there is room, the table of flag combinations.
    package static func view(_ state: LoadScreenState, in area: Rect, on canvas: inout Canvas) {
        guard !area.isEmpty else { return }
        let tableHeight = 10
        let showsTable = area.height >= 9 + tableHeight
        let parts = area.rows(showsTable ? [.fill, .fixed(tableHeight)] : [.fill])
        let panes = parts[0].columns([.fill, .fill], spacing: 1)
        let left = Box(title: "LoadState (enum)")
        left.render(in: panes[0], on: &canvas)
        let stale = Line(
            "stale responses dropped: \(state.tally.stale)", style: state.tally.stale > 0 ? .bold : .dim)
        Paragraph(enumLines(state.load) + [stale]).render(in: left.inner(panes[0]), on: &canvas)
        let right = Box(title: "FlagsState (3 flags)")
        right.render(in: panes[1], on: &canvas)
        Paragraph(flagLines(state.flags)).render(in: right.inner(panes[1]), on: &canvas)
        if showsTable {
            combinationTable(current: state.flags).render(in: parts[1].inset(top: 1), on: &canvas)
            Line("All 8 flag combinations (the enum has 4 cases):", style: .bold).render(
                in: parts[1].row(0), on: &canvas)
        }
    }

    /// The enum pane: one case each, exhaustively.
    static func enumLines(_ load: LoadState) -> [Line] {
        let presentation = load.presentation
        var lines: [Line] = [
            Line([Span("State ", style: .bold), Span(presentation.text, style: presentation.phase.style)])
        ]
        switch load {
        case .idle:
            lines.append("Nothing loaded yet.")
        case .loading(let previous):
            lines.append(Line("\(Spinner.frame(0)) Loading…", style: .bold))
            lines += items(previous, style: .dim)
        case .loaded(let loaded):
            lines += items(loaded, style: .plain)
        case .failed(let message, let previous):
            lines.append(Line("⚠ \(message) — r retries", style: .reverse))
            lines += items(previous, style: .dim)
        }
        lines.append(Line(load.description, style: .dim))
        return lines
    }

    /// The flags pane: whatever the flags say, all at once, then what that combination means.
    static func flagLines(_ flags: FlagsState) -> [Line] {
        var lines: [Line] = []
        if flags.isLoading { lines.append(Line("\(Spinner.frame(0)) Loading…", style: .bold)) }
        if let error = flags.error { lines.append(Line("⚠ \(error) — r retries", style: .reverse)) }
        if let shown = flags.items { lines += items(shown, style: .plain) }
        if !flags.isLoading && flags.error == nil && flags.items == nil { lines.append("Nothing loaded yet.") }
        switch flags.reading {
        case .screen:
            lines.append(Line("a real screen", style: .dim))
        case .ambiguous(_, let why):
            lines.append(Line("AMBIGUOUS: \(combinationName(flags))", style: .bold))
            lines.append(Line(why, style: .dim))
        case .impossible(let why):
            lines.append(Line("IMPOSSIBLE: \(combinationName(flags))", style: .reverse))
            lines.append(Line(why, style: .bold))
        }
        return lines
    }

    /// The flags that are set, `isLoading + items + error`, or `no flags`.
    package static func combinationName(_ flags: FlagsState) -> String {
        let set = [(flags.isLoading, "isLoading"), (flags.items != nil, "items"), (flags.error != nil, "error")]
            .filter(\.0).map(\.1)
        return set.isEmpty ? "no flags" : set.joined(separator: " + ")
    }

    private static func items(_ items: [String]?, style: Style) -> [Line] {
        guard let items else { return [] }
        if items.isEmpty { return [Line("(no items)", style: style)] }
        return items.map { Line("• \($0)", style: style) }
    }

    /// The 8 combinations, the current one highlighted.
    static func combinationTable(current: FlagsState) -> Table {
        let combinations = FlagsState.combinations()
        let rows: [[Line]] = combinations.map { flags in
            let meaning: Line
            switch flags.reading {
            case .screen(let screen): meaning = Line(screen.description)
            case .ambiguous(let screen, _): meaning = Line("ambiguous: \(screen)")
            case .impossible(let why): meaning = Line("IMPOSSIBLE: \(why)", style: .bold)
            }
            return [
                Line(flags.isLoading ? "yes" : "-"), Line(flags.items != nil ? "yes" : "-"),
                Line(flags.error != nil ? "yes" : "-"), meaning,
            ]
        }
        let selected = combinations.firstIndex {
            $0.isLoading == current.isLoading && ($0.items == nil) == (current.items == nil)
                && ($0.error == nil) == (current.error == nil)
        }
        return Table(
            columns: [
                TableColumn("isLoading", width: .fixed(9)), TableColumn("items", width: .fixed(5)),
                TableColumn("error", width: .fixed(5)), TableColumn("screen", width: .fill),
            ], rows: rows, selected: selected)
    }
}
