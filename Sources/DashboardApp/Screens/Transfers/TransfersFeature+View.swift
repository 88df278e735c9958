import ScreenStates
import TerminalUI

extension TransfersFeature {
    /// The table's columns for `width` cells: name, bar and request are fixed, the state takes what is
    /// left; on narrow terminals they shrink so the state keeps room.
    static func columns(width: Int) -> [TableColumn] {
        let wide = width >= 70
        return [
            TableColumn("Name", width: .fixed(wide ? 12 : 10)),
            TableColumn("Progress", width: .fixed(wide ? 12 : 5)),
            TableColumn("State", width: .fill),
            TableColumn(wide ? "Request" : "Req", width: .fixed(wide ? 7 : 4)),
            TableColumn("Next", width: .fixed(4)),
        ]
    }

    /// Draws the screen into `area`: a box titled `Transfers` holding one row per transfer (name, progress
    /// bar in eighths, the state in canonical text, the request identity, whether its next outcome fails)
    /// and, on its last line, the stale callbacks the machines dropped.
    package static func view(_ state: TransfersScreenState, in area: Rect, on canvas: inout Canvas) {
        canvas.render(panel, in: area)
        let inside = panel.inner(area)
        guard !inside.isEmpty else { return }
        let parts = inside.rows([.fill, .fixed(1)])
        let table = table(state, width: inside.width)
        canvas.render(table, in: parts[0])
        drawProgressBars(state, table: table, in: parts[0], on: &canvas)
        canvas.render(
            Line("stale events dropped: \(state.staleEvents)", style: state.staleEvents > 0 ? .bold : .plain),
            in: parts[1])
    }

    /// The frame the screen is drawn in.
    static let panel = Panel(title: "Transfers")

    /// The table of transfers for `width` columns (its bars are drawn over it by ``view(_:in:on:)``).
    static func table(_ state: TransfersScreenState, width: Int) -> Table {
        Table(
            columns: columns(width: width),
            rows: state.rows.map { row in
                [
                    Line(row.name), "", Line(row.stateText, style: style(row.model.phase)),
                    Line(requestText(row.model), alignment: .right),
                    Line(row.driverStatus.failsNextOutcome ? "fail" : "", style: .bold),
                ]
            },
            selected: state.rows.isEmpty ? nil : state.selected)
    }

    /// The transfer drawn at `point` when the screen is drawn in `area`; nil off the table's rows. A click
    /// selects it.
    package static func row(at point: Point, _ state: TransfersScreenState, in area: Rect) -> Int? {
        let inside = panel.inner(area)
        guard !inside.isEmpty else { return nil }
        return table(state, width: inside.width).row(at: point, in: inside.rows([.fill, .fixed(1)])[0])
    }

    /// The bars go into the Progress column of the rows the table shows, highlighted like their row.
    private static func drawProgressBars(
        _ state: TransfersScreenState, table: Table, in area: Rect, on canvas: inout Canvas
    ) {
        let body = area.inset(top: 1)
        guard !body.isEmpty else { return }
        let first = SelectableList.visibleOffset(
            selected: table.selected, count: state.rows.count, height: body.height, offset: 0)
        let template = table.columnAreas(in: body.row(0))
        guard template.count > 1 else { return }
        for line in 0..<min(body.height, state.rows.count - first) {
            let index = first + line
            let rowArea = body.row(line)
            let cell = Rect(x: template[1].x, y: rowArea.y, width: template[1].width, height: 1)
            let phase = state.rows[index].model.phase
            canvas.render(
                ProgressBar(fraction: fraction(state.rows[index].model), style: style(phase), trackStyle: .plain),
                in: cell)
            if index == state.selected { canvas.addAttributes(.reverse, in: cell) }
        }
    }

    /// What the terminal's own progress indicator shows: the mean percent of the transfers under way, as
    /// paused when none of them runs; nothing when none is under way.
    package static func progress(_ state: TransfersScreenState) -> TerminalProgress {
        var percents: [Int] = []
        var running = false
        for row in state.rows {
            switch row.model.phase {
            case .running(_, let percent):
                percents.append(percent)
                running = true
            case .paused(_, let percent):
                percents.append(percent)
            case .idle, .completed, .failed:
                break
            }
        }
        guard !percents.isEmpty else { return .none }
        let mean = percents.reduce(0, +) / percents.count
        return running ? .percent(mean) : .paused(mean)
    }

    /// How full a transfer's bar is: its percent while active, full when completed, what a failure kept.
    static func fraction(_ model: TransferModel) -> Double {
        switch model.phase {
        case .idle: 0
        case .running(_, let percent), .paused(_, let percent): Double(percent) / 100
        case .completed: 1
        case .failed: Double(model.retainedPercent ?? 0) / 100
        }
    }

    /// The request identity: the active request, or the last one that settled; none before the first start.
    static func requestText(_ model: TransferModel) -> String {
        switch model.phase {
        case .running(let request, _), .paused(let request, _): "#\(request)"
        case .completed, .failed: "#\(model.lastRequest)"
        case .idle: model.lastRequest == 0 ? "–" : "#\(model.lastRequest)"
        }
    }

    /// Each phase's colour; the text says the phase too, so nothing is lost without colour.
    static func style(_ phase: TransferState) -> Style {
        switch phase {
        case .idle: .plain
        case .running: Style(foreground: .green)
        case .paused: Style(foreground: .yellow)
        case .completed: Style(foreground: .cyan)
        case .failed: Style(foreground: .red, attributes: .bold)
        }
    }
}
