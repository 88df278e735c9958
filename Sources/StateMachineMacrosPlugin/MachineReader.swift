import SwiftSyntax

/// A reading failure: the message and the node it points at.
struct ReadingError: Error {
    let node: Syntax
    let message: TableDiagnostic
}

/// Reads a `@StateMachine` declaration's syntax into a ``MachineSyntax``, or fails at the first thing it cannot read.
enum MachineReader {
    /// Reads the nested `State` and `Event` enums and the table from the annotated declaration.
    static func read(_ declaration: some DeclGroupSyntax, attribute: AttributeSyntax) throws(ReadingError)
        -> MachineSyntax
    {
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
    private static func enumCases(named name: String, in members: [DeclSyntax], attribute: AttributeSyntax)
        throws(ReadingError) -> CaseList
    {
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
                variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) })
            else { continue }
            for binding in variable.bindings {
                if binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "table" { return binding }
            }
        }
        return nil
    }

    private static func table(_ call: FunctionCallExprSyntax) throws(ReadingError) -> TableSyntax {
        let arguments = Dictionary(
            call.arguments.map { ($0.label?.text ?? "", $0) }, uniquingKeysWith: { first, _ in first })
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
            unlistedStated: arguments["unlisted"] != nil, unlistedIgnored: unlistedIgnored,
            rowsArgument: rowsArgument, rowsArray: rowsArray, rows: rows
        )
    }

    private static func row(_ element: ArrayElementSyntax) throws(ReadingError) -> RowSyntax {
        guard let call = element.expression.as(FunctionCallExprSyntax.self),
            let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "on"
        else {
            throw ReadingError(node: Syntax(element.expression), message: .unrecognisedRow)
        }
        var arguments = Array(call.arguments)
        guard arguments.count >= 2, arguments[0].label == nil, arguments[1].label == nil,
            let state = caseReference(arguments[0].expression), let event = caseReference(arguments[1].expression)
        else {
            throw ReadingError(node: Syntax(element.expression), message: .unrecognisedRow)
        }
        arguments.removeFirst(2)
        var admits: ExprSyntax?
        if arguments.first?.label?.text == "when" {
            admits = arguments.removeFirst().expression
        }
        let labelled = Dictionary(
            arguments.map { ($0.label?.text ?? "", $0.expression) }, uniquingKeysWith: { first, _ in first })
        let action: RowAction
        if let target = labelled["to"] {
            action = .move(
                target: target, targetCase: caseReference(target), after: labelled["after"], send: labelled["send"])
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
        if let call = expression.as(FunctionCallExprSyntax.self),
            let member = call.calledExpression.as(MemberAccessExprSyntax.self)
        {
            return CaseReference(name: member.declName.baseName.text, node: expression)
        }
        return nil
    }
}
