import DashboardApp
import SeedModels
import TerminalUI
import Testing

/// Colour depths, the built-in themes and the colours a configuration sets, applied to a drawn frame.
@Suite struct ThemeTests {
    @Test(
        arguments: [
            ("green", ThemeColor.indexed(2)), ("bright-white", .indexed(15)),
            ("#00ff80", .rgb(red: 0, green: 255, blue: 128)),
        ] as [(String, ThemeColor)])
    func colourNames(name: String, color: ThemeColor) {
        #expect(ThemeColor(name: name) == color)
    }

    @Test(arguments: ["Green", "#fff", "#+0ff80", "#00ff8", "", "#00ff800"])
    func notColourNames(name: String) {
        #expect(ThemeColor(name: name) == nil)
    }

    @Test func coloursAreShownAsTheNearestTheDepthHas() {
        #expect(ThemeColor.rgb(red: 255, green: 0, blue: 0).color(at: .ansi8) == .brightRed)
        #expect(ThemeColor.rgb(red: 255, green: 0, blue: 0).color(at: .indexed256) == .indexed(196))
        #expect(ThemeColor.indexed(208).color(at: .ansi8) == .yellow)
        #expect(ThemeColor.indexed(208).color(at: .indexed256) == .indexed(208))
        #expect(ThemeColor.indexed(3).color(at: .ansi8) == .yellow)
        #expect(ThemeColor.rgb(red: 255, green: 0, blue: 0).color(at: .trueColor) == .rgb(255, 0, 0))
        #expect(ThemeColor.rgb(red: 0x80, green: 0x80, blue: 0x80).color(at: .indexed256) == .indexed(244))
        #expect(ThemeColor.indexed(244).color(at: .trueColor) == .indexed(244))
    }

    @Test func theDefaultThemeAtEightColoursDrawsWhatTheViewsDrew() {
        var canvas = Canvas(size: Size(width: 4, height: 1))
        canvas.write("ab", at: Point(x: 0, y: 0), style: PresentedPhase.active.style)
        let drawn = canvas
        Theme().recolor(&canvas)
        #expect(canvas == drawn)
    }

    @Test func anOverrideRecoloursItsPhaseOnly() {
        var canvas = Canvas(size: Size(width: 3, height: 1))
        canvas.write("a", at: Point(x: 0, y: 0), style: PresentedPhase.active.style)
        canvas.write("b", at: Point(x: 1, y: 0), style: PresentedPhase.failed.style)
        Theme(overrides: [.active: .indexed(5)]).recolor(&canvas)
        var expected = Canvas(size: Size(width: 3, height: 1))
        expected.write("a", at: Point(x: 0, y: 0), style: Style(foreground: .magenta))
        expected.write("b", at: Point(x: 1, y: 0), style: PresentedPhase.failed.style)
        #expect(canvas == expected)
    }
}
