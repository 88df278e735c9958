import TerminalUI

/// One entry of a key table: the keys, the action they stand for, how the help lists them and whether they
/// apply in a state. Each screen declares one table (`XFeature.bindings`), the app one more
/// (``Keymap/globalBindings``); key handling, the help bar, the help overlay, the man page's KEYS and the
/// README's key table all read the tables (``KeyDocs``), so none of them can disagree with the keys.
///
/// Whether a binding applies is asked of the model: for a key that sends an event, the transition function
/// through ``EventRule``, never a second table of what is allowed.
package struct KeyBinding<State: Sendable, Action: Sendable>: Sendable {
    /// The keys that do it.
    package var keys: [Key]
    /// The action.
    package var action: Action
    /// How the help overlay, the man page and the README list it; bindings that belong together (the four
    /// pan directions) share one entry.
    package var help: KeyHelp
    /// The help bar's short entry in a state (its label may say what the key does now: pause or resume);
    /// nil: the bar does not offer it.
    package var bar: @Sendable (State) -> KeyHelp?
    /// Whether the binding applies in a state.
    package var applies: @Sendable (State) -> Bool
    /// Who judges the key when it is pressed.
    package var judge: KeyJudge

    /// A binding; by default it always applies, the screen judges it and the bar shows `help`.
    package init(
        _ keys: [Key], _ action: Action, help: KeyHelp, judge: KeyJudge = .screen,
        bar: (@Sendable (State) -> KeyHelp?)? = nil, applies: @escaping @Sendable (State) -> Bool = { _ in true }
    ) {
        self.keys = keys
        self.action = action
        self.help = help
        self.judge = judge
        self.bar = bar ?? { _ in help }
        self.applies = applies
    }

    /// The same binding for a parent state and action: `state` picks this binding's state out of the parent's,
    /// `embed` wraps the action.
    package func scoped<Parent: Sendable, ParentAction: Sendable>(
        state: @escaping @Sendable (Parent) -> State, action embed: @escaping @Sendable (Action) -> ParentAction
    ) -> KeyBinding<Parent, ParentAction> {
        let bar = bar
        let applies = applies
        return KeyBinding<Parent, ParentAction>(
            keys, embed(action), help: help, judge: judge, bar: { bar(state($0)) }, applies: { applies(state($0)) })
    }
}

/// Who judges a key of a ``KeyBinding`` when it is pressed.
package enum KeyJudge: Hashable, Sendable {
    /// The screen's state: a key whose binding does not apply does nothing.
    case screen
    /// The machine, when the event meets it: the key always becomes its action (an intent), because the
    /// screen's snapshot may not show the event an earlier key sent yet (`s p` typed fast). The binding's
    /// `applies` then only decides whether the help bar offers the key.
    case machine
}

extension Array {
    /// The action of `key` in `state`: the first binding whose keys hold it and that applies; else the first
    /// binding holding it that the machine judges (its intent goes out, the machine decides); nil when the
    /// key does nothing here.
    package func action<State, Action>(for key: Key, in state: State) -> Action?
    where Element == KeyBinding<State, Action> {
        let matching = filter { $0.keys.contains(key) }
        return (matching.first { $0.applies(state) } ?? matching.first { $0.judge == .machine })?.action
    }

    /// The help bar's entries in `state`: the bindings that apply, each bar entry once, in table order.
    package func barHelp<State, Action>(in state: State) -> [KeyHelp] where Element == KeyBinding<State, Action> {
        filter { $0.applies(state) }.compactMap { $0.bar(state) }.uniqued()
    }

    /// Every help entry of the table once, in table order: the help overlay's and the documentation's list.
    package func allHelp<State, Action>() -> [KeyHelp] where Element == KeyBinding<State, Action> {
        map(\.help).uniqued()
    }
}

extension Array where Element == KeyHelp {
    /// The entries, each once, first occurrence kept.
    func uniqued() -> [KeyHelp] {
        reduce(into: []) { entries, entry in
            if !entries.contains(entry) { entries.append(entry) }
        }
    }
}
