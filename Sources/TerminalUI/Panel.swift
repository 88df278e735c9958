/// The one frame every screen draws its parts in: a border, a title in the top edge, and one column of
/// padding inside each side, so panes look alike wherever they are.
public struct Panel: Hashable, Sendable, Widget {
    /// The title shown in the top edge.
    public var title: String?
    /// The border's style.
    public var style: Style
    /// The title's style.
    public var titleStyle: Style
    /// The border characters.
    public var border: BorderSet

    /// Columns of padding between the border and the content, on the left and on the right.
    public static let padding = 1

    /// Creates a panel.
    public init(title: String? = nil, style: Style = .plain, titleStyle: Style = .bold, border: BorderSet = .single) {
        self.title = title
        self.style = style
        self.titleStyle = titleStyle
        self.border = border
    }

    /// The box the border is drawn with.
    public var box: Box {
        Box(title: title, style: style, titleStyle: titleStyle, border: border)
    }

    /// The area for the content: inside the border, less the padding on either side.
    public func inner(_ area: Rect) -> Rect {
        box.inner(area).inset(left: Panel.padding, right: Panel.padding)
    }

    /// The outer size a panel needs to show `content` whole.
    public static func outerSize(content: Size) -> Size {
        Size(width: content.width + 2 + 2 * padding, height: content.height + 2)
    }

    /// Draws the border and the title.
    public func render(in area: Rect, on canvas: inout Canvas) {
        box.render(in: area, on: &canvas)
    }
}
