import Testing

@testable import TerminalUI

@Suite struct GlyphSetTests {
    @Test(arguments: [
        (["LC_ALL": "C"], false, GlyphSet.ascii),
        (["LANG": "en_US.ISO-8859-1"], false, .ascii),
        (["LC_ALL": "C.UTF-8"], true, .unicode),
        ([:], false, .unicode),
        (["LANG": ""], false, .unicode),
    ])
    func theLocaleChoosesTheGlyphs(environment: [String: String], isUTF8: Bool, expected: GlyphSet) {
        #expect(GlyphSet.forLocale(environment: environment, selectedLocaleIsUTF8: isUTF8) == expected)
    }

    @Test func asciiShowsBordersBarsAndMarksAsASCIIAndAnythingElseAsAQuestionMark() {
        let shown = ["┌", "─", "│", "┘", "█", "▌", "…", "·", "↑", "a", "日", "é"].map(GlyphSet.ascii.shown)
        #expect(shown == ["+", "-", "|", "+", "#", "=", ".", "-", "^", "a", "?", "?"])
        #expect(GlyphSet.unicode.shown("┌") == "┌")
    }

    @Test func aBoxDrawnThroughTheASCIISetHasOnlyASCII() {
        var canvas = Canvas(size: Size(width: 12, height: 3))
        Box(title: "Load").render(in: Rect(x: 0, y: 0, width: 12, height: 3), on: &canvas)
        ProgressBar(fraction: 0.55).render(in: Rect(x: 1, y: 1, width: 10, height: 1), on: &canvas)
        let rows = canvas.text.split(separator: "\n").map { $0.map { GlyphSet.ascii.shown(String($0)) }.joined() }
        #expect(rows == ["+- Load ---+", "|#####=    |", "+----------+"])
    }
}
