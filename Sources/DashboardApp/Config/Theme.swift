import SeedModels
import TerminalUI

/// A colour a configuration names: one of the 16 ANSI colours by name, a 256-colour index, or `#rrggbb`.
package enum ThemeColor: Hashable, Sendable, CustomStringConvertible {
    /// A palette index 0–255 (0–15 are the ANSI colours).
    case indexed(UInt8)
    /// A 24-bit colour.
    case rgb(red: UInt8, green: UInt8, blue: UInt8)

    /// The ANSI colour names, by palette index.
    package static let names = [
        "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white", "bright-black", "bright-red",
        "bright-green", "bright-yellow", "bright-blue", "bright-magenta", "bright-cyan", "bright-white",
    ]

    /// A name (`green`), `#rrggbb` or nil.
    package init?(name: String) {
        if let index = Self.names.firstIndex(of: name) {
            self = .indexed(UInt8(index))
            return
        }
        let hex = Array(name.utf8)
        guard hex.count == 7, hex[0] == UInt8(ascii: "#"), let value = UInt32(name.dropFirst(), radix: 16),
            hex.dropFirst().allSatisfy({ UnicodeScalar($0).properties.isASCIIHexDigit })
        else { return nil }
        self = .rgb(red: UInt8(value >> 16), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
    }

    /// How a configuration writes it: a name, an index or `#rrggbb`.
    package var description: String {
        switch self {
        case .indexed(let index): index < 16 ? "\"\(Self.names[Int(index)])\"" : String(index)
        case .rgb(let red, let green, let blue):
            "\"#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() + "\""
        }
    }

    /// The colour as a terminal of `depth` shows it (``Color/shown(at:)``): a 24-bit one on the nearest palette
    /// entry below true colour, anything beyond the 16 ANSI colours on the nearest of those at 8.
    package func color(at depth: ColorDepth) -> Color {
        switch self {
        case .indexed(let index): Color.indexed(index).shown(at: depth)
        case .rgb(let red, let green, let blue): Color.rgb(red, green, blue).shown(at: depth)
        }
    }
}

/// The dashboard's colours: a light or a dark theme, each phase's colour overridable, shown at the terminal's
/// depth. The screens draw each phase in its ANSI colour (``PresentedPhase/style``); the theme recolours the
/// finished frame (``recolor(_:)``), so no view needs to know the theme and the default dark theme at 8 colours
/// draws exactly what the views drew.
package struct Theme: Hashable, Sendable {
    /// The built-in themes.
    package enum Name: String, CaseIterable, Hashable, Sendable {
        /// For a dark background (the default).
        case dark
        /// For a light background.
        case light
    }

    /// The phases a configuration may colour: all but idle, which is drawn in the terminal's own colour.
    package static let colouredPhases: [PresentedPhase] = [.active, .paused, .done, .failed]

    /// The built-in theme.
    package var name: Name
    /// The colours the configuration sets, by phase.
    package var overrides: [PresentedPhase: ThemeColor]
    /// The depth the terminal shows.
    package var depth: ColorDepth

    /// A theme; by default the dark one at 8 colours with nothing overridden.
    package init(name: Name = .dark, overrides: [PresentedPhase: ThemeColor] = [:], depth: ColorDepth = .ansi8) {
        self.name = name
        self.overrides = overrides
        self.depth = depth
    }

    /// The configuration's name of a phase: `active`, `paused`, `done`, `failed`.
    package static func key(_ phase: PresentedPhase) -> String {
        switch phase {
        case .idle: "idle"
        case .active: "active"
        case .paused: "paused"
        case .done: "done"
        case .failed: "failed"
        }
    }

    /// The colour a phase has in the built-in theme `name` at `depth`.
    package static func builtIn(_ phase: PresentedPhase, _ name: Name, at depth: ColorDepth) -> ThemeColor? {
        let ansi: [PresentedPhase: UInt8]
        let rich: [PresentedPhase: ThemeColor]
        switch name {
        case .dark:
            ansi = [.active: 2, .paused: 3, .done: 6, .failed: 1]
            rich = [
                .active: .rgb(red: 0x87, green: 0xd7, blue: 0x5f), .paused: .rgb(red: 0xff, green: 0xd7, blue: 0x5f),
                .done: .rgb(red: 0x5f, green: 0xd7, blue: 0xd7), .failed: .rgb(red: 0xff, green: 0x5f, blue: 0x5f),
            ]
        case .light:
            ansi = [.active: 2, .paused: 5, .done: 4, .failed: 1]
            rich = [
                .active: .rgb(red: 0x00, green: 0x87, blue: 0x00), .paused: .rgb(red: 0xaf, green: 0x5f, blue: 0x00),
                .done: .rgb(red: 0x00, green: 0x5f, blue: 0xaf), .failed: .rgb(red: 0xd7, green: 0x00, blue: 0x00),
            ]
        }
        switch depth {
        case .ansi8: return ansi[phase].map(ThemeColor.indexed)
        case .indexed256, .trueColor: return rich[phase]
        }
    }

    /// The colour a phase is drawn in: the configuration's, else the theme's at the depth.
    package func color(of phase: PresentedPhase) -> Color? {
        (overrides[phase] ?? Self.builtIn(phase, name, at: depth))?.color(at: depth)
    }

    /// The views' colour of each phase mapped to this theme's; empty for the default dark theme at 8 colours.
    private var recolouring: [Color: Color] {
        var map: [Color: Color] = [:]
        for phase in Self.colouredPhases {
            let drawn = phase.style.foreground
            guard let shown = color(of: phase), drawn != shown else { continue }
            map[drawn] = shown
        }
        return map
    }

    /// Recolours a frame the views drew: each phase's ANSI colour becomes this theme's colour of the phase.
    package func recolor(_ canvas: inout Canvas) {
        let map = recolouring
        guard !map.isEmpty else { return }
        canvas.restyle { style in
            var style = style
            if let foreground = map[style.foreground] { style.foreground = foreground }
            if let background = map[style.background] { style.background = background }
            return style
        }
    }
}
