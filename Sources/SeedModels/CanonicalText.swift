/// A type whose values print and parse in the canonical Swift-literal form.
///
/// Conforming types describe themselves as a ``CanonicalValue`` and rebuild themselves from one;
/// `description` and ``init(parsing:)`` come for free, so printer and parser cannot drift apart.
public protocol CanonicalText: CustomStringConvertible {
    /// The value as canonical text's syntax tree.
    var canonicalValue: CanonicalValue { get }

    /// Rebuilds a value from its syntax tree, or throws naming what does not fit.
    init(canonicalValue: CanonicalValue) throws(CanonicalTextError)

    /// The forms this type accepts, one per case, as shown to a user who typed something else:
    /// `progress(request: Int, percent: Int)`.
    static var canonicalForms: [String] { get }
}

extension CanonicalText {
    /// The canonical text, e.g. `running(request: 1, percent: 20)`.
    public var description: String { canonicalValue.description }

    /// Parses canonical text, or throws naming the column and the cause.
    public init(parsing text: String) throws(CanonicalTextError) {
        try self.init(canonicalValue: CanonicalValue.parse(text))
    }
}

extension CanonicalValue {
    /// The case name this value starts with: `idle` for `idle`, `running` for `running(…)`;
    /// nil for numbers, strings, arrays and `nil`.
    public var caseName: String? {
        switch self {
        case .name(let name), .call(let name, _): name
        case .int, .double, .string, .array, .nil: nil
        }
    }

    /// The arguments of a case whose labels must be exactly `labels` (nil for an unlabelled one);
    /// a bare name matches an empty label list.
    public func arguments(
        of form: String, labels: [String?]
    ) throws(CanonicalTextError) -> [CanonicalValue] {
        let arguments: [CanonicalArgument]
        switch self {
        case .name: arguments = []
        case .call(let name, let given):
            // `idle()` is not Swift for a case without payload, so it is not canonical text either.
            guard !(given.isEmpty && labels.isEmpty) else {
                throw CanonicalTextError(column: 0, "write \(Self.excerpt(name)) without parentheses")
            }
            arguments = given
        case .int, .double, .string, .array, .nil:
            throw CanonicalTextError(column: 0, "\(excerpt) is not \(form)")
        }
        guard arguments.map(\.label) == labels else {
            throw CanonicalTextError(column: 0, "\(excerpt) does not match \(form)")
        }
        return arguments.map(\.value)
    }

    /// This value as an `Int`, or an error naming `role` (`percent`).
    func intValue(_ role: String) throws(CanonicalTextError) -> Int {
        guard case .int(let value) = self else {
            throw CanonicalTextError(column: 0, "\(role) must be an integer, not \(excerpt)")
        }
        return value
    }

    /// This value as a `Double` (an integer literal is accepted, as in Swift), or an error.
    public func doubleValue(_ role: String) throws(CanonicalTextError) -> Double {
        switch self {
        case .double(let value): return value
        case .int(let value): return Double(value)
        case .name, .call, .string, .array, .nil:
            throw CanonicalTextError(column: 0, "\(role) must be a number, not \(excerpt)")
        }
    }

    /// This value as a `String`, or an error naming `role`.
    func stringValue(_ role: String) throws(CanonicalTextError) -> String {
        guard case .string(let value) = self else {
            throw CanonicalTextError(column: 0, "\(role) must be a quoted string, not \(excerpt)")
        }
        return value
    }

    /// This value as an array of strings, or an error naming `role`.
    func stringsValue(_ role: String) throws(CanonicalTextError) -> [String] {
        guard case .array(let elements) = self else {
            throw CanonicalTextError(column: 0, "\(role) must be an array of strings, not \(excerpt)")
        }
        var strings: [String] = []
        for element in elements {
            strings.append(try element.stringValue("each element of \(role)"))
        }
        return strings
    }

    /// This value as an optional array of strings (`nil` or `[…]`), or an error naming `role`.
    func optionalStringsValue(_ role: String) throws(CanonicalTextError) -> [String]? {
        if case .nil = self { return nil }
        return try stringsValue(role)
    }

    /// The error for a value whose case name is none of the type's; callers that show it to a
    /// user add the accepted forms (``CanonicalText/canonicalForms``).
    static func unknownCase(_ value: CanonicalValue, of typeName: String) -> CanonicalTextError {
        CanonicalTextError(column: 0, "\(value.excerpt) is not \(Article.indefinite(typeName))")
    }
}
