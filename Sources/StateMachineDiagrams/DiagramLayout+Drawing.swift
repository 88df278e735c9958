// The placed diagram drawn on a grid: boxes with their text, each edge's path from the source border to its
// arrowhead with line glyphs chosen from the directions it takes, labels beside their edges.

import StateMachineKit

/// A finished drawing, before it becomes a ``DiagramLayout``.
struct DiagramDrawing {
    var width: Int
    var height: Int
    var lines: [String]
    var boxes: [DiagramLayout.Rect]
    var paths: [[DiagramLayout.Point]]
    var crossings: Int
    var owners: [Int32]
}

/// The characters of one charset.
struct DiagramGlyphs {
    /// Box corners and sides: top-left, top-right, bottom-left, bottom-right, horizontal, vertical.
    var box: [Character]
    /// The same for the initial node's box.
    var initialBox: [Character]
    /// A port on a box's bottom, top and right side, for a plain and for the initial box.
    var ports: [Character]
    var initialPorts: [Character]
    /// Arrowheads pointing up, down, left, right.
    var arrows: [Character]
    /// Line glyphs by direction mask (up 1, down 2, left 4, right 8).
    var lines: [Character]

    static let unicode = DiagramGlyphs(
        box: ["┌", "┐", "└", "┘", "─", "│"], initialBox: ["╔", "╗", "╚", "╝", "═", "║"],
        ports: ["┬", "┴", "├"], initialPorts: ["╤", "╧", "╟"], arrows: ["▲", "▼", "◀", "▶"],
        lines: ["·", "│", "│", "│", "─", "╯", "╮", "┤", "─", "╰", "╭", "├", "─", "┴", "┬", "┼"])

    static let ascii = DiagramGlyphs(
        box: ["+", "+", "+", "+", "-", "|"], initialBox: ["+", "+", "+", "+", "=", "|"],
        ports: ["+", "+", "+"], initialPorts: ["+", "+", "+"], arrows: ["^", "v", "<", ">"],
        lines: [".", "|", "|", "|", "-", "+", "+", "+", "-", "+", "+", "+", "-", "+", "+", "+"])

    static func of(_ charset: DiagramCharset) -> DiagramGlyphs {
        switch charset {
        case .unicode: unicode
        case .ascii: ascii
        }
    }
}

extension DiagramEngine {
    /// Places and draws the diagram.
    func draw() -> DiagramDrawing {
        let placement = place()
        var canvas = DiagramCanvas(width: placement.gridWidth, height: placement.gridHeight)
        var boxes = [DiagramLayout.Rect](
            repeating: DiagramLayout.Rect(x: 0, y: 0, width: 0, height: 0), count: graph.nodes.count)
        for (element, kind) in elements.enumerated() {
            guard case .box(let node) = kind else { continue }
            boxes[node] = DiagramLayout.Rect(
                x: placement.x[element], y: placement.rankTop[rankOf[element]],
                width: placement.boxWidth[node], height: placement.boxHeight[node])
        }
        for node in graph.nodes.indices { drawBox(node, in: boxes[node], canvas: &canvas) }
        let edgeOwner = graph.nodes.count
        var paths = [[DiagramLayout.Point]](repeating: [], count: graph.edges.count)
        var ends: [(glyph: Character, at: DiagramLayout.Point, owner: Int?)] = []
        for (bundle, chain) in chains.enumerated() {
            let cells = line(of: bundle, placement: placement, boxes: boxes)
            let members = bundles[bundle]
            canvas.trace(cells, owner: edgeOwner + members[0])
            let upward = members.first { graph.edges[$0].to == chain.upperNode }
            let downward = members.first { graph.edges[$0].to == chain.lowerNode }
            if let upward {
                ends.append((glyphs.arrows[0], cells[1], edgeOwner + upward))
            } else {
                ends.append((portGlyph(chain.upperNode, side: 0), cells[0], nil))
            }
            if let downward {
                ends.append((glyphs.arrows[1], cells[cells.count - 2], edgeOwner + downward))
            } else {
                ends.append((portGlyph(chain.lowerNode, side: 1), cells[cells.count - 1], nil))
            }
            for edge in members {
                paths[edge] =
                    graph.edges[edge].to == chain.lowerNode
                    ? Array(cells.dropLast()) : Array(cells.reversed().dropLast())
            }
        }
        for node in graph.nodes.indices {
            let box = boxes[node]
            for (loop, edge) in loops[node].enumerated() {
                let row = box.y + placement.loopRows[node][loop]
                let right = box.x + box.width
                let cells = [
                    DiagramLayout.Point(x: right - 1, y: row), DiagramLayout.Point(x: right, y: row),
                    DiagramLayout.Point(x: right + 1, y: row), DiagramLayout.Point(x: right + 1, y: row + 1),
                    DiagramLayout.Point(x: right, y: row + 1), DiagramLayout.Point(x: right - 1, y: row + 1),
                ]
                canvas.trace(cells, owner: edgeOwner + edge)
                ends.append((portGlyph(node, side: 2), cells[0], nil))
                ends.append((glyphs.arrows[2], cells[4], edgeOwner + edge))
                paths[edge] = Array(cells.dropLast())
            }
        }
        for end in ends { canvas.put(end.glyph, at: end.at, owner: end.owner) }
        canvas.renderLines(glyphs)
        drawLabels(placement: placement, boxes: boxes, canvas: &canvas)
        return DiagramDrawing(
            width: canvas.width, height: canvas.height, lines: canvas.lines(), boxes: boxes, paths: paths,
            crossings: canvas.crossings, owners: canvas.owners)
    }

    /// The border glyph where a line leaves `node`'s box: bottom (0), top (1) or right (2) side.
    private func portGlyph(_ node: Int, side: Int) -> Character {
        (node == graph.initial ? glyphs.initialPorts : glyphs.ports)[side]
    }

    private func drawBox(_ node: Int, in box: DiagramLayout.Rect, canvas: inout DiagramCanvas) {
        let set = node == graph.initial ? glyphs.initialBox : glyphs.box
        let right = box.x + box.width - 1
        let bottom = box.y + box.height - 1
        for y in box.y...bottom {
            for x in box.x...right {
                let glyph: Character
                switch (x == box.x, x == right, y == box.y, y == bottom) {
                case (true, _, true, _): glyph = set[0]
                case (_, true, true, _): glyph = set[1]
                case (true, _, _, true): glyph = set[2]
                case (_, true, _, true): glyph = set[3]
                case (_, _, true, _), (_, _, _, true): glyph = set[4]
                case (true, _, _, _), (_, true, _, _): glyph = set[5]
                case (false, false, false, false): glyph = " "
                }
                canvas.put(glyph, at: DiagramLayout.Point(x: x, y: y), owner: node)
            }
        }
        let lines = nodeLines[node]
        let top = box.y + 1 + (box.height - 2 - lines.count) / 2
        for (index, line) in lines.enumerated() {
            let left = box.x + 1 + (box.width - 2 - line.count) / 2
            canvas.write(line, at: DiagramLayout.Point(x: left, y: top + index), owner: node)
        }
    }

    /// The cells of a bundle's line, top to bottom, from the upper box's border to the lower box's border.
    private func line(of bundle: Int, placement: DiagramPlacement, boxes: [DiagramLayout.Rect])
        -> [DiagramLayout.Point]
    {
        let chain = chains[bundle]
        var walker = DiagramWalker()
        for (step, segment) in chain.segments.enumerated() {
            let upper = segments[segment].upper
            let lower = segments[segment].lower
            let top = placement.x[upper] + placement.upperOffset[segment]
            let bottom = placement.x[lower] + placement.lowerOffset[segment]
            if step == 0 {
                let box = boxes[chain.upperNode]
                walker.start(at: DiagramLayout.Point(x: top, y: box.y + box.height - 1))
            }
            if let row = placement.trackRow[segment] {
                walker.walk(to: DiagramLayout.Point(x: top, y: row))
                walker.walk(to: DiagramLayout.Point(x: bottom, y: row))
            }
            let lowerTop = placement.rankTop[rankOf[lower]]
            walker.walk(to: DiagramLayout.Point(x: bottom, y: lowerTop))
            if case .box = elements[lower] { continue }
            walker.walk(to: DiagramLayout.Point(x: bottom, y: lowerTop + placement.rankHeight[rankOf[lower]] - 1))
        }
        return walker.cells
    }

    private func drawLabels(placement: DiagramPlacement, boxes: [DiagramLayout.Rect], canvas: inout DiagramCanvas) {
        let edgeOwner = graph.nodes.count
        for (element, kind) in elements.enumerated() {
            guard case .label(let bundle) = kind else { continue }
            let top = placement.rankTop[rankOf[element]]
            for (index, runs) in bundleLines[bundle].enumerated() {
                var column = placement.x[element] + 2
                for run in runs {
                    canvas.write(
                        run.text, at: DiagramLayout.Point(x: column, y: top + index), owner: edgeOwner + run.edge)
                    column += run.text.count
                }
            }
        }
        for node in graph.nodes.indices {
            let box = boxes[node]
            for (loop, edge) in loops[node].enumerated() {
                for (index, line) in (loopLines[edge] ?? []).enumerated() {
                    let row = box.y + placement.loopRows[node][loop] + index
                    canvas.write(
                        line, at: DiagramLayout.Point(x: box.x + box.width + 3, y: row), owner: edgeOwner + edge)
                }
            }
        }
    }
}

/// Builds a path cell by cell along straight runs.
struct DiagramWalker {
    private(set) var cells: [DiagramLayout.Point] = []

    mutating func start(at point: DiagramLayout.Point) {
        cells = [point]
    }

    /// Adds the cells up to `target`, which shares a row or a column with the last cell.
    mutating func walk(to target: DiagramLayout.Point) {
        guard var current = cells.last else { return start(at: target) }
        precondition(
            current.x == target.x || current.y == target.y,
            "Internal inconsistency: diagram path turns diagonally from \(current) to \(target)")
        while current != target {
            if current.x < target.x {
                current.x += 1
            } else if current.x > target.x {
                current.x -= 1
            } else if current.y < target.y {
                current.y += 1
            } else {
                current.y -= 1
            }
            cells.append(current)
        }
    }
}

/// The grid being drawn: characters, owners, and the line directions of path cells.
struct DiagramCanvas {
    let width: Int
    let height: Int
    private var characters: [Character]
    private(set) var owners: [Int32]
    /// Per cell, the directions lines leave it in (up 1, down 2, left 4, right 8); 0 for no line.
    private var masks: [UInt8]
    /// Per cell, how many paths pass through it.
    private var visits: [UInt8]
    private(set) var crossings = 0

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        characters = [Character](repeating: " ", count: width * height)
        owners = [Int32](repeating: -1, count: width * height)
        masks = [UInt8](repeating: 0, count: width * height)
        visits = [UInt8](repeating: 0, count: width * height)
    }

    private func index(_ point: DiagramLayout.Point) -> Int? {
        guard point.x >= 0, point.x < width, point.y >= 0, point.y < height else { return nil }
        return point.y * width + point.x
    }

    mutating func put(_ character: Character, at point: DiagramLayout.Point, owner: Int?) {
        guard let index = index(point) else { return }
        characters[index] = character
        masks[index] = 0
        if let owner { owners[index] = Int32(owner) }
    }

    mutating func write(_ text: String, at point: DiagramLayout.Point, owner: Int) {
        var cursor = point
        for character in text {
            put(character, at: cursor, owner: owner)
            cursor.x += 1
        }
    }

    /// Records the line directions of a line's inner cells (its two ends are on box borders).
    mutating func trace(_ path: [DiagramLayout.Point], owner: Int) {
        guard path.count > 2 else { return }
        for step in 1..<(path.count - 1) {
            guard let index = index(path[step]) else { continue }
            let mask = Self.direction(path[step], path[step - 1]) | Self.direction(path[step], path[step + 1])
            if visits[index] > 0 { crossings += 1 } else { owners[index] = Int32(owner) }
            visits[index] &+= 1
            masks[index] |= mask
        }
    }

    private static func direction(_ from: DiagramLayout.Point, _ to: DiagramLayout.Point) -> UInt8 {
        to.y < from.y ? 1 : to.y > from.y ? 2 : to.x < from.x ? 4 : 8
    }

    /// Turns the recorded directions into line glyphs.
    mutating func renderLines(_ glyphs: DiagramGlyphs) {
        for index in masks.indices where masks[index] != 0 {
            characters[index] = glyphs.lines[Int(masks[index])]
        }
    }

    func lines() -> [String] {
        (0..<height).map { row in
            var line = ""
            line.reserveCapacity(width * 3)
            for character in characters[(row * width)..<((row + 1) * width)] { line.append(character) }
            return line
        }
    }
}
