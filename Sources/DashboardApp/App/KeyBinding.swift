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
    /// The mouse reports that do it, by what the mouse did (a click, the wheel), wherever they hit.
    package var mouse: [MouseAction]
    /// The action a press means in a state, given what it meets on screen (``KeyContext``: the drawn size,
    /// the area the binding's screen is drawn in, where a mouse report hit); nil: the press does nothing
    /// there. A binding with a fixed action ignores the context; one whose action depends on the layout (a
    /// click on a row, a page as tall as the drawn help) gets nil when asked without one.
    package var resolve: @Sendable (State, KeyContext?) -> Action?
    /// How the help overlay, the man page and the README list it; bindings that belong together (the four
    /// pan directions) share one entry.
    package var help: KeyHelp
    /// The help bar's short entry in a state drawn at a size (its label may say what the key does now: pause
    /// or resume; an entry may depend on the size, like scrolling a help taller than the frame); nil: the bar
    /// does not offer it.
    package var bar: @Sendable (State, Size?) -> KeyHelp?
    /// Whether the binding applies in a state.
    package var applies: @Sendable (State) -> Bool
    /// Whether the help overlay lists it in a state: false where the mode the dashboard runs in never lets it
    /// apply (`f` in a copy dashboard without `--simulate-faults`), so the overlay offers no key that does
    /// nothing. The man page and the README list every binding.
    package var offered: @Sendable (State) -> Bool = { _ in true }
    /// Who judges the key when it is pressed.
    package var judge: KeyJudge

    /// A binding; by default it always applies, the screen judges it and the bar shows `help`. `mouse` adds
    /// mouse reports that mean the same action.
    package init(
        _ keys: [Key], _ action: Action, help: KeyHelp, judge: KeyJudge = .screen, mouse: [MouseAction] = [],
        bar: (@Sendable (State) -> KeyHelp?)? = nil, applies: @escaping @Sendable (State) -> Bool = { _ in true }
    ) {
        self.init(
            keys, mouse: mouse, help: help, judge: judge, bar: bar.map { bar in { @Sendable state, _ in bar(state) } },
            applies: applies, resolving: { _, _ in action })
    }

    /// A binding whose action depends on what is drawn where: `resolve` makes it from the state and the
    /// ``KeyContext`` of the press (nil: the press does nothing, as when a click hits no row); `bar` may ask
    /// the size the frame is drawn at.
    package init(
        _ keys: [Key], mouse: [MouseAction] = [], help: KeyHelp, judge: KeyJudge = .screen,
        bar: (@Sendable (State, Size?) -> KeyHelp?)? = nil,
        applies: @escaping @Sendable (State) -> Bool = { _ in true },
        resolve: @escaping @Sendable (State, KeyContext) -> Action?
    ) {
        self.init(
            keys, mouse: mouse, help: help, judge: judge, bar: bar, applies: applies,
            resolving: { state, context in context.flatMap { resolve(state, $0) } })
    }

    private init(
        _ keys: [Key], mouse: [MouseAction], help: KeyHelp, judge: KeyJudge,
        bar: (@Sendable (State, Size?) -> KeyHelp?)?, applies: @escaping @Sendable (State) -> Bool,
        resolving resolve: @escaping @Sendable (State, KeyContext?) -> Action?
    ) {
        self.keys = keys
        self.mouse = mouse
        self.resolve = resolve
        self.help = help
        self.judge = judge
        self.bar = bar ?? { _, _ in help }
        self.applies = applies
    }

    /// The same binding with its action refined by the layout when the press has a ``KeyContext``: `refine`
    /// makes the action drawn there from the one it would be (History's page is the rows drawn, a scroll of a
    /// pane stops at its last line); asked without a context, the action stays as it is.
    package func laidOut(_ refine: @escaping @Sendable (Action, State, KeyContext) -> Action) -> Self {
        var binding = self
        let resolve = resolve
        binding.resolve = { state, context in
            resolve(state, context).map { action in context.map { refine(action, state, $0) } ?? action }
        }
        return binding
    }

    /// Whether `key` is one of this binding's keys or a mouse report of one of its mouse actions.
    package func holds(_ key: Key) -> Bool {
        if case .mouse(let event) = key { return mouse.contains(event.action) }
        return keys.contains(key)
    }

    /// The same binding for a parent state and action: `state` picks this binding's state out of the parent's,
    /// `embed` wraps the action.
    package func scoped<Parent: Sendable, ParentAction: Sendable>(
        state: @escaping @Sendable (Parent) -> State, action embed: @escaping @Sendable (Action) -> ParentAction
    ) -> KeyBinding<Parent, ParentAction> {
        let bar = bar
        let applies = applies
        let offered = offered
        let resolve = resolve
        var scoped = KeyBinding<Parent, ParentAction>(
            keys, mouse: mouse, help: help, judge: judge, bar: { bar(state($0), $1) },
            applies: { applies(state($0)) }, resolving: { resolve(state($0), $1).map(embed) })
        scoped.offered = { offered(state($0)) }
        return scoped
    }

    /// The same binding, listed by the help overlay only in the states `offered` holds for.
    package func offered(when offered: @escaping @Sendable (State) -> Bool) -> Self {
        var binding = self
        binding.offered = offered
        return binding
    }
}

/// What a press meets on screen besides the state: the size of the frame drawn (the one the user saw and
/// clicked on), the area the binding's screen is drawn in, and the key itself (a mouse report says where it
/// hit).
package struct KeyContext: Hashable, Sendable {
    /// The key pressed.
    package var key: Key
    /// The size of the frame on screen.
    package var size: Size
    /// Where the binding's screen draws its content in that frame: inside the screen's border and padding
    /// (``AppView/contentArea(_:)``, the area its view is given), the whole frame for the app-wide keys.
    package var area: Rect

    /// `key` pressed on a frame of `size`, the binding's screen drawing in `area`.
    package init(key: Key, size: Size, area: Rect) {
        self.key = key
        self.size = size
        self.area = area
    }

    /// Where a mouse report hit; nil for a key.
    package var position: Point? {
        if case .mouse(let event) = key { return event.position }
        return nil
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
    /// The action of `key` in `state` (pressed in `context`, when known): the first binding whose keys hold it,
    /// that applies and whose action resolves there; else the first binding holding it that the machine judges
    /// (its intent goes out, the machine decides); nil when the key does nothing here.
    package func action<State, Action>(for key: Key, in state: State, context: KeyContext? = nil) -> Action?
    where Element == KeyBinding<State, Action> {
        let matching = filter { $0.holds(key) }
        if let action = matching.lazy.filter({ $0.applies(state) }).compactMap({ $0.resolve(state, context) }).first {
            return action
        }
        return matching.first { $0.judge == .machine }?.resolve(state, context)
    }

    /// The help bar's entries in `state` drawn at `size` (nil: not asked at a size): the bindings that apply,
    /// each bar entry once, in table order.
    package func barHelp<State, Action>(in state: State, size: Size? = nil) -> [KeyHelp]
    where Element == KeyBinding<State, Action> {
        filter { $0.applies(state) }.compactMap { $0.bar(state, size) }.uniqued()
    }

    /// Every help entry of the table once, in table order: the documentation's list.
    package func allHelp<State, Action>() -> [KeyHelp] where Element == KeyBinding<State, Action> {
        map(\.help).uniqued()
    }

    /// The help overlay's list in `state`: every entry of the table offered there (``KeyBinding/offered``),
    /// once, in table order.
    package func allHelp<State, Action>(in state: State) -> [KeyHelp] where Element == KeyBinding<State, Action> {
        filter { $0.offered(state) }.map(\.help).uniqued()
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
