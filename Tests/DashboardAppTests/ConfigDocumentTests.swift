import DashboardApp
import Testing

/// The TOML subset of the configuration file: what it reads, and the line and expectation of what it refuses.
@Suite struct ConfigDocumentTests {
    typealias Table = ConfigDocument.Table
    typealias Entry = ConfigDocument.Entry

    @Test func readsTablesEntriesAndEveryKindOfValue() throws {
        let text = """
            # a comment
            [keys]
            quit = "x"   # trailing comment
            pause = ["space", 'p',]
            nested = [[1, -2], [+3_000]]

            [theme]
            escaped = "a\\"b\\\\c\\t\\u00e9\\U0001F600"
            on = true
            off = false
            zero = 0
            spread = [
              "a",  # first
              "b"
            ]
            """
        let document = try ConfigDocument(parsing: text)
        #expect(
            document.tables == [
                Table(
                    name: "keys", line: 2,
                    entries: [
                        Entry(key: "quit", value: .string("x"), line: 3),
                        Entry(key: "pause", value: .array([.string("space"), .string("p")]), line: 4),
                        Entry(
                            key: "nested",
                            value: .array([.array([.integer(1), .integer(-2)]), .array([.integer(3000)])]),
                            line: 5),
                    ]),
                Table(
                    name: "theme", line: 7,
                    entries: [
                        Entry(key: "escaped", value: .string("a\"b\\c\té😀"), line: 8),
                        Entry(key: "on", value: .boolean(true), line: 9),
                        Entry(key: "off", value: .boolean(false), line: 10),
                        Entry(key: "zero", value: .integer(0), line: 11),
                        Entry(key: "spread", value: .array([.string("a"), .string("b")]), line: 12),
                    ]),
            ])
    }

    @Test func emptyAndCommentOnlyFilesHaveNoTables() throws {
        #expect(try ConfigDocument(parsing: "").tables == [])
        #expect(try ConfigDocument(parsing: "# nothing\r\n\n   \t\n").tables == [])
    }

    @Test func entriesBeforeAnyHeaderFormTheUnnamedTable() throws {
        #expect(
            try ConfigDocument(parsing: "a = 1\n[b]\n").tables == [
                Table(name: "", line: 0, entries: [Entry(key: "a", value: .integer(1), line: 1)]),
                Table(name: "b", line: 2, entries: []),
            ])
    }

    @Test(
        arguments: [
            ("[keys]\nquit \"x\"", "2: expected '=' after the key 'quit'"),
            (
                "[keys]\nquit = x",
                "2: expected a string, an integer, a boolean or an array, found 'x' (strings need quotes)"
            ),
            ("[keys]\nquit = \"x", "2: expected '\"' to end the string before the end of the line"),
            ("[a]\n[a]", "2: table [a] is defined twice (first on line 1)"),
            ("[a]\nk = 1\nk = 2", "3: key 'k' is set twice in [a]"),
            ("[a.b]", "1: expected ']' after the table name: dotted names are not supported"),
            ("[[a]]", "1: expected a table name: arrays of tables are not supported"),
            ("a.b = 1", "1: expected '=' after the key 'a': dotted keys are not supported"),
            ("a = 1.5", "1: expected an integer, found '1.5': floats are not supported"),
            ("a = 012", "1: expected an integer without leading zeros, found '012'"),
            ("a = 99999999999999999999", "1: expected an integer that fits in 64 bits, found '99999999999999999999'"),
            ("a = 1_", "1: expected a decimal integer, found '1_'"),
            ("a = {b = 1}", "1: expected a string, an integer, a boolean or an array: inline tables are not supported"),
            ("a = \"\"\"x\"\"\"", "1: expected a one-line string: multi-line strings are not supported"),
            (
                "a = \"\\q\"",
                "1: expected one of the escapes \\b \\t \\n \\f \\r \\e \\\" \\\\ \\uXXXX \\UXXXXXXXX, found 'q'"
            ),
            (
                "a = \"\\uD800\"",
                "1: expected a Unicode scalar value after '\\u', found D800 (a surrogate or beyond U+10FFFF)"
            ),
            (
                "a = \"\u{1B}[31m\"",
                "1: expected a printable character in the string, found the control character '\\u{1B}' (write it as an escape)"
            ),
            ("a = [1, 2", "1: expected ']' to end the array"),
            ("a = [1 2]", "1: expected ',' or ']' in the array, found '2'"),
            ("a = 1 b", "1: expected the end of the line or a # comment, found 'b'"),
            (
                "\"a\" = 1",
                "1: expected a key, a [table] header, a comment or an empty line: quoted keys are not supported"
            ),
            ("a =", "1: expected a value after '='"),
            ("a = 1\r", "1: expected a line feed after a carriage return"),
            ("a = 1 # \u{07}", "1: expected the end of the line, found the control character '\\u{7}'"),
            ("a = " + String(repeating: "[", count: 17), "1: expected at most 16 nested arrays"),
        ] as [(String, String)])
    func refusesWhatIsNotInTheSubsetNamingTheLine(text: String, expected: String) {
        #expect(throws: ConfigError.self) { try ConfigDocument(parsing: text) }
        do {
            _ = try ConfigDocument(parsing: text)
        } catch {
            if expected.hasSuffix("...") {
                #expect(error.description.hasPrefix(String(expected.dropLast(3))))
            } else {
                #expect(error.description == expected)
            }
        }
    }

    @Test func anErrorNamesItsFileWithControlCharactersEscaped() {
        let error = ConfigError(line: 3, "expected '='").located(in: "/tmp/a\u{1B}b.toml")
        #expect(error.description == "/tmp/a\\u{1B}b.toml:3: expected '='")
        #expect(ConfigError(line: 0, "longer than 1 byte", file: "c").description == "c: longer than 1 byte")
    }

    @Test func aFileLongerThanTheLimitIsRefusedWhole() {
        let text = String(repeating: "#", count: ConfigDocument.maximumLength + 1)
        #expect(throws: ConfigError(line: 0, "longer than \(ConfigDocument.maximumLength) bytes")) {
            try ConfigDocument(parsing: text)
        }
    }
}
