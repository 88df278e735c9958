/// How a list is looked at, apart from its rows: the filter typed after `/` and the column it is sorted by. Every
/// list screen holds one, changes it with ``apply(_:columns:)`` and draws its rows in the order ``order(count:text:key:)``
/// gives, so every list filters, sorts and pages alike; the cursor moves through that order
/// (``ScrollMove/selection(from:in:height:)``).
public struct ListQuery: Hashable, Sendable {
    /// The longest filter, in characters.
    public static let maximumLength = 64

    /// The filter: rows whose text contains it, ignoring case, are shown; empty shows every row.
    public var filter: String
    /// Whether the filter is being typed (`/` until Enter or Esc): every printable key goes into it.
    public var isEditing: Bool
    /// The sort column, an index into the list's sortable columns; nil keeps the rows in their own order.
    public var sortColumn: Int?

    /// A query: by default every row, in the rows' own order.
    public init(filter: String = "", isEditing: Bool = false, sortColumn: Int? = nil) {
        self.filter = String(filter.prefix(Self.maximumLength))
        self.isEditing = isEditing
        self.sortColumn = sortColumn
    }

    /// Whether the query changes what the rows' own order shows: a filter, being typed or set, or a sort column.
    public var isActive: Bool { !filter.isEmpty || isEditing || sortColumn != nil }

    /// Whether a row reading `text` is shown.
    public func matches(_ text: String) -> Bool {
        filter.isEmpty || text.lowercased().contains(filter.lowercased())
    }

    /// Applies `edit` to a list with `columns` sortable columns.
    public mutating func apply(_ edit: ListEdit, columns: Int) {
        switch edit {
        case .beginFilter:
            isEditing = true
        case .input(let character):
            guard isEditing, filter.count < Self.maximumLength, !character.isNewline else { return }
            filter.append(character)
        case .backspace:
            if isEditing, !filter.isEmpty { filter.removeLast() }
        case .keepFilter:
            isEditing = false
        case .clearFilter:
            filter = ""
            isEditing = false
        case .cycleSort:
            guard columns > 0 else {
                sortColumn = nil
                return
            }
            let next = (sortColumn ?? -1) + 1
            sortColumn = next < columns ? next : nil
        }
    }

    /// The rows to draw, by index among `count` rows, in order: those whose `text` matches the filter, sorted by
    /// `key` of the sort column (rows with equal keys keep their own order).
    public func order(count: Int, text: (Int) -> String, key: (Int, Int) -> ListSortKey) -> [Int] {
        let shown = filter.isEmpty ? Array(0..<count) : (0..<count).filter { matches(text($0)) }
        guard let column = sortColumn else { return shown }
        let keys = shown.map { key($0, column) }
        return shown.indices.sorted { keys[$0] < keys[$1] || (keys[$0] == keys[$1] && $0 < $1) }.map { shown[$0] }
    }

    /// Puts `items`, whose texts and keys changed, where ``order(count:text:key:)`` would in `order`, which it made
    /// before they changed: out of it when the filter hides them, else at their place by the sort column's key,
    /// then by position. The cost is a scan of `order` and a binary search for each item, so a list of thousands
    /// whose rows change many times a second is not filtered and sorted again for each change.
    public func place(
        _ items: some Collection<Int>, in order: inout [Int], text: (Int) -> String, key: (Int, Int) -> ListSortKey
    ) {
        let changed = Set(items)
        order.removeAll { changed.contains($0) }
        for item in changed.sorted() where matches(text(item)) {
            let own = sortColumn.map { key(item, $0) }
            var low = 0
            var high = order.count
            while low < high {
                let middle = (low + high) / 2
                let other = order[middle]
                let theirs = sortColumn.map { key(other, $0) }
                let comesBefore =
                    if let own, let theirs { theirs < own || (theirs == own && other < item) } else { other < item }
                if comesBefore { low = middle + 1 } else { high = middle }
            }
            order.insert(item, at: low)
        }
    }

    /// What the list's status line says of the query (`/pat▏ 3 of 12 · enter keeps · esc clears` while typed,
    /// `/pat: 3 of 12 · sorted by size` after), `sortTitles` naming the sortable columns; nil when nothing is
    /// asked.
    public func status(shown: Int, of count: Int, sortTitles: [String]) -> Line? {
        var spans: [Span] = []
        if isEditing {
            spans += [
                Span("/", style: .bold), Span(filter), Span("▏", style: .bold),
                Span(" \(shown) of \(count) · enter keeps · esc clears", style: .dim),
            ]
        } else if !filter.isEmpty {
            spans += [Span("/\(filter)", style: .bold), Span(": \(shown) of \(count)")]
        }
        if let column = sortColumn, sortTitles.indices.contains(column) {
            spans.append(Span((spans.isEmpty ? "" : " · ") + "sorted by \(sortTitles[column].lowercased())"))
        }
        return spans.isEmpty ? nil : Line(spans)
    }
}

/// A change to a ``ListQuery``.
public enum ListEdit: Hashable, Sendable {
    /// `/`: start typing the filter (the one set stays, to be refined).
    case beginFilter
    /// A character typed into the filter (ignored past ``ListQuery/maximumLength``).
    case input(Character)
    /// Backspace while typing: the filter's last character goes.
    case backspace
    /// Enter while typing: stop typing and keep the filter.
    case keepFilter
    /// Esc: forget the filter.
    case clearFilter
    /// The next sort column, after the last one the rows' own order again.
    case cycleSort
}

/// What a row is sorted by in one column: numbers before texts, then rows with nothing to sort by.
public enum ListSortKey: Hashable, Sendable, Comparable {
    /// A figure, smallest first.
    case number(Double)
    /// A text, as given (``name(_:)`` compares names without regard to case).
    case text(String)
    /// Nothing known: after every other row.
    case missing

    /// A name, compared without regard to case.
    public static func name(_ text: String) -> ListSortKey { .text(text.lowercased()) }
}

extension ScrollMove {
    /// The item a cursor lands on after this move through `order` (the items drawn, top to bottom) in a list
    /// `height` rows tall: a line, a page (the height less one row, at least one), or either end; from the first
    /// item when `current` is not drawn. Nil when nothing is drawn.
    public func selection<Item: Equatable>(from current: Item?, in order: [Item], height: Int) -> Item? {
        guard !order.isEmpty else { return nil }
        let position = current.flatMap { order.firstIndex(of: $0) }
        let page = max(1, height - 1)
        let start = position ?? 0
        let moved: Int
        switch self {
        case .lineUp: moved = position == nil ? 0 : start - 1
        case .lineDown: moved = position == nil ? 0 : start + 1
        case .pageUp: moved = start - page
        case .pageDown: moved = start + page
        case .top: moved = 0
        case .bottom: moved = order.count - 1
        }
        return order[min(order.count - 1, max(0, moved))]
    }
}
