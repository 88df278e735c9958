#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One cell of a ``Canvas``: a grapheme and its style. A wide grapheme occupies its cell and the next one,
/// which holds a continuation (an empty grapheme, width 0).
public struct Cell: Hashable, Sendable {
    // The fields are ordered (and `padding` is spelled out) so a cell is 24 bytes with no undefined padding
    // bytes: rows of equal cells then compare equal byte for byte, which lets the diff use `memcmp`.

    /// The user-perceived character shown, stored inline (see ``Grapheme``); empty for a continuation.
    public var content: Grapheme
    /// How it looks.
    public var style: Style
    /// Columns the grapheme takes: 1, 2 for a wide one, 0 for the continuation of a wide one.
    public var width: UInt8
    /// Always zero: fills the last bytes of the cell so none is left undefined.
    private var padding: UInt16 = 0

    /// Creates a cell from stored content.
    public init(content: Grapheme, width: UInt8, style: Style = .plain) {
        self.content = content
        self.style = style
        self.width = width
    }

    /// Creates a cell showing `grapheme` (a base plus any combining marks; empty for a continuation).
    public init(grapheme: String, width: UInt8, style: Style = .plain) {
        self.init(content: Grapheme(grapheme), width: width, style: style)
    }

    /// The text shown, as a string.
    public var grapheme: String { content.string }

    /// A space in `style`.
    public static func blank(_ style: Style = .plain) -> Cell { Cell(content: .space, width: 1, style: style) }

    /// True for the right half of a wide grapheme.
    public var isContinuation: Bool { width == 0 }
}

/// A grid of cells that views draw into and terminals display: pure data, compared cell by cell, printable
/// as plain text. Writing outside the canvas (or outside a clip rectangle) is silently clipped.
public struct Canvas: Hashable, Sendable {
    /// Columns and rows.
    public let size: Size
    /// The cells, row after row.
    public private(set) var cells: [Cell]

    /// A canvas of blank cells in `style`.
    public init(size: Size, style: Style = .plain) {
        self.size = size
        let count = size.area
        let blank = Cell.blank(style)
        // One cell written, then copied onto the rest in doubling blocks: a few large copies rather than a
        // store per field of every cell (a 200×60 canvas is made every frame).
        self.cells = Array(unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let start = buffer.baseAddress, count > 0 else {
                initialized = 0
                return
            }
            start.initialize(to: blank)
            var filled = 1
            while filled < count {
                let block = min(filled, count - filled)
                (start + filled).initialize(from: start, count: block)
                filled += block
            }
            initialized = count
        }
    }

    /// The whole canvas as a rectangle at the origin.
    public var bounds: Rect { Rect(size: size) }

    /// The cell at column `x`, row `y` (which must lie inside).
    public subscript(x: Int, y: Int) -> Cell {
        precondition(x >= 0 && x < size.width && y >= 0 && y < size.height, "cell (\(x), \(y)) is outside \(size)")
        return cells[y * size.width + x]
    }

    /// Fills `rect` (clipped) with blanks in `style`: what a modal does to what lies beneath it.
    public mutating func clear(_ rect: Rect, style: Style = .plain) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        let width = size.width
        cells.withUnsafeMutableBufferPointer { buffer in
            for y in area.y..<area.maxY {
                for x in area.x..<area.maxX {
                    Canvas.put(.blank(style), x: x, y: y, in: buffer, width: width)
                }
            }
        }
    }

    /// Replaces the style of every cell in `rect` (clipped), keeping the graphemes.
    public mutating func setStyle(_ style: Style, in rect: Rect) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX {
                cells[y * size.width + x].style = style
            }
        }
    }

    /// Replaces every cell's style with `transform` of it, keeping the graphemes (a theme recolouring a frame).
    public mutating func restyle(_ transform: (Style) -> Style) {
        for index in cells.indices { cells[index].style = transform(cells[index].style) }
    }

    /// Adds `attributes` to every cell in `rect` (clipped), keeping graphemes and colours.
    public mutating func addAttributes(_ attributes: Attributes, in rect: Rect) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX {
                cells[y * size.width + x].style.attributes.formUnion(attributes)
            }
        }
    }

    /// Writes `text` on one row starting at `point`, one grapheme per cell (two for a wide one), clipped to
    /// `clip` and to the canvas. Graphemes of zero width (controls, a lone format character) take no cell;
    /// combining marks stay with their base. A wide grapheme that would straddle the clip's edge shows as a
    /// space instead, so a half character is never drawn.
    /// - Returns: the column after the last cell written (the clip's edge when the text was cut).
    @discardableResult
    public mutating func write(_ text: String, at point: Point, style: Style = .plain, clip: Rect? = nil) -> Int {
        let area = (clip ?? bounds).intersection(bounds)
        guard point.y >= area.y, point.y < area.maxY, !area.isEmpty else { return point.x }
        let width = size.width
        let y = point.y
        let asciiEnd = text.utf8.withContiguousStorageIfAvailable { bytes in
            Canvas.writeASCII(bytes, at: point, style: style, area: area, in: &cells, width: width)
        }
        if let asciiEnd, let end = asciiEnd { return end }
        if DisplayWidth.isScalarSimple(text) {
            // Every scalar is its own grapheme (box drawing, blocks, CJK): skip grapheme breaking.
            return cells.withUnsafeMutableBufferPointer { buffer in
                var x = point.x
                for scalar in text.unicodeScalars {
                    let cell = Cell(content: Grapheme(scalar), width: UInt8(DisplayWidth.of(scalar)), style: style)
                    guard Canvas.place(cell, x: &x, y: y, area: area, in: buffer, width: width) else {
                        return area.maxX
                    }
                }
                return x
            }
        }
        return cells.withUnsafeMutableBufferPointer { buffer in
            var x = point.x
            for character in text {
                let cell = Cell(
                    content: Grapheme(String(character)), width: UInt8(DisplayWidth.of(character)), style: style)
                guard Canvas.place(cell, x: &x, y: y, area: area, in: buffer, width: width) else { return area.maxX }
            }
            return x
        }
    }

    /// The fast path of ``write(_:at:style:clip:)`` for printable ASCII: one cell per byte, no grapheme
    /// breaking. Returns nil, having written nothing, when some byte is not printable ASCII.
    @inline(__always)
    private static func writeASCII(
        _ bytes: UnsafeBufferPointer<UInt8>, at point: Point, style: Style, area: Rect, in cells: inout [Cell],
        width: Int
    ) -> Int? {
        var printable = true
        for byte in bytes { printable = printable && byte >= 0x20 && byte < 0x7F }
        guard printable else { return nil }
        let count = bytes.count
        let start = max(point.x, area.x)
        let end = min(point.x + count, area.maxX)
        if start < end {
            cells.withUnsafeMutableBufferPointer { buffer in
                for x in start..<end {
                    put(
                        Cell(content: Grapheme(ascii: bytes[x - point.x]), width: 1, style: style), x: x, y: point.y,
                        in: buffer, width: width)
                }
            }
        }
        // Past the clip's edge the text was cut: the edge is where writing stopped.
        return count > 0 && point.x + count > area.maxX ? area.maxX : point.x + count
    }

    /// Writes a substring on one row, exactly like the `String` variant.
    @discardableResult
    public mutating func write(_ text: Substring, at point: Point, style: Style = .plain, clip: Rect? = nil) -> Int {
        write(String(text), at: point, style: style, clip: clip)
    }

    /// Fills `rect` (clipped) with one single-width grapheme in `style`: borders, bars, separators.
    public mutating func fill(_ rect: Rect, with grapheme: String, style: Style = .plain) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty, let first = grapheme.first else { return }
        guard DisplayWidth.of(first) == 1 else {
            for y in area.y..<area.maxY {
                write(
                    String(repeating: grapheme, count: area.width), at: Point(x: area.x, y: y), style: style, clip: area
                )
            }
            return
        }
        let cell = Cell(content: Grapheme(String(first)), width: 1, style: style)
        let width = size.width
        cells.withUnsafeMutableBufferPointer { buffer in
            for y in area.y..<area.maxY {
                for x in area.x..<area.maxX { Canvas.put(cell, x: x, y: y, in: buffer, width: width) }
            }
        }
    }

    /// Places one cell (its `width` says how many columns) at `x` and advances `x`; false once the clip's
    /// right edge is reached.
    @inline(__always)
    private static func place(
        _ cell: Cell, x: inout Int, y: Int, area: Rect, in buffer: UnsafeMutableBufferPointer<Cell>, width: Int
    ) -> Bool {
        if cell.width == 0 { return true }
        if x >= area.maxX { return false }
        if cell.width == 2 {
            if x + 1 == area.x {
                // Only the right half is inside the clip: show a space there.
                put(.blank(cell.style), x: area.x, y: y, in: buffer, width: width)
            } else if x + 1 >= area.maxX {
                put(.blank(cell.style), x: x, y: y, in: buffer, width: width)
                return false
            } else if x >= area.x {
                put(cell, x: x, y: y, in: buffer, width: width)
                put(Cell(content: .empty, width: 0, style: cell.style), x: x + 1, y: y, in: buffer, width: width)
            }
            x += 2
        } else {
            if x >= area.x { put(cell, x: x, y: y, in: buffer, width: width) }
            x += 1
        }
        return true
    }

    /// Each row as plain text: continuation cells skipped, trailing spaces removed.
    public var lines: [String] {
        (0..<size.height).map { line($0) }
    }

    /// Each row as plain text at full width (trailing spaces kept).
    public var paddedLines: [String] {
        (0..<size.height).map { line($0, trimmed: false) }
    }

    /// The whole canvas as plain text, one line per row, each ended by a newline.
    public var text: String {
        lines.map { $0 + "\n" }.joined()
    }

    /// Calls `body` with the column, row and cell of every cell that differs from `previous` (every cell
    /// when there is no previous canvas or its size differs); continuation cells are skipped, since writing a
    /// wide grapheme covers them. Returns how many cells changed.
    @discardableResult
    public func forEachChange(from previous: Canvas?, _ body: (Int, Int, Cell) -> Void) -> Int {
        let width = size.width
        var changed = 0
        if let previous, previous.size == size, width > 0 {
            previous.cells.withUnsafeBufferPointer { old in
                cells.withUnsafeBufferPointer { new in
                    guard let oldBase = old.baseAddress, let newBase = new.baseAddress else { return }
                    let rowBytes = width * MemoryLayout<Cell>.stride
                    // Three words a cell when the layout is the expected padding-free 24 bytes.
                    let wordwise = MemoryLayout<Cell>.size == 24 && MemoryLayout<Cell>.stride == 24
                    for row in 0..<(new.count / width) {
                        let start = row * width
                        // Equal bytes mean equal cells (every field is plain bits), so an unchanged row costs
                        // one memcmp; a row that differs, or whose bytes differ without its cells differing,
                        // is compared cell by cell.
                        if memcmp(oldBase + start, newBase + start, rowBytes) == 0 { continue }
                        for index in start..<(start + width) {
                            if wordwise && Canvas.sameBits(oldBase + index, newBase + index) { continue }
                            guard new[index] != old[index] else { continue }
                            changed += 1
                            if !new[index].isContinuation { body(index - start, row, new[index]) }
                        }
                    }
                }
            }
        } else {
            for (index, cell) in cells.enumerated() {
                changed += 1
                if !cell.isContinuation { body(index % width, index / width, cell) }
            }
        }
        return changed
    }

    /// Whether two cells hold the same 24 bytes, read as three words (equal bits mean equal cells).
    @inline(__always)
    private static func sameBits(_ left: UnsafePointer<Cell>, _ right: UnsafePointer<Cell>) -> Bool {
        let a = UnsafeRawPointer(left)
        let b = UnsafeRawPointer(right)
        return a.load(as: UInt64.self) == b.load(as: UInt64.self)
            && a.load(fromByteOffset: 8, as: UInt64.self) == b.load(fromByteOffset: 8, as: UInt64.self)
            && a.load(fromByteOffset: 16, as: UInt64.self) == b.load(fromByteOffset: 16, as: UInt64.self)
    }

    private func line(_ row: Int, trimmed: Bool = true) -> String {
        var text = ""
        text.reserveCapacity(size.width)
        let start = row * size.width
        for index in start..<(start + size.width) where !cells[index].isContinuation {
            text += cells[index].grapheme
        }
        if trimmed {
            while text.last == " " { text.removeLast() }
        }
        return text
    }

    /// Stores `cell` at (x, y), keeping every wide grapheme whole: overwriting either half of a wide grapheme
    /// blanks its other half.
    @inline(__always)
    private static func put(_ cell: Cell, x: Int, y: Int, in cells: UnsafeMutableBufferPointer<Cell>, width: Int) {
        let index = y * width + x
        let old = cells[index]
        if old.width == 1 && cell.width == 1 {
            cells[index] = cell
            return
        }
        if old.width == 0, x > 0, cells[index - 1].width == 2, cell.width != 0 {
            cells[index - 1] = .blank(cells[index - 1].style)
        }
        if old.width == 2, x + 1 < width, cell.width != 2 {
            cells[index + 1] = .blank(cells[index + 1].style)
        }
        if cell.width == 2, x + 2 < width, cells[index + 1].width == 2 {
            // The continuation about to be written lands on another wide grapheme's left half.
            cells[index + 2] = .blank(cells[index + 2].style)
        }
        cells[index] = cell
    }
}
