import StateMachineDiagrams
import StateMachineKit

extension DiagramGraph {
    /// A random graph for property tests of layouts: `nodeCount` nodes with texts of varied length and about
    /// `edgesPerNode` edges per node between random nodes, so self-loops, parallel edges, opposite edges and
    /// cycles all occur. The same generator state gives the same graph.
    public static func random(
        nodeCount: Int, edgesPerNode: Double = 1.6, using generator: inout some RandomNumberGenerator
    ) -> DiagramGraph {
        let count = max(1, nodeCount)
        let nodes = (0..<count).map { index in
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: "s\(index)"
            case 1: "state \(index)"
            case 2: "running(request: \(index), percent: \(Int.random(in: 0...100, using: &generator)))"
            default: "s\(index)(\(String(repeating: "x", count: Int.random(in: 1...40, using: &generator))))"
            }
        }
        let edgeCount = Int((Double(count) * edgesPerNode).rounded())
        let edges = (0..<edgeCount).map { index in
            let from = Int.random(in: 0..<count, using: &generator)
            let to =
                Int.random(in: 0..<10, using: &generator) == 0 ? from : Int.random(in: 0..<count, using: &generator)
            let label =
                Int.random(in: 0..<5, using: &generator) == 0 ? "event\(index)(value: \(index * 7))" : "e\(index)"
            return Edge(from: from, to: to, label: label)
        }
        return DiagramGraph(nodes: nodes, edges: edges, initial: 0)
    }
}

extension DiagramLayout {
    /// What is wrong with this drawing of `graph`, one sentence each; empty when nothing is.
    ///
    /// Checks that every box lies on the grid, is drawn whole, and shares no cell with another box; that every edge's path starts on
    /// its source box's border, moves one cell at a time, ends beside (not inside) its target box and enters
    /// no box on the way; that every cell of a path is drawn as a line or an arrowhead (no label written over
    /// it); and that edges between different pairs of nodes
    /// share a cell only where one crosses the other at right angles (never running along it).
    public func problems(drawing graph: DiagramGraph) -> [String] {
        guard boxes.count == graph.nodes.count, paths.count == graph.edges.count else {
            return [
                "\(boxes.count) boxes and \(paths.count) paths for \(graph.nodes.count) nodes, \(graph.edges.count) edges"
            ]
        }
        // Per cell, the edges through it and whether each passes straight through vertically or horizontally.
        var passing: [Int: [(edge: Int, straight: Character?)]] = [:]
        let grid = lines.map(Array.init)
        var found = boxProblems()
        for edge in paths.indices {
            found += pathProblems(edge, of: graph, grid: grid, passing: &passing)
        }
        return found + crossingProblems(passing, of: graph)
    }

    /// Boxes off the grid, overlapping, or drawn over.
    private func boxProblems() -> [String] {
        var found: [String] = []
        let whole = bounds
        for (node, box) in boxes.enumerated() {
            if box.width < 3 || box.height < 3 || !whole.contains(Point(x: box.x, y: box.y))
                || !whole.contains(Point(x: box.x + box.width - 1, y: box.y + box.height - 1))
            {
                found.append("box \(node) \(box) is not a box on the \(width)×\(height) grid")
            }
            for other in boxes.indices where other > node && box.intersects(boxes[other]) {
                found.append("boxes \(node) and \(other) overlap")
            }
            let covered = (box.y..<(box.y + box.height)).flatMap { y in
                (box.x..<(box.x + box.width)).map { Point(x: $0, y: y) }
            }
            if let foreign = covered.first(where: { whole.contains($0) && owner(at: $0) != .node(node) }) {
                found.append("box \(node) is drawn over at \(foreign)")
            }
        }
        return found
    }

    /// What is wrong with the path of `edge`: where it starts and ends, a jump, a box crossed, a cell not
    /// drawn as a line. Adds each of its cells to `passing`.
    private func pathProblems(
        _ edge: Int, of graph: DiagramGraph, grid: [[Character]],
        passing: inout [Int: [(edge: Int, straight: Character?)]]
    ) -> [String] {
        var found: [String] = []
        let path = paths[edge]
        let source = boxes[graph.edges[edge].from]
        let target = boxes[graph.edges[edge].to]
        guard let first = path.first, let last = path.last, path.count >= 2 else {
            return ["edge \(edge) has a path of \(path.count) cells"]
        }
        let onBorder =
            source.contains(first)
            && (first.x == source.x || first.y == source.y || first.x == source.x + source.width - 1
                || first.y == source.y + source.height - 1)
        if !onBorder { found.append("edge \(edge) starts at \(first), not on its source's border") }
        let beside =
            !target.contains(last)
            && (target.contains(Point(x: last.x + 1, y: last.y)) || target.contains(Point(x: last.x - 1, y: last.y))
                || target.contains(Point(x: last.x, y: last.y + 1))
                || target.contains(Point(x: last.x, y: last.y - 1)))
        if !beside { found.append("edge \(edge) ends at \(last), not beside its target") }
        let whole = bounds
        for step in path.indices {
            let cell = path[step]
            guard whole.contains(cell) else {
                found.append("edge \(edge) leaves the grid at \(cell)")
                break
            }
            if step > 0 {
                let previous = path[step - 1]
                if abs(cell.x - previous.x) + abs(cell.y - previous.y) != 1 {
                    found.append("edge \(edge) jumps from \(previous) to \(cell)")
                }
                if let box = boxes.firstIndex(where: { $0.contains(cell) }) {
                    found.append("edge \(edge) passes through box \(box) at \(cell)")
                }
                if !Self.lineGlyphs.contains(grid[cell.y][cell.x]) {
                    found.append("edge \(edge) is drawn as '\(grid[cell.y][cell.x])' at \(cell), not as a line")
                }
            }
            var straight: Character?
            if step > 0 && step < path.count - 1 {
                let before = path[step - 1]
                let after = path[step + 1]
                if before.x == after.x { straight = "|" } else if before.y == after.y { straight = "-" }
            }
            passing[cell.y * width + cell.x, default: []].append((edge, straight))
        }
        return found
    }

    /// Edges of different node pairs sharing a cell other than by crossing at right angles.
    private func crossingProblems(
        _ passing: [Int: [(edge: Int, straight: Character?)]], of graph: DiagramGraph
    ) -> [String] {
        var found: [String] = []
        for (cell, visits) in passing.sorted(by: { $0.key < $1.key }) where visits.count > 1 {
            for (index, one) in visits.enumerated() {
                for other in visits[(index + 1)...] where !sameBundle(graph.edges[one.edge], graph.edges[other.edge]) {
                    guard let a = one.straight, let b = other.straight, a != b else {
                        found.append(
                            "edges \(one.edge) and \(other.edge) overlap at (\(cell % width), \(cell / width))")
                        continue
                    }
                }
            }
        }
        return found
    }

    /// The characters a line or an arrowhead is drawn with, in either charset.
    private static let lineGlyphs = Set("│─╭╮╰╯┼├┤┬┴▲▼◀▶|-+^v<>")

    /// Whether two edges join the same two nodes (either way), and so are drawn as one line.
    private func sameBundle(_ one: DiagramGraph.Edge, _ other: DiagramGraph.Edge) -> Bool {
        (one.from == other.from && one.to == other.to) || (one.from == other.to && one.to == other.from)
    }
}
