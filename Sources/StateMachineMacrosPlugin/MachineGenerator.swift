import SwiftSyntax

/// Writes the members `@StateMachine` adds: the case-name enums, the table's type aliases, the transition
/// function and the Mermaid diagram.
struct MachineGenerator {
    let machine: MachineSyntax
    let analysis: TableAnalysis
    /// `public ` or `package ` when the annotated type is, so the members are as visible as it is.
    let access: String

    var members: [DeclSyntax] {
        var members: [DeclSyntax] = []
        if machine.states.generatesCaseEnum {
            members.append(
                caseEnum(
                    named: "StateCase", cases: machine.states.cases, summary: "The state cases, without their payloads."
                ))
        }
        if machine.events.generatesCaseEnum {
            members.append(
                caseEnum(
                    named: "EventCase", cases: machine.events.cases, summary: "The event cases, without their payloads."
                ))
        }
        return members + [
            caseFunction(named: "stateCase", of: "State", returning: "StateCase", cases: machine.states.cases),
            caseFunction(named: "eventCase", of: "Event", returning: "EventCase", cases: machine.events.cases),
            """
            /// A row of this machine's table.
            \(raw: access)typealias Row = TransitionRow<State, Event, StateCase, EventCase>
            """,
            """
            /// This machine's table.
            \(raw: access)typealias Table = TransitionTable<State, Event, StateCase, EventCase>
            """,
            DeclSyntax(stringLiteral: transitionFunction),
            DeclSyntax(stringLiteral: mermaidDiagram),
        ]
    }

    private func caseEnum(named name: String, cases: [DeclaredCase], summary: String) -> DeclSyntax {
        let lines =
            ["/// \(summary)", "\(access)enum \(name): String, Hashable, Sendable, CaseIterable {"]
            + cases.map { "    case \($0.name)" } + ["}"]
        return DeclSyntax(stringLiteral: lines.joined(separator: "\n"))
    }

    /// An exhaustive switch from a value to its case name; for a `State` declared elsewhere it is also the
    /// proof that the hand-written case list matches the enum.
    private func caseFunction(named name: String, of type: String, returning result: String, cases: [DeclaredCase])
        -> DeclSyntax
    {
        let lines =
            [
                "/// The case of `value`, without its payload.",
                "\(access)static func \(name)(_ value: \(type)) -> \(result) {",
                "    switch value {",
            ] + cases.map { "    case .\($0.name): .\($0.name)" } + ["    }", "}"]
        return DeclSyntax(stringLiteral: lines.joined(separator: "\n"))
    }

    private var transitionFunction: String {
        var lines = [
            "/// The table as one `switch`: rows of a pair are tried in table order, guards first.",
            "\(access)static func transition(_ state: State, _ event: Event) -> StateMachineKit.Transition<State, Event> {",
            "    switch (state, event) {",
        ]
        for pair in analysis.pairs {
            lines.append("    case (.\(pair.state), .\(pair.event)):")
            for row in pair.rows {
                let number = machine.table.rows.firstIndex { $0.element.id == row.element.id } ?? 0
                var decision = decisionLines(row, number: number)
                if let admits = row.admits {
                    lines.append(
                        "        let admits\(number): (State, Event) -> Bool = \(indented(admits.trimmedDescription, by: 8))"
                    )
                    lines.append("        if admits\(number)(state, event) {")
                    decision = decision.map {
                        $0.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(
                            separator: "\n")
                    }
                    lines += decision
                    lines.append("        }")
                } else {
                    lines += decision
                }
            }
            if pair.rows.last?.admits != nil {
                lines.append("        return .invalid(\"no guard admitted \\(event) in \\(state)\")")
            }
        }
        if analysis.pairs.count < machine.states.cases.count * machine.events.cases.count {
            lines.append("    default:")
            lines.append(
                machine.table.unlistedIgnored
                    ? "        return .ignore"
                    : "        return .invalid(\"no row for \\(event) in \\(state)\")")
        }
        lines += ["    }", "}"]
        return lines.joined(separator: "\n")
    }

    private func decisionLines(_ row: RowSyntax, number: Int) -> [String] {
        switch row.action {
        case .move(let target, _, let after, let send):
            let targetText = indented(target.trimmedDescription, by: 8)
            if let after, let send {
                return [
                    "        return .to(\(targetText), timeout: StateMachineKit.StateTimeout(after: \(after.trimmedDescription), send: \(send.trimmedDescription)))"
                ]
            }
            return ["        return .to(\(targetText))"]
        case .verdict(let verdict):
            let text = verdict.trimmedDescription
            return text.hasPrefix(".") ? ["        return \(text)"] : ["        return (\(text)).transition()"]
        case .decide(let closure, _):
            return [
                "        let decide\(number): (State, Event) -> StateMachineKit.Transition<State, Event> = \(indented(closure.trimmedDescription, by: 8))",
                "        return decide\(number)(state, event)",
            ]
        }
    }

    /// Re-indents a transplanted multi-line expression: its first line keeps its place, later lines keep
    /// their shape relative to the least-indented one and move to `by` spaces.
    private func indented(_ text: String, by width: Int) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count > 1 else { return text }
        let rest = lines.dropFirst()
        let margin =
            rest.filter { !$0.allSatisfy(\.isWhitespace) }.map { $0.prefix(while: { $0 == " " }).count }.min() ?? 0
        let last = rest.last.map { $0.prefix(while: { $0 == " " }).count } ?? margin
        // A closing brace lines up with the start of the statement; the body sits four spaces in.
        let shift = width - min(margin, last)
        let moved = rest.map { line -> String in
            if line.allSatisfy(\.isWhitespace) { return "" }
            let current = line.prefix(while: { $0 == " " }).count
            return String(repeating: " ", count: max(0, current + shift)) + line.dropFirst(current)
        }
        return ([String(lines[0])] + moved).joined(separator: "\n")
    }

    private var mermaidDiagram: String {
        var lines = ["stateDiagram-v2", "    [*] --> \(machine.table.initial.name)"]
        lines += analysis.edges.map { "    \($0.from) --> \($0.to): \($0.event)" }
        lines += machine.table.finals.map { "    \($0.name) --> [*]" }
        return
            ([
                "/// The table as a Mermaid state diagram (moves only; stay, ignore, invalid and postpone rows are left out).",
                "\(access)static let mermaid: String = \"\"\"",
            ] + lines.map { "    " + $0 } + ["    \"\"\""]).joined(separator: "\n")
    }
}
