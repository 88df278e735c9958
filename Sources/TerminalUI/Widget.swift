/// Something that draws itself into a rectangle of a canvas. Drawing is pure: the same widget, area and
/// canvas always give the same cells, and nothing outside `area` changes.
public protocol Widget {
    /// Draws into `area` of `canvas`, clipped to it.
    func render(in area: Rect, on canvas: inout Canvas)
}

/// Horizontal placement of text in a wider area.
public enum Alignment: Hashable, Sendable {
    /// Flush left.
    case left
    /// Centred, any odd cell going to the right.
    case center
    /// Flush right.
    case right
}

/// Drawing widgets from the canvas's side.
extension Canvas {
    /// Draws `widget` into `area`: `canvas.render(Box(title: "Transfers"), in: area)`.
    public mutating func render(_ widget: some Widget, in area: Rect) {
        widget.render(in: area, on: &self)
    }
}
