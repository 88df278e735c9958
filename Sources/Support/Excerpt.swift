/// Outside input as an error message quotes it, shared by every parser that names a bad line (canonical text,
/// demo scripts).
package enum Excerpt {
    /// The most characters of outside input an error message quotes.
    package static let defaultLength = 200

    /// `text` whole when it has at most `limit` characters (Unicode scalars), else its first `limit`, an
    /// ellipsis and how many were left out, so a 10 MB bad line never travels whole to standard error.
    package static func of(_ text: String, limit: Int = defaultLength) -> String {
        let scalars = text.unicodeScalars
        guard let cut = scalars.index(scalars.startIndex, offsetBy: limit, limitedBy: scalars.endIndex),
            cut != scalars.endIndex
        else { return text }
        let omitted = scalars[cut...].count
        return String(scalars[..<cut]) + "… (\(omitted) more characters)"
    }
}
