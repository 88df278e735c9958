/// A terminal colour: the terminal's default, one of the 16 ANSI colours, an index of a 256-colour palette, or a
/// 24-bit colour (``rgb(_:_:_:)``). Stored as one number (-1 for the default, the palette index, or the 24 bits
/// with bit 24 set) so cells stay small and compare fast.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    private let value: Int32

    private init(value: Int32) {
        self.value = value
    }

    private init(paletteIndex: Int16) {
        self.value = Int32(paletteIndex)
    }

    private static let directBit: Int32 = 1 << 24

    /// The curses palette number, -1 for the terminal's default; a 24-bit colour gives the nearest entry of the
    /// 256-colour palette (``nearestPaletteIndex(red:green:blue:)``), as a terminal without true colour shows it.
    public var paletteIndex: Int16 {
        guard let (red, green, blue) = components else { return Int16(value) }
        return Int16(Self.nearestPaletteIndex(red: red, green: green, blue: blue))
    }

    /// The red, green and blue of a 24-bit colour; nil for the default and a palette colour.
    public var components: (red: UInt8, green: UInt8, blue: UInt8)? {
        guard value >= 0, value & Self.directBit != 0 else { return nil }
        return (UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }

    /// A 24-bit colour, shown as such where the terminal has true colour and as the nearest palette entry
    /// elsewhere.
    public static func rgb(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> Color {
        Color(value: directBit | Int32(red) << 16 | Int32(green) << 8 | Int32(blue))
    }

    /// Whatever the terminal uses when nothing is set (keeps transparent backgrounds transparent).
    public static let `default` = Color(paletteIndex: -1)
    /// ANSI 0.
    public static let black = Color(paletteIndex: 0)
    /// ANSI 1.
    public static let red = Color(paletteIndex: 1)
    /// ANSI 2.
    public static let green = Color(paletteIndex: 2)
    /// ANSI 3.
    public static let yellow = Color(paletteIndex: 3)
    /// ANSI 4.
    public static let blue = Color(paletteIndex: 4)
    /// ANSI 5.
    public static let magenta = Color(paletteIndex: 5)
    /// ANSI 6.
    public static let cyan = Color(paletteIndex: 6)
    /// ANSI 7.
    public static let white = Color(paletteIndex: 7)
    /// ANSI 8.
    public static let brightBlack = Color(paletteIndex: 8)
    /// ANSI 9.
    public static let brightRed = Color(paletteIndex: 9)
    /// ANSI 10.
    public static let brightGreen = Color(paletteIndex: 10)
    /// ANSI 11.
    public static let brightYellow = Color(paletteIndex: 11)
    /// ANSI 12.
    public static let brightBlue = Color(paletteIndex: 12)
    /// ANSI 13.
    public static let brightMagenta = Color(paletteIndex: 13)
    /// ANSI 14.
    public static let brightCyan = Color(paletteIndex: 14)
    /// ANSI 15.
    public static let brightWhite = Color(paletteIndex: 15)

    /// An entry of the 256-colour palette (0–15 are the ANSI colours above).
    public static func indexed(_ index: UInt8) -> Color {
        Color(paletteIndex: Int16(index))
    }

    /// `default`, `color(N)` or `#rrggbb`.
    public var description: String {
        if let (red, green, blue) = components {
            return "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        }
        return value < 0 ? "default" : "color(\(value))"
    }
}

/// Text attributes that survive without colour.
public struct Attributes: OptionSet, Hashable, Sendable {
    /// The raw bits.
    public let rawValue: UInt8
    /// Creates attributes from raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bold (or bright) text.
    public static let bold = Attributes(rawValue: 1 << 0)
    /// Foreground and background swapped.
    public static let reverse = Attributes(rawValue: 1 << 1)
    /// Faint text.
    public static let dim = Attributes(rawValue: 1 << 2)
    /// Underlined text.
    public static let underline = Attributes(rawValue: 1 << 3)
}

/// How a cell looks: foreground and background colours and attributes.
public struct Style: Hashable, Sendable {
    /// Text colour.
    public var foreground: Color
    /// Cell background.
    public var background: Color
    /// Bold, reverse, dim, underline.
    public var attributes: Attributes

    /// Creates a style; everything defaults to the terminal's own look.
    public init(foreground: Color = .default, background: Color = .default, attributes: Attributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// The terminal's default look.
    public static let plain = Style()
    /// Bold text.
    public static let bold = Style(attributes: .bold)
    /// Reverse video, the usual highlight of a selected row.
    public static let reverse = Style(attributes: .reverse)
    /// Faint text.
    public static let dim = Style(attributes: .dim)
    /// Underlined text.
    public static let underline = Style(attributes: .underline)

    /// This style with another foreground colour.
    public func foreground(_ color: Color) -> Style {
        var copy = self
        copy.foreground = color
        return copy
    }

    /// This style with another background colour.
    public func background(_ color: Color) -> Style {
        var copy = self
        copy.background = color
        return copy
    }

    /// This style with `extra` attributes added.
    public func adding(_ extra: Attributes) -> Style {
        var copy = self
        copy.attributes.formUnion(extra)
        return copy
    }

    /// The style as shown without colour (`NO_COLOR`): colours dropped, attributes (bold, reverse, dim,
    /// underline) kept. Highlights that must survive are therefore drawn with `.reverse`, never with a
    /// background colour alone (a coloured track turned into reverse video would look filled).
    public var monochrome: Style {
        Style(attributes: attributes)
    }
}
