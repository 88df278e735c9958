import SwiftDiagnostics
import SwiftSyntax

/// An arrow of the diagram: `from` moves to `to` on `event`.
struct Edge: Hashable {
    let from: String
    let to: String
    let event: String
}

/// The graph checks `@StateMachine` runs on a table at compile time, and what code generation needs from
/// them: the rows that can apply, grouped by (state, event) pair in table order, and the edges.
struct TableAnalysis {
    /// The rows of each pair that can apply: up to and including the first unguarded one.
    private(set) var pairs: [(state: String, event: String, rows: [RowSyntax])] = []
    /// Distinct edges in table order.
    private(set) var edges: [Edge] = []
    /// Everything wrong with the table, each pointing at its row or case.
    private(set) var diagnostics: [Diagnostic] = []

    init(_ machine: MachineSyntax) {
        let table = machine.table
        collectPairs(table.rows)
        var mentioned = Set([table.initial.name] + table.finals.map(\.name))
        for row in table.rows {
            mentioned.insert(row.state.name)
            mentioned.formUnion(row.targets.map(\.name))
        }
        let reachable = reachableStates(from: table.initial.name)
        let finals = Set(table.finals.map(\.name))
        for state in machine.states.cases {
            if !mentioned.contains(state.name) {
                diagnostics.append(
                    Diagnostic(node: state.node.name, message: TableDiagnostic.unmentionedState(state.name)))
                continue
            }
            if !reachable.contains(state.name) {
                diagnostics.append(
                    Diagnostic(
                        node: state.node.name,
                        message: TableDiagnostic.unreachableState(state.name, initial: table.initial.name)
                    ))
            }
            let hasWayOut = edges.contains { $0.from == state.name && $0.to != state.name }
            if !hasWayOut && !finals.contains(state.name) {
                diagnostics.append(
                    Diagnostic(
                        node: state.node.name, message: TableDiagnostic.deadEnd(state.name),
                        fixIt: Self.markFinal(state.name, in: table)
                    ))
            }
        }
    }

    private mutating func collectPairs(_ rows: [RowSyntax]) {
        var index: [String: Int] = [:]
        var closedBy: [String: RowSyntax] = [:]
        for row in rows {
            let key = row.state.name + "\u{0}" + row.event.name
            if let first = closedBy[key] {
                diagnostics.append(
                    Diagnostic(
                        node: row.element.expression,
                        message: TableDiagnostic.duplicatePair(state: row.state.name, event: row.event.name),
                        notes: [
                            Note(
                                node: Syntax(first.element.expression),
                                message: TableNote.firstRow(state: row.state.name, event: row.event.name)
                            )
                        ],
                        fixIts: [Self.removeRow(row)]
                    ))
                continue
            }
            if row.admits == nil { closedBy[key] = row }
            if let position = index[key] {
                pairs[position].rows.append(row)
            } else {
                index[key] = pairs.count
                pairs.append((row.state.name, row.event.name, [row]))
            }
            for target in row.targets {
                let edge = Edge(from: row.state.name, to: target.name, event: row.event.name)
                if !edges.contains(edge) { edges.append(edge) }
            }
        }
    }

    private func reachableStates(from initial: String) -> Set<String> {
        var reached: Set<String> = [initial]
        var frontier = [initial]
        while let state = frontier.popLast() {
            for edge in edges where edge.from == state && reached.insert(edge.to).inserted {
                frontier.append(edge.to)
            }
        }
        return reached
    }

    /// Deletes the row with its line: its leading trivia (newline and indentation) and its trailing comma.
    private static func removeRow(_ row: RowSyntax) -> FixIt {
        FixIt(
            message: TableFixIt.removeRow,
            changes: [
                .replaceText(
                    range: row.element.position..<row.element.endPositionBeforeTrailingTrivia, with: "",
                    in: Syntax(row.element))
            ])
    }

    /// Adds the state to `final:`, creating the argument after `initial:` when the table has none.
    private static func markFinal(_ state: String, in table: TableSyntax) -> FixIt {
        let change: FixIt.Change
        if let array = table.finalArray {
            let existing = array.elements.map(\.expression.trimmedDescription)
            let text = "[" + (existing + [".\(state)"]).joined(separator: ", ") + "]"
            change = .replaceText(
                range: array.positionAfterSkippingLeadingTrivia..<array.endPositionBeforeTrailingTrivia, with: text,
                in: Syntax(array))
        } else {
            let end = table.initialArgument.expression.endPositionBeforeTrailingTrivia
            change = .replaceText(range: end..<end, with: ", final: [.\(state)]", in: Syntax(table.initialArgument))
        }
        return FixIt(message: TableFixIt.markFinal(state), changes: [change])
    }
}
