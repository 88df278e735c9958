import StateMachineKit

/// The characters a ``DiagramLayout`` draws with. The layout never reads the environment: the caller decides
/// (a terminal whose locale is not UTF-8 gets ``ascii``).
public enum DiagramCharset: String, Sendable, Hashable, CaseIterable {
    /// Box-drawing characters and arrowheads (`┌─┐ │ ╭╯ ▼`).
    case unicode
    /// Seven-bit ASCII only (`+-+ | v`).
    case ascii
}

/// A ``DiagramGraph`` drawn as text: boxes and orthogonal arrows on a grid of single-column characters.
///
/// The layout is layered, after Gansner et al.'s "A Technique for Drawing Directed Graphs" (Graphviz `dot`):
/// cycles are broken by reversing depth-first back edges, nodes get layers by longest path (nudged to shorten
/// edges and, for small graphs, moved where that removes crossings), long edges get a chain of dummy elements
/// with the label on one of them, layers are ordered by barycenter sweeps with transposition, boxes and
/// chains get columns that keep chains straight, and every edge is routed as vertical runs joined by
/// horizontal jogs on tracks chosen so jogs neither overlap nor cross where that can be avoided. Self-loops
/// are drawn on a box's right side. The initial node has a double border.
///
/// Meant for diagrams a person reads — tens of states, up to a few hundred edges: a 30-state graph takes a few
/// milliseconds, and the cost grows faster than the graph, so collapse a large graph first.
///
/// Pure and deterministic: the same graph and charset always give the same grid. Besides the text, the
/// layout says which cells belong to which node or edge (``owner(at:)``), where each box is (``boxes``) and
/// the cells of each edge's path (``paths``), so a screen can light a state or an edge.
public struct DiagramLayout: Hashable, Sendable {
    /// A cell: column `x` from the left, row `y` from the top.
    public struct Point: Hashable, Sendable {
        /// The column.
        public var x: Int
        /// The row.
        public var y: Int

        /// The cell at column `x`, row `y`.
        public init(x: Int, y: Int) {
            self.x = x
            self.y = y
        }
    }

    /// A rectangle of cells: a box the layout placed (``boxes``), or the whole grid (``bounds``).
    public struct Rect: Hashable, Sendable {
        /// The left column.
        public var x: Int
        /// The top row.
        public var y: Int
        /// Columns.
        public var width: Int
        /// Rows.
        public var height: Int

        /// Whether `point` is one of its cells.
        public func contains(_ point: Point) -> Bool {
            point.x >= x && point.x < x + width && point.y >= y && point.y < y + height
        }

        /// Whether the two share a cell.
        public func intersects(_ other: Rect) -> Bool {
            x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height
        }
    }

    /// What a cell draws.
    public enum Owner: Hashable, Sendable {
        /// Part of the box (border or text) of the node at this position.
        case node(Int)
        /// Part of the path, arrowhead or label of the edge at this position.
        case edge(Int)
    }

    /// Columns of the grid.
    public let width: Int
    /// Rows of the grid.
    public let height: Int
    /// The grid, one string of exactly ``width`` single-column characters per row.
    public let lines: [String]
    /// Each node's box, by node position.
    public let boxes: [Rect]
    /// Each edge's drawn path, by edge position: the first cell is on the source box's border, the last is the
    /// arrowhead, next to the target box; consecutive cells are neighbours.
    public let paths: [[Point]]
    /// How many cells two edges cross in (zero when the layout found a drawing without crossings).
    public let crossings: Int
    /// One entry per cell, row-major: -1 for nothing, a node position, or node count + edge position.
    let owners: [Int32]
    /// The number of nodes, to tell node owners from edge owners.
    let nodeCount: Int

    /// Lays out `graph`, drawing with `charset`; texts longer than `maximumLabelWidth` columns are wrapped.
    public init(_ graph: DiagramGraph, charset: DiagramCharset = .unicode, maximumLabelWidth: Int = 32) {
        let drawing = DiagramEngine(graph: graph, maximumLabelWidth: max(8, maximumLabelWidth), charset: charset).draw()
        width = drawing.width
        height = drawing.height
        lines = drawing.lines
        boxes = drawing.boxes
        paths = drawing.paths
        crossings = drawing.crossings
        owners = drawing.owners
        nodeCount = graph.nodes.count
    }

    /// The whole grid, ``width`` by ``height`` from the top-left cell.
    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// What the cell at `point` draws, or nil for an empty cell or one outside the grid.
    public func owner(at point: Point) -> Owner? {
        guard point.x >= 0, point.x < width, point.y >= 0, point.y < height else { return nil }
        let value = Int(owners[point.y * width + point.x])
        if value < 0 { return nil }
        return value < nodeCount ? .node(value) : .edge(value - nodeCount)
    }

    /// The grid as text: one line per row without trailing spaces, each ended by a newline.
    public var text: String {
        lines.map { line in
            var trimmed = Substring(line)
            while trimmed.last == " " { trimmed.removeLast() }
            return trimmed + "\n"
        }.joined()
    }
}
