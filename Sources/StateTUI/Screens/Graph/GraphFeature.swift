import ScreenStates
import TerminalUI

/// The Graph screen: the selected model's transition table from ``StateGraph``, its counts, invalid pairs and
/// dead ends, scrollable; `m` exports the Mermaid diagram.
public enum GraphFeature {
    /// Lines PgUp/PgDn move.
    public static let page = 10

    /// Applies an action.
    public static func reduce(_ state: inout GraphScreenState, _ action: GraphAction) -> [GraphEffect] {
        switch action {
        case .nextModel, .previousModel:
            let all = ScreenModel.allCases
            let index = all.firstIndex(of: state.model) ?? 0
            let step = action == .nextModel ? 1 : all.count - 1
            state = GraphScreenState(model: all[(index + step) % all.count], export: state.export)
            return []
        case .scroll(let lines):
            let last = max(0, state.report.bodyLines.count - 1)
            state.offset = min(last, max(0, state.offset + lines))
            return []
        case .scrollSideways(let columns):
            let widest = state.report.bodyLines.map(\.count).max() ?? 0
            state.column = min(max(0, widest - 1), max(0, state.column + columns))
            return []
        case .writeMermaid:
            return [.writeFile(name: state.report.mermaidFileName, text: state.report.mermaid)]
        case .exported(let export):
            state.export = export
            return []
        }
    }

    /// `g`/`→` next model, `←` previous, `↑`/`↓`/PgUp/PgDn/Home/End scroll, `[`/`]` sideways, `m` Mermaid.
    public static func keymap(_ key: Key, _ state: GraphScreenState) -> GraphAction? {
        switch key {
        case .character("g"), .right: .nextModel
        case .left: .previousModel
        case .up, .character("k"): .scroll(-1)
        case .down, .character("j"): .scroll(1)
        case .pageUp: .scroll(-page)
        case .pageDown: .scroll(page)
        case .home: .scroll(Int.min / 2)
        case .end: .scroll(Int.max / 2)
        case .character("["): .scrollSideways(-8)
        case .character("]"): .scrollSideways(8)
        case .character("m"): .writeMermaid
        default: nil  // not a state switch: any other key does nothing here
        }
    }

    /// Every key of the screen, for the `?` overlay.
    public static let allKeys: [KeyHelp] = [
        KeyHelp("g/→", "next model"), KeyHelp("←", "previous model"), KeyHelp("↑/↓", "scroll"),
        KeyHelp("pgup/pgdn", "page"), KeyHelp("[/]", "scroll sideways"), KeyHelp("m", "write Mermaid file"),
    ]

    /// The keys that apply now (sideways only when scrolled or when the table is wide).
    public static func help(_ state: GraphScreenState) -> [KeyHelp] {
        [
            KeyHelp("g/→", "model"), KeyHelp("↑/↓", "scroll"), KeyHelp("[/]", "sideways"),
            KeyHelp("m", "write \(state.report.mermaidFileName)"),
        ]
    }

    /// Draws the header, the export status and the scrolled body.
    public static func view(_ state: GraphScreenState, in area: Rect, on canvas: inout Canvas) {
        guard !area.isEmpty else { return }
        let report = state.report
        var tabs: [Span] = []
        for model in ScreenModel.allCases {
            let name: String
            switch model {
            case .transfer: name = "transfer"
            case .upload: name = "upload"
            case .load: name = "load"
            }
            tabs.append(Span(" \(name) ", style: model == state.model ? .reverse : .plain))
        }
        Line([Span("Model", style: .bold)] + tabs).render(in: area.row(0), on: &canvas)
        Line(
            "\(report.stateCount) states · \(report.edgeCount) edges · \(report.invalidPairs.count) invalid pairs · \(report.deadEnds.count) dead ends"
        ).render(in: area.row(1), on: &canvas)
        var header = 2
        if let export = state.export {
            switch export {
            case .written(let path):
                Line("Mermaid written to \(path)", style: .bold).render(in: area.row(2), on: &canvas)
            case .failed(let path, let reason):
                Line("Cannot write \(path): \(reason)", style: .reverse).render(in: area.row(2), on: &canvas)
            }
            header = 3
        }
        let body = area.inset(top: header)
        let lines = report.bodyLines
        let first = min(state.offset, max(0, lines.count - body.height))
        for row in 0..<min(body.height, max(0, lines.count - first)) {
            let text = String(lines[first + row].dropFirst(state.column))
            Line(text).render(in: body.row(row), on: &canvas)
        }
    }
}
