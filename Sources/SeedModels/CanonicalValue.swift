import Support

/// A value written in the project's canonical text: the Swift-literal form every state, event and
/// action prints as and parses from (`idle`, `running(request: 1, percent: 20)`, `loaded(["a"])`).
///
/// It is the one printer and, with ``CanonicalValue/parse(_:)``, the one parser behind every
/// model's `description`, so `replay`, `graph`, the dashboard, history and tests can never disagree.
public indirect enum CanonicalValue: Hashable, Sendable {
    /// A bare case name such as `idle` or `refreshTapped`.
    case name(String)
    /// A case with arguments, such as `running(request: 1, percent: 20)` or `loaded(["a"])`.
    case call(String, [CanonicalArgument])
    /// An integer literal such as `20` or `-1`.
    case int(Int)
    /// A floating-point literal such as `0.35`.
    case double(Double)
    /// A double-quoted string with Swift escapes.
    case string(String)
    /// An array literal such as `["a", "b"]`.
    case array([CanonicalValue])
    /// The `nil` literal: how an absent optional prints (never `Optional(…)`).
    case `nil`
}

/// One argument of a ``CanonicalValue/call(_:_:)``: an optional label and its value.
public struct CanonicalArgument: Hashable, Sendable {
    /// The argument label (`request` in `request: 1`), or nil for an unlabelled argument.
    public var label: String?
    /// The argument's value.
    public var value: CanonicalValue

    /// An argument with an optional label.
    public init(_ label: String?, _ value: CanonicalValue) {
        self.label = label
        self.value = value
    }
}

extension CanonicalValue: CustomStringConvertible {
    /// The canonical text of the value.
    public var description: String {
        var text = ""
        write(to: &text)
        return text
    }

    private func write(to text: inout String) {
        switch self {
        case .name(let name):
            text += name
        case .call(let name, let arguments):
            text += name
            text += "("
            for (index, argument) in arguments.enumerated() {
                if index > 0 { text += ", " }
                if let label = argument.label { text += label + ": " }
                argument.value.write(to: &text)
            }
            text += ")"
        case .int(let value):
            text += String(value)
        case .double(let value):
            // Swift's shortest round-tripping form: 0.35, 1.0, 1e-05.
            text += value.description
        case .string(let value):
            text += Self.quoted(value)
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += ", " }
                element.write(to: &text)
            }
            text += "]"
        case .nil:
            text += "nil"
        }
    }

    /// `value` as a Swift string literal: double quotes, with `\\`, `\"`, `\n`, `\r`, `\t`, `\0` and
    /// `\u{…}` escapes so the text stays on one line and every scalar survives a round trip.
    public static func quoted(_ value: String) -> String {
        QuotedLiteral.quoted(value) { scalar in
            if scalar == "\0" { return "\\0" }
            return needsEscape(scalar) ? "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}" : nil
        }
    }

    /// Control characters, line and paragraph separators, and combining marks (which would fuse
    /// with the quote before them) are written as `\u{…}` so a canonical line is always one line.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator, .format, .surrogate, .unassigned,
            .privateUse, .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }
}

extension CanonicalArgument {
    /// A labelled argument.
    public static func labelled(_ label: String, _ value: CanonicalValue) -> CanonicalArgument {
        CanonicalArgument(label, value)
    }

    /// An unlabelled argument.
    public static func unlabelled(_ value: CanonicalValue) -> CanonicalArgument {
        CanonicalArgument(nil, value)
    }
}

extension CanonicalValue {
    /// An array of strings, as `loaded(["a", "b"])` carries.
    public static func strings(_ values: [String]) -> CanonicalValue {
        .array(values.map { .string($0) })
    }

    /// An optional array of strings: `nil` when absent, never `Optional([…])`.
    static func optionalStrings(_ values: [String]?) -> CanonicalValue {
        values.map { .strings($0) } ?? .nil
    }
}

extension CanonicalValue {
    /// The most characters of outside input an error message quotes.
    public static let excerptLength = Excerpt.defaultLength

    /// `text` as an error message quotes it: whole when it has at most `limit` characters (Unicode
    /// scalars), else its first `limit`, an ellipsis and how many were left out, so a 10 MB bad line
    /// never travels whole to standard error.
    public static func excerpt(_ text: String, limit: Int = excerptLength) -> String {
        Excerpt.of(text, limit: limit)
    }

    /// The canonical text, cut to ``excerptLength`` characters as an error message quotes it.
    public var excerpt: String { Self.excerpt(description) }
}
