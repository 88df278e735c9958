import TerminalUI
import Testing

@Suite struct ScreenPatternTests {
    static let screen = """
         1 Transfers   2 Upload   3 Load
        │ photos.tar   █▎  running(request: 1, percent: 20)   #1 │
        │loaded(["a", "b"])
        12 states · 30 edges · 2 invalid pairs
        """

    /// Every pattern the bundled demos use, and the syntax around them, agrees with Swift's `Regex` (no
    /// catastrophic pattern here: `Regex` backtracks).
    @Test(arguments: [
        "Transfers", "running\\(request: 1", "│loaded\\(\\[\"a\", \"b\"\\]\\)", "states · .* edges", "Load(ing)?",
        "(Upload|Download)", "\\d+ states", "^ 1 Transfers", "pairs$", "percent: [0-9]{2}\\)", "[^a-z ]{3}",
        "\\bstates\\b", "tate\\B", "a{2,}", "x|y|z", "(?:ab)*c", "\\w+\\.tar", "\\s{3}2", "#\\d │", "█▎",
        "pairs\\n", "Upload$", "^1", "[│#]1", "r{0}unning", "(a*)*b", "\\[a-z\\]",
        "[\\]\\-]", "e.*?s", "(p|q)+", "[a\\d]4",
    ])
    func agreesWithSwiftRegex(pattern: String) throws {
        let regex = try Regex(pattern)
        #expect(try ScreenPattern(pattern).matches(Self.screen) == Self.screen.contains(regex))
    }

    /// Backtracking on a row of `=` without an `X` would take minutes; the NFA answers at once.
    @Test func aCatastrophicPatternIsAnsweredWithoutBacktracking() throws {
        let text = String(repeating: String(repeating: "=", count: 79) + "\n", count: 200)
        #expect(try ScreenPattern("(.*.*.*.*.*.*.*.*=)+X").matches(text) == false)
        #expect(try ScreenPattern("(.*.*.*.*.*.*.*.*=)+\\n").matches(text) == true)
    }

    @Test(arguments: [
        ("(unclosed", ScreenPattern.SyntaxError(position: 1, "'(' is not closed")),
        ("a)", .init(position: 2, "unmatched ')'")),
        ("*a", .init(position: 1, "nothing to repeat")),
        (
            "a(?=b)",
            .init(position: 3, "'(?' constructs other than '(?:' (look-around, flags, names) are not supported")
        ),
        ("(a)\\1", .init(position: 5, "the escape '\\1' is not supported")),
        ("[abc", .init(position: 1, "'[' is not closed")),
        ("[]", .init(position: 1, "an empty class '[]' matches nothing")),
        ("[z-a]", .init(position: 3, "the range is reversed")),
        ("a{3,2}", .init(position: 2, "{3,2}: the maximum is below the minimum")),
        ("a{1001}", .init(position: 2, "a repetition count is above 1000")),
        ("a**", .init(position: 3, "a quantifier cannot follow another; use a group")),
        ("a++", .init(position: 3, "possessive quantifiers are not supported")),
        (
            "((((a{1000}){1000}){1000}){1000})",
            .init(position: 1, "compiles to more than 10000 states; use smaller repetition counts")
        ),
        ("ab\\", .init(position: 4, "the pattern ends with a lone backslash")),
    ])
    func unsupportedOrUnboundedSyntaxIsNamed(pattern: String, error: ScreenPattern.SyntaxError) {
        #expect(throws: error) { try ScreenPattern(pattern) }
    }

    @Test func boundsRefuseHugePatternsAndDeepGroups() {
        #expect(throws: ScreenPattern.SyntaxError(position: 1001, "longer than 1000 characters")) {
            try ScreenPattern(String(repeating: "a", count: 1001))
        }
        #expect(throws: ScreenPattern.SyntaxError(position: 65, "groups are nested more than 64 deep")) {
            try ScreenPattern(String(repeating: "(", count: 65) + "a" + String(repeating: ")", count: 65))
        }
    }

    @Test func aLiteralBraceThatIsNotACountIsACharacter() throws {
        #expect(try ScreenPattern("x{y").matches("ax{yb"))
        #expect(try ScreenPattern("x{2").matches("x{2"))
    }
}
