// Texts inside a diagram: every character must take exactly one terminal column so the grid lines up, and
// long texts wrap into lines that fit a box.

import StateMachineKit

enum DiagramText {
    /// `text` with every character that does not take exactly one column (controls, wide East Asian
    /// characters, emoji, lone combining marks) written as a Swift escape, `\u{…}`.
    static func singleColumn(_ text: String) -> String {
        var result = ""
        for character in text {
            if isSingleColumn(character) {
                result.append(character)
            } else {
                for scalar in character.unicodeScalars {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                }
            }
        }
        return result
    }

    /// Whether `character` surely takes one terminal column: printable ASCII, or a narrow scalar (before the
    /// wide East Asian ranges, not an emoji presentation) with at most combining marks after it.
    static func isSingleColumn(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return false }
        if character.utf8.count == 1 { return first.value >= 0x20 && first.value < 0x7F }
        guard isNarrow(first) else { return false }
        for scalar in scalars.dropFirst() {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark: continue
            default: return false
            }
        }
        return true
    }

    /// A scalar that starts a one-column character: not a control, format or mark, below the wide ranges
    /// (Hangul Jamo at U+1100 onwards is wide), and not presented as an emoji.
    private static func isNarrow(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard value >= 0xA0, value < 0x1100 || (value >= 0x1200 && value < 0x2E80) else { return false }
        if scalar.properties.isEmojiPresentation { return false }
        switch scalar.properties.generalCategory {
        case .control, .format, .nonspacingMark, .spacingMark, .enclosingMark, .lineSeparator,
            .paragraphSeparator, .surrogate, .privateUse, .unassigned:
            return false
        default:
            return true
        }
    }

    /// `text` (already single-column) broken into lines of at most `width` characters: at spaces where it
    /// can, inside a word longer than a line where it must. Never empty: an empty text is one empty line.
    static func wrap(_ text: String, width: Int) -> [String] {
        let characters = Array(text)
        guard characters.count > width else { return [text] }
        var lines: [String] = []
        var start = 0
        while start < characters.count {
            while start < characters.count, characters[start] == " ", !lines.isEmpty { start += 1 }
            guard start < characters.count else { break }
            var end = min(characters.count, start + width)
            if end < characters.count, characters[end] != " ",
                let space = characters[start..<end].lastIndex(of: " "), space > start
            {
                end = space
            }
            lines.append(String(characters[start..<end]))
            start = end
        }
        return lines.isEmpty ? [""] : lines
    }
}
