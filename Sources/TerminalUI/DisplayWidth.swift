/// How many terminal columns text takes: 0 for marks and controls, 2 for East Asian wide characters and
/// emoji, 1 otherwise. The project's own table (the C library's `wcwidth` depends on the locale, and tests
/// must not).
public enum DisplayWidth {
    /// The columns one Unicode scalar takes on its own.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value >= 0x20 ? 1 : 0 }
        if value < tableLimit { return Int(table[Int(value)]) }
        return computed(scalar)
    }

    /// The columns one grapheme (a user-perceived character) takes: its base's width, widened to 2 when an
    /// emoji presentation selector (U+FE0F) asks for it or when it is a flag (a pair of regional indicators).
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        let base = of(first)
        if base == 2 || base == 0 || character.utf8.count == 1 { return base }
        var count = 0
        for scalar in scalars {
            count += 1
            if scalar.value == 0xFE0F && first.properties.isEmoji { return 2 }
        }
        if count >= 2 && isRegionalIndicator(first) { return 2 }
        return base
    }

    /// The columns a whole string takes.
    public static func of(_ text: String) -> Int {
        let ascii = text.utf8.withContiguousStorageIfAvailable(asciiColumns) ?? asciiColumns(of: text.utf8)
        // Not ASCII: scalar by scalar when no scalar can join a neighbour, else grapheme by grapheme.
        return ascii ?? standaloneColumns(text) ?? text.reduce(0) { $0 + of($1) }
    }

    /// The columns of `text` measured scalar by scalar, when every scalar is one that never joins a grapheme
    /// with its neighbours (``isStandalone(_:)``), so each scalar is a grapheme of its own (a CR LF pair, one
    /// grapheme, takes no column either way); nil when some scalar needs grapheme breaking.
    static func standaloneColumns(_ text: String) -> Int? {
        var columns = 0
        for scalar in text.unicodeScalars {
            guard isStandalone(scalar) else { return nil }
            columns += of(scalar)
        }
        return columns
    }

    /// Whether `scalar` is never part of a longer grapheme: its grapheme-break property is Other, Control, CR or
    /// LF. True for Latin-1 and the Latin extensions (below the combining diacritics at U+0300), general
    /// punctuation without the invisible joiners and controls (`·`, `–`, `—`, `…`, `‹`, `›`), and the
    /// letterlike symbols through arrows, box drawing, blocks, geometric shapes and dingbats (U+2100–U+2BFF):
    /// what a dashboard's own text is made of. Anything else is measured grapheme by grapheme.
    static func isStandalone(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x300 || (0x2010...0x2027).contains(value) || (0x2030...0x205E).contains(value)
            || (0x2100...0x2BFF).contains(value)
    }

    /// The columns of ASCII bytes (printable ones take one, controls none); nil once a byte is not ASCII.
    private static func asciiColumns(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var columns = 0
        for byte in bytes {
            if byte >= 0x80 { return nil }
            columns &+= byte >= 0x20 && byte < 0x7F ? 1 : 0
        }
        return columns
    }

    /// ``asciiColumns(_:)`` for a string without contiguous UTF-8 (a bridged one).
    private static func asciiColumns(of bytes: String.UTF8View) -> Int? {
        var columns = 0
        for byte in bytes {
            if byte >= 0x80 { return nil }
            columns &+= byte >= 0x20 && byte < 0x7F ? 1 : 0
        }
        return columns
    }

    /// The columns a substring takes.
    public static func of(_ text: Substring) -> Int {
        of(String(text))
    }

    /// Whether every scalar of `text` is a grapheme on its own (no marks, joiners, selectors, controls,
    /// flags or skin-tone modifiers), so it can be laid out scalar by scalar without grapheme breaking.
    static func isScalarSimple(_ text: String) -> Bool {
        for scalar in text.unicodeScalars {
            if of(scalar) == 0 || isRegionalIndicator(scalar) || (0x1F3FB...0x1F3FF).contains(scalar.value) {
                return false
            }
        }
        return true
    }

    private static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(scalar.value)
    }

    /// Scalars below this are looked up in a table built once (box drawing, blocks, braille, Latin, Greek,
    /// Cyrillic, arrows: everything a dashboard draws most).
    private static let tableLimit: UInt32 = 0x3000

    private static let table: [UInt8] = (0..<tableLimit).map { value in
        guard let scalar = Unicode.Scalar(value) else { return 1 }
        return UInt8(computed(scalar))
    }

    private static func computed(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return 0 }
        if isWide(value) { return 2 }
        if value >= 0x1160 && value <= 0x11FF || value >= 0xD7B0 && value <= 0xD7FF {
            return 0  // Hangul medial vowels and final consonants join the syllable before them
        }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control:
            return 0
        default:
            break
        }
        return scalar.properties.isEmojiPresentation ? 2 : 1
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
        0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
        0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
        0x17000...0x18AFF, 0x1B000...0x1B2FF, 0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248,
        0x1F250...0x1F251, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    private static func isWide(_ value: UInt32) -> Bool {
        if value < 0x1100 { return false }
        for range in wideRanges {
            if value < range.lowerBound { return false }
            if value <= range.upperBound { return true }
        }
        return false
    }
}
