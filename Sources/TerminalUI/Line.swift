/// One line of styled text: spans side by side, aligned in its area, cut with an ellipsis when too wide.
public struct Line: Hashable, Sendable, Widget, ExpressibleByStringLiteral {
    /// The spans, left to right.
    public var spans: [Span]
    /// Where the line sits when its area is wider.
    public var alignment: Alignment

    /// Creates a line of spans.
    public init(_ spans: [Span], alignment: Alignment = .left) {
        self.spans = spans
        self.alignment = alignment
    }

    /// A line of one span.
    public init(_ text: String, style: Style = .plain, alignment: Alignment = .left) {
        self.init([Span(text, style: style)], alignment: alignment)
    }

    /// A plain line from a literal.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// Columns the whole line takes.
    public var width: Int { spans.reduce(0) { $0 + $1.width } }

    /// The plain text of the line.
    public var plainText: String { spans.map(\.text).joined() }

    /// The line cut to at most `width` columns, ending in `…` when something was cut.
    public func truncated(to width: Int) -> Line {
        truncated(to: width, fullWidth: self.width)
    }

    /// ``truncated(to:)`` for a line whose width is already known.
    private func truncated(to width: Int, fullWidth: Int) -> Line {
        guard fullWidth > width else { return self }
        guard width > 0 else { return Line([], alignment: alignment) }
        var remaining = width - 1
        var kept: [Span] = []
        for span in spans {
            if span.width <= remaining {
                kept.append(span)
                remaining -= span.width
                continue
            }
            let cut = Line.truncate(span.text, to: remaining, ellipsis: "")
            if !cut.isEmpty { kept.append(Span(cut, style: span.style)) }
            break
        }
        let ellipsisStyle = kept.last?.style ?? spans.first?.style ?? .plain
        kept.append(Span("…", style: ellipsisStyle))
        return Line(kept, alignment: alignment)
    }

    /// Draws the line on the first row of `area`, truncated with an ellipsis and aligned.
    public func render(in area: Rect, on canvas: inout Canvas) {
        render(in: area, alignment: alignment, on: &canvas)
    }

    /// ``render(in:on:)`` placed by `alignment` instead of the line's own (a table's column sets it), without
    /// a copy of the line.
    func render(in area: Rect, alignment: Alignment, on canvas: inout Canvas) {
        guard !area.isEmpty else { return }
        let fullWidth = width
        let line = truncated(to: area.width, fullWidth: fullWidth)
        // A line that fits is drawn as it is: its width is known, no need to measure it again.
        let slack = area.width - (fullWidth > area.width ? line.width : fullWidth)
        var x = area.x
        switch alignment {
        case .left: break
        case .center: x += slack / 2
        case .right: x += slack
        }
        for span in line.spans {
            x = canvas.write(span.text, at: Point(x: x, y: area.y), style: span.style, clip: area)
        }
    }

    /// `text` cut to at most `width` columns, with `ellipsis` (counted in the width) when something was cut.
    /// Width-aware: a wide character that would not fit whole is left out.
    public static func truncate(_ text: String, to width: Int, ellipsis: String = "…") -> String {
        let ellipsisWidth = DisplayWidth.of(ellipsis)
        var remaining = width - ellipsisWidth
        // Every scalar a grapheme of its own (ASCII, the dashboard's punctuation and symbols): one pass measures
        // the text and finds where the kept part ends, without grapheme breaking.
        let scalars = text.unicodeScalars
        var columns = 0
        var end: String.UnicodeScalarView.Index?
        var index = scalars.startIndex
        while index < scalars.endIndex, DisplayWidth.isStandalone(scalars[index]) {
            let scalarWidth = DisplayWidth.of(scalars[index])
            if end == nil, columns + scalarWidth > remaining { end = index }
            columns += scalarWidth
            index = scalars.index(after: index)
        }
        if index == scalars.endIndex {
            guard columns > width else { return text }
            guard width >= ellipsisWidth else { return "" }
            return String(scalars[..<(end ?? scalars.endIndex)]) + ellipsis
        }
        guard DisplayWidth.of(text) > width else { return text }
        guard width >= ellipsisWidth else { return "" }
        var result = ""
        for character in text {
            let characterWidth = DisplayWidth.of(character)
            if characterWidth > remaining { break }
            result.append(character)
            remaining -= characterWidth
        }
        return result + ellipsis
    }
}
