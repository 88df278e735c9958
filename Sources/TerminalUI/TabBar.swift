/// A row of numbered tabs, ` 1 Transfers  2 Upload `, the selected one in reverse video, disabled ones dimmed.
public struct TabBar: Hashable, Sendable, Widget {
    /// The tab titles, in order.
    public var titles: [String]
    /// The selected tab's index.
    public var selected: Int
    /// Unselected tabs' style.
    public var style: Style
    /// The selected tab's style.
    public var selectedStyle: Style
    /// The indices of tabs that cannot be chosen (yet).
    public var disabled: Set<Int>
    /// Disabled tabs' style.
    public var disabledStyle: Style

    /// Creates a tab bar.
    public init(
        titles: [String], selected: Int, style: Style = .plain,
        selectedStyle: Style = Style(attributes: [.reverse, .bold]), disabled: Set<Int> = [],
        disabledStyle: Style = .dim
    ) {
        self.titles = titles
        self.selected = selected
        self.style = style
        self.selectedStyle = selectedStyle
        self.disabled = disabled
        self.disabledStyle = disabledStyle
    }

    /// The label of tab `index`: ` N Title ` with N counted from 1.
    public static func label(_ title: String, index: Int) -> String {
        " \(index + 1) \(title) "
    }

    /// The columns each tab covers on a row starting at column `x` and ending before `maxX`, in order: tabs
    /// one space apart, the last one cut at the edge, none for tabs past it.
    public func tabColumns(from x: Int, to maxX: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = x
        for (index, title) in titles.enumerated() {
            if index > 0 { start += 1 }
            guard start < maxX else { break }
            let end = min(maxX, start + DisplayWidth.of(TabBar.label(title, index: index)))
            ranges.append(start..<end)
            start = end
        }
        return ranges
    }

    /// The tab drawn at `point` when the bar is rendered in `area`; nil off the bar's row, between tabs or
    /// past the last one. Mouse clicks pick tabs with it.
    public func tab(at point: Point, in area: Rect) -> Int? {
        let row = area.row(0)
        guard row.contains(point) else { return nil }
        return tabColumns(from: row.x, to: row.maxX).firstIndex { $0.contains(point.x) }
    }

    /// Draws the tabs left to right on the first row of `area`, one space apart, clipped at the edge.
    public func render(in area: Rect, on canvas: inout Canvas) {
        guard !area.isEmpty else { return }
        let row = area.row(0)
        for (index, columns) in tabColumns(from: row.x, to: row.maxX).enumerated() {
            canvas.write(
                TabBar.label(titles[index], index: index), at: Point(x: columns.lowerBound, y: row.y),
                style: index == selected ? selectedStyle : disabled.contains(index) ? disabledStyle : style, clip: row)
        }
    }
}
