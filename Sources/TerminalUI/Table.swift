/// One column of a ``Table``: its header and how wide it is.
public struct TableColumn: Hashable, Sendable {
    /// The header text.
    public var title: String
    /// Its width, as a layout constraint over the table's width.
    public var width: Constraint
    /// Placement of the header and cells.
    public var alignment: Alignment

    /// Creates a column.
    public init(_ title: String, width: Constraint, alignment: Alignment = .left) {
        self.title = title
        self.width = width
        self.alignment = alignment
    }
}

/// A table: a bold header row, then rows of cells under the columns, one cell space between columns, each
/// cell truncated with an ellipsis; a selected row is highlighted and kept visible by scrolling.
public struct Table: Hashable, Sendable, Widget {
    /// The columns.
    public var columns: [TableColumn]
    /// The rows; a row with fewer cells than columns leaves the rest blank.
    public var rows: [[Line]]
    /// The selected row, if any.
    public var selected: Int?
    /// The first row the caller would like shown (adjusted to keep the selection visible).
    public var offset: Int
    /// The header's style.
    public var headerStyle: Style
    /// Added to the selected row.
    public var highlight: Attributes
    /// Cells between columns.
    public var spacing: Int

    /// Creates a table.
    public init(
        columns: [TableColumn], rows: [[Line]], selected: Int? = nil, offset: Int = 0,
        headerStyle: Style = .bold, highlight: Attributes = .reverse, spacing: Int = 1
    ) {
        self.columns = columns
        self.rows = rows
        self.selected = selected
        self.offset = offset
        self.headerStyle = headerStyle
        self.highlight = highlight
        self.spacing = spacing
    }

    /// The column rectangles of one row of `area` (for drawing custom cells such as progress bars).
    public func columnAreas(in row: Rect) -> [Rect] {
        row.columns(columns.map(\.width), spacing: spacing)
    }

    /// The row at `point` when the table is drawn in `area`: nil on the header, outside the area or below the
    /// last row. Mouse clicks pick rows with it.
    public func row(at point: Point, in area: Rect) -> Int? {
        let body = area.inset(top: 1)
        guard body.contains(point) else { return nil }
        return SelectableList.item(atRow: point.y, in: body, selected: selected, count: rows.count, offset: offset)
    }

    /// Draws the header and the rows that fit below it.
    public func render(in area: Rect, on canvas: inout Canvas) {
        guard !area.isEmpty else { return }
        let header = area.row(0)
        for (column, cellArea) in zip(columns, columnAreas(in: header)) {
            Line(column.title, style: headerStyle, alignment: column.alignment).render(in: cellArea, on: &canvas)
        }
        let body = area.inset(top: 1)
        guard !body.isEmpty else { return }
        let first = SelectableList.visibleOffset(
            selected: selected, count: rows.count, height: body.height, offset: offset)
        // Every row has the same column layout: compute it once, move it down row by row.
        let template = columnAreas(in: body.row(0))
        for line in 0..<min(body.height, rows.count - first) {
            let index = first + line
            let rowArea = body.row(line)
            for column in 0..<min(columns.count, rows[index].count, template.count) {
                rows[index][column].render(
                    in: Rect(x: template[column].x, y: rowArea.y, width: template[column].width, height: 1),
                    alignment: columns[column].alignment, on: &canvas)
            }
            if index == selected { canvas.addAttributes(highlight, in: rowArea) }
        }
    }
}
