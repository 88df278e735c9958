import SeedModels
import Support
import TerminalUI

extension TransfersFeature {
    /// The columns shown at `width` cells: the fixed figures (size, bytes done, rate, ETA) and the state, and
    /// the name taking what is left. Narrow terminals drop the bar, then the bytes done and the rate, then the
    /// size, so the name and the state keep room.
    static func columns(width: Int) -> [TransferColumn] {
        var columns: [TransferColumn] = [.name]
        if width >= 110 { columns.append(.progress) }
        if width >= 56 { columns.append(.size) }
        if width >= 70 { columns += [.done, .rate] }
        return columns + [.eta, .state(stateWidths[width >= 110 ? 0 : width >= 70 ? 1 : 2])]
    }

    /// The widths the State column takes: on wide, middling and narrow terminals.
    static let stateWidths = [40, 26, 18]

    /// Where the parts of the screen go in `area` (the content area inside the shell's frame): the table, the
    /// detail pane when open, the total row when shown, the stale line.
    static func layout(_ state: TransfersScreenState, in area: Rect) -> (
        table: Rect, detail: Rect?, total: Rect?, footer: Rect
    ) {
        let parts = area.rows(state.showsTotals ? [.fill, .fixed(1), .fixed(1)] : [.fill, .fixed(1)])
        let total = state.showsTotals ? parts[1] : nil
        let footer = parts[parts.count - 1]
        guard state.detail != nil else { return (parts[0], nil, total, footer) }
        let tableHeight = min(state.shownCount + 1, max(2, parts[0].height / 3))
        let split = parts[0].rows([.fixed(tableHeight), .fill])
        return (split[0], split[1], total, footer)
    }

    /// Draws the screen into `area`, inside the frame the shell draws: one row per transfer (name, bar on
    /// wide terminals, size, bytes done, rate, ETA, state in words or canonical text), the selected row's
    /// detail pane when open and, on the last line, the stale callbacks the machines dropped.
    package static func view(_ state: TransfersScreenState, in area: Rect, on canvas: inout Canvas) {
        let layout = layout(state, in: area)
        guard !layout.table.isEmpty else { return }
        let columns = columns(width: layout.table.width)
        let (table, first) = table(state, columns: columns, in: layout.table)
        canvas.render(table, in: layout.table)
        if columns.contains(.progress) {
            drawProgressBars(state, table: table, first: first, in: layout.table, on: &canvas)
        }
        if let detailArea = layout.detail, let row = state.selectedRow {
            drawDetail(row, state.detail ?? TransferDetail(), in: detailArea, on: &canvas)
        }
        if let totalArea = layout.total {
            canvas.render(Line(totalRow(state), style: .bold), in: totalArea)
        }
        canvas.render(footer(state), in: layout.footer)
    }

    /// The last line: the filter and the sort column when asked (``ListQuery/status(shown:of:sortTitles:)``), then
    /// the stale callbacks the machines dropped.
    static func footer(_ state: TransfersScreenState) -> Line {
        let stale = Span(
            "stale events dropped: \(state.staleEvents)"
                + (state.missedRecords > 0 ? " · missed: \(state.missedRecords)" : ""),
            style: state.staleEvents > 0 ? .bold : .plain)
        guard
            let query = state.query.status(
                shown: state.shownCount, of: state.rows.count, sortTitles: sortColumns.map(\.title))
        else { return Line([stale]) }
        return Line(query.spans + [Span(" · "), stale])
    }

    /// The total row: every transfer summed (``TransferTotals``), the rate the sum of the running rows' rates.
    static func totalRow(_ state: TransfersScreenState) -> String {
        var rate: Double?
        var totals = TransferTotals()
        for row in state.rows {
            let size = row.driverStatus.totalBytes
            if let rowRate = row.progress.rate(totalBytes: size) { rate = (rate ?? 0) + rowRate }
            totals.add(row.model.phase, size: size)
        }
        return totals.line(rate: rate)
    }

    /// The table of the transfers that fit in `area`, in `columns` (its bars are drawn over it by
    /// ``view(_:in:on:)``), and the position among the ``TransfersScreenState/shown`` rows of its first row: the
    /// rows around the selection are made into cells, the others not at all, so a frame of a million transfers
    /// costs what a screenful does.
    static func table(_ state: TransfersScreenState, columns: [TransferColumn], in area: Rect) -> (
        table: Table, first: Int
    ) {
        let sorted = state.query.sortColumn.map { sortColumns[$0].title }
        let tableColumns = columns.map { column in
            var tableColumn = column.tableColumn
            if tableColumn.title == sorted { tableColumn.title += "▾" }
            return tableColumn
        }
        let nameWidth = Table(columns: tableColumns, rows: []).columnAreas(in: area.row(0)).first?.width ?? 0
        let selected = state.selectedPosition
        let count = state.shownCount
        let height = max(0, area.height - 1)  // under the header
        let first = SelectableList.visibleOffset(selected: selected, count: count, height: height, offset: 0)
        let rows = (first..<min(count, first + height)).map {
            state.rows[state.shownRow(at: $0)].cells(
                columns: columns, nameWidth: nameWidth, canonical: state.showsCanonical)
        }
        return (Table(columns: tableColumns, rows: rows, selected: selected.map { $0 - first }), first)
    }

    /// The transfer (its index among the rows) drawn at `point` when the screen is drawn in `area`; nil off the
    /// table's rows. A click selects it.
    package static func row(at point: Point, _ state: TransfersScreenState, in area: Rect) -> Int? {
        let tableArea = layout(state, in: area).table
        guard !tableArea.isEmpty else { return nil }
        let (table, first) = table(state, columns: columns(width: tableArea.width), in: tableArea)
        return table.row(at: point, in: tableArea).map { state.shownRow(at: first + $0) }
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

    /// A figure, right-aligned; `–` when not known.
    static func figure(_ text: String?) -> Line {
        text.map { Line($0, alignment: .right) } ?? unknown
    }

    /// An empty cell (the bar's, or a figure that means nothing now), made once rather than in every frame.
    static let blank = Line("")
    /// A figure not known (yet), made once.
    private static let unknown = Line("–", alignment: .right)

    /// The bars go into the Progress column of the rows the table shows (from position `first` of the shown rows),
    /// highlighted like their row.
    private static func drawProgressBars(
        _ state: TransfersScreenState, table: Table, first: Int, in area: Rect, on canvas: inout Canvas
    ) {
        let body = area.inset(top: 1)
        guard !body.isEmpty else { return }
        let template = table.columnAreas(in: body.row(0))
        guard template.count > 1 else { return }
        for line in 0..<min(body.height, table.rows.count) {
            let index = state.shownRow(at: first + line)
            let rowArea = body.row(line)
            let cell = Rect(x: template[1].x, y: rowArea.y, width: template[1].width, height: 1)
            let style = state.rows[index].presentation.phase.style
            canvas.render(
                ProgressBar(fraction: fraction(state.rows[index].model), style: style, trackStyle: .plain), in: cell)
            if index == state.selected { canvas.addAttributes(.reverse, in: cell) }
        }
    }

    /// The detail pane: a panel titled with the row's name, its lines scrolled to the pane's offset, and how many
    /// lines lie below in its bottom edge.
    static func drawDetail(_ row: TransferRow, _ detail: TransferDetail, in area: Rect, on canvas: inout Canvas) {
        let panel = Panel(title: row.name)
        canvas.render(panel, in: area)
        let inside = detailInner(area)
        guard !inside.isEmpty else { return }
        let view = ScrollView(
            lines: detailLines(row, records: detail.rows(machine: row.name), width: inside.width), offset: detail.offset
        )
        canvas.render(view, in: inside)
        let hidden = view.hidden(height: inside.height)
        let marks = [(hidden.above, "↑", area.y), (hidden.below, "↓", area.maxY - 1)]
        for (count, arrow, y) in marks where count > 0 {
            let label = " \(arrow) \(count) more "
            canvas.write(
                label, at: Point(x: max(area.x + 1, area.maxX - 2 - DisplayWidth.of(label)), y: y), style: .bold,
                clip: area)
        }
    }

    /// Where the detail pane drawn in `area` shows its lines: inside its panel.
    static func detailInner(_ area: Rect) -> Rect {
        Panel().inner(area)
    }

    /// What the detail pane says about `row`, wrapped to `width`: the state in words and canonical text, the
    /// visit and the time in it, the armed timeout, the figures, the error in full, and `records`, its machine's
    /// newest.
    static func detailLines(_ row: TransferRow, records: [HistoryRow] = [], width: Int) -> [Line] {
        func field(_ label: String, _ value: String, style: Style = .plain, wraps: Bool = true) -> [Line] {
            let labelWidth = 11
            let room = max(1, width - labelWidth)
            let wrapped = wraps ? Line.wrap(value, width: room, limit: 200) : [Line.truncate(value, to: room)]
            return wrapped.enumerated().map { index, text in
                Line([
                    Span(
                        index == 0
                            ? label.padded(to: labelWidth)
                            : String(
                                repeating: " ", count: labelWidth), style: .bold),
                    Span(text, style: style),
                ])
            }
        }
        var lines: [Line] = []
        lines += field("State", row.presentation.text, style: row.presentation.phase.style, wraps: false)
        lines += field("Canonical", row.stateText, style: .dim)
        if let sample = row.sample {
            let time = row.enteredAt.map { TransferFigures.duration(sample.at - $0) } ?? "–"
            lines += field("Visit", "\(sample.visit) · in this state \(time) (at the last update)")
            lines += field(
                "Timeout", sample.timeout.map { "\(TransferFigures.duration($0)) left when last seen" } ?? "none armed")
        } else {
            lines += field("Visit", "no update yet")
        }
        var figures = [row.totalBytes.map { "size \(TransferFigures.size($0))" } ?? "size unknown"]
        if let done = row.bytesDone { figures.append("\(TransferFigures.size(done)) done") }
        if let rate = row.rate { figures.append(TransferFigures.rate(rate)) }
        if let left = row.secondsLeft { figures.append("ETA \(TransferFigures.duration(seconds: left))") }
        lines += field("Progress", figures.joined(separator: " · "))
        if case .failed(let message) = row.model.phase {
            lines += field("Error", message.isEmpty ? "(no message)" : message, style: PresentedPhase.failed.style)
        }
        lines.append(Line("Last records", style: .bold))
        if records.isEmpty { lines.append(Line("  none yet", style: .dim)) }
        for record in records.reversed() {
            let cells = HistoryFeature.cells(record)
            let spans =
                [Span("  #\(record.sequence) visit \(record.visit) ")] + cells[3].spans + [Span(" → ")]
                + cells[4].spans + [Span(" · ")] + cells[5].spans
            lines.append(Line(spans))
        }
        return lines
    }

    /// The first detail line after `move` for the pane drawn for `state` in `area` (the screen's area);
    /// nil when no pane is open.
    static func detailOffset(after move: ScrollMove, _ state: TransfersScreenState, in area: Rect) -> Int? {
        guard let detail = state.detail, let row = state.selectedRow,
            let pane = layout(state, in: area).detail
        else { return nil }
        let inside = detailInner(pane)
        let count = detailLines(row, records: detail.rows(machine: row.name), width: inside.width).count
        return move.offset(from: detail.offset, count: count, height: inside.height)
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
}

extension TransferRow {
    /// The row's cells, in the order of `columns`: the name cut in the middle only when it must. Made when the
    /// row is drawn, never kept: a row that is not on screen holds no cells.
    func cells(columns: [TransferColumn], nameWidth: Int, canonical: Bool) -> [Line] {
        let figures = TransferFigureText(self)
        // Rate and ETA mean something only while a request runs; a paused one shows neither.
        let running = progress.request != nil
        return columns.map { column in
            switch column {
            case .name: Line(Line.truncateMiddle(name, to: nameWidth))
            case .progress: TransfersFeature.blank
            case .size: figures.size
            case .done: figures.done
            case .rate: running ? figures.rate : TransfersFeature.blank
            case .eta: running ? figures.eta : TransfersFeature.blank
            case .state(let width): stateLine(canonical: canonical, width: width)
            }
        }
    }

    /// The state in words (or canonical text) in its phase's colour, and whether the next outcome fails: in
    /// `width` cells the state gives way so the mark always shows.
    func stateLine(canonical: Bool, width: Int) -> Line {
        let presentation = self.presentation
        let style = presentation.phase.style
        let text = canonical ? stateText : presentation.text
        guard driverStatus.failsNextOutcome else {
            let line = Line([Span(text, style: style)])
            return canonical ? line : line.truncated(to: width)
        }
        let mark = " · next fails"
        return Line([
            Span(Line.truncate(text, to: max(1, width - DisplayWidth.of(mark))), style: style),
            Span(mark, style: .bold),
        ])
    }
}

/// A column of the Transfers table.
enum TransferColumn: Hashable, Sendable {
    /// The file's name, taking the width the others leave.
    case name
    /// The bar (wide terminals only).
    case progress
    /// The file's size.
    case size
    /// The bytes done.
    case done
    /// The measured rate while running.
    case rate
    /// The time left at that rate.
    case eta
    /// The state, `width` cells wide.
    case state(Int)

    /// The table column: its title, width and alignment.
    var tableColumn: TableColumn {
        switch self {
        case .name: TableColumn("Name", width: .fill)
        case .progress: TableColumn("Progress", width: .fixed(12))
        case .size: TableColumn("Size", width: .fixed(8), alignment: .right)
        case .done: TableColumn("Done", width: .fixed(8), alignment: .right)
        case .rate: TableColumn("Rate", width: .fixed(10), alignment: .right)
        case .eta: TableColumn("ETA", width: .fixed(6), alignment: .right)
        case .state(let width): TableColumn("State", width: .fixed(width))
        }
    }
}
