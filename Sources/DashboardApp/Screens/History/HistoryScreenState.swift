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
    /// The column `o` sorts the rows by (``HistorySort/titles``); nil: time order, newest at the bottom.
    package var sortColumn: Int?

    /// The screen on the first of `machines`, following its newest records.
    package init(
        machines: [String] = [], selected: Int = 0, rows: [HistoryRow] = [], missed: Int = 0, scrolledUp: Int = 0,
        search: HistorySearch? = nil, showsCanonical: Bool = false, sortColumn: Int? = nil
    ) {
        self.sortColumn = sortColumn
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

    /// The rows as the list draws them, top to bottom: in time order, or by the sort column.
    package var shownRows: [HistoryRow] {
        let rows = self.rows
        return HistorySort.order(rows, by: sortColumn) { row in
            [
                .name(row.event), .name(HistoryFeature.cells(row)[4].plainText),
                .name(row.afterText(canonical: showsCanonical)),
            ]
        }
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
        matches(text: row.searchText)
    }

    /// Whether a row reading `text` contains the pattern (ignoring case); an empty pattern matches nothing.
    package func matches(text: String) -> Bool {
        !pattern.isEmpty && self.text.matches(text)
    }

    /// What a key of a History list does to its search, but searching.
    package enum Edit: Hashable, Sendable {
        /// `/`: start typing a pattern.
        case begin
        /// A character typed into the pattern (ignored past ``maximumLength``).
        case input(Character)
        /// Backspace while typing the pattern.
        case backspace
        /// Esc: stop typing, or forget the search.
        case cancel
    }

    /// Applies `edit` to a list's `search`.
    package static func apply(_ edit: Edit, to search: inout HistorySearch?) {
        switch edit {
        case .begin: search = HistorySearch()
        case .input(let character): search?.type(.input(character))
        case .backspace: search?.type(.backspace)
        case .cancel: search = nil
        }
    }

    /// Whether a pattern was submitted (Enter): `n`/`N` then land on its matches.
    package var isSubmitted: Bool { !isEditing && !pattern.isEmpty }

    /// Enter: stops typing the pattern, or forgets the search when the pattern is empty. Whether there is a
    /// pattern to search for.
    package static func submit(_ search: inout HistorySearch?) -> Bool {
        guard search?.pattern.isEmpty == false else {
            search = nil
            return false
        }
        search?.isEditing = false
        return true
    }

    /// The place, among `count` rows drawn top to bottom, of the next row matching the pattern after place
    /// `start` (exclusive), towards the top (`up`, older in time order) or the bottom, wrapping around; `text`
    /// reads a row by its place. Nil when none matches.
    package func next(among count: Int, from start: Int, up: Bool, text: (Int) -> String) -> Int? {
        guard count > 0, !pattern.isEmpty else { return nil }
        return (1...count).lazy.map { step in ((up ? start - step : start + step) % count + count) % count }
            .first { matches(text: text($0)) }
    }

    /// The status line while the pattern is typed: `/pattern▏  enter searches · esc cancels`.
    package var typingSpans: [Span] {
        [
            Span("/", style: .bold), Span(pattern), Span("▏", style: .bold),
            Span("  enter searches · esc cancels", style: .dim),
        ]
    }

    /// What the status line says of a submitted search with `count` matching rows: ` · /pattern (3 rows)`, and
    /// ` — no match` when the last search or `n`/`N` found none.
    package func summary(matching count: Int) -> Span {
        Span(" · /\(pattern) (\(count) rows)" + (match == nil ? " — no match" : ""), style: .bold)
    }
}

/// How `o` sorts a History list, in the dashboard and in `statetui inspect`: by event, by outcome, by the state
/// after, then in time order again (newest at the bottom, following new records).
package enum HistorySort {
    /// The columns sorted by, in turn.
    package static let titles = ["Event", "Outcome", "State"]

    /// `rows` in the order of sort column `column` (nil: as they are), rows with equal keys in time order;
    /// `keys` gives a row's key in each of ``titles``.
    package static func order<Row>(_ rows: [Row], by column: Int?, keys: (Row) -> [ListSortKey]) -> [Row] {
        guard let column else { return rows }
        return ListQuery(sortColumn: column).order(count: rows.count, text: { _ in "" }, key: { keys(rows[$0])[$1] })
            .map { rows[$0] }
    }

    /// The header `title` of sort column `column` (an index into ``titles``), marked `▾` when the list is sorted by
    /// it.
    package static func header(_ title: String, column: Int, sortedBy sorted: Int?) -> String {
        sorted == column ? title + "▾" : title
    }

    /// What the status line says of the sort: ` · sorted by event`; empty in time order.
    package static func status(_ column: Int?) -> String {
        ListQuery(sortColumn: column).status(shown: 0, of: 0, sortTitles: titles).map { " · " + $0.plainText } ?? ""
    }
}
