/// A way to move through something taller than its area: a line, a page, or to either end.
public enum ScrollMove: Hashable, Sendable {
    /// One line back (↑, the wheel turned up).
    case lineUp
    /// One line on (↓, the wheel turned down).
    case lineDown
    /// One page back (Page Up).
    case pageUp
    /// One page on (Page Down).
    case pageDown
    /// To the first line (Home).
    case top
    /// To the last page (End).
    case bottom

    /// Lines the wheel moves per notch.
    public static let wheelLines = 3

    /// The move a key makes in a scrolled view: ↑/↓, Page Up/Down, Home/End; nil for any other key.
    public init?(key: Key) {
        switch key {
        case .up: self = .lineUp
        case .down: self = .lineDown
        case .pageUp: self = .pageUp
        case .pageDown: self = .pageDown
        case .home: self = .top
        case .end: self = .bottom
        case .character, .control, .left, .right, .insert, .delete, .tab, .backTab, .escape, .enter, .backspace,
            .function, .resize, .mouse:
            return nil
        }
    }

    /// The first line shown after this move, from `offset`, in a view of `count` lines and `height` rows
    /// (a page is the height less one line kept for context, at least one line); never past either end.
    public func offset(from offset: Int, count: Int, height: Int) -> Int {
        let start = ScrollView.clampedOffset(offset, count: count, height: height)
        let page = max(1, height - 1)
        let moved =
            switch self {
            case .lineUp: start - 1
            case .lineDown: start + 1
            case .pageUp: start - page
            case .pageDown: start + page
            case .top: 0
            case .bottom: count
            }
        return ScrollView.clampedOffset(moved, count: count, height: height)
    }

    /// The first line shown after the wheel turned (`wheelLines` at a time), nil for any other report.
    public static func offset(afterWheel event: MouseEvent, from offset: Int, count: Int, height: Int) -> Int? {
        let lines: Int
        switch event.action {
        case .wheelUp: lines = -wheelLines
        case .wheelDown: lines = wheelLines
        case .press, .release: return nil
        }
        return ScrollView.clampedOffset(
            ScrollView.clampedOffset(offset, count: count, height: height) + lines, count: count, height: height)
    }
}

/// Lines taller than their area, shown from a first line: the body of a scrolled overlay.
public struct ScrollView: Hashable, Sendable, Widget {
    /// Every line, top to bottom.
    public var lines: [Line]
    /// The first line the caller would like shown (clamped so the view never scrolls past the end).
    public var offset: Int

    /// Creates a view of `lines` from `offset`.
    public init(lines: [Line], offset: Int = 0) {
        self.lines = lines
        self.offset = offset
    }

    /// `offset` kept where a view of `count` lines in `height` rows shows a full page: not below zero, not
    /// past the last page.
    public static func clampedOffset(_ offset: Int, count: Int, height: Int) -> Int {
        min(max(0, offset), max(0, count - max(0, height)))
    }

    /// The first line shown in `height` rows.
    public func firstLine(height: Int) -> Int {
        ScrollView.clampedOffset(offset, count: lines.count, height: height)
    }

    /// How many lines lie above and below what `height` rows show.
    public func hidden(height: Int) -> (above: Int, below: Int) {
        let first = firstLine(height: height)
        return (first, max(0, lines.count - first - max(0, height)))
    }

    /// Draws the lines that fit, from the first line shown.
    public func render(in area: Rect, on canvas: inout Canvas) {
        let first = firstLine(height: area.height)
        for (row, line) in lines.dropFirst(first).prefix(area.height).enumerated() {
            line.render(in: area.row(row), on: &canvas)
        }
    }
}
