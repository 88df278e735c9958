extension Line {
    /// `text` cut to at most `width` columns by taking out its middle (`photos-2…-final.tar`), so both the
    /// start and the end (often a file's extension) stay readable; unchanged when it fits.
    public static func truncateMiddle(_ text: String, to width: Int) -> String {
        guard DisplayWidth.of(text) > width else { return text }
        guard width > 1 else { return width == 1 ? "…" : "" }
        let characters = Array(text)
        let tailBudget = (width - 1) / 2
        let headBudget = width - 1 - tailBudget
        var head = ""
        var used = 0
        var index = 0
        while index < characters.count, used + DisplayWidth.of(characters[index]) <= headBudget {
            used += DisplayWidth.of(characters[index])
            head.append(characters[index])
            index += 1
        }
        var tail: [Character] = []
        var tailUsed = 0
        var back = characters.count - 1
        while back > index, tailUsed + DisplayWidth.of(characters[back]) <= width - 1 - used {
            tailUsed += DisplayWidth.of(characters[back])
            tail.append(characters[back])
            back -= 1
        }
        return head + "…" + String(tail.reversed())
    }

    /// `text` broken into lines of at most `width` columns, at spaces where it can and inside a word only
    /// when one word is wider than a line; its own line breaks are kept. At most `limit` lines (the last ends
    /// with `…` when more were cut).
    public static func wrap(_ text: String, width: Int, limit: Int = 1000) -> [String] {
        guard width > 0, limit > 0 else { return [] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var current = ""
            var used = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                var rest = Substring(word)
                let gap = current.isEmpty ? 0 : 1
                if used + gap + DisplayWidth.of(rest) <= width {
                    if gap == 1 { current.append(" ") }
                    current += rest
                    used += gap + DisplayWidth.of(rest)
                    continue
                }
                if !current.isEmpty { lines.append(current) }
                current = ""
                used = 0
                while DisplayWidth.of(rest) > width {
                    var piece = ""
                    var pieceWidth = 0
                    while let first = rest.first, pieceWidth + DisplayWidth.of(first) <= width {
                        piece.append(first)
                        pieceWidth += DisplayWidth.of(first)
                        rest = rest.dropFirst()
                    }
                    // A character wider than the line is dropped rather than looping forever.
                    if piece.isEmpty { rest = rest.dropFirst() } else { lines.append(piece) }
                }
                current = String(rest)
                used = DisplayWidth.of(rest)
            }
            lines.append(current)
            if lines.count > limit { break }
        }
        guard lines.count > limit else { return lines }
        var kept = Array(lines.prefix(limit))
        var last = Substring(kept[limit - 1])
        // Whole words give way to the mark that more was cut.
        while DisplayWidth.of(last) + 2 > width, let space = last.lastIndex(of: " ") { last = last[..<space] }
        kept[limit - 1] = truncate(last + " …", to: width)
        return kept
    }
}
