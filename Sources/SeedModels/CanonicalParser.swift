/// Reads canonical text back into a ``CanonicalValue``: a small tokenizer and recursive-descent
/// parser over the Swift-literal subset the printer writes (names, labelled arguments, integers,
/// doubles, strings with Swift escapes, arrays and `nil`). Nesting is bounded by ``maximumDepth`` so no
/// input can exhaust the stack, here or in the recursive printing and destruction of the value.
struct CanonicalParser {
    /// The deepest nesting of arrays and calls read: far beyond any model's (three levels), far below
    /// what the stack holds.
    static let maximumDepth = 64

    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var depth = 0

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// Parses the whole text as one value; anything left over is an error.
    mutating func parseAll() throws(CanonicalTextError) -> CanonicalValue {
        skipSpace()
        guard index < scalars.count else { throw error("expected a value but the text is empty") }
        let value = try parseValue()
        skipSpace()
        guard index == scalars.count else {
            throw error("unexpected \(describeNext()) after the value")
        }
        return value
    }

    // MARK: Grammar

    private mutating func parseValue() throws(CanonicalTextError) -> CanonicalValue {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            throw error("values are nested more than \(Self.maximumDepth) deep")
        }
        skipSpace()
        guard let scalar = peek() else { throw error("expected a value but the text ended") }
        switch scalar {
        case "\"":
            return .string(try parseString())
        case "[":
            return .array(try parseArray())
        case "-", "0"..."9":
            return try parseNumber()
        default:
            guard Self.isNameStart(scalar) else {
                throw error("expected a value but found \(describeNext())")
            }
            let name = parseName()
            if name == "nil" { return .nil }
            skipSpace()
            if peek() == "(" {
                return .call(name, try parseArguments())
            }
            return .name(name)
        }
    }

    private mutating func parseArguments() throws(CanonicalTextError) -> [CanonicalArgument] {
        try expect("(")
        var arguments: [CanonicalArgument] = []
        skipSpace()
        if peek() == ")" {
            index += 1
            return arguments
        }
        while true {
            skipSpace()
            arguments.append(try parseArgument())
            skipSpace()
            if peek() == "," {
                index += 1
                continue
            }
            try expect(")")
            return arguments
        }
    }

    private mutating func parseArgument() throws(CanonicalTextError) -> CanonicalArgument {
        // A label is a name followed by ':'; otherwise the name starts the value itself.
        let start = index
        if let scalar = peek(), Self.isNameStart(scalar) {
            let name = parseName()
            skipSpace()
            if peek() == ":" {
                index += 1
                return CanonicalArgument(name, try parseValue())
            }
            index = start
        }
        return CanonicalArgument(nil, try parseValue())
    }

    private mutating func parseArray() throws(CanonicalTextError) -> [CanonicalValue] {
        try expect("[")
        var elements: [CanonicalValue] = []
        while true {
            skipSpace()
            if peek() == "]" {
                index += 1
                return elements
            }
            elements.append(try parseValue())
            skipSpace()
            if peek() == "," {
                index += 1
            } else if peek() != "]" {
                throw error("expected \",\" or \"]\" in the array but found \(describeNext())")
            }
        }
    }

    private mutating func parseNumber() throws(CanonicalTextError) -> CanonicalValue {
        let start = index
        if peek() == "-" { index += 1 }
        var isDouble = false
        guard consumeDigits() else { throw error("expected digits after \"-\"") }
        if peek() == ".", index + 1 < scalars.count, Self.isDigit(scalars[index + 1]) {
            isDouble = true
            index += 1
            _ = consumeDigits()
        }
        if peek() == "e" || peek() == "E" {
            isDouble = true
            index += 1
            if peek() == "+" || peek() == "-" { index += 1 }
            guard consumeDigits() else { throw error("expected digits in the exponent") }
        }
        let text = String(String.UnicodeScalarView(scalars[start..<index]))
        if isDouble {
            guard let value = Double(text), value.isFinite else {
                throw error("\(CanonicalValue.excerpt(text)) is not a finite number", at: start)
            }
            return .double(value)
        }
        guard let value = Int(text) else {
            throw error("\(CanonicalValue.excerpt(text)) does not fit in an integer", at: start)
        }
        return .int(value)
    }

    private mutating func parseString() throws(CanonicalTextError) -> String {
        try expect("\"")
        var text = String.UnicodeScalarView()
        while true {
            guard let scalar = peek() else { throw error("the string is not closed with \"") }
            index += 1
            switch scalar {
            case "\"":
                return String(text)
            case "\\":
                text.append(try parseEscape())
            case "\n", "\r":
                throw error("a line break inside a string must be written \\n or \\r", at: index - 1)
            default:
                text.append(scalar)
            }
        }
    }

    private mutating func parseEscape() throws(CanonicalTextError) -> Unicode.Scalar {
        guard let scalar = peek() else { throw error("the string ends inside an escape") }
        index += 1
        switch scalar {
        case "\\": return "\\"
        case "\"": return "\""
        case "'": return "'"
        case "n": return "\n"
        case "r": return "\r"
        case "t": return "\t"
        case "0": return "\0"
        case "u":
            try expect("{")
            let start = index
            while let next = peek(), next.properties.isASCIIHexDigit { index += 1 }
            let digits = String(String.UnicodeScalarView(scalars[start..<index]))
            guard (1...8).contains(digits.count), let value = UInt32(digits, radix: 16),
                let result = Unicode.Scalar(value)
            else {
                throw error("\\u{\(CanonicalValue.excerpt(digits))} is not a Unicode scalar", at: start)
            }
            try expect("}")
            return result
        default:
            throw error("unknown escape \\\(Character(scalar)) in a string", at: index - 2)
        }
    }

    // MARK: Tokens

    private mutating func parseName() -> String {
        let start = index
        while let scalar = peek(), Self.isNameStart(scalar) || Self.isDigit(scalar) { index += 1 }
        return String(String.UnicodeScalarView(scalars[start..<index]))
    }

    private mutating func consumeDigits() -> Bool {
        let start = index
        while let scalar = peek(), Self.isDigit(scalar) { index += 1 }
        return index > start
    }

    private mutating func expect(_ scalar: Unicode.Scalar) throws(CanonicalTextError) {
        skipSpace()
        guard peek() == scalar else {
            throw error("expected \"\(Character(scalar))\" but found \(describeNext())")
        }
        index += 1
    }

    private mutating func skipSpace() {
        while let scalar = peek(), scalar == " " || scalar == "\t" { index += 1 }
    }

    private func peek() -> Unicode.Scalar? {
        index < scalars.count ? scalars[index] : nil
    }

    private func describeNext() -> String {
        guard let scalar = peek() else { return "the end of the text" }
        return CanonicalValue.quoted(String(Character(scalar)))
    }

    private func error(_ message: String, at position: Int? = nil) -> CanonicalTextError {
        CanonicalTextError(column: (position ?? index) + 1, message)
    }

    private static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }
}

extension CanonicalValue {
    /// Parses one value written in canonical text, or throws naming the column and the cause.
    public static func parse(_ text: String) throws(CanonicalTextError) -> CanonicalValue {
        var parser = CanonicalParser(text)
        return try parser.parseAll()
    }
}
