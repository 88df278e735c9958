/// Text as a double-quoted literal: the one quoting loop behind the dialects this package writes, Swift string
/// literals (canonical text) and JSON strings (asciicasts).
package enum QuotedLiteral {
    /// `text` in double quotes with `"`, `\`, newline, carriage return and tab escaped by a backslash, and every
    /// other scalar written as `escape` spells it, or as itself where `escape` gives nil. Printable ASCII
    /// (space to `~`) other than `"` and `\` is always written as itself: `escape` is not asked about it.
    package static func quoted(_ text: String, escape: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        append(text, to: &out, escape: escape)
        return out
    }

    /// Appends ``quoted(_:escape:)``'s literal of `text` to `out`, growing it once for the usual text (a line of
    /// output made in one string).
    package static func append(_ text: String, to out: inout String, escape: (Unicode.Scalar) -> String?) {
        out.reserveCapacity(out.utf8.count + text.utf8.count + 2)
        out += "\""
        defer { out += "\"" }
        // Most text (paths, names, messages) is printable ASCII with nothing to escape: then it is copied at once
        // rather than scalar by scalar.
        if !text.containsUTF8Byte(where: { !isPlainASCII($0) || $0 == UInt8(ascii: "\"") }) {
            out += text
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.isASCII, isPlainASCII(UInt8(scalar.value)) {
                    out.unicodeScalars.append(scalar)
                } else if let escaped = escape(scalar) {
                    out += escaped
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
    }

    /// True for printable ASCII other than the backslash: a byte that every dialect writes as it is.
    @inline(__always)
    package static func isPlainASCII(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\\")
    }

    /// `scalar` as JSON's `\uXXXX` escape (four lower-case hex digits; for the controls and separators a JSON
    /// text must or should not carry raw, all below U+10000).
    package static func jsonEscape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
