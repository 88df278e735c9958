import Support

/// Text from outside (file names, journal lines, OS messages with paths) made safe to print on one line.
public enum DisplayText {
    /// The longest quote of outside text a message includes, in characters.
    static let quoteLimit = 200

    /// `text` with every control character (newline, tab, ESC, DEL, C1 controls), line or paragraph
    /// separator and invisible format character (bidirectional overrides) written as a Swift-style escape
    /// (`\n`, `\t`, `\r`, `\u{1B}`), a byte of a name that is not UTF-8 as `\xFF` (``FileName``), and
    /// backslashes doubled so an escape in a name is not mistaken for
    /// one. Other text, including non-ASCII letters, is unchanged. With `limit`, at most that many
    /// characters of `text` are kept, followed by `…` and the count of characters left out.
    public static func escaped(_ text: String, limit: Int? = nil) -> String {
        // Most text needs nothing: then it is returned as it is, sharing its storage, rather than copied scalar
        // by scalar (a copy dashboard keeps one such name for each of its rows). Printable ASCII other than the
        // backslash, nearly all of it, is known to need nothing from one pass over its bytes; other text asks
        // each scalar.
        if limit == nil,
            !text.containsUTF8Byte(where: { !QuotedLiteral.isPlainASCII($0) })
                || !text.unicodeScalars.contains(where: { escape($0) != nil })
        {
            return text
        }
        var result = ""
        var kept = 0
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            if let limit, kept == limit {
                var rest = 1
                while scalars.next() != nil { rest += 1 }
                result += "…(\(rest) more)"
                break
            }
            kept += 1
            if let escape = escape(scalar) {
                result += escape
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `text` in double quotes, escaped as ``escaped(_:limit:)`` escapes it and with `"` written `\"`: a path or
    /// a message quoted in a line of output, where a byte of a name that is not UTF-8 reads `\xFF` as it does in
    /// the name the line starts with.
    public static func quoted(_ text: String) -> String {
        QuotedLiteral.quoted(text, escape: escape)
    }

    /// Appends ``quoted(_:)``'s form of `text` to `line`.
    public static func appendQuoted(_ text: String, to line: inout String) {
        QuotedLiteral.append(text, to: &line, escape: escape)
    }

    /// How ``escaped(_:limit:)`` writes `scalar`; nil when it is written as it is.
    private static func escape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "\\": return "\\\\"
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        case " "..."~":
            // Printable ASCII (the backslash is above): kept without looking up its category.
            return nil
        case _ where FileName.isEscape(scalar):
            // A byte of a name that is not UTF-8 (``FileName``), shown as the byte it is.
            let hex = String(scalar.value - FileName.escapeBase, radix: 16, uppercase: true)
            return "\\x" + (hex.count < 2 ? "0" : "") + hex
        default:
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator, .format, .surrogate, .privateUse, .unassigned:
                return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                return nil
            }
        }
    }

    /// `text` cut to its first ``quoteLimit`` characters, followed by `…` and the count left out, and not
    /// escaped (the printer escapes the whole message once): a path quoted in an error message.
    public static func bounded(_ text: String) -> String {
        guard text.count > quoteLimit else { return text }
        return String(text.prefix(quoteLimit)) + "…(\(text.count - quoteLimit) more)"
    }
}
