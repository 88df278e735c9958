/// One entry of a key-help bar: the key as printed and what it does.
public struct KeyHelp: Hashable, Sendable {
    /// The key, as the user reads it (`↑/k`, `space`, `q`).
    public var key: String
    /// What it does (`pause`).
    public var label: String

    /// Creates an entry.
    public init(_ key: String, _ label: String) {
        self.key = key
        self.label = label
    }

    /// `key label`.
    public var text: String { "\(key) \(label)" }
}

/// A one-row bar of key hints, `s start · p pause · q quit`; entries that do not fit are dropped from the
/// end (never cut in half) and a `…` says some are missing.
public struct KeyHelpBar: Hashable, Sendable, Widget {
    /// The entries, most important first.
    public var items: [KeyHelp]
    /// The keys' style.
    public var keyStyle: Style
    /// The labels' style.
    public var labelStyle: Style

    /// The text between entries.
    public static let separator = " · "

    /// Creates a bar.
    public init(items: [KeyHelp], keyStyle: Style = .bold, labelStyle: Style = .plain) {
        self.items = items
        self.keyStyle = keyStyle
        self.labelStyle = labelStyle
    }

    /// How many leading entries fit in `width` columns, leaving room for ` …` when some are dropped.
    public static func fittingCount(_ items: [KeyHelp], width: Int) -> Int {
        let separatorWidth = DisplayWidth.of(separator)
        var used = 0
        var widths: [Int] = []
        for (index, item) in items.enumerated() {
            used += (index > 0 ? separatorWidth : 0) + DisplayWidth.of(item.text)
            widths.append(used)
        }
        if let total = widths.last, total <= width { return items.count }
        // Some must go: keep the longest prefix that leaves two cells for " …".
        var count = 0
        while count < widths.count && widths[count] + 2 <= width { count += 1 }
        return count
    }

    /// The bar as a styled line for `width` columns.
    public func line(width: Int) -> Line {
        let count = KeyHelpBar.fittingCount(items, width: width)
        var spans: [Span] = []
        for (index, item) in items.prefix(count).enumerated() {
            if index > 0 { spans.append(Span(KeyHelpBar.separator, style: labelStyle)) }
            spans.append(Span(item.key, style: keyStyle))
            spans.append(Span(" " + item.label, style: labelStyle))
        }
        if count < items.count && width >= 1 {
            spans.append(Span(count > 0 ? " …" : "…", style: labelStyle))
        }
        return Line(spans)
    }

    /// Draws the bar on the first row of `area`.
    public func render(in area: Rect, on canvas: inout Canvas) {
        line(width: area.width).render(in: area, on: &canvas)
    }
}
