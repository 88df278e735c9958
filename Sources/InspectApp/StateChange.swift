import DashboardApp
import Support

/// What changed between two described states, in words: `case: a → b`, `field: old → new`, `+ field: new`,
/// `- field: old`. States are read as `case(label: value, …)` (the `description` of a Swift enum or struct);
/// a text of any other shape is compared whole.
package enum StateChange {
    /// The lines that tell `before` from `after`; empty when they are the same.
    package static func lines(from before: String, to after: String) -> [String] {
        guard before != after else { return [] }
        let old = parts(of: before)
        let new = parts(of: after)
        guard old.fields != nil || new.fields != nil else { return ["\(before) → \(after)"] }
        var lines: [String] = []
        if old.name != new.name { lines.append("case: \(old.name) → \(new.name)") }
        let oldFields = old.fields ?? []
        let newFields = new.fields ?? []
        for field in newFields {
            if let previous = oldFields.first(where: { $0.label == field.label }) {
                if previous.value != field.value { lines.append("\(field.label): \(previous.value) → \(field.value)") }
            } else {
                lines.append("+ \(field.label): \(field.value)")
            }
        }
        for field in oldFields where !newFields.contains(where: { $0.label == field.label }) {
            lines.append("- \(field.label): \(field.value)")
        }
        return lines.isEmpty ? ["\(before) → \(after)"] : lines
    }

    /// One field of a described state: its label (`#1`, `#2`… for unlabelled ones) and its value text.
    struct Field: Hashable {
        var label: String
        var value: String
    }

    /// The case name and the top-level fields of `text` (`nil` fields when it has no parentheses).
    static func parts(of text: String) -> (name: String, fields: [Field]?) {
        guard let open = text.firstIndex(of: "("), text.hasSuffix(")") else { return (text, nil) }
        let name = String(text[..<open])
        let inside = text[text.index(after: open)..<text.index(before: text.endIndex)]
        var pieces: [String] = []
        var current = ""
        var depth = 0
        var quoted = false
        var escaped = false
        for character in inside {
            if quoted {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    quoted = false
                }
                current.append(character)
                continue
            }
            if character == "," && depth == 0 {
                pieces.append(current)
                current = ""
                continue
            }
            if character == "\"" { quoted = true }
            if character == "(" || character == "[" { depth += 1 }
            if character == ")" || character == "]" { depth -= 1 }
            current.append(character)
        }
        pieces.append(current)
        let fields = pieces.enumerated().map { index, piece in
            let trimmed = piece.trimmingWhitespace()
            if let colon = trimmed.firstRange(of: ": "),
                !trimmed[..<colon.lowerBound].contains(where: { "\"([".contains($0) })
            {
                return Field(label: String(trimmed[..<colon.lowerBound]), value: String(trimmed[colon.upperBound...]))
            }
            return Field(label: "#\(index + 1)", value: trimmed)
        }
        return (name, fields)
    }
}
