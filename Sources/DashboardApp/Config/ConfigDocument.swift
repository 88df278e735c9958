/// A configuration file read as a strict subset of TOML: `[table]` headers, `key = value` lines and `#`
/// comments, where a value is a string (basic `"…"` with TOML's escapes, or literal `'…'`), an integer, a
/// boolean or an array of values (which may span lines). No dotted keys, inline tables, arrays of tables, floats
/// or dates: a file using them is rejected with the line and what was expected, never half read.
///
/// The document keeps the file's order and each entry's line, so a later check (``DashboardConfig``) can name
/// the line of a value it refuses.
package struct ConfigDocument: Hashable, Sendable {
    /// One `key = value` line.
    package struct Entry: Hashable, Sendable {
        /// The bare key before `=`.
        package var key: String
        /// The value after it.
        package var value: ConfigValue
        /// The 1-based line the entry starts on.
        package var line: Int

        /// An entry.
        package init(key: String, value: ConfigValue, line: Int) {
            self.key = key
            self.value = value
            self.line = line
        }
    }

    /// One `[name]` table and the entries under it, in file order.
    package struct Table: Hashable, Sendable {
        /// The name in the header; empty for the entries before any header.
        package var name: String
        /// The 1-based line of its header (0 for the entries before any header).
        package var line: Int
        /// Its entries, in file order.
        package var entries: [Entry]

        /// A table.
        package init(name: String, line: Int, entries: [Entry]) {
            self.name = name
            self.line = line
            self.entries = entries
        }
    }

    /// The tables in file order; the first is the unnamed one, present only when entries precede any header.
    package var tables: [Table]

    /// The longest file read: a configuration is a few hundred lines, and a bound keeps a hostile input cheap.
    package static let maximumLength = 1 << 20
    /// The deepest nesting of arrays accepted.
    package static let maximumDepth = 16

    /// Reads `text`; throws the first line that is not in the subset.
    package init(parsing text: String) throws(ConfigError) {
        var parser = ConfigParser(text)
        tables = try parser.document()
    }
}

/// A value of a ``ConfigDocument`` entry.
package enum ConfigValue: Hashable, Sendable {
    /// A string, its escapes resolved.
    case string(String)
    /// A 64-bit signed integer.
    case integer(Int)
    /// `true` or `false`.
    case boolean(Bool)
    /// `[a, b, …]`.
    case array([ConfigValue])

    /// What the value is, as an error names it: `a string`, `an integer`, `a boolean`, `an array`.
    package var kind: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .boolean: "a boolean"
        case .array: "an array"
        }
    }
}

/// Why a configuration cannot be used: the line it concerns (0: the whole file) and what was expected there.
/// The file's path is added by whoever read it (``located(in:)``).
package struct ConfigError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file the error concerns, once known.
    package var file: String?
    /// The 1-based line, 0 when the error concerns the whole file.
    package var line: Int
    /// What is wrong, e.g. `expected '=' after the key 'quit'`.
    package var message: String

    /// An error at `line`.
    package init(line: Int, _ message: String, file: String? = nil) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// The same error naming `file`.
    package func located(in file: String) -> ConfigError {
        ConfigError(line: line, message, file: file)
    }

    /// `FILE:LINE: message` (the file and line left out when unknown), every control character escaped.
    package var description: String {
        let place = [file.map(ConfigText.escaped), line > 0 ? String(line) : nil].compactMap { $0 }
        return (place.isEmpty ? "" : place.joined(separator: ":") + ": ") + message
    }
}

/// Escaping of text from a configuration file before it reaches a terminal or an error message.
package enum ConfigText {
    /// `text` with control characters (C0, DEL, C1) and backslashes written as escapes, so no byte read from a
    /// file can move the cursor or change colours when printed.
    package static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x5C: out += "\\\\"
            case 0x09: out += "\\t"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x00..<0x20, 0x7F..<0xA0:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u{" + hex + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` quoted for an error message: escaped, in single quotes, cut to 40 characters.
    package static func quoted(_ text: some StringProtocol) -> String {
        let escaped = escaped(String(text))
        return "'" + (escaped.count > 40 ? String(escaped.prefix(39)) + "…" : escaped) + "'"
    }
}

/// The reader behind ``ConfigDocument``: one pass over the scalars, tracking the line.
private struct ConfigParser {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private let tooLong: Bool

    init(_ text: String) {
        tooLong = text.utf8.count > ConfigDocument.maximumLength
        scalars = tooLong ? [] : Array(text.unicodeScalars)
    }

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private func error(_ message: String) -> ConfigError { ConfigError(line: line, message) }

    private mutating func advance() {
        if current == "\n" { line += 1 }
        index += 1
    }

    /// The whole document: its tables in order, the entries before the first header in a table named "".
    mutating func document() throws(ConfigError) -> [ConfigDocument.Table] {
        if tooLong { throw ConfigError(line: 0, "longer than \(ConfigDocument.maximumLength) bytes") }
        var tables = [ConfigDocument.Table(name: "", line: 0, entries: [])]
        var seenKeys: [Set<String>] = [[]]
        while true {
            skipBlank()
            skipComment()
            guard let scalar = current else { break }
            if scalar == "\n" {
                advance()
                continue
            }
            if scalar == "\r" {
                try endOfLine()
                continue
            }
            if scalar == "[" {
                let table = try tableHeader()
                if let earlier = tables.first(where: { $0.name == table.name && $0.line > 0 }) {
                    throw ConfigError(
                        line: table.line, "table [\(table.name)] is defined twice (first on line \(earlier.line))")
                }
                tables.append(table)
                seenKeys.append([])
                continue
            }
            let entry = try entry()
            guard seenKeys[seenKeys.count - 1].insert(entry.key).inserted else {
                let table = tables[tables.count - 1].name
                throw ConfigError(
                    line: entry.line,
                    "key \(ConfigText.quoted(entry.key)) is set twice" + (table.isEmpty ? "" : " in [\(table)]"))
            }
            tables[tables.count - 1].entries.append(entry)
        }
        return tables[0].entries.isEmpty ? Array(tables.dropFirst()) : tables
    }

    /// A `[name]` header line, read from its `[`: the table it opens, still without entries.
    private mutating func tableHeader() throws(ConfigError) -> ConfigDocument.Table {
        let headerLine = line
        advance()
        skipBlank()
        if current == "[" { throw error("expected a table name: arrays of tables are not supported") }
        let name = try bareKey(what: "a table name after '['")
        try expect(
            "]", after: "the table name \(ConfigText.quoted(name))",
            ifDotted: "expected ']' after the table name: dotted names are not supported")
        try endOfLine()
        return ConfigDocument.Table(name: name, line: headerLine, entries: [])
    }

    /// A `key = value` line, read from its key.
    private mutating func entry() throws(ConfigError) -> ConfigDocument.Entry {
        let entryLine = line
        let key = try bareKey(what: "a key, a [table] header, a comment or an empty line")
        try expect(
            "=", after: "the key \(ConfigText.quoted(key))",
            ifDotted: "expected '=' after the key \(ConfigText.quoted(key)): dotted keys are not supported")
        skipBlank()
        let value = try value(depth: 0)
        try endOfLine()
        return ConfigDocument.Entry(key: key, value: value, line: entryLine)
    }

    /// Steps over `mark`, after blanks, which must follow `what`; a dot there would make a dotted name, which this
    /// subset of TOML does not support (`dotted` says so).
    private mutating func expect(_ mark: Unicode.Scalar, after what: String, ifDotted dotted: String)
        throws(ConfigError)
    {
        skipBlank()
        guard current == mark else { throw error(current == "." ? dotted : "expected '\(mark)' after \(what)") }
        advance()
    }

    /// Spaces and tabs.
    private mutating func skipBlank() {
        while current == " " || current == "\t" { advance() }
    }

    /// A `#` comment up to (not including) the line's end; control characters other than tab are refused, as TOML
    /// does, when the comment is read by ``endOfLine()``.
    private mutating func skipComment() {
        guard current == "#" else { return }
        while let scalar = current, scalar != "\n", scalar != "\r" {
            if Self.isControl(scalar), scalar != "\t" { return }
            advance()
        }
    }

    /// After a value or a header: blanks, an optional comment, then a line break or the end.
    private mutating func endOfLine() throws(ConfigError) {
        skipBlank()
        skipComment()
        switch current {
        case nil: return
        case "\n": advance()
        case "\r":
            advance()
            guard current == "\n" else { throw error("expected a line feed after a carriage return") }
            advance()
        case let scalar?:
            if Self.isControl(scalar) {
                throw error("expected the end of the line, found the control character \(Self.describe(scalar))")
            }
            throw error("expected the end of the line or a # comment, found \(Self.describe(scalar))")
        }
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F
    }

    private static func describe(_ scalar: Unicode.Scalar) -> String {
        ConfigText.quoted(String(Character(scalar)))
    }

    private static func isBare(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "-": true
        default: false
        }
    }

    /// A bare key: letters, digits, `_` and `-` (quoted keys are not in the subset).
    private mutating func bareKey(what expected: String) throws(ConfigError) -> String {
        var key = ""
        while let scalar = current, Self.isBare(scalar) {
            key.unicodeScalars.append(scalar)
            advance()
        }
        guard !key.isEmpty else {
            if current == "\"" || current == "'" { throw error("expected \(expected): quoted keys are not supported") }
            throw error("expected \(expected)" + (current.map { ", found \(Self.describe($0))" } ?? ""))
        }
        return key
    }

    /// A value; `depth` counts the arrays around it.
    private mutating func value(depth: Int) throws(ConfigError) -> ConfigValue {
        switch current {
        case let quote? where quote == "\"" || quote == "'": return .string(try string(quote))
        case "["?: return .array(try array(depth: depth + 1))
        case let scalar? where scalar == "+" || scalar == "-" || ("0"..."9").contains(scalar):
            return .integer(try integer())
        case let scalar? where ("a"..."z").contains(scalar):
            var word = ""
            while let scalar = current, Self.isBare(scalar) || scalar == "." {
                word.unicodeScalars.append(scalar)
                advance()
            }
            switch word {
            case "true": return .boolean(true)
            case "false": return .boolean(false)
            case "inf", "nan":
                throw error("expected a string, an integer, a boolean or an array: floats are not supported")
            default:
                throw error(
                    "expected a string, an integer, a boolean or an array, found \(ConfigText.quoted(word))"
                        + " (strings need quotes)")
            }
        case "{"?: throw error("expected a string, an integer, a boolean or an array: inline tables are not supported")
        case let scalar?:
            throw error("expected a string, an integer, a boolean or an array, found \(Self.describe(scalar))")
        case nil: throw error("expected a value after '='")
        }
    }

    /// `"…"` (TOML's escapes) or `'…'` (no escapes), as `quote` says: on one line, no raw control character but
    /// tab.
    private mutating func string(_ quote: Unicode.Scalar) throws(ConfigError) -> String {
        if scalars[index...].starts(with: String(repeating: Character(quote), count: 3).unicodeScalars) {
            throw error("expected a one-line string: multi-line strings are not supported")
        }
        advance()
        var text = ""
        while true {
            guard let scalar = current, scalar != "\n", scalar != "\r" else {
                throw error("expected \(quote == "'" ? "\"'\"" : "'\"'") to end the string before the end of the line")
            }
            advance()
            if scalar == quote { return text }
            if scalar == "\\" && quote == "\"" {
                text.unicodeScalars.append(try escape())
                continue
            }
            if Self.isControl(scalar), scalar != "\t" {
                throw error(
                    "expected a printable character in the string, found the control character "
                        + "\(Self.describe(scalar)) (write it as an escape)")
            }
            text.unicodeScalars.append(scalar)
        }
    }

    /// The character after a backslash in a basic string.
    private mutating func escape() throws(ConfigError) -> Unicode.Scalar {
        guard let scalar = current else { throw error("expected an escape after '\\'") }
        advance()
        switch scalar {
        case "b": return "\u{08}"
        case "t": return "\t"
        case "n": return "\n"
        case "f": return "\u{0C}"
        case "r": return "\r"
        case "e": return "\u{1B}"
        case "\"": return "\""
        case "\\": return "\\"
        case "u", "U":
            let count = scalar == "u" ? 4 : 8
            var digits = ""
            for _ in 0..<count {
                guard let digit = current, digit.properties.isASCIIHexDigit else {
                    throw error("expected \(count) hexadecimal digits after '\\\(scalar)'")
                }
                digits.unicodeScalars.append(digit)
                advance()
            }
            guard let value = UInt32(digits, radix: 16), let escaped = Unicode.Scalar(value) else {
                throw error(
                    "expected a Unicode scalar value after '\\\(scalar)', found \(digits) (a surrogate or beyond U+10FFFF)"
                )
            }
            return escaped
        default:
            throw error(
                "expected one of the escapes \\b \\t \\n \\f \\r \\e \\\" \\\\ \\uXXXX \\UXXXXXXXX, found \(Self.describe(scalar))"
            )
        }
    }

    /// A decimal integer: an optional sign, no leading zero, `_` only between digits; it must fit 64 bits.
    private mutating func integer() throws(ConfigError) -> Int {
        var text = ""
        while let scalar = current, Self.isBare(scalar) || scalar == "+" || scalar == "." || scalar == ":" {
            text.unicodeScalars.append(scalar)
            advance()
        }
        let unsigned = text.first == "+" || text.first == "-" ? text.dropFirst() : Substring(text)
        let digits = unsigned.split(separator: "_", omittingEmptySubsequences: false)
        guard !unsigned.isEmpty, digits.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }) else {
            if text.contains(".") || text.lowercased().contains("e") && !text.hasPrefix("0x") {
                throw error("expected an integer, found \(ConfigText.quoted(text)): floats are not supported")
            }
            if text.contains(":") || text.contains("T") {
                throw error("expected an integer, found \(ConfigText.quoted(text)): dates are not supported")
            }
            throw error("expected a decimal integer, found \(ConfigText.quoted(text))")
        }
        let joined = digits.joined()
        guard joined == "0" || !joined.hasPrefix("0") else {
            throw error("expected an integer without leading zeros, found \(ConfigText.quoted(text))")
        }
        guard let value = Int((text.first == "-" ? "-" : "") + joined) else {
            throw error("expected an integer that fits in 64 bits, found \(ConfigText.quoted(text))")
        }
        return value
    }

    /// `[a, b, …]`: values separated by commas, a trailing comma allowed, across lines and comments.
    private mutating func array(depth: Int) throws(ConfigError) -> [ConfigValue] {
        guard depth <= ConfigDocument.maximumDepth else {
            throw error("expected at most \(ConfigDocument.maximumDepth) nested arrays")
        }
        advance()
        var values: [ConfigValue] = []
        while true {
            try skipArraySpace()
            if current == "]" {
                advance()
                return values
            }
            values.append(try value(depth: depth))
            try skipArraySpace()
            switch current {
            case ","?: advance()
            case "]"?:
                advance()
                return values
            case let scalar?: throw error("expected ',' or ']' in the array, found \(Self.describe(scalar))")
            case nil: throw error("expected ']' to end the array")
            }
        }
    }

    /// Blanks, comments and line breaks inside an array.
    private mutating func skipArraySpace() throws(ConfigError) {
        while true {
            skipBlank()
            skipComment()
            switch current {
            case "\n"?: advance()
            case "\r"?: try endOfLine()
            case nil: throw error("expected ']' to end the array")
            default: return
            }
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
