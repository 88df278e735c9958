@_exported import StateMachineKit

/// Turns a transition table into a state machine's pure transition function, its Mermaid diagram and
/// compile-time graph checks.
///
/// Attach it to a type that declares nested `State` and `Event` enums and a `static let table = Table(…)`:
///
/// ```swift
/// @StateMachine
/// enum Turnstile {
///     enum State: Hashable, Sendable { case locked, unlocked }
///     enum Event: Hashable, Sendable { case coin, push }
///
///     static let table = Table(initial: .locked, rows: [
///         .on(.locked, .coin, to: .unlocked),
///         .on(.locked, .push, .ignore),
///         .on(.unlocked, .push, to: .locked),
///         .on(.unlocked, .coin, .invalid("already paid")),
///     ])
/// }
/// ```
///
/// When `State` (or `Event`) is declared elsewhere, write `typealias State = …` and list its case names in a
/// nested `enum StateCase`; the generated `stateCase(_:)` switch makes the compiler hold the list exact.
///
/// The macro adds `StateCase` and `EventCase` (the case names without payloads) with `stateCase(_:)` and
/// `eventCase(_:)`, the `Row` and `Table`
/// type aliases the table is written with, `static func transition(_:_:) -> Transition<State, Event>`
/// (one `switch` over `(state, event)`, rows tried in table order) and `static let mermaid: String`.
/// It reports, at the offending row or case: a (state, event) pair given twice, a state never reached from
/// the initial one, a state with no way out that is not marked final, and a state the table never mentions.
/// A table without `unlisted:` must give every (state, event) pair a row, as a `switch` without `default:`
/// must cover every case; the pairs it lacks are one error, with fix-its that add `unlisted: .invalid`,
/// `unlisted: .ignore` or the missing rows.
@attached(
    member,
    names: named(StateCase), named(EventCase), named(stateCase), named(eventCase), named(Row), named(Table),
    named(transition), named(mermaid)
)
public macro StateMachine() = #externalMacro(module: "StateMachineMacrosPlugin", type: "StateMachineMacro")
