import Foundation

/// A fenced code block of a Markdown article: its language and its text, without the fences.
struct CodeBlock: Equatable, CustomStringConvertible {
    var language: String
    var text: String
    /// The 1-based line of the opening fence, for messages.
    var line: Int

    var description: String { "```\(language) block at line \(line)" }

    /// Whether the block is a package manifest, which no test target can compile (`make test-adopt` builds it).
    var isPackageManifest: Bool { language == "swift" && text.hasPrefix("// swift-tools-version:") }

    /// Every fenced block in `markdown`, in order. Only fences at the start of a line count, which is
    /// how the articles are written; an unclosed fence is an error so a typo cannot hide a block.
    static func all(in markdown: String) throws -> [CodeBlock] {
        var blocks: [CodeBlock] = []
        var open: (language: String, line: Int, lines: [Substring])?
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if var current = open {
                if line == "```" {
                    blocks.append(
                        CodeBlock(
                            language: current.language, text: current.lines.joined(separator: "\n"), line: current.line)
                    )
                    open = nil
                } else {
                    current.lines.append(line)
                    open = current
                }
            } else if line.hasPrefix("```") {
                open = (String(line.dropFirst(3)), index + 1, [])
            }
        }
        if let open {
            throw ArticleError("the ```\(open.language) block at line \(open.line) is never closed")
        }
        return blocks
    }
}
