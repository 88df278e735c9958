/// A canonical type whose values are the cases of an enum, printed and read back through one table of
/// its cases: each case's name, labels and argument types are written once, so the printer, the parser,
/// the error messages and the forms shown to a user (``CanonicalText/canonicalForms``) come from the
/// same row and cannot drift apart.
public protocol CanonicalCases: CanonicalText {
    /// What a user calls the type in an error message: `transfer event`, `load state`.
    static var canonicalTypeName: String { get }

    /// Every case of the type, in the order its forms are listed to a user.
    static var canonicalCases: [CanonicalCase<Self>] { get }
}

extension CanonicalCases {
    /// The forms of ``canonicalCases``, one a case: `progress(request: Int, percent: Int)`.
    public static var canonicalForms: [String] { canonicalCases.map(\.form) }

    /// Reads a value back through the row of ``canonicalCases`` its case name selects, or throws naming
    /// the type when no row has that name.
    public init(canonicalValue value: CanonicalValue) throws(CanonicalTextError) {
        guard let name = value.caseName, let row = Self.canonicalCases.first(where: { $0.name == name }) else {
            throw CanonicalValue.unknownCase(value, of: Self.canonicalTypeName)
        }
        self = try row.read(value)
    }

    /// The syntax tree of case `name` with `values` as its arguments, labelled as its row of
    /// ``canonicalCases`` says: a bare name when it has no arguments.
    public static func canonical(_ name: String, _ values: CanonicalValue...) -> CanonicalValue {
        guard let row = canonicalCases.first(where: { $0.name == name }), row.parameters.count == values.count
        else {
            preconditionFailure("\(name) with \(values.count) arguments is not a row of \(Self.self).canonicalCases")
        }
        guard !values.isEmpty else { return .name(name) }
        return .call(name, zip(row.parameters, values).map { CanonicalArgument($0.label, $1) })
    }
}

/// One argument of a ``CanonicalCase``: its label (nil when unlabelled), the role an error message names
/// it by, and its type as the case's form shows it.
public struct CanonicalParameter: Hashable, Sendable {
    /// The argument label, or nil for an unlabelled argument.
    public var label: String?
    /// What an error message calls the argument: its label, or a name for an unlabelled one (`items`).
    public var role: String
    /// The type as a user reads it in the form: `Int`, `[String]?`.
    public var type: String

    /// A labelled argument, named in errors by its label.
    public static func labelled(_ label: String, _ type: String) -> CanonicalParameter {
        CanonicalParameter(label: label, role: label, type: type)
    }

    /// An unlabelled argument, named in errors by `role`.
    public static func unlabelled(_ role: String, _ type: String) -> CanonicalParameter {
        CanonicalParameter(label: nil, role: role, type: type)
    }
}

/// The arguments of one case being read back, each converted by position and named in an error by its
/// parameter's role.
public struct CanonicalArguments: Sendable {
    private let values: [CanonicalValue]
    private let parameters: [CanonicalParameter]

    init(_ values: [CanonicalValue], _ parameters: [CanonicalParameter]) {
        self.values = values
        self.parameters = parameters
    }

    /// Argument `index` as an `Int`.
    public func int(_ index: Int) throws(CanonicalTextError) -> Int {
        try values[index].intValue(parameters[index].role)
    }

    /// Argument `index` as a `Double` (an integer literal is accepted, as in Swift).
    public func double(_ index: Int) throws(CanonicalTextError) -> Double {
        try values[index].doubleValue(parameters[index].role)
    }

    /// Argument `index` as a `String`.
    public func string(_ index: Int) throws(CanonicalTextError) -> String {
        try values[index].stringValue(parameters[index].role)
    }

    /// Argument `index` as an array of strings.
    public func strings(_ index: Int) throws(CanonicalTextError) -> [String] {
        try values[index].stringsValue(parameters[index].role)
    }

    /// Argument `index` as a value of another canonical type, read through that type's cases.
    public func value<Nested: CanonicalCases>(_ index: Int, as type: Nested.Type) throws(CanonicalTextError)
        -> Nested
    {
        try Nested(canonicalValue: values[index])
    }

    /// Argument `index` as an optional array of strings (`nil` or `[…]`).
    public func optionalStrings(_ index: Int) throws(CanonicalTextError) -> [String]? {
        try values[index].optionalStringsValue(parameters[index].role)
    }
}

/// One row of a ``CanonicalCases`` table: a case's name, its parameters and how its arguments become a
/// value.
public struct CanonicalCase<Value>: Sendable {
    /// The case name: `progress`.
    public let name: String
    /// The case's arguments in order; empty for a case without payload.
    public let parameters: [CanonicalParameter]
    private let build: @Sendable (CanonicalArguments) throws(CanonicalTextError) -> Value

    /// A case with arguments, built from them by `build`.
    public init(
        _ name: String, _ parameters: CanonicalParameter...,
        build: @escaping @Sendable (CanonicalArguments) throws(CanonicalTextError) -> Value
    ) {
        self.name = name
        self.parameters = parameters
        self.build = build
    }

    /// A case without payload, always `value`.
    public init(_ name: String, _ value: Value) where Value: Sendable {
        self.init(name) { _ throws(CanonicalTextError) in value }
    }

    /// The form a user reads: `progress(request: Int, percent: Int)`, or the bare name.
    public var form: String {
        guard !parameters.isEmpty else { return name }
        let arguments = parameters.map { parameter in
            parameter.label.map { "\($0): \(parameter.type)" } ?? parameter.type
        }
        return name + "(" + arguments.joined(separator: ", ") + ")"
    }

    /// Reads `value`, whose case name is this row's: its labels must be exactly the parameters'.
    func read(_ value: CanonicalValue) throws(CanonicalTextError) -> Value {
        let values = try value.arguments(of: form, labels: parameters.map(\.label))
        return try build(CanonicalArguments(values, parameters))
    }
}
