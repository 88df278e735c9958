/// A row of numbered tabs, ` 1 Transfers  2 Upload `, the selected one in reverse video, disabled ones dimmed.
public struct TabBar: Hashable, Sendable, Widget {
    /// The tab titles, in order.
    public var titles: [String]
    /// The selected tab's index.
    public var selected: Int
    /// Unselected tabs' style.
    public var style: Style
    /// The selected tab's style.
    var selectedStyle: Style
    /// The indices of tabs that cannot be chosen (yet).
    public var disabled: Set<Int>
    /// Disabled tabs' style.
    var disabledStyle: Style

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

    /// Draws the tabs left to right on the first row of `area`, one space apart, clipped at the edge.
    public func render(in area: Rect, on canvas: inout Canvas) {
        guard !area.isEmpty else { return }
        let row = area.row(0)
        var x = row.x
        for (index, title) in titles.enumerated() {
            if index > 0 { x += 1 }
            x = canvas.write(
                TabBar.label(title, index: index), at: Point(x: x, y: row.y),
                style: index == selected ? selectedStyle : disabled.contains(index) ? disabledStyle : style, clip: row)
            if x >= row.maxX { break }
        }
    }
}
