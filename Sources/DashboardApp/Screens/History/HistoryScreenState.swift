import TerminalUI

/// What the History screen shows: the machines by name, the newest records of the selected one as its change
/// feed delivered them, how many it missed, how far up the user scrolled and the search.
package struct HistoryScreenState: Hashable, Sendable {
    /// Every machine the screen can show, in order: each transfer, the upload, the load.
    package var machines: [String]
    /// The index of the selected machine in ``machines``.
    package var selected: Int
    /// The most rows kept: as many as a machine's history keeps by default.
    package static let rowLimit = 64

    /// The selected machine's newest records (at most ``rowLimit``), oldest first.
    package var rows: [HistoryRow]
    /// Records of the selected machine that fell out of its history before the feed read them.
    package var missed: Int
    /// Rows scrolled up from the newest. 0 follows the newest record at the bottom; above 0 the same
    /// records stay in view as new ones arrive, until the user scrolls back down (End).
    package var scrolledUp: Int
    /// The search being typed or the last one submitted; nil when none.
    package var search: HistorySearch?
    /// Whether states show as their canonical text (`v`) rather than in words.
    package var showsCanonical: Bool

    /// The screen on the first of `machines`, following its newest records.
    package init(
        machines: [String] = [], selected: Int = 0, rows: [HistoryRow] = [], missed: Int = 0, scrolledUp: Int = 0,
        search: HistorySearch? = nil, showsCanonical: Bool = false
    ) {
        self.machines = machines
        self.selected = selected
        self.rows = rows
        self.missed = missed
        self.scrolledUp = scrolledUp
        self.search = search
        self.showsCanonical = showsCanonical
    }

    /// The selected machine's name, nil when there are none.
    package var machine: String? {
        machines.indices.contains(selected) ? machines[selected] : nil
    }

    /// Whether the newest record is followed (nothing scrolled up).
    package var isFollowing: Bool { scrolledUp == 0 }

    /// Whether a search pattern is being typed: every printable key goes into it.
    package var isTypingSearch: Bool { search?.isEditing ?? false }
}

/// A search of the History screen: a plain, case-insensitive substring of a row's text, typed as every list's
/// filter is (``TerminalUI/ListQuery``: the same keys, the same limit).
package struct HistorySearch: Hashable, Sendable {
    /// The longest pattern, in characters.
    package static let maximumLength = ListQuery.maximumLength
    /// The pattern and whether it is being typed, as a list's filter.
    private var text: ListQuery
    /// The sequence number of the row the last search or `n`/`N` landed on; nil when none matched.
    package var match: Int?

    /// A search for `pattern`.
    package init(pattern: String = "", isEditing: Bool = true, match: Int? = nil) {
        text = ListQuery(filter: pattern, isEditing: isEditing)
        self.match = match
    }

    /// What is searched for.
    package var pattern: String { text.filter }

    /// Whether the pattern is still being typed (`/` until Enter).
    package var isEditing: Bool {
        get { text.isEditing }
        set { text.isEditing = newValue }
    }

    /// Types into the pattern while it is typed: a character (past ``maximumLength`` or a newline: nothing) or
    /// Backspace.
    package mutating func type(_ edit: ListEdit) {
        text.apply(edit, columns: 0)
    }

    /// Whether `row` contains the pattern (ignoring case); an empty pattern matches nothing.
    package func matches(_ row: HistoryRow) -> Bool {
        !pattern.isEmpty && text.matches(row.searchText)
    }
}
