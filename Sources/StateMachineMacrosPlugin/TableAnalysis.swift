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
        if !table.unlistedStated {
            checkExhaustive(machine)
        }
    }

    /// Without `unlisted:`, the table is the whole switch: every (state, event) pair of the declared cases
    /// needs a row, and the missing ones are one error at the table with the three ways to complete it.
    private mutating func checkExhaustive(_ machine: MachineSyntax) {
        let listed = Set(pairs.map { $0.state + "\u{0}" + $0.event })
        let missing = machine.states.cases.flatMap { state in
            machine.events.cases.compactMap { event in
                listed.contains(state.name + "\u{0}" + event.name) ? nil : (state: state.name, event: event.name)
            }
        }
        guard !missing.isEmpty else { return }
        let table = machine.table
        diagnostics.append(
            Diagnostic(
                node: table.call.calledExpression,
                message: TableDiagnostic.missingPairs(missing.map { "(\($0.state), \($0.event))" }),
                fixIts: [
                    Self.stateUnlisted("invalid", in: table), Self.stateUnlisted("ignore", in: table),
                    Self.addRows(for: missing, in: table),
                ]
            ))
    }

    /// Adds `unlisted: .VERDICT` just before `rows:`.
    private static func stateUnlisted(_ verdict: String, in table: TableSyntax) -> FixIt {
        let start = table.rowsArgument.positionAfterSkippingLeadingTrivia
        return FixIt(
            message: TableFixIt.stateUnlisted(verdict),
            changes: [
                .replaceText(range: start..<start, with: "unlisted: .\(verdict), ", in: Syntax(table.rowsArgument))
            ])
    }

    /// Appends an `.invalid` row for each missing pair after the last row, indented like it, so the pairs
    /// keep failing loudly until their real rows are written.
    private static func addRows(for missing: [(state: String, event: String)], in table: TableSyntax) -> FixIt {
        let array = table.rowsArray
        let last = array.elements.last
        // The last row's line break and indentation, without any comment written above it.
        let indentation =
            last.map { element -> String in
                let leading = element.leadingTrivia.description
                return leading.lastIndex(of: "\n").map { String(leading[$0...]) } ?? " "
            } ?? " "
        let comma = last.map { $0.trailingComma == nil ? "," : "" } ?? ""
        let rows = missing.map { pair in
            "\(indentation).on(.\(pair.state), .\(pair.event), .invalid(\"\(pair.event) in \(pair.state) is not handled\")),"
        }
        let end = last?.endPositionBeforeTrailingTrivia ?? array.leftSquare.endPositionBeforeTrailingTrivia
        return FixIt(
            message: TableFixIt.addRows(missing.count),
            changes: [.replaceText(range: end..<end, with: comma + rows.joined(), in: Syntax(array))])
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
