import TerminalUI
import Testing

/// Names cut in the middle only when they must; text wrapped at spaces, bounded.
@Suite struct TextFittingTests {
    @Test(arguments: [
        ("photos.tar", 20, "photos.tar"),
        ("photos.tar", 10, "photos.tar"),
        ("holiday-photos-2026-final.tar", 15, "holiday…nal.tar"),
        ("abcdef", 5, "ab…ef"),
        ("abcdef", 1, "…"),
        ("abcdef", 0, ""),
        ("日本語のファイル名.txt", 10, "日本….txt"),
    ])
    func aNameIsCutInTheMiddleOnlyWhenTooWide(text: String, width: Int, expected: String) {
        let cut = Line.truncateMiddle(text, to: width)
        #expect(cut == expected)
        #expect(DisplayWidth.of(cut) <= max(0, width))
    }

    @Test(arguments: [
        ("copy failed: no space left on device", 12, ["copy failed:", "no space", "left on", "device"]),
        ("short", 20, ["short"]),
        ("averyveryverylongword end", 8, ["averyver", "yverylon", "gword", "end"]),
        ("two\nlines", 20, ["two", "lines"]),
    ])
    func textWrapsAtSpacesAndInsideWordsTooLongForALine(text: String, width: Int, expected: [String]) {
        #expect(Line.wrap(text, width: width) == expected)
    }

    @Test func wrappingIsBoundedAndSaysItCut() {
        let text = Array(repeating: "word", count: 100).joined(separator: " ")
        #expect(Line.wrap(text, width: 9, limit: 3) == ["word word", "word word", "word …"])
        #expect(Line.wrap(text, width: 0) == [])
    }
}
