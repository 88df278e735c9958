/// A marked region of a snippet file: the lines between `// snippet: NAME` and `// end snippet`,
/// with their common indentation removed.
struct Snippet: Equatable {
    var name: String
    var text: String
    var file: String

    static let startMarker = "// snippet: "
    static let endMarker = "// end snippet"

    /// Every region in `source`; nested or unclosed markers are errors naming the file and line.
    static func all(in source: String, file: String) throws -> [Snippet] {
        var snippets: [Snippet] = []
        var open: (name: String, line: Int, lines: [Substring])?
        for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix(startMarker) {
                if let open { throw ArticleError("\(file):\(index + 1): snippet inside snippet \(open.name)") }
                open = (String(trimmed.dropFirst(startMarker.count)), index + 1, [])
            } else if trimmed == endMarker {
                guard let current = open else { throw ArticleError("\(file):\(index + 1): end without a snippet") }
                snippets.append(Snippet(name: current.name, text: dedent(current.lines), file: file))
                open = nil
            } else if var current = open {
                current.lines.append(line)
                open = current
            }
        }
        if let open { throw ArticleError("\(file):\(open.line): snippet \(open.name) is never ended") }
        return snippets
    }

    /// The lines without the indentation they all share (blank lines do not count).
    static func dedent(_ lines: [Substring]) -> String {
        let indents = lines.filter { !$0.allSatisfy(\.isWhitespace) }.map { $0.prefix { $0 == " " }.count }
        let common = indents.min() ?? 0
        return lines.map { $0.allSatisfy(\.isWhitespace) ? "" : String($0.dropFirst(common)) }.joined(separator: "\n")
    }
}
