/// The characters a terminal can show: every glyph of a frame passes through one before it is written, so
/// views stay pure and draw the same canvas everywhere, and a terminal whose locale is not UTF-8 receives
/// ASCII borders (`+-+|`), bars (`#` and `=`) and marks instead of bytes it would garble.
public enum GlyphSet: Hashable, Sendable {
    /// Every character as drawn (a UTF-8 locale).
    case unicode
    /// ASCII only: box drawing, blocks, arrows and marks have ASCII stand-ins; any other non-ASCII
    /// character is shown as `?`.
    case ascii

    /// The set for a locale: ``unicode`` when the locale selected from the environment encodes UTF-8, or when
    /// no locale is named at all (`LC_ALL`, `LC_CTYPE` and `LANG` unset or empty, where UTF-8 is assumed, as
    /// terminals are); ``ascii`` for a named locale that is not UTF-8, such as `LC_ALL=C`.
    public static func forLocale(environment: [String: String], selectedLocaleIsUTF8: Bool) -> GlyphSet {
        let namesALocale = ["LC_ALL", "LC_CTYPE", "LANG"].contains { !(environment[$0] ?? "").isEmpty }
        return selectedLocaleIsUTF8 || !namesALocale ? .unicode : .ascii
    }

    /// The text to write for one cell's grapheme.
    public func shown(_ grapheme: String) -> String {
        switch self {
        case .unicode: return grapheme
        case .ascii:
            if grapheme.utf8.allSatisfy({ $0 < 0x80 }) { return grapheme }
            return Self.asciiStandIns[grapheme] ?? "?"
        }
    }

    /// The ASCII stand-in for each glyph the widgets and screens draw.
    public static let asciiStandIns: [String: String] = {
        var table: [String: String] = [:]
        for glyph in ["─", "━", "—", "–"] { table[glyph] = "-" }
        // Double lines mark a state diagram's initial state: `=` keeps them apart from single ones.
        table["═"] = "="
        for glyph in ["│", "┃", "║"] { table[glyph] = "|" }
        for glyph in [
            "┌", "┐", "└", "┘", "╭", "╮", "╰", "╯", "╔", "╗", "╚", "╝", "├", "┤", "┬", "┴", "┼", "╤", "╧", "╟",
        ] {
            table[glyph] = "+"
        }
        // The arrowheads of a state diagram's edges.
        table["▲"] = "^"
        table["▼"] = "v"
        table["◀"] = "<"
        table["▶"] = ">"
        table["█"] = "#"
        for glyph in ProgressBar.eighths { table[String(glyph)] = "=" }
        let spinner = ["|", "/", "-", "\\"]
        for (index, frame) in Spinner.frames.enumerated() { table[frame] = spinner[index % spinner.count] }
        table["…"] = "."
        table["·"] = "-"
        table["•"] = "*"
        table["↑"] = "^"
        table["↓"] = "v"
        table["←"] = "<"
        table["→"] = ">"
        table["⚠"] = "!"
        table["✓"] = "+"
        table["✗"] = "x"
        return table
    }()
}

extension BorderSet {
    /// `+-+|`: the border a terminal without UTF-8 can show.
    public static let ascii = BorderSet(
        topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+", horizontal: "-", vertical: "|")
}
