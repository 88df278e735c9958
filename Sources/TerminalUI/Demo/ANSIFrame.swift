/// A canvas as the bytes a terminal needs to show it from scratch: home, clear, then every row with its
/// styles as SGR sequences. What `--record` writes for each frame; the subset is small on purpose (cursor
/// position, clear screen, SGR) so a recording can be replayed by a tiny interpreter.
public enum ANSIFrame {
    /// The escape character.
    static let escape = "\u{1B}"

    /// The full repaint of `canvas`. Trailing plain blanks of a row are left out.
    public static func render(_ canvas: Canvas) -> String {
        var out = "\(escape)[0m\(escape)[H\(escape)[2J"
        for y in 0..<canvas.size.height {
            var last = -1
            for x in 0..<canvas.size.width {
                let cell = canvas[x, y]
                if !(cell.grapheme == " " && cell.style == .plain) && !cell.isContinuation { last = x }
            }
            guard last >= 0 else { continue }
            out += "\(escape)[\(y + 1);1H"
            var current = Style.plain
            for x in 0...last {
                let cell = canvas[x, y]
                if cell.isContinuation { continue }
                if cell.style != current {
                    out += sgr(cell.style)
                    current = cell.style
                }
                out += cell.grapheme.isEmpty ? " " : cell.grapheme
            }
            if current != .plain { out += "\(escape)[0m" }
        }
        return out
    }

    /// The SGR sequence that sets `style` from scratch.
    static func sgr(_ style: Style) -> String {
        var codes = ["0"]
        if style.attributes.contains(.bold) { codes.append("1") }
        if style.attributes.contains(.dim) { codes.append("2") }
        if style.attributes.contains(.underline) { codes.append("4") }
        if style.attributes.contains(.reverse) { codes.append("7") }
        codes += color(style.foreground, base: 30)
        codes += color(style.background, base: 40)
        return "\(escape)[\(codes.joined(separator: ";"))m"
    }

    private static func color(_ color: Color, base: Int) -> [String] {
        if let (red, green, blue) = color.components { return ["\(base + 8)", "2", "\(red)", "\(green)", "\(blue)"] }
        let index = Int(color.paletteIndex)
        switch index {
        case ..<0: return []
        case 0..<8: return ["\(base + index)"]
        case 8..<16: return ["\(base + 60 + index - 8)"]
        default: return ["\(base + 8)", "5", "\(index)"]
        }
    }
}
