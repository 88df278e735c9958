import Foundation
import Testing

/// The graph checks `@StateMachine` runs at compile time, each reported where the problem is written.
@Suite struct StateMachineDiagnosticsTests {
    /// A lamp whose table has the rows `rows` and the arguments `arguments` before them.
    static func lamp(_ arguments: String, _ rows: String) -> String {
        """
        @StateMachine
        enum Lamp {
            enum State { case off, on, blown }
            enum Event { case flip, surge, fix }

            static let table = Table(\(arguments)rows: [
        \(rows)
            ])
        }
        """
    }

    @Test func aPairGivenTwiceIsReportedAtTheSecondRowWithTheFirstAsANote() {
        let source = Self.lamp(
            "initial: .off, final: [.blown], unlisted: .invalid, ",
            """
                .on(.off, .flip, to: .on),
                .on(.on, .flip, to: .off),
                .on(.off, .flip, .ignore),
                .on(.on, .surge, to: .blown),
            """)
        #expect(
            MacroExpansion(source).reports == [
                .init(
                    line: 9, column: 5, severity: "error",
                    message: "(off, flip) is given twice; the row after an unguarded one can never apply",
                    notes: ["7:5: (off, flip) is first given here"],
                    fixIts: [
                        "remove the duplicate row\n"
                            + Self.lamp(
                                "initial: .off, final: [.blown], unlisted: .invalid, ",
                                """
                                    .on(.off, .flip, to: .on),
                                    .on(.on, .flip, to: .off),
                                    .on(.on, .surge, to: .blown),
                                """)
                    ]
                )
            ])
    }

    @Test func guardedRowsOfOnePairAreNotDuplicates() {
        let source = Self.lamp(
            "initial: .off, final: [.blown], unlisted: .invalid, ",
            """
                .on(.off, .flip, when: { _, _ in true }, to: .on),
                .on(.off, .flip, to: .on),
                .on(.on, .flip, to: .off),
                .on(.on, .surge, to: .blown),
            """)
        #expect(MacroExpansion(source).reports == [])
    }

    @Test func aStateNeverReachedFromTheInitialOneIsReportedAtItsCase() {
        let source = Self.lamp(
            "initial: .off, unlisted: .invalid, ",
            """
                .on(.off, .flip, to: .on),
                .on(.on, .flip, to: .off),
                .on(.blown, .fix, to: .off),
            """)
        #expect(
            MacroExpansion(source).reports == [
                .init(
                    line: 3, column: 32, severity: "error",
                    message: "state 'blown' is never reached from the initial state 'off'")
            ])
    }

    @Test(arguments: [
        ("initial: .off, unlisted: .invalid, ", "initial: .off, final: [.blown], unlisted: .invalid, "),
        ("initial: .off, final: [], unlisted: .invalid, ", "initial: .off, final: [.blown], unlisted: .invalid, "),
        (
            "initial: .off, final: [.off], unlisted: .invalid, ",
            "initial: .off, final: [.off, .blown], unlisted: .invalid, "
        ),
    ])
    func aDeadEndNotMarkedFinalIsReportedWithAFixItThatMarksIt(arguments: String, fixed: String) {
        let rows = """
                .on(.off, .flip, to: .on),
                .on(.on, .flip, to: .off),
                .on(.on, .surge, to: .blown),
                .on(.blown, .flip, .stay),
            """
        #expect(
            MacroExpansion(Self.lamp(arguments, rows)).reports == [
                .init(
                    line: 3, column: 32, severity: "error",
                    message: "state 'blown' has no way out and is not marked final",
                    fixIts: ["mark 'blown' final\n" + Self.lamp(fixed, rows)]
                )
            ])
    }

    @Test func aStateTheTableNeverMentionsIsReportedAtItsCaseOnlyOnce() {
        let source = Self.lamp(
            "initial: .off, unlisted: .invalid, ",
            """
                .on(.off, .flip, to: .on),
                .on(.on, .flip, to: .off),
            """)
        #expect(
            MacroExpansion(source).reports == [
                .init(line: 3, column: 32, severity: "error", message: "state 'blown' is never mentioned by the table")
            ])
    }

    @Test func aStateDeclaredElsewhereIsCheckedAgainstItsHandWrittenCaseList() {
        let source = """
            @StateMachine
            enum LampTable {
                typealias State = Lamp
                typealias Event = Switch
                enum StateCase: Hashable, Sendable { case off, on, blown }
                enum EventCase: Hashable, Sendable { case flip }

                static let table = Table(initial: .off, unlisted: .invalid, rows: [
                    .on(.off, .flip, to: .on),
                    .on(.on, .flip, to: .off),
                ])
            }
            """
        let expansion = MacroExpansion(source)
        #expect(expansion.reports.map(\.description) == ["5:56: error: state 'blown' is never mentioned by the table"])
        #expect(!expansion.expandedSource.contains("enum StateCase: String"))
        #expect(
            expansion.expandedSource.contains(
                """
                    static func stateCase(_ value: State) -> StateCase {
                        switch value {
                        case .off:
                            .off
                        case .on:
                            .on
                        case .blown:
                            .blown
                        }
                    }
                """))
    }

    @Test func aTableWithoutUnlistedMustGiveEveryPairARowOrSayWhatTheRestMean() {
        let rows = """
                .on(.off, .flip, to: .on),
                .on(.on, .flip, to: .off),
                .on(.on, .surge, to: .blown),
                .on(.on, .fix, .ignore),
                .on(.blown, .fix, to: .off),
                .on(.blown, .flip, .stay),
                .on(.blown, .surge, .stay),
            """
        let arguments = "initial: .off, "
        #expect(
            MacroExpansion(Self.lamp(arguments, rows)).reports == [
                .init(
                    line: 6, column: 24, severity: "error",
                    message: "the table has no row for 2 (state, event) pairs: (off, surge), (off, fix); give each "
                        + "its row, or say what every unlisted pair means with 'unlisted: .invalid' or 'unlisted: .ignore'",
                    fixIts: [
                        "add 'unlisted: .invalid'\n" + Self.lamp(arguments + "unlisted: .invalid, ", rows),
                        "add 'unlisted: .ignore'\n" + Self.lamp(arguments + "unlisted: .ignore, ", rows),
                        "add the 2 missing rows\n"
                            + Self.lamp(
                                arguments,
                                rows + """

                                        .on(.off, .surge, .invalid("surge in off is not handled")),
                                        .on(.off, .fix, .invalid("fix in off is not handled")),
                                    """),
                    ]
                )
            ])
    }

    @Test(arguments: ["unlisted: .invalid, ", "unlisted: .ignore, "])
    func aTableThatSaysWhatUnlistedPairsMeanMayLeaveThemOut(unlisted: String) {
        let rows = """
                .on(.off, .flip, to: .on),
                .on(.on, .flip, to: .off),
                .on(.on, .surge, to: .blown),
                .on(.blown, .fix, to: .off),
            """
        #expect(MacroExpansion(Self.lamp("initial: .off, " + unlisted, rows)).reports == [])
    }

    @Test func aMissingSinglePairIsNamedAsThePair() {
        let source = """
            @StateMachine
            enum Bell {
                enum State { case quiet, ringing }
                enum Event { case ring, stop }
                static let table = Table(initial: .quiet, rows: [.on(.quiet, .ring, to: .ringing), .on(.quiet, .stop, .ignore), .on(.ringing, .stop, to: .quiet)])
            }
            """
        #expect(
            MacroExpansion(source).reports.map(\.message) == [
                "the table has no row for the pair (ringing, ring); give each its row, or say what every unlisted "
                    + "pair means with 'unlisted: .invalid' or 'unlisted: .ignore'"
            ])
        #expect(
            MacroExpansion(source).reports.flatMap(\.fixIts).last
                == "add the missing row\n"
                + source.replacingOccurrences(
                    of: ".on(.ringing, .stop, to: .quiet)])",
                    with:
                        ".on(.ringing, .stop, to: .quiet), .on(.ringing, .ring, .invalid(\"ring in ringing is not handled\")),])"
                ))
    }

    @Test func everyProblemIsReportedInOnePass() {
        let source = """
            @StateMachine
            enum Job {
                enum State {
                    case queued
                    case running(step: Int)
                    case done
                    case orphan
                    case archived
                }
                enum Event { case start, finish, archive }

                static let table = Table(initial: .queued, final: [.done], unlisted: .invalid, rows: [
                    .on(.queued, .start, to: .running(step: 0)),
                    .on(.running, .finish) { _, _ in .to(.done) },
                    .on(.running, .finish, to: .queued),
                    .on(.archived, .start, to: .queued),
                    .on(.running, .archive, .ignore),
                ])
            }
            """
        #expect(
            MacroExpansion(source).reports.map(\.description) == [
                """
                15:9: error: (running, finish) is given twice; the row after an unguarded one can never apply
                  note: 14:9: (running, finish) is first given here
                  fix-it: remove the duplicate row
                """ + "\n"
                    + source.replacingOccurrences(of: "\n        .on(.running, .finish, to: .queued),", with: ""),
                "7:14: error: state 'orphan' is never mentioned by the table",
                "8:14: error: state 'archived' is never reached from the initial state 'queued'",
            ])
    }

    @Test(arguments: [
        (
            "@StateMachine\nenum Lamp {\n    enum Event { case flip }\n    static let table = Table(initial: .off, rows: [])\n}",
            "1:1: error: @StateMachine needs a nested 'enum State', or 'typealias State = …' with a nested 'enum StateCase' "
                + "listing its cases, so the table can be checked against them"
        ),
        (
            "@StateMachine\nenum Lamp {\n    enum State { case off }\n    enum Event { case flip }\n}",
            "1:1: error: @StateMachine needs a member 'static let table = Table(initial: …, rows: [ … ])'"
        ),
        (
            "@StateMachine\nenum Lamp {\n    enum State { case off }\n    enum Event { case flip }\n    static let table = Table(rows: [])\n}",
            "5:24: error: 'Table(…)' needs its 'initial:' argument"
        ),
        (
            "@StateMachine\nenum Lamp {\n    enum State { case off }\n    enum Event { case flip }\n    static let table = Table(initial: .off, rows: [\n        .flip(.off, .off),\n    ])\n}",
            "6:9: error: a row must read '.on(.state, .event, [when: guard,] to: .target [, after: duration, send: .event])', "
                + "'.on(.state, .event, [when: guard,] .stay | .ignore | .invalid(\"why\") | .postpone)' or '.on(.state, .event) { state, event in … }'"
        ),
        (
            "@StateMachine\nenum Lamp {\n    enum State { case off }\n    enum Event { case flip }\n    static let table = Table(initial: .off, rows: [\n        .on(.off, .flip) { state, _ in .to(state) },\n    ])\n}",
            "6:44: error: the graph checks need to know where this row can go: write the target as a case, like '.to(.paused(request: r, percent: p))'"
        ),
        (
            "@StateMachine\nenum Lamp {\n    enum State { case off }\n    enum Event { case flip }\n    static let table = Table(initial: .off, unlisted: .drop, rows: [])\n}",
            "5:55: error: 'unlisted:' must be '.ignore' or '.invalid'"
        ),
    ])
    func misuseIsReportedWithItsCause(source: String, report: String) {
        #expect(MacroExpansion(source).reports.map(\.description) == [report])
    }
}
