import SeedModels
import TerminalUI

/// The Load screen (seed 002): the enum and the bag of flags driven by the same actions, side by side, and
/// the table of all 8 flag combinations.
package enum LoadFeature {
    /// Applies an action: the flags change right here (that is the flag model), from every action the
    /// machine recorded; the enum only in the machine.
    package static func reduce(_ state: inout LoadScreenState, _ action: LoadScreenAction) -> [LoadScreenEffect] {
        switch action {
        case .refresh:
            // An intent the machine judges when it meets it (a refresh while loading is `stay` there, so no
            // request starts), never against this snapshot, which may not show what an earlier key sent yet.
            return [.refresh(fails: state.failNext)]
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
                if record.event == .refreshTapped && record.outcome == .moved {
                    // The request the fail switch was for has started: it is used up.
                    state.requests += 1
                    state.failNext = false
                }
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

    /// Draws both panes side by side, each a titled section inside the screen's frame (a rule like the
    /// frame's top edge, so the panes keep the full width between the frame's padding), and, when there is
    /// room, the table of flag combinations.
    package static func view(_ state: LoadScreenState, in area: Rect, on canvas: inout Canvas) {
        guard !area.isEmpty else { return }
        let tableHeight = 10
        let showsTable = area.height >= 9 + tableHeight
        let parts = area.rows(showsTable ? [.fill, .fixed(tableHeight)] : [.fill])
        let panes = parts[0].columns([.fill, .fill], spacing: 2)
        let stale = Line(
            "stale responses dropped: \(state.tally.stale)\(state.tally.missedNote)",
            style: state.tally.stale > 0 ? .bold : .dim)
        let sides = [
            ("LoadState (enum)", enumLines(state.load) + [stale]), ("FlagsState (3 flags)", flagLines(state.flags)),
        ]
        for (pane, side) in zip(panes, sides) {
            sectionTitle(side.0, width: pane.width).render(in: pane.row(0), on: &canvas)
            Paragraph(side.1).render(in: pane.inset(top: 1), on: &canvas)
        }
        if showsTable {
            combinationTable(current: state.flags).render(in: parts[1].inset(top: 1), on: &canvas)
            sectionTitle("All 8 flag combinations (the enum has 4 cases)", width: parts[1].width).render(
                in: parts[1].row(0), on: &canvas)
        }
    }

    /// A section's title line `width` columns wide: the title in bold in a rule drawn like a ``Panel``'s top
    /// edge (`─ Title ────`).
    static func sectionTitle(_ title: String, width: Int) -> Line {
        let rule = BorderSet.single.horizontal
        let used = 3 + DisplayWidth.of(title)
        return Line([
            Span("\(rule) "), Span(title, style: .bold),
            Span(" " + String(repeating: rule, count: max(0, width - used))),
        ])
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
