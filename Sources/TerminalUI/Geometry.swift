/// A position on the terminal grid: `x` is the column, `y` the row, both counted from 0 at the top left.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// The column.
    public var x: Int
    /// The row.
    public var y: Int

    /// Creates a point at column `x`, row `y`.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    /// `(x, y)`.
    public var description: String { "(\(x), \(y))" }
}

/// A size in cells: `width` columns by `height` rows. Negative values are clamped to zero.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int

    /// Creates a size; negative dimensions become zero.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// No cells at all.
    public static let zero = Size(width: 0, height: 0)

    /// The number of cells.
    public var area: Int { width * height }

    /// `WxH`, the form the command line uses (`--size 80x24`).
    public var description: String { "\(width)x\(height)" }

    /// Parses `WxH` (for example `80x24`); nil when it is not two positive integers around an `x`.
    public init?(parsing text: String) {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else {
            return nil
        }
        self.init(width: width, height: height)
    }
}

/// A rectangle of cells: its top-left corner and its size.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// First column.
    public var x: Int
    /// First row.
    public var y: Int
    /// Columns covered.
    public var width: Int
    /// Rows covered.
    public var height: Int

    /// Creates a rectangle; negative sizes become zero.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The rectangle at the origin covering `size`.
    public init(origin: Point = Point(x: 0, y: 0), size: Size) {
        self.init(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }

    /// The top-left corner.
    public var origin: Point { Point(x: x, y: y) }
    /// The size.
    public var size: Size { Size(width: width, height: height) }
    /// One past the last column.
    public var maxX: Int { x + width }
    /// One past the last row.
    public var maxY: Int { y + height }
    /// True when it covers no cell.
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// Whether the cell at `point` lies inside.
    public func contains(_ point: Point) -> Bool {
        point.x >= x && point.x < maxX && point.y >= y && point.y < maxY
    }

    /// The cells both rectangles cover (empty, at this rectangle's origin, when they do not overlap).
    public func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        guard right > left, bottom > top else { return Rect(x: left, y: top, width: 0, height: 0) }
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The rectangle shrunk by the given margins on each side (never below zero size).
    public func inset(top: Int = 0, left: Int = 0, bottom: Int = 0, right: Int = 0) -> Rect {
        Rect(x: x + left, y: y + top, width: width - left - right, height: height - top - bottom)
    }

    /// The rectangle shrunk by `amount` on every side.
    public func inset(by amount: Int) -> Rect {
        inset(top: amount, left: amount, bottom: amount, right: amount)
    }

    /// A `width`×`height` rectangle centred in this one, clipped to it.
    public func centered(width: Int, height: Int) -> Rect {
        let w = min(max(0, width), self.width)
        let h = min(max(0, height), self.height)
        return Rect(x: x + (self.width - w) / 2, y: y + (self.height - h) / 2, width: w, height: h)
    }

    /// The `index`th row of the rectangle as a one-row rectangle (empty when out of range).
    public func row(_ index: Int) -> Rect {
        guard index >= 0, index < height else { return Rect(x: x, y: y + max(0, index), width: width, height: 0) }
        return Rect(x: x, y: y + index, width: width, height: 1)
    }

    /// `WxH+X+Y`.
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
