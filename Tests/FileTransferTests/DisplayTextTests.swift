import Testing

@testable import FileTransfer

/// Outside text made safe to print: the printable ASCII that needs nothing is returned as it is (kept without
/// a category look-up), and everything around that range is still escaped.
struct DisplayTextTests {
    @Test(
        "printable ASCII is kept, its neighbours and the backslash are escaped",
        arguments: [
            ("a.bin", "a.bin"),
            (" ~", " ~"),
            ("back\\slash", "back\\\\slash"),
            ("tab\there", "tab\\there"),
            ("two\nlines", "two\\nlines"),
            ("cr\r", "cr\\r"),
            ("esc\u{1B}[31m", "esc\\u{1B}[31m"),
            ("del\u{7F}", "del\\u{7F}"),
            ("unit\u{1F}", "unit\\u{1F}"),
            ("café", "café"),
            ("bidi\u{202E}txt", "bidi\\u{202E}txt"),
            ("c1\u{85}", "c1\\u{85}"),
            ("", ""),
        ])
    func escapes(text: String, shown: String) {
        #expect(DisplayText.escaped(text) == shown)
    }

    @Test("a limit keeps that many characters of plain text and counts the rest")
    func limitAppliesToPlainText() {
        #expect(
            [DisplayText.escaped("abcdef", limit: 3), DisplayText.escaped("abc", limit: 3)] == [
                "abc…(3 more)", "abc",
            ])
    }
}
