/// A box centred over everything else, clearing what lies beneath it: dialogs and the help overlay.
public struct Modal: Hashable, Sendable {
    /// The box's title.
    public var title: String?
    /// The wanted size, border included (shrunk to fit the area).
    public var size: Size
    /// The box's style (border and cleared background).
    public var style: Style

    /// Creates a modal of the wanted outer size.
    public init(title: String? = nil, size: Size, style: Style = .plain) {
        self.title = title
        self.size = size
        self.style = style
    }

    /// The outer rectangle of the modal in `area`.
    public func frame(in area: Rect) -> Rect {
        area.centered(width: size.width, height: size.height)
    }

    /// Clears the modal's rectangle, draws its box, and returns the inside for the content.
    @discardableResult
    public func render(in area: Rect, on canvas: inout Canvas) -> Rect {
        let outer = frame(in: area)
        canvas.clear(outer, style: style)
        let box = Box(title: title, style: style, titleStyle: style.adding(.bold))
        box.render(in: outer, on: &canvas)
        return box.inner(outer)
    }
}
