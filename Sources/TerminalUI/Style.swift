/// A terminal colour: the terminal's default, one of the 16 ANSI colours, or an index of a 256-colour palette.
public enum Color: Hashable, Sendable {
    /// Whatever the terminal uses when nothing is set (keeps transparent backgrounds transparent).
    case `default`
    /// ANSI 0.
    case black
    /// ANSI 1.
    case red
    /// ANSI 2.
    case green
    /// ANSI 3.
    case yellow
    /// ANSI 4.
    case blue
    /// ANSI 5.
    case magenta
    /// ANSI 6.
    case cyan
    /// ANSI 7.
    case white
    /// ANSI 8.
    case brightBlack
    /// ANSI 9.
    case brightRed
    /// ANSI 10.
    case brightGreen
    /// ANSI 11.
    case brightYellow
    /// ANSI 12.
    case brightBlue
    /// ANSI 13.
    case brightMagenta
    /// ANSI 14.
    case brightCyan
    /// ANSI 15.
    case brightWhite
    /// An entry of the 256-colour palette.
    case indexed(UInt8)

    /// The palette number curses uses for this colour, -1 for the default.
    public var paletteIndex: Int {
        switch self {
        case .default: -1
        case .black: 0
        case .red: 1
        case .green: 2
        case .yellow: 3
        case .blue: 4
        case .magenta: 5
        case .cyan: 6
        case .white: 7
        case .brightBlack: 8
        case .brightRed: 9
        case .brightGreen: 10
        case .brightYellow: 11
        case .brightBlue: 12
        case .brightMagenta: 13
        case .brightCyan: 14
        case .brightWhite: 15
        case .indexed(let index): Int(index)
        }
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

    /// The style as shown without colour (`NO_COLOR`): colours dropped, attributes kept, and a coloured
    /// background turned into reverse video so a highlighted area stays distinguishable.
    public var monochrome: Style {
        var attributes = self.attributes
        if background != .default {
            attributes.formSymmetricDifference(.reverse)
        }
        return Style(foreground: .default, background: .default, attributes: attributes)
    }
}
