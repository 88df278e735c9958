/// The characters a border is drawn with.
public struct BorderSet: Hashable, Sendable {
    /// Top-left corner.
    public var topLeft: String
    /// Top-right corner.
    public var topRight: String
    /// Bottom-left corner.
    public var bottomLeft: String
    /// Bottom-right corner.
    public var bottomRight: String
    /// Top and bottom edges.
    public var horizontal: String
    /// Left and right edges.
    public var vertical: String

    /// Creates a border set.
    public init(
        topLeft: String, topRight: String, bottomLeft: String, bottomRight: String, horizontal: String, vertical: String
    ) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomLeft = bottomLeft
        self.bottomRight = bottomRight
        self.horizontal = horizontal
        self.vertical = vertical
    }

    /// `┌─┐│└┘`.
    public static let single = BorderSet(
        topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘", horizontal: "─", vertical: "│")
    /// `╭─╮│╰╯`.
    public static let rounded = BorderSet(
        topLeft: "╭", topRight: "╮", bottomLeft: "╰", bottomRight: "╯", horizontal: "─", vertical: "│")
    /// `╔═╗║╚╝`.
    public static let double = BorderSet(
        topLeft: "╔", topRight: "╗", bottomLeft: "╚", bottomRight: "╝", horizontal: "═", vertical: "║")
}

/// A bordered box with an optional title in its top edge: `┌─ Title ───┐`.
public struct Box: Hashable, Sendable, Widget {
    /// The title shown in the top edge (truncated with an ellipsis to fit).
    public var title: String?
    /// The border's style.
    public var style: Style
    /// The title's style.
    public var titleStyle: Style
    /// The border characters.
    public var border: BorderSet

    /// Creates a box.
    public init(title: String? = nil, style: Style = .plain, titleStyle: Style = .bold, border: BorderSet = .single) {
        self.title = title
        self.style = style
        self.titleStyle = titleStyle
        self.border = border
    }

    /// The area inside the border.
    public func inner(_ area: Rect) -> Rect {
        area.inset(by: 1)
    }

    /// Draws the border (what fits of it) and the title.
    public func render(in area: Rect, on canvas: inout Canvas) {
        guard !area.isEmpty else { return }
        let right = area.maxX - 1
        let bottom = area.maxY - 1
        canvas.fill(Rect(x: area.x, y: area.y, width: area.width, height: 1), with: border.horizontal, style: style)
        canvas.fill(Rect(x: area.x, y: bottom, width: area.width, height: 1), with: border.horizontal, style: style)
        canvas.fill(Rect(x: area.x, y: area.y, width: 1, height: area.height), with: border.vertical, style: style)
        canvas.fill(Rect(x: right, y: area.y, width: 1, height: area.height), with: border.vertical, style: style)
        canvas.write(border.topLeft, at: Point(x: area.x, y: area.y), style: style, clip: area)
        canvas.write(border.topRight, at: Point(x: right, y: area.y), style: style, clip: area)
        canvas.write(border.bottomLeft, at: Point(x: area.x, y: bottom), style: style, clip: area)
        canvas.write(border.bottomRight, at: Point(x: right, y: bottom), style: style, clip: area)
        if let title, !title.isEmpty, area.width >= 5 {
            // Two cells of border on each side, a space either side of the title.
            let room = area.width - 4
            // Below three cells the padding spaces would leave no room for the title itself.
            let shown = room < 3 ? Line.truncate(title, to: room) : Line.truncate(" " + title + " ", to: room)
            canvas.write(shown, at: Point(x: area.x + 2, y: area.y), style: titleStyle, clip: area)
        }
    }
}
