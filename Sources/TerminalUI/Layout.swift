/// How much of an area one part of a split takes.
public enum Constraint: Hashable, Sendable {
    /// Exactly this many cells (less when the area is too small).
    case fixed(Int)
    /// `numerator / denominator` of the whole area, rounded down.
    case ratio(Int, Int)
    /// A share of whatever the fixed and ratio parts leave, in proportion to its weight.
    case fill(Int)

    /// A fill of weight 1.
    public static let fill: Constraint = .fill(1)
}

/// The direction a split cuts an area.
public enum Axis: Hashable, Sendable {
    /// Side by side: columns.
    case horizontal
    /// One above another: rows.
    case vertical
}

/// Splitting an area into rows or columns.
extension Rect {
    /// Cuts the rectangle along `axis` into one part per constraint, in order, with `spacing` cells between
    /// parts. Fixed and ratio parts are sized first; when they do not fit, the later ones shrink (to zero if
    /// need be). Fill parts share the rest by weight, the first ones taking any remainder cell.
    public func split(_ axis: Axis, _ constraints: [Constraint], spacing: Int = 0) -> [Rect] {
        let lengths = Layout.lengths(
            total: axis == .horizontal ? width : height, constraints: constraints, spacing: spacing)
        var offset = axis == .horizontal ? x : y
        var parts: [Rect] = []
        parts.reserveCapacity(lengths.count)
        for (index, length) in lengths.enumerated() {
            switch axis {
            case .horizontal: parts.append(Rect(x: offset, y: y, width: length, height: height))
            case .vertical: parts.append(Rect(x: x, y: offset, width: width, height: length))
            }
            offset += length
            if index < lengths.count - 1 { offset += max(0, spacing) }
        }
        return parts
    }

    /// Rows of the given constraints (shorthand for ``split(_:_:spacing:)`` along ``Axis/vertical``).
    public func rows(_ constraints: [Constraint], spacing: Int = 0) -> [Rect] {
        split(.vertical, constraints, spacing: spacing)
    }

    /// Columns of the given constraints (shorthand for ``split(_:_:spacing:)`` along ``Axis/horizontal``).
    public func columns(_ constraints: [Constraint], spacing: Int = 0) -> [Rect] {
        split(.horizontal, constraints, spacing: spacing)
    }
}

/// The arithmetic behind ``Rect/split(_:_:spacing:)``.
public enum Layout {
    /// The length of each part when `total` cells are cut by `constraints` with `spacing` between parts.
    /// The lengths plus the spacing never exceed `total`.
    public static func lengths(total: Int, constraints: [Constraint], spacing: Int = 0) -> [Int] {
        guard !constraints.isEmpty else { return [] }
        let gaps = max(0, spacing) * (constraints.count - 1)
        var available = max(0, total - gaps)
        let whole = available
        var lengths = Array(repeating: 0, count: constraints.count)
        var fillWeight = 0
        for (index, constraint) in constraints.enumerated() {
            let wanted: Int
            switch constraint {
            case .fixed(let cells):
                wanted = max(0, cells)
            case .ratio(let numerator, let denominator):
                wanted = denominator > 0 ? max(0, whole * numerator / denominator) : 0
            case .fill(let weight):
                fillWeight += max(0, weight)
                continue
            }
            let granted = min(wanted, available)
            lengths[index] = granted
            available -= granted
        }
        guard fillWeight > 0 else { return lengths }
        var remainder = available
        for (index, constraint) in constraints.enumerated() {
            guard case .fill(let weight) = constraint else { continue }
            let share = available * max(0, weight) / fillWeight
            lengths[index] = share
            remainder -= share
        }
        for (index, constraint) in constraints.enumerated() where remainder > 0 {
            guard case .fill(let weight) = constraint, weight > 0 else { continue }
            lengths[index] += 1
            remainder -= 1
        }
        return lengths
    }
}
