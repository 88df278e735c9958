import Testing

@testable import TerminalUI

/// Text whose every scalar is a grapheme of its own is measured and cut scalar by scalar (the dashboard's
/// states, with `·`, `—` and `–`); the figures must be the ones grapheme breaking gives, and text with marks,
/// joiners, selectors or wide characters still goes grapheme by grapheme.
@Suite struct ScalarWidthTests {
    static let texts = [
        "running · 29% · request #1", "failed at 41% · disk full — r retries", "–", "‹ photos.tar › 1/5",
        "naïve café", "a\r\nb", "tab\there", "e\u{301}clair", "✔\u{FE0F} done", "👍🏽 ok", "🇫🇷 fr", "中文 · 日本",
        "क\u{93F}", "", "↑ 3 more ─┘",
    ]

    @Test(arguments: texts)
    func aStringMeasuresAsItsGraphemes(text: String) {
        #expect(DisplayWidth.of(text) == text.reduce(0) { $0 + DisplayWidth.of($1) })
    }

    /// The reference: keep whole graphemes while they fit, then the ellipsis; the text itself when it fits.
    static func cutByGraphemes(_ text: String, to width: Int, ellipsis: String) -> String {
        guard text.reduce(0, { $0 + DisplayWidth.of($1) }) > width else { return text }
        guard width >= DisplayWidth.of(ellipsis) else { return "" }
        var remaining = width - DisplayWidth.of(ellipsis)
        var kept = ""
        for character in text {
            if DisplayWidth.of(character) > remaining { break }
            kept.append(character)
            remaining -= DisplayWidth.of(character)
        }
        return kept + ellipsis
    }

    @Test(arguments: texts, [0, 1, 5, 12, 40])
    func truncatingCutsWhereGraphemeBreakingWould(text: String, width: Int) {
        for ellipsis in ["…", ""] {
            #expect(
                Line.truncate(text, to: width, ellipsis: ellipsis)
                    == Self.cutByGraphemes(text, to: width, ellipsis: ellipsis))
        }
    }

    @Test func onlyScalarsThatNeverJoinANeighbourAreMeasuredAlone() {
        #expect(DisplayWidth.standaloneColumns("running · 29% — r retries") == 25)
        #expect(DisplayWidth.standaloneColumns("e\u{301}") == nil)
        #expect(DisplayWidth.standaloneColumns("✔\u{FE0F}") == nil)
        #expect(DisplayWidth.standaloneColumns("中") == nil)
    }
}
