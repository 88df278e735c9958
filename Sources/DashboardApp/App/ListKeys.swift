import TerminalUI

/// The keys every list of the dashboard and of `statetui inspect` shares, made once for any screen's state and
/// action: ↑↓ (`k` `j`) a row, PgUp/PgDn a page of the rows drawn, `g`/Home and `G`/End the first and the last row;
/// `/` filters (``ListQuery``), `o` cycles the sort column, and while the filter is typed Enter keeps it, Esc
/// clears it and Backspace erases (the characters themselves come through ``textInput(_:_:edit:)``).
///
/// The vocabulary is the same on every screen: ↑↓←→ and `hjkl` move or pan, `[`/`]` pick the previous or next
/// machine (or model), `g`/`G` go to either end.
package enum ListKeys {
    /// What a move of the cursor is called in the help: `↑↓ / k j` a row, and so on.
    package static let lineHelp = KeyHelp("↑↓ / k j", "previous / next row")
    /// See ``lineHelp``.
    package static let pageHelp = KeyHelp("pgup / pgdn", "a page up / down")
    /// See ``lineHelp``.
    package static let endsHelp = KeyHelp("g / G / home / end", "first / last row")

    /// The keys that move a list's cursor (or scroll a list without one): each makes `move` of its ``ScrollMove``
    /// and the rows a page holds, `page` when not asked on the drawn screen, else `rows` of the state and the
    /// screen's area. They apply while `applies` holds; `bar` says what the help bar shows for a move (nil: not
    /// offered).
    package static func moves<State: Sendable, Action: Sendable>(
        page: Int, rows: @escaping @Sendable (State, Rect) -> Int,
        applies: @escaping @Sendable (State) -> Bool = { _ in true },
        bar: @escaping @Sendable (State, ScrollMove) -> KeyHelp? = { _, _ in nil },
        move: @escaping @Sendable (ScrollMove, Int) -> Action
    ) -> [KeyBinding<State, Action>] {
        let keys: [([Key], ScrollMove, KeyHelp)] = [
            ([.up, .character("k")], .lineUp, lineHelp), ([.down, .character("j")], .lineDown, lineHelp),
            ([.pageUp], .pageUp, pageHelp), ([.pageDown], .pageDown, pageHelp),
            ([.character("g")], .top, endsHelp), ([.home], .top, endsHelp),
            ([.character("G")], .bottom, endsHelp), ([.end], .bottom, endsHelp),
        ]
        return keys.map { keys, scroll, help in
            KeyBinding(keys, move(scroll, page), help: help, bar: { bar($0, scroll) }, applies: applies)
                .laidOut { _, state, context in move(scroll, rows(state, context.area)) }
        }
    }

    /// `/` filters, `o` sorts by the next of `sortTitles` (none: no `o`); Enter, Esc and Backspace edit the filter
    /// while it is typed, and Esc forgets a filter set. `query` reads the list's query out of the state, `edit`
    /// makes the action, `applies` says when the list takes keys at all; `inBar`: the help bar offers `/` and `o`
    /// (the Transfers bar has no room for them at 80 columns).
    package static func query<State: Sendable, Action: Sendable>(
        sortTitles: [String], query: @escaping @Sendable (State) -> ListQuery, inBar: Bool = false,
        applies: @escaping @Sendable (State) -> Bool = { _ in true },
        edit: @escaping @Sendable (ListEdit) -> Action
    ) -> [KeyBinding<State, Action>] {
        @Sendable func typing(_ state: State) -> Bool { query(state).isEditing }
        var bindings = [
            KeyBinding<State, Action>(
                [.character("/")], edit(.beginFilter), help: KeyHelp("/", "filter (type the text, enter keeps it)"),
                bar: { _ in inBar ? KeyHelp("/", "filter") : nil }, applies: { applies($0) && !typing($0) }),
            KeyBinding(
                [.enter], edit(.keepFilter), help: KeyHelp("enter", "keep the filter typed"),
                bar: { _ in KeyHelp("enter", "keep") }, applies: typing),
            KeyBinding(
                [.backspace], edit(.backspace), help: KeyHelp("backspace", "erase the filter's last character"),
                bar: { _ in nil }, applies: typing),
            KeyBinding(
                [.escape], edit(.clearFilter), help: KeyHelp("esc", "clear the filter"),
                bar: { _ in KeyHelp("esc", "clear filter") },
                applies: { applies($0) && (typing($0) || !query($0).filter.isEmpty) }),
        ]
        if !sortTitles.isEmpty {
            bindings.append(
                sort(sortTitles: sortTitles, inBar: inBar, applies: { applies($0) && !typing($0) }, edit(.cycleSort)))
        }
        return bindings
    }

    /// `o`: `cycle` sorts the list by the next of `sortTitles`, after the last by none (its own order); while
    /// `applies` holds, offered in the help bar when `inBar`.
    package static func sort<State: Sendable, Action: Sendable>(
        sortTitles: [String], inBar: Bool = false, applies: @escaping @Sendable (State) -> Bool = { _ in true },
        _ cycle: Action
    ) -> KeyBinding<State, Action> {
        KeyBinding(
            [.character("o")], cycle,
            help: KeyHelp(
                "o", "sort by the next column (\(sortTitles.joined(separator: ", ").lowercased()), then none)"),
            bar: { _ in inBar ? KeyHelp("o", "sort") : nil }, applies: applies)
    }

    /// `binding`, applying only while the filter `query` reads is not typed: the help bar then offers keeping and
    /// clearing it alone.
    package static func notWhileTyping<State: Sendable, Action: Sendable>(
        _ binding: KeyBinding<State, Action>, query: @escaping @Sendable (State) -> ListQuery
    ) -> KeyBinding<State, Action> {
        notWhileTyping(binding, typing: { query($0).isEditing })
    }

    /// `binding`, applying only while `typing` (a filter or a search pattern being typed) does not hold.
    package static func notWhileTyping<State: Sendable, Action: Sendable>(
        _ binding: KeyBinding<State, Action>, typing: @escaping @Sendable (State) -> Bool
    ) -> KeyBinding<State, Action> {
        var binding = binding
        let applies = binding.applies
        binding.applies = { !typing($0) && applies($0) }
        return binding
    }

    private static let matchHelp = KeyHelp("n/N", "older/newer match")

    /// The History lists' search (``HistorySearch``, read out of the state by `search`): `/` starts typing a
    /// pattern, Enter searches (`submit`), `n`/`N` land on the next older or newer match (`find`), Backspace
    /// erases and Esc cancels the pattern or ends the search. The characters typed come through
    /// ``searchInput(_:_:input:)``.
    package static func search<State: Sendable, Action: Sendable>(
        search: @escaping @Sendable (State) -> HistorySearch?, begin: Action, find: (Bool) -> Action,
        submit: Action, backspace: Action, cancel: Action
    ) -> [KeyBinding<State, Action>] {
        @Sendable func typing(_ state: State) -> Bool { search(state)?.isEditing ?? false }
        return [
            KeyBinding(
                [.character("/")], begin, help: KeyHelp("/", "search (type the pattern, enter searches)"),
                bar: { _ in KeyHelp("/", "search") }, applies: { !typing($0) }),
            KeyBinding(
                [.character("n")], find(true), help: matchHelp, bar: { _ in KeyHelp("n/N", "match") },
                applies: { search($0)?.isSubmitted ?? false }),
            KeyBinding(
                [.character("N")], find(false), help: matchHelp, bar: { _ in nil },
                applies: { search($0)?.isSubmitted ?? false }),
            KeyBinding(
                [.enter], submit, help: KeyHelp("enter", "search for the pattern typed"),
                bar: { _ in KeyHelp("enter", "search") }, applies: typing),
            KeyBinding(
                [.backspace], backspace, help: KeyHelp("backspace", "erase the pattern's last character"),
                bar: { _ in nil }, applies: typing),
            KeyBinding(
                [.escape], cancel, help: KeyHelp("esc", "cancel the pattern / end the search"),
                bar: { typing($0) ? KeyHelp("esc", "cancel") : KeyHelp("esc", "end search") },
                applies: { search($0) != nil }),
        ]
    }

    /// What a key types into a search pattern while it is typed: every printable character (the app-wide keys
    /// included); nil otherwise.
    package static func searchInput<Action>(_ key: Key, _ search: HistorySearch?, input: (Character) -> Action)
        -> Action?
    {
        guard search?.isEditing == true, case .character(let character) = key, !character.isNewline else { return nil }
        return input(character)
    }

    /// What a key types into the filter while it is typed: every printable character (the app-wide `q`, `?` and
    /// the digits included); nil otherwise. Enter, Esc and Backspace are bindings of ``query(sortTitles:query:applies:edit:)``.
    package static func textInput<Action>(_ key: Key, _ query: ListQuery, edit: (ListEdit) -> Action) -> Action? {
        guard query.isEditing, case .character(let character) = key, !character.isNewline else { return nil }
        return edit(.input(character))
    }
}
