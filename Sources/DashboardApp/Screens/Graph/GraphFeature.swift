import SeedModels
import StateMachineDiagrams
import StateMachineKit
import TerminalUI

/// The Graph screen: the selected model drawn as boxes and arrows (collapsed by case, or every explored state),
/// the live machine's state lit and its last transition highlighted, pannable; or its transition table with
/// counts, invalid pairs and dead ends. `m` exports the Mermaid diagram.
package enum GraphFeature {
    /// Rows PgUp/PgDn move.
    package static let page = 10
    /// Columns `←`/`→` move.
    static let panStep = 4

    private static let modelHelp = KeyHelp("[ / ]", "previous / next model")
    private static let panHelp = KeyHelp("←↑↓→/hjkl", "pan")
    private static let pageHelp = KeyHelp("pgup/pgdn", "page up/down")
    private static let endsHelp = KeyHelp("g/G/home/end", "top/bottom")
    private static let farHelp = KeyHelp("H/L", "far left/right")

    private static func modelBar(_ state: GraphScreenState) -> KeyHelp? {
        hasOtherModels(state) ? KeyHelp("[ ]", "model") : nil
    }
    /// Whether `g`/`G` have another model to show (not in `statetui copy`'s dashboard, which has one).
    private static func hasOtherModels(_ state: GraphScreenState) -> Bool { state.models.count > 1 }
    private static func panBar(_ state: GraphScreenState) -> KeyHelp? { KeyHelp("←↑↓→", "pan") }
    private static func notInBar(_ state: GraphScreenState) -> KeyHelp? { nil }

    private static let wheelHelp = KeyHelp("wheel", "scroll")

    /// Every key of the screen, in the help bar's order.
    package static let bindings: [KeyBinding<GraphScreenState, GraphScreenAction>] = [
        KeyBinding([.character("]")], .nextModel, help: modelHelp, bar: modelBar, applies: hasOtherModels),
        KeyBinding([.character("[")], .previousModel, help: modelHelp, bar: modelBar, applies: hasOtherModels),
        KeyBinding([.up, .character("k")], .scroll(-1), help: panHelp, bar: panBar),
        KeyBinding([.down, .character("j")], .scroll(1), help: panHelp, bar: panBar),
        KeyBinding([.left, .character("h")], .scrollSideways(-panStep), help: panHelp, bar: panBar),
        KeyBinding([.right, .character("l")], .scrollSideways(panStep), help: panHelp, bar: panBar),
        KeyBinding([.pageUp], .scroll(-page), help: pageHelp, bar: notInBar),
        KeyBinding([.pageDown], .scroll(page), help: pageHelp, bar: notInBar),
        KeyBinding([.character("g")], .scroll(Int.min / 2), help: endsHelp, bar: notInBar),
        KeyBinding([.home], .scroll(Int.min / 2), help: endsHelp, bar: notInBar),
        KeyBinding([.character("G")], .scroll(Int.max / 2), help: endsHelp, bar: notInBar),
        KeyBinding([.end], .scroll(Int.max / 2), help: endsHelp, bar: notInBar),
        KeyBinding([.character("H")], .scrollSideways(-8), help: farHelp, bar: notInBar),
        KeyBinding([.character("L")], .scrollSideways(8), help: farHelp, bar: notInBar),
        KeyBinding(
            [.character("f")], .toggleFullGraph, help: KeyHelp("f", "full graph / by case"),
            bar: { KeyHelp("f", $0.showsFullGraph ? "by case" : "full") }),
        KeyBinding(
            [.character("t")], .toggleTable, help: KeyHelp("t", "table / diagram"),
            bar: { state in
                switch state.presentation {
                case .diagram: KeyHelp("t", "table")
                case .table: KeyHelp("t", "diagram")
                }
            }),
        KeyBinding(
            [.character("m")], .writeMermaid, help: KeyHelp("m", "write Mermaid file"),
            bar: { KeyHelp("m", "write \($0.report.mermaidFileName)") }),
        KeyBinding([], .scroll(-ScrollMove.wheelLines), help: wheelHelp, mouse: [.wheelUp], bar: { _ in nil }),
        KeyBinding([], .scroll(ScrollMove.wheelLines), help: wheelHelp, mouse: [.wheelDown], bar: { _ in nil }),
    ]

    /// Applies an action.
    package static func reduce(_ state: inout GraphScreenState, _ action: GraphScreenAction) -> [GraphScreenEffect] {
        switch action {
        case .nextModel, .previousModel:
            let all = state.models
            let index = all.firstIndex(of: state.model) ?? 0
            let step = action == .nextModel ? 1 : all.count - 1
            state.select(all[(index + step) % all.count])
            return []
        case .scroll(let rows):
            state.offset = min(max(0, contentSize(state).height - 1), max(0, state.offset + rows))
            return []
        case .scrollSideways(let columns):
            state.column = min(max(0, contentSize(state).width - 1), max(0, state.column + columns))
            return []
        case .toggleFullGraph:
            state.toggleFullGraph()
            return []
        case .toggleTable:
            switch state.presentation {
            case .diagram: state.presentation = .table
            case .table: state.presentation = .diagram
            }
            state.offset = 0
            state.column = 0
            return []
        case .writeMermaid:
            return [.writeFile(name: state.report.mermaidFileName, text: state.report.mermaid)]
        case .exported(let export):
            state.export.show(export)
            return []
        case .exportExpired(let export):
            state.export.expire(export)
            return []
        }
    }

    /// Follows the live machines after every app action: a machine whose state changed gets a trail entry.
    package static func follow(_ state: inout GraphScreenState, live: GraphLiveStates) {
        state.transferTrail.observe(live.transfer, from: live.transferName)
        state.uploadTrail.observe(live.upload, from: ScreenModel.upload.rawValue)
        state.loadTrail.observe(live.load, from: ScreenModel.load.rawValue)
    }

    /// The columns and rows of what the body shows.
    static func contentSize(_ state: GraphScreenState) -> (width: Int, height: Int) {
        switch state.presentation {
        case .diagram: (state.layout.width, state.layout.height)
        case .table: (state.report.bodyLines.map(\.count).max() ?? 0, state.report.bodyLines.count)
        }
    }

    /// The style of a live state's box, and of the last transition's line, arrowheads and label.
    package static let liveStyle = Style.reverse
    /// See ``liveStyle``.
    package static let lastEdgeStyle = Style(foreground: .yellow, attributes: .bold)

    /// Draws the header, the legend, any notice and the panned body.
    package static func view(_ state: GraphScreenState, in area: Rect, on canvas: inout Canvas) {
        guard !area.isEmpty else { return }
        let report = state.report
        var tabs: [Span] = []
        for model in state.models {
            let name: String
            switch model {
            case .transfer: name = "transfer"
            case .upload: name = "upload"
            case .load: name = "load"
            }
            tabs.append(Span(" \(name) ", style: model == state.model ? .reverse : .plain))
        }
        let mode: String
        switch (state.presentation, state.showsFullGraph) {
        case (.table, _): mode = "transition table"
        case (.diagram, false): mode = "by case"
        case (.diagram, true): mode = "full graph"
        }
        Line(tabs + [Span(" " + mode + "  ", style: .bold)] + summary(state)).render(
            in: area.row(0), on: &canvas)
        var notices: [Line] = []
        if let export = state.export.content {
            switch export {
            case .written(let path): notices.append(Line("Mermaid written to \(path)", style: .bold))
            case .failed(let path, let reason): notices.append(Line("Cannot write \(path): \(reason)", style: .reverse))
            }
        }
        let size = contentSize(state)
        if state.presentation == .diagram && (size.width > area.width || size.height > area.height - 1 - notices.count)
        {
            notices.append(
                Line(
                    "The diagram (\(size.width)×\(size.height)) does not fit \(area.width)×\(area.height - 1 - notices.count):"
                        + " arrows pan, t shows the table.", style: .dim))
        }
        for (index, notice) in notices.enumerated() { notice.render(in: area.row(1 + index), on: &canvas) }
        let body = area.inset(top: 1 + notices.count)
        switch state.presentation {
        case .table:
            let lines = report.bodyLines
            let first = min(state.offset, max(0, lines.count - body.height))
            for row in 0..<min(body.height, max(0, lines.count - first)) {
                Line(String(lines[first + row].dropFirst(state.column))).render(in: body.row(row), on: &canvas)
            }
        case .diagram:
            drawDiagram(state, in: body, on: &canvas)
        }
    }

    /// The legend: the live state and the last transition in the styles that mark them on the diagram, and
    /// the initial state's border; for the table, its counts.
    static func summary(_ state: GraphScreenState) -> [Span] {
        let marks = state.liveMarks
        let machine: String
        switch state.model {
        case .transfer: machine = state.transferTrail.source ?? "no transfer"
        case .upload: machine = "upload"
        case .load: machine = "load"
        }
        guard state.presentation == .diagram else {
            let report = state.report
            return [
                Span(
                    "\(report.stateCount) states · \(report.edgeCount) edges · \(report.invalidPairs.count) invalid pairs"
                        + " · \(report.deadEnds.count) dead ends")
            ]
        }
        var spans = [Span("╔╗ initial", style: .dim), Span("  \(machine) ")]
        if let current = marks.current {
            spans.append(Span(current.text, style: liveStyle))
        } else {
            spans.append(Span("not running", style: .dim))
        }
        if let previous = marks.previous, let current = marks.current, !state.lastTransitionEdges.isEmpty {
            spans.append(Span(" after "))
            spans.append(Span("\(previous.caseName)→\(current.caseName)", style: lastEdgeStyle))
        }
        return spans
    }

    /// The visible window of the diagram, the live boxes in ``liveStyle`` and the last edge in ``lastEdgeStyle``.
    static func drawDiagram(_ state: GraphScreenState, in body: Rect, on canvas: inout Canvas) {
        let layout = state.layout
        var live = Set<Int>()
        if let current = state.liveMarks.current { live = Set(state.nodes(for: current)) }
        draw(
            layout, live: live, lastEdges: Set(state.lastTransitionEdges), top: state.offset, left: state.column,
            in: body, on: &canvas)
    }

    /// The window of `layout` from row `top` and column `left` drawn in `body`: the boxes of `live` in
    /// ``liveStyle``, the edges of `lastEdges` in ``lastEdgeStyle``. The Graph screen and `statetui inspect`'s
    /// Graph both draw this way.
    package static func draw(
        _ layout: DiagramLayout, live: Set<Int>, lastEdges: Set<Int>, top: Int, left: Int, in body: Rect,
        on canvas: inout Canvas
    ) {
        var lastCells = Set<DiagramLayout.Point>()
        for edge in lastEdges { lastCells.formUnion(layout.paths[edge]) }
        let top = min(top, max(0, layout.height - 1))
        let left = min(left, max(0, layout.width - 1))
        for row in 0..<min(body.height, max(0, layout.height - top)) {
            let y = top + row
            let characters = Array(layout.lines[y])
            var spans: [Span] = []
            var text = ""
            var style = Style.plain
            for x in left..<min(layout.width, left + body.width) {
                let point = DiagramLayout.Point(x: x, y: y)
                let cellStyle: Style
                switch layout.owner(at: point) {
                case .node(let node)?: cellStyle = live.contains(node) ? liveStyle : .plain
                case .edge(let edge)?:
                    cellStyle = lastEdges.contains(edge) || lastCells.contains(point) ? lastEdgeStyle : .plain
                case nil: cellStyle = lastCells.contains(point) ? lastEdgeStyle : .plain
                }
                if cellStyle != style && !text.isEmpty {
                    spans.append(Span(text, style: style))
                    text = ""
                }
                style = cellStyle
                text.append(characters[x])
            }
            if !text.isEmpty { spans.append(Span(text, style: style)) }
            Line(spans).render(in: body.row(row), on: &canvas)
        }
    }
}
