import SwiftDiagnostics
import SwiftSyntax

/// A case of the `State` or `Event` enum as declared: its name and where it is written.
struct DeclaredCase {
    let name: String
    let node: EnumCaseElementSyntax
}

/// A case name as the table writes it (`.running`, `.running(request: 1, percent: 0)`), with its node.
struct CaseReference {
    let name: String
    let node: ExprSyntax
}

/// What a row does when it applies.
enum RowAction {
    /// `to: target` with an optional `after:`/`send:` state timeout.
    case move(target: ExprSyntax, targetCase: CaseReference?, after: ExprSyntax?, send: ExprSyntax?)
    /// `.stay`, `.ignore` or `.invalid("why")`.
    case verdict(ExprSyntax)
    /// A closure deciding from the payloads; `targets` are the cases its `.to(…)`/`.update(…)` name.
    case decide(ClosureExprSyntax, targets: [CaseReference])
}

/// One row of the table, read from its syntax.
struct RowSyntax {
    let element: ArrayElementSyntax
    let state: CaseReference
    let event: CaseReference
    let admits: ExprSyntax?
    let action: RowAction

    /// The state cases this row can lead to (only transitions that may change the state).
    var targets: [CaseReference] {
        switch action {
        case .move(_, let target, _, _): target.map { [$0] } ?? []
        case .verdict: []
        case .decide(_, let targets): targets
        }
    }
}

/// The `static let table = Table(…)` member, read from its syntax.
struct TableSyntax {
    let call: FunctionCallExprSyntax
    let initial: CaseReference
    let initialArgument: LabeledExprSyntax
    let finalArray: ArrayExprSyntax?
    let finals: [CaseReference]
    let unlistedIgnored: Bool
    let rows: [RowSyntax]
}

/// The cases of `State` or `Event`, and whether the macro writes their case-name enum itself.
struct CaseList {
    let cases: [DeclaredCase]
    /// False when the type is declared elsewhere and the user listed its cases in a nested `…Case` enum.
    let generatesCaseEnum: Bool
}

/// Everything the macro reads from the annotated type.
struct MachineSyntax {
    let states: CaseList
    let events: CaseList
    let table: TableSyntax
}

/// A reading failure: the message and the node it points at.
struct ReadingError: Error {
    let node: Syntax
    let message: TableDiagnostic
}

enum MachineReader {
    /// Reads the nested `State` and `Event` enums and the table from the annotated declaration.
    static func read(_ declaration: some DeclGroupSyntax, attribute: AttributeSyntax) throws(ReadingError) -> MachineSyntax {
        let members = declaration.memberBlock.members.map(\.decl)
        let states = try enumCases(named: "State", in: members, attribute: attribute)
        let events = try enumCases(named: "Event", in: members, attribute: attribute)
        guard let binding = tableBinding(in: members) else {
            throw ReadingError(node: Syntax(attribute), message: .missingTable)
        }
        guard let call = binding.initializer?.value.as(FunctionCallExprSyntax.self) else {
            throw ReadingError(node: Syntax(binding), message: .tableNotACall)
        }
        return MachineSyntax(states: states, events: events, table: try table(call))
    }

    /// The cases of the nested `enum State`, or, for a `State` declared elsewhere, of the nested
    /// `enum StateCase` the user wrote (the generated `stateCase(_:)` switch makes the compiler hold the two
    /// lists equal).
    private static func enumCases(named name: String, in members: [DeclSyntax], attribute: AttributeSyntax) throws(ReadingError) -> CaseList {
        let enums = members.compactMap { $0.as(EnumDeclSyntax.self) }
        if let declaration = enums.first(where: { $0.name.text == name }) {
            return CaseList(cases: cases(of: declaration), generatesCaseEnum: true)
        }
        if let declaration = enums.first(where: { $0.name.text == name + "Case" }) {
            return CaseList(cases: cases(of: declaration), generatesCaseEnum: false)
        }
        throw ReadingError(node: Syntax(attribute), message: .missingEnum(name))
    }

    private static func cases(of declaration: EnumDeclSyntax) -> [DeclaredCase] {
        declaration.memberBlock.members.flatMap { member -> [DeclaredCase] in
            guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { return [] }
            return caseDecl.elements.map { DeclaredCase(name: $0.name.text, node: $0) }
        }
    }

    private static func tableBinding(in members: [DeclSyntax]) -> PatternBindingSyntax? {
        for member in members {
            guard let variable = member.as(VariableDeclSyntax.self),
                  variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) }) else { continue }
            for binding in variable.bindings {
                if binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "table" { return binding }
            }
        }
        return nil
    }

    private static func table(_ call: FunctionCallExprSyntax) throws(ReadingError) -> TableSyntax {
        let arguments = Dictionary(call.arguments.map { ($0.label?.text ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        guard let initialArgument = arguments["initial"] else {
            throw ReadingError(node: Syntax(call), message: .missingArgument("initial"))
        }
        guard let initial = caseReference(initialArgument.expression) else {
            throw ReadingError(node: Syntax(initialArgument.expression), message: .notACase("the initial state"))
        }
        var finalArray: ArrayExprSyntax?
        var finals: [CaseReference] = []
        if let finalArgument = arguments["final"] {
            guard let array = finalArgument.expression.as(ArrayExprSyntax.self) else {
                throw ReadingError(node: Syntax(finalArgument.expression), message: .notAnArray("final"))
            }
            finalArray = array
            for element in array.elements {
                guard let reference = caseReference(element.expression) else {
                    throw ReadingError(node: Syntax(element.expression), message: .notACase("a final state"))
                }
                finals.append(reference)
            }
        }
        var unlistedIgnored = false
        if let unlisted = arguments["unlisted"] {
            guard let name = caseReference(unlisted.expression)?.name, name == "ignore" || name == "invalid" else {
                throw ReadingError(node: Syntax(unlisted.expression), message: .badUnlisted)
            }
            unlistedIgnored = name == "ignore"
        }
        guard let rowsArgument = arguments["rows"] else {
            throw ReadingError(node: Syntax(call), message: .missingArgument("rows"))
        }
        guard let rowsArray = rowsArgument.expression.as(ArrayExprSyntax.self) else {
            throw ReadingError(node: Syntax(rowsArgument.expression), message: .notAnArray("rows"))
        }
        var rows: [RowSyntax] = []
        for element in rowsArray.elements {
            rows.append(try row(element))
        }
        return TableSyntax(
            call: call, initial: initial, initialArgument: initialArgument, finalArray: finalArray, finals: finals,
            unlistedIgnored: unlistedIgnored, rows: rows
        )
    }

    private static func row(_ element: ArrayElementSyntax) throws(ReadingError) -> RowSyntax {
        guard let call = element.expression.as(FunctionCallExprSyntax.self),
              let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "on" else {
            throw ReadingError(node: Syntax(element.expression), message: .unrecognisedRow)
        }
        var arguments = Array(call.arguments)
        guard arguments.count >= 2, arguments[0].label == nil, arguments[1].label == nil,
              let state = caseReference(arguments[0].expression), let event = caseReference(arguments[1].expression) else {
            throw ReadingError(node: Syntax(element.expression), message: .unrecognisedRow)
        }
        arguments.removeFirst(2)
        var admits: ExprSyntax?
        if arguments.first?.label?.text == "when" {
            admits = arguments.removeFirst().expression
        }
        let labelled = Dictionary(arguments.map { ($0.label?.text ?? "", $0.expression) }, uniquingKeysWith: { first, _ in first })
        let action: RowAction
        if let target = labelled["to"] {
            action = .move(target: target, targetCase: caseReference(target), after: labelled["after"], send: labelled["send"])
        } else if let closure = call.trailingClosure ?? labelled[""]?.as(ClosureExprSyntax.self) {
            let collector = TargetCollector(viewMode: .sourceAccurate)
            collector.walk(closure)
            if let unknown = collector.unresolved.first {
                throw ReadingError(node: Syntax(unknown), message: .targetNotACase)
            }
            action = .decide(closure, targets: collector.targets)
        } else if let verdict = labelled[""] {
            action = .verdict(verdict)
        } else {
            throw ReadingError(node: Syntax(element.expression), message: .unrecognisedRow)
        }
        return RowSyntax(element: element, state: state, event: event, admits: admits, action: action)
    }

    /// The case an expression names: `.x`, `.x(…)`, `State.x`, `State.x(…)`.
    static func caseReference(_ expression: ExprSyntax) -> CaseReference? {
        if let member = expression.as(MemberAccessExprSyntax.self) {
            return CaseReference(name: member.declName.baseName.text, node: expression)
        }
        if let call = expression.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
            return CaseReference(name: member.declName.baseName.text, node: expression)
        }
        return nil
    }
}

/// Finds the states a deciding closure can move to: the first argument of every `.to(…)` and `.update(…)`.
/// A target it cannot name (`.to(next)`) is collected apart: the graph checks need every target.
final class TargetCollector: SyntaxVisitor {
    private(set) var targets: [CaseReference] = []
    private(set) var unresolved: [ExprSyntax] = []

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let member = node.calledExpression.as(MemberAccessExprSyntax.self),
           ["to", "update"].contains(member.declName.baseName.text),
           member.base == nil || member.base?.trimmedDescription.hasPrefix("Transition") == true,
           let first = node.arguments.first, first.label == nil {
            if let target = MachineReader.caseReference(first.expression) {
                targets.append(target)
            } else {
                unresolved.append(first.expression)
            }
        }
        return .visitChildren
    }
}
