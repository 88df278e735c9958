/// A horizontal bar filled in eighths of a cell (`▏▎▍▌▋▊▉█`), so a 10-cell bar shows 80 distinct steps.
public struct ProgressBar: Hashable, Sendable, Widget {
    /// How full, from 0 to 1 (clamped; NaN counts as 0).
    public var fraction: Double
    /// The filled part's style.
    public var style: Style
    /// The empty part's style.
    public var trackStyle: Style

    /// Creates a bar.
    public init(fraction: Double, style: Style = .plain, trackStyle: Style = .plain) {
        self.fraction = fraction
        self.style = style
        self.trackStyle = trackStyle
    }

    /// The partial blocks for one to seven eighths.
    public static let eighths: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// How many eighths of a cell are filled in a bar `width` cells wide (rounded down, so a bar is only
    /// full at 1).
    static func filledEighths(fraction: Double, width: Int) -> Int {
        guard width > 0, !fraction.isNaN else { return 0 }
        let clamped = min(1, max(0, fraction))
        return min(width * 8, Int((clamped * Double(width * 8)).rounded(.down)))
    }

    /// The filled part of the bar as text: full blocks then at most one partial block (never wider than
    /// `width`; the empty rest is not included).
    public static func filledText(fraction: Double, width: Int) -> String {
        let eighthCount = filledEighths(fraction: fraction, width: width)
        var text = String(repeating: "█", count: eighthCount / 8)
        if eighthCount % 8 > 0 { text.append(eighths[eighthCount % 8 - 1]) }
        return text
    }

    /// Draws the bar on the first row of `area`.
    public func render(in area: Rect, on canvas: inout Canvas) {
        guard !area.isEmpty else { return }
        let row = area.row(0)
        let eighthCount = ProgressBar.filledEighths(fraction: fraction, width: row.width)
        let full = eighthCount / 8
        canvas.fill(Rect(x: row.x, y: row.y, width: full, height: 1), with: "█", style: style)
        canvas.clear(Rect(x: row.x + full, y: row.y, width: row.width - full, height: 1), style: trackStyle)
        if eighthCount % 8 > 0 {
            canvas.write(
                String(ProgressBar.eighths[eighthCount % 8 - 1]), at: Point(x: row.x + full, y: row.y), style: style,
                clip: row)
        }
    }
}
