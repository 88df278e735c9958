/// Several lines, one per row from the top of the area; rows beyond the area are clipped and each line is
/// truncated with an ellipsis.
public struct Paragraph: Hashable, Sendable, Widget {
    /// The lines, top to bottom.
    public var lines: [Line]

    /// Creates a paragraph of lines.
    public init(_ lines: [Line]) {
        self.lines = lines
    }

    /// A paragraph of plain text, split at newlines.
    public init(text: String, style: Style = .plain, alignment: Alignment = .left) {
        self.lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            Line(String($0), style: style, alignment: alignment)
        }
    }

    /// Draws the lines that fit.
    public func render(in area: Rect, on canvas: inout Canvas) {
        for (index, line) in lines.prefix(area.height).enumerated() {
            line.render(in: area.row(index), on: &canvas)
        }
    }
}
