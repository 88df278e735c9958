import SwiftDiagnostics

/// Every message `@StateMachine` can report, each naming its cause.
enum TableDiagnostic: DiagnosticMessage, Equatable {
    case missingEnum(String)
    case missingTable
    case tableNotACall
    case missingArgument(String)
    case notACase(String)
    case notAnArray(String)
    case badUnlisted
    case unrecognisedRow
    case targetNotACase
    case duplicatePair(state: String, event: String)
    case unreachableState(String, initial: String)
    case deadEnd(String)
    case unmentionedState(String)
    case missingPairs([String])

    var message: String {
        switch self {
        case .missingEnum(let name):
            "@StateMachine needs a nested 'enum \(name)', or 'typealias \(name) = …' with a nested 'enum \(name)Case' "
                + "listing its cases, so the table can be checked against them"
        case .missingTable:
            "@StateMachine needs a member 'static let table = Table(initial: …, rows: [ … ])'"
        case .tableNotACall:
            "'table' must be initialised with 'Table(initial: …, rows: [ … ])' written out in place"
        case .missingArgument(let label):
            "'Table(…)' needs its '\(label):' argument"
        case .notACase(let what):
            "\(what) must be written as a case, like '.idle' or '.running(request: 1, percent: 0)'"
        case .notAnArray(let label):
            "'\(label):' must be an array literal written out in place"
        case .badUnlisted:
            "'unlisted:' must be '.ignore' or '.invalid'"
        case .unrecognisedRow:
            "a row must read '.on(.state, .event, [when: guard,] to: .target [, after: duration, send: .event])', "
                + "'.on(.state, .event, [when: guard,] .stay | .ignore | .invalid(\"why\") | .postpone)' or '.on(.state, .event) { state, event in … }'"
        case .targetNotACase:
            "the graph checks need to know where this row can go: write the target as a case, like '.to(.paused(request: r, percent: p))'"
        case .duplicatePair(let state, let event):
            "(\(state), \(event)) is given twice; the row after an unguarded one can never apply"
        case .unreachableState(let state, let initial):
            "state '\(state)' is never reached from the initial state '\(initial)'"
        case .deadEnd(let state):
            "state '\(state)' has no way out and is not marked final"
        case .unmentionedState(let state):
            "state '\(state)' is never mentioned by the table"
        case .missingPairs(let pairs):
            "the table has no row for \(pairs.count == 1 ? "the pair" : "\(pairs.count) (state, event) pairs:") "
                + pairs.joined(separator: ", ")
                + "; give each its row, or say what every unlisted pair means with 'unlisted: .invalid' or 'unlisted: .ignore'"
        }
    }

    var diagnosticID: MessageID {
        let id =
            switch self {
            case .missingEnum: "missingEnum"
            case .missingTable: "missingTable"
            case .tableNotACall: "tableNotACall"
            case .missingArgument: "missingArgument"
            case .notACase: "notACase"
            case .notAnArray: "notAnArray"
            case .badUnlisted: "badUnlisted"
            case .unrecognisedRow: "unrecognisedRow"
            case .targetNotACase: "targetNotACase"
            case .duplicatePair: "duplicatePair"
            case .unreachableState: "unreachableState"
            case .deadEnd: "deadEnd"
            case .unmentionedState: "unmentionedState"
            case .missingPairs: "missingPairs"
            }
        return MessageID(domain: "StateMachineMacros", id: id)
    }

    var severity: DiagnosticSeverity { .error }
}

/// Notes that point at the other half of a problem.
enum TableNote: NoteMessage {
    case firstRow(state: String, event: String)

    var message: String {
        switch self {
        case .firstRow(let state, let event): "(\(state), \(event)) is first given here"
        }
    }

    var noteID: MessageID { MessageID(domain: "StateMachineMacros", id: "firstRow") }
}

/// The obvious repairs.
enum TableFixIt: FixItMessage {
    case removeRow
    case markFinal(String)
    case stateUnlisted(String)
    case addRows(Int)

    var message: String {
        switch self {
        case .removeRow: "remove the duplicate row"
        case .markFinal(let state): "mark '\(state)' final"
        case .stateUnlisted(let verdict): "add 'unlisted: .\(verdict)'"
        case .addRows(let count): count == 1 ? "add the missing row" : "add the \(count) missing rows"
        }
    }

    var fixItID: MessageID {
        switch self {
        case .removeRow: MessageID(domain: "StateMachineMacros", id: "removeRow")
        case .markFinal: MessageID(domain: "StateMachineMacros", id: "markFinal")
        case .stateUnlisted: MessageID(domain: "StateMachineMacros", id: "stateUnlisted")
        case .addRows: MessageID(domain: "StateMachineMacros", id: "addRows")
        }
    }
}
