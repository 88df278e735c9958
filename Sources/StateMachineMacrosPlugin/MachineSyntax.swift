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
    /// `.stay`, `.ignore`, `.invalid("why")` or `.postpone`.
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
    /// Whether the table says what unlisted pairs mean (`unlisted: .ignore` or `.invalid`); without it,
    /// every (state, event) pair must have a row.
    let unlistedStated: Bool
    let unlistedIgnored: Bool
    /// The `rows:` argument and its array, where the exhaustiveness fix-its write.
    let rowsArgument: LabeledExprSyntax
    let rowsArray: ArrayExprSyntax
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
