/// How many colours a terminal shows: decided at the edge from `COLORTERM` and curses' `COLORS`; a colour is drawn
/// as the nearest one the depth has (``Color/shown(at:)``).
public enum ColorDepth: String, CaseIterable, Hashable, Sendable {
    /// The 8 ANSI colours (bright ones fall back to their base).
    case ansi8 = "8"
    /// The 256-colour palette.
    case indexed256 = "256"
    /// 24-bit colour (`COLORTERM=truecolor` or `24bit`).
    case trueColor = "truecolor"

    /// The depth of a terminal whose curses reports `colors` colours, given its environment's `COLORTERM`.
    public static func detect(colors: Int, environment: [String: String]) -> ColorDepth {
        let colorTerm = environment["COLORTERM"]?.lowercased()
        if colors >= 256 && (colorTerm == "truecolor" || colorTerm == "24bit") { return .trueColor }
        return colors >= 256 ? .indexed256 : .ansi8
    }
}

extension Color {
    /// This colour as a terminal of `depth` shows it: a 24-bit one on the nearest palette entry below true colour,
    /// and at 8 colours anything beyond the 16 ANSI colours on the nearest of those.
    public func shown(at depth: ColorDepth) -> Color {
        switch depth {
        case .trueColor: return self
        case .indexed256: return components == nil ? self : .indexed(UInt8(paletteIndex))
        case .ansi8:
            guard paletteIndex >= 16 || components != nil else { return self }
            let (red, green, blue) = components ?? Self.palette(UInt8(paletteIndex))
            return .indexed(Self.nearestANSI(red: red, green: green, blue: blue))
        }
    }

    private typealias RGB = (red: UInt8, green: UInt8, blue: UInt8)

    /// xterm's values of the 16 ANSI colours.
    private static let ansi: [RGB] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
        (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255),
        (0, 255, 255), (255, 255, 255),
    ]
    /// The six levels of each channel in xterm's 6×6×6 colour cube (entries 16–231).
    private static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]

    /// The colour of entry `index` of xterm's 256-colour palette.
    private static func palette(_ index: UInt8) -> RGB {
        switch index {
        case 0..<16: return ansi[Int(index)]
        case 16..<232:
            let cube = Int(index) - 16
            return (cubeLevels[cube / 36], cubeLevels[cube / 6 % 6], cubeLevels[cube % 6])
        default:
            let level = UInt8(8 + (Int(index) - 232) * 10)
            return (level, level, level)
        }
    }

    private static func distance(_ a: RGB, _ b: RGB) -> Int {
        let (red, green, blue) = (Int(a.red) - Int(b.red), Int(a.green) - Int(b.green), Int(a.blue) - Int(b.blue))
        return red * red + green * green + blue * blue
    }

    /// The nearest of the 16 ANSI colours.
    static func nearestANSI(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        let color = (red, green, blue)
        return UInt8(ansi.indices.min { distance(ansi[$0], color) < distance(ansi[$1], color) } ?? 7)
    }

    /// The nearest entry of xterm's colour cube or grey ramp (16–255): the cube's nearest level on each channel,
    /// or the ramp's nearest grey, whichever is closer. Constant time, as a frame asks it for each such cell.
    static func nearestPaletteIndex(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        let color = (red, green, blue)
        func level(_ channel: UInt8) -> Int {
            cubeLevels.indices.min { abs(Int(cubeLevels[$0]) - Int(channel)) < abs(Int(cubeLevels[$1]) - Int(channel)) }
                ?? 0
        }
        let cube = UInt8(16 + 36 * level(red) + 6 * level(green) + level(blue))
        let average = (Int(red) + Int(green) + Int(blue)) / 3
        let grey = UInt8(232 + min(23, max(0, (average - 3) / 10)))
        return distance(palette(grey), color) < distance(palette(cube), color) ? grey : cube
    }
}
