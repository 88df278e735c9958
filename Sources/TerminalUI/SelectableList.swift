/// A vertical list with one selected item, highlighted; scrolled so the selection is always visible.
public struct SelectableList: Hashable, Sendable, Widget {
    /// The items, one line each.
    public var items: [Line]
    /// The selected item's index, if any.
    public var selected: Int?
    /// The first item the caller would like shown (adjusted to keep the selection visible).
    public var offset: Int
    /// Added to the selected row.
    public var highlight: Attributes

    /// Creates a list.
    public init(items: [Line], selected: Int? = nil, offset: Int = 0, highlight: Attributes = .reverse) {
        self.items = items
        self.selected = selected
        self.offset = offset
        self.highlight = highlight
    }

    /// The first visible item for a list of `count` items in `height` rows: `offset` moved the least needed
    /// to show `selected`, and never scrolled past the end.
    public static func visibleOffset(selected: Int?, count: Int, height: Int, offset: Int) -> Int {
        guard height > 0, count > 0 else { return 0 }
        var first = ScrollView.clampedOffset(offset, count: count, height: height)
        if let selected, selected >= 0, selected < count {
            if selected < first { first = selected }
            if selected >= first + height { first = selected - height + 1 }
        }
        return first
    }

    /// The item drawn on screen row `y` of a list of `count` items shown in `area` (scrolled as
    /// ``visibleOffset(selected:count:height:offset:)`` scrolls it); nil outside the area or below the last
    /// item. Lists and tables turn a clicked row into an item with it.
    public static func item(atRow y: Int, in area: Rect, selected: Int?, count: Int, offset: Int) -> Int? {
        guard !area.isEmpty, y >= area.y, y < area.maxY else { return nil }
        let index = visibleOffset(selected: selected, count: count, height: area.height, offset: offset) + y - area.y
        return index < count ? index : nil
    }

    /// The item at `point` when the list is drawn in `area`; nil outside it or below the last item.
    public func item(at point: Point, in area: Rect) -> Int? {
        guard area.contains(point) else { return nil }
        return SelectableList.item(atRow: point.y, in: area, selected: selected, count: items.count, offset: offset)
    }

    /// Draws the visible items, the selected one highlighted across the whole row.
    public func render(in area: Rect, on canvas: inout Canvas) {
        guard !area.isEmpty else { return }
        let first = SelectableList.visibleOffset(
            selected: selected, count: items.count, height: area.height, offset: offset)
        for row in 0..<min(area.height, items.count - first) {
            let index = first + row
            let rowArea = area.row(row)
            items[index].render(in: rowArea, on: &canvas)
            if index == selected { canvas.addAttributes(highlight, in: rowArea) }
        }
    }
}
