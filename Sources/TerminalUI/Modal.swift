/// A box centred over everything else, clearing what lies beneath it: dialogs and the help overlay. Its body
/// can be a ``ScrollView``: taller than the room, it scrolls, and the border says how much more lies above and
/// below.
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

    /// A modal whose outer size shows `content` whole inside a ``Panel`` (border and padding).
    public init(title: String? = nil, fitting content: Size, style: Style = .plain) {
        self.init(title: title, size: Panel.outerSize(content: content), style: style)
    }

    /// The panel the modal is drawn as.
    public var panel: Panel {
        Panel(title: title, style: style, titleStyle: style.adding(.bold))
    }

    /// Clears the modal's rectangle, draws its box, and returns the inside of the border for the content.
    @discardableResult
    public func render(in area: Rect, on canvas: inout Canvas) -> Rect {
        let outer = frame(in: area)
        canvas.clear(outer, style: style)
        panel.render(in: outer, on: &canvas)
        return panel.box.inner(outer)
    }

    /// Clears the modal's rectangle, draws its panel and `body` inside the padding, scrolled to its offset;
    /// `↑ N more` in the top edge and `↓ N more` in the bottom edge (at the right) say what is out of view.
    /// - Returns: the area the body was drawn in.
    @discardableResult
    public func render(_ body: ScrollView, in area: Rect, on canvas: inout Canvas) -> Rect {
        render(in: area, on: &canvas)
        let outer = frame(in: area)
        let content = panel.inner(outer)
        body.render(in: content, on: &canvas)
        let hidden = body.hidden(height: content.height)
        if hidden.above > 0 { mark("↑ \(hidden.above) more", row: outer.y, of: outer, on: &canvas) }
        if hidden.below > 0 { mark("↓ \(hidden.below) more", row: outer.maxY - 1, of: outer, on: &canvas) }
        return content
    }

    /// How many body rows a modal shows in `area`: its height, clipped to the area, less the border.
    public func bodyHeight(in area: Rect) -> Int {
        max(0, frame(in: area).height - 2)
    }

    /// Writes ` text ` into the border row `row`, two cells from the right corner, when it fits beside the
    /// title.
    private func mark(_ text: String, row: Int, of outer: Rect, on canvas: inout Canvas) {
        let label = " \(text) "
        let x = outer.maxX - 2 - DisplayWidth.of(label)
        // Never over the title, which the top edge shows from its third cell.
        let titleEnd = row == outer.y ? outer.x + 2 + (title.map { DisplayWidth.of(" \($0) ") } ?? 0) : outer.x + 1
        guard outer.height >= 2, x >= titleEnd else { return }
        canvas.write(label, at: Point(x: x, y: row), style: style.adding(.bold), clip: outer)
    }
}
