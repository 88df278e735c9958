import StateMachineKit

/// A directed graph to draw as boxes and arrows: the input of ``DiagramLayout``.
///
/// Nodes are texts (a box each), edges are labelled arrows between node positions. A `StateGraph` makes
/// one with `StateGraph.diagram(groupingStatesBy:labellingEventsBy:)`, whole or collapsed by case; any
/// other graph can be drawn by building one directly.
public struct DiagramGraph: Hashable, Sendable {
    /// One arrow from the node at `from` to the node at `to`.
    public struct Edge: Hashable, Sendable {
        /// The position of the node the arrow leaves.
        public var from: Int
        /// The position of the node the arrow points at (equal to `from` for a self-loop).
        public var to: Int
        /// The text written beside the arrow (may be empty).
        public var label: String

        /// An arrow from `from` to `to` labelled `label`.
        public init(from: Int, to: Int, label: String) {
            self.from = from
            self.to = to
            self.label = label
        }
    }

    /// The text of each box, by position.
    public var nodes: [String]
    /// The arrows, in the order they are listed (parallel arrows are allowed and drawn apart).
    public var edges: [Edge]
    /// The node drawn as the initial one (a double border), if any.
    public var initial: Int?

    /// A graph of `nodes` and `edges`; every edge's ends and `initial` must be positions in `nodes`.
    public init(nodes: [String], edges: [Edge], initial: Int? = 0) {
        for edge in edges {
            precondition(
                nodes.indices.contains(edge.from) && nodes.indices.contains(edge.to),
                "DiagramGraph: edge \(edge.from) -> \(edge.to) names a node outside 0..<\(nodes.count)")
        }
        self.nodes = nodes
        self.edges = edges
        self.initial = initial.flatMap { nodes.indices.contains($0) ? $0 : nil }
    }

    /// The position of the first node whose text is `text`, or nil.
    public func node(named text: String) -> Int? {
        nodes.firstIndex(of: text)
    }

    /// The positions of the edges from `from` to `to`, in order.
    public func edges(from: Int, to: Int) -> [Int] {
        edges.indices.filter { edges[$0].from == from && edges[$0].to == to }
    }

    /// The case name in a canonical text: everything before the first `(`, so `running(request: 1, percent: 20)`
    /// is `running` and `idle` stays `idle`. The fallback grouping of a collapsed diagram.
    public static func caseName(of text: String) -> String {
        guard let open = text.firstIndex(of: "(") else { return text }
        return String(text[..<open])
    }
}
