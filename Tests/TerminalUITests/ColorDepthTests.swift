import Testing

@testable import TerminalUI

/// 24-bit colours, the depth a terminal shows, and the nearest colour each depth has.
@Suite struct ColorDepthTests {
    @Test(
        arguments: [
            (8, [:], ColorDepth.ansi8), (256, [:], .indexed256), (256, ["COLORTERM": "truecolor"], .trueColor),
            (256, ["COLORTERM": "24bit"], .trueColor), (8, ["COLORTERM": "truecolor"], .ansi8),
            (16_777_216, ["COLORTERM": "TrueColor"], .trueColor), (256, ["COLORTERM": "yes"], .indexed256),
        ] as [(Int, [String: String], ColorDepth)])
    func depthFollowsCursesColoursAndColorterm(colors: Int, environment: [String: String], depth: ColorDepth) {
        #expect(ColorDepth.detect(colors: colors, environment: environment) == depth)
    }

    @Test func aTwentyFourBitColourKeepsItsComponents() {
        let color = Color.rgb(0x12, 0xab, 0x05)
        #expect(color.components.map { [$0.red, $0.green, $0.blue] } == [0x12, 0xab, 0x05])
        #expect(color.description == "#12ab05")
        #expect(Color.indexed(200).components == nil)
        #expect(Color.rgb(0, 0, 0) != .black)
    }

    @Test(
        arguments: [
            (Color.rgb(255, 0, 0), ColorDepth.trueColor, Color.rgb(255, 0, 0)),
            (.rgb(255, 0, 0), .indexed256, .indexed(196)),
            (.rgb(255, 0, 0), .ansi8, .brightRed),
            (.rgb(0x80, 0x80, 0x80), .indexed256, .indexed(244)),
            (.rgb(0, 0, 0xd0), .ansi8, .blue),
            (.indexed(208), .ansi8, .yellow),
            (.indexed(208), .indexed256, .indexed(208)),
            (.brightCyan, .ansi8, .brightCyan),
            (.default, .ansi8, .default),
        ] as [(Color, ColorDepth, Color)])
    func aColourIsShownAsTheNearestTheDepthHas(color: Color, depth: ColorDepth, shown: Color) {
        #expect(color.shown(at: depth) == shown)
    }

    @Test func theAnsiFrameWritesTwentyFourBitColoursAsSuch() {
        #expect(
            ANSIFrame.sgr(Style(foreground: .rgb(1, 2, 3), background: .indexed(200)))
                == "\u{1B}[0;38;2;1;2;3;48;5;200m")
        #expect(ANSIFrame.sgr(Style(foreground: .red)) == "\u{1B}[0;31m")
    }
}
