import Support
import TerminalUI
import Testing

/// The one piece every list filters, sorts and pages with: its edits, the order it draws rows in, and the cursor's
/// moves through that order.
@Suite struct ListQueryTests {
    static let names = ["photos.tar", "backup.img", "Notes.md", "video.mp4", "notes.txt"]
    static let sizes: [Double?] = [300, 13, nil, 83, 5]

    static func order(_ query: ListQuery) -> [Int] {
        query.order(
            count: names.count, text: { names[$0] },
            key: { row, column in column == 0 ? .name(names[row]) : sizes[row].map { .number($0) } ?? .missing })
    }

    @Test func typingAFilterThenKeepingIt() {
        var query = ListQuery()
        for edit in [ListEdit.beginFilter, .input("N"), .input("o"), .input("x"), .backspace, .keepFilter] {
            query.apply(edit, columns: 2)
        }
        #expect(query == ListQuery(filter: "No"))
        query.apply(.input("z"), columns: 2)
        #expect(query == ListQuery(filter: "No"))
        query.apply(.beginFilter, columns: 2)
        #expect(query == ListQuery(filter: "No", isEditing: true))
        query.apply(.clearFilter, columns: 2)
        #expect(query == ListQuery())
    }

    @Test func theFilterNeverGrowsPastItsLimitNorTakesANewline() {
        var query = ListQuery(isEditing: true)
        for _ in 0..<(ListQuery.maximumLength + 5) { query.apply(.input("a"), columns: 0) }
        query.apply(.input("\n"), columns: 0)
        #expect(query == ListQuery(filter: String(repeating: "a", count: ListQuery.maximumLength), isEditing: true))
    }

    @Test func theSortColumnCyclesThroughTheColumnsThenNone() {
        var query = ListQuery()
        var columns: [Int?] = []
        for _ in 0..<4 {
            query.apply(.cycleSort, columns: 2)
            columns.append(query.sortColumn)
        }
        #expect(columns == [0, 1, nil, 0])
    }

    @Test(arguments: [
        (ListQuery(), [0, 1, 2, 3, 4]),
        (ListQuery(filter: "notes"), [2, 4]),
        (ListQuery(filter: "NOTES", isEditing: true), [2, 4]),
        (ListQuery(sortColumn: 0), [1, 2, 4, 0, 3]),
        (ListQuery(sortColumn: 1), [4, 1, 3, 0, 2]),
        (ListQuery(filter: "o", sortColumn: 1), [4, 3, 0, 2]),
        (ListQuery(filter: "p", sortColumn: 1), [1, 3, 0]),
    ])
    func theRowsDrawnAreThoseTheFilterShowsInTheSortColumnsOrder(query: ListQuery, order: [Int]) {
        #expect(Self.order(query) == order)
    }

    @Test(arguments: [
        (ScrollMove.lineDown, 4 as Int?, 3 as Int?), (.lineUp, 4, 2), (.lineUp, 2, 2), (.lineDown, 1, 1),
        (.pageDown, 2, 3), (.pageUp, 1, 4), (.top, 3, 2), (.bottom, 2, 1), (.lineDown, nil, 2), (.bottom, 9, 1),
    ])
    func theCursorMovesThroughTheRowsDrawn(move: ScrollMove, from: Int?, to: Int?) {
        // Drawn as 2, 4, 3, 1; a page of three rows moves two.
        #expect(move.selection(from: from, in: [2, 4, 3, 1], height: 3) == to)
    }

    @Test func nothingDrawnLeavesNoSelection() {
        #expect(ScrollMove.lineDown.selection(from: 1, in: [Int](), height: 5) == nil)
    }

    @Test(arguments: [
        (ListQuery(), nil as String?),
        (ListQuery(filter: "no", isEditing: true), "/no▏ 2 of 5 · enter keeps · esc clears"),
        (ListQuery(filter: "no"), "/no: 2 of 5"),
        (ListQuery(filter: "no", sortColumn: 1), "/no: 2 of 5 · sorted by size"),
        (ListQuery(sortColumn: 0), "sorted by name"),
    ])
    func theStatusLineSaysWhatIsAsked(query: ListQuery, text: String?) {
        #expect(query.status(shown: 2, of: 5, sortTitles: ["Name", "Size"])?.plainText == text)
    }

    /// Placing the items that changed gives the order made anew, whatever changed: texts that start or stop
    /// matching, keys that move, ties, with and without a sort column. Deterministic draws, 200 rounds a query.
    @Test(arguments: [
        ListQuery(filter: "a"), ListQuery(sortColumn: 0), ListQuery(filter: "b", sortColumn: 0),
        ListQuery(filter: "", isEditing: true),
    ])
    func placingTheChangedItemsGivesTheOrderMadeAnew(query: ListQuery) {
        var random = SplitMix64(seed: 23)
        let letters = ["a", "b", "ab", "c"]
        var texts = (0..<40).map { _ in letters[random.next(below: letters.count)] }
        var keys = (0..<40).map { _ in random.next(below: 5) }
        for _ in 0..<200 {
            var order = query.order(count: 40, text: { texts[$0] }, key: { row, _ in .number(Double(keys[row])) })
            let changed = (0..<random.next(below: 6)).map { _ in random.next(below: 40) }
            for row in changed {
                texts[row] = letters[random.next(below: letters.count)]
                keys[row] = random.next(below: 5)
            }
            query.place(changed, in: &order, text: { texts[$0] }, key: { row, _ in .number(Double(keys[row])) })
            #expect(order == query.order(count: 40, text: { texts[$0] }, key: { row, _ in .number(Double(keys[row])) }))
        }
    }
}
