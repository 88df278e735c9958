// The first half of the layered layout: texts measured, cycles broken, layers assigned, long edges turned
// into chains of elements, and the order of elements within each rank chosen to cross as little as possible.

import StateMachineKit

/// The working state of one layout, from the graph to the drawing.
struct DiagramEngine {
    /// What stands at one place of a rank.
    enum Element {
        /// A node's box.
        case box(node: Int)
        /// The place of a bundle's labels; the bundle's line runs down its left column.
        case label(bundle: Int)
        /// A place a bundle's line passes through.
        case dummy(bundle: Int)
    }

    /// A piece of a bundle's line between an element and one in the next rank down.
    struct Segment {
        /// The element above.
        var upper: Int
        /// The element below.
        var lower: Int
        /// The bundle it belongs to.
        var bundle: Int
    }

    /// How one bundle (the non-loop edges between two nodes, either way) runs: one line between the box
    /// drawn higher and the box drawn lower, with an arrowhead at each end some edge points at.
    struct Chain {
        /// The node drawn higher.
        var upperNode: Int
        /// The node drawn lower.
        var lowerNode: Int
        /// Its segments, top to bottom.
        var segments: [Int]
        /// Whether some edge of the bundle points at the upper node, and at the lower node.
        var arrowAtUpper: Bool
        var arrowAtLower: Bool
    }

    let graph: DiagramGraph
    /// Each node's text, wrapped.
    let nodeLines: [[String]]
    /// The non-loop edges between each pair of nodes (either way), in edge order.
    let bundles: [[Int]]
    /// The self-loops of each node, by edge position.
    let loops: [[Int]]
    /// Each loop's label, wrapped.
    let loopLines: [Int: [String]]
    /// Each bundle's label lines: runs of text with the edge each belongs to.
    var bundleLines: [[[(text: String, edge: Int)]]] = []
    /// The layer of each node.
    var layers: [Int] = []
    /// The chain of each bundle.
    var chains: [Chain] = []
    /// Every element.
    var elements: [Element] = []
    /// The rank of each element (a node's rank is twice its layer; labels and dummies sit between).
    var rankOf: [Int] = []
    /// Element positions, left to right, per rank.
    var ranks: [[Int]] = []
    /// Every segment.
    var segments: [Segment] = []
    /// Per element, its segments to the rank above.
    var upward: [[Int]] = []
    /// Per element, its segments to the rank below.
    var downward: [[Int]] = []
    /// Texts longer than this many columns wrap.
    let maximumLabelWidth: Int
    /// The characters to draw with.
    let glyphs: DiagramGlyphs

    /// Measures the texts and ranks the graph (everything before coordinates).
    init(graph: DiagramGraph, maximumLabelWidth: Int, charset: DiagramCharset) {
        self.graph = graph
        self.maximumLabelWidth = maximumLabelWidth
        glyphs = DiagramGlyphs.of(charset)
        nodeLines = graph.nodes.map { DiagramText.wrap(DiagramText.singleColumn($0), width: maximumLabelWidth) }
        var loops = [[Int]](repeating: [], count: graph.nodes.count)
        var loopLines: [Int: [String]] = [:]
        var bundles: [[Int]] = []
        var bundleOfPair: [Int: Int] = [:]
        for (index, edge) in graph.edges.enumerated() {
            if edge.from == edge.to {
                loops[edge.from].append(index)
                loopLines[index] =
                    edge.label.isEmpty
                    ? [] : DiagramText.wrap(DiagramText.singleColumn(edge.label), width: maximumLabelWidth)
                continue
            }
            let key = min(edge.from, edge.to) &* graph.nodes.count &+ max(edge.from, edge.to)
            if let bundle = bundleOfPair[key] {
                bundles[bundle].append(index)
            } else {
                bundleOfPair[key] = bundles.count
                bundles.append([index])
            }
        }
        self.loops = loops
        self.loopLines = loopLines
        self.bundles = bundles
        let oriented = Self.orientBundles(graph, bundles: bundles, reversed: Self.feedbackEdges(graph))
        var layers = Self.longestPathLayers(nodeCount: graph.nodes.count, oriented: oriented)
        Self.shortenEdges(nodeCount: graph.nodes.count, oriented: oriented, layers: &layers)
        build(layers: layers, oriented: oriented)
        let crossings = orderRanks()
        if crossings > 0 && graph.nodes.count <= Self.searchLimit {
            searchLayers(oriented: oriented, crossings: crossings)
        }
    }

    /// Restarts of each ordering tried while searching layers (the chosen layering gets ``restarts``).
    static let searchRestarts = 3

    /// Graphs up to this many nodes also try moving nodes between layers to remove crossings.
    static let searchLimit = 10

    // MARK: Cycles and layers

    /// Which edges a depth-first search from the initial node (then every node not yet seen, in order) finds
    /// pointing back at a node on its stack: reversing them leaves no cycle. Self-loops are not included.
    static func feedbackEdges(_ graph: DiagramGraph) -> [Bool] {
        let count = graph.nodes.count
        var outgoing = [[Int]](repeating: [], count: count)
        for (index, edge) in graph.edges.enumerated() where edge.from != edge.to { outgoing[edge.from].append(index) }
        var reversed = [Bool](repeating: false, count: graph.edges.count)
        var mark = [UInt8](repeating: 0, count: count)  // 0 unseen, 1 on the stack, 2 done
        let roots = (graph.initial.map { [$0] } ?? []) + Array(0..<count)
        for root in roots where mark[root] == 0 {
            var stack: [(node: Int, next: Int)] = [(root, 0)]
            mark[root] = 1
            while let top = stack.last {
                if top.next == outgoing[top.node].count {
                    mark[top.node] = 2
                    stack.removeLast()
                    continue
                }
                let edge = outgoing[top.node][top.next]
                stack[stack.count - 1].next += 1
                let target = graph.edges[edge].to
                if mark[target] == 0 {
                    mark[target] = 1
                    stack.append((target, 0))
                } else if mark[target] == 1 {
                    reversed[edge] = true
                }
            }
        }
        return reversed
    }

    /// Each bundle as (upper, lower): its first edge, turned round when reversed. Every edge of a bundle has
    /// the same orientation once cycles are broken (two opposite ones would be a cycle).
    static func orientBundles(_ graph: DiagramGraph, bundles: [[Int]], reversed: [Bool]) -> [(upper: Int, lower: Int)] {
        bundles.map { members in
            let edge = graph.edges[members[0]]
            return reversed[members[0]] ? (edge.to, edge.from) : (edge.from, edge.to)
        }
    }

    /// Each node's layer: one more than the deepest node with a bundle into it (sources at 0).
    static func longestPathLayers(nodeCount: Int, oriented: [(upper: Int, lower: Int)]) -> [Int] {
        var incoming = [Int](repeating: 0, count: nodeCount)
        var outgoing = [[Int]](repeating: [], count: nodeCount)
        for edge in oriented {
            incoming[edge.lower] += 1
            outgoing[edge.upper].append(edge.lower)
        }
        var layers = [Int](repeating: 0, count: nodeCount)
        var ready = (0..<nodeCount).filter { incoming[$0] == 0 }
        var cursor = 0
        while cursor < ready.count {
            let node = ready[cursor]
            cursor += 1
            for next in outgoing[node] {
                layers[next] = max(layers[next], layers[node] + 1)
                incoming[next] -= 1
                if incoming[next] == 0 { ready.append(next) }
            }
        }
        return layers
    }

    /// Moves nodes with more bundles below than above down towards them (a light network simplex: the total
    /// edge length shrinks, no edge turns round).
    static func shortenEdges(nodeCount: Int, oriented: [(upper: Int, lower: Int)], layers: inout [Int]) {
        var above = [Int](repeating: 0, count: nodeCount)
        var below = [[Int]](repeating: [], count: nodeCount)
        for edge in oriented {
            below[edge.upper].append(edge.lower)
            above[edge.lower] += 1
        }
        for _ in 0..<2 {
            for node in (0..<nodeCount).sorted(by: { layers[$0] > layers[$1] }) where below[node].count > above[node] {
                let lowest = below[node].map { layers[$0] - 1 }.min() ?? layers[node]
                if lowest > layers[node] { layers[node] = lowest }
            }
        }
    }

    /// Looks for a better layering of a small graph: moves one node at a time to any other layer below the
    /// initial node's that holds none of its neighbours (edges may turn round; no edge may lie within a
    /// layer), keeping the move that
    /// lowers (crossings, layers, the initial node's layer, how far layers stray from the breadth-first depth
    /// from the initial node) most, until none does: fewest crossings, then the most compact drawing that
    /// still reads from the initial state down.
    mutating func searchLayers(oriented: [(upper: Int, lower: Int)], crossings: Int) {
        var neighbours = [Set<Int>](repeating: [], count: graph.nodes.count)
        for edge in oriented {
            neighbours[edge.upper].insert(edge.lower)
            neighbours[edge.lower].insert(edge.upper)
        }
        let initial = graph.initial ?? 0
        let depth = Self.breadthFirstDepths(graph, from: initial)
        func stray(_ layers: [Int]) -> Int {
            zip(layers, depth).reduce(0) { $0 + abs($1.0 - $1.1) }
        }
        var score = (crossings, (layers.max() ?? 0) + 1, layers[initial], stray(layers))
        var rounds = 0
        while score.0 > 0 && rounds < 4 {
            rounds += 1
            var best: DiagramEngine?
            var bestScore = score
            let deepest = layers.max() ?? 0
            // The initial node stays where the drawing starts: nothing moves above it, and it does not move.
            for node in 0..<graph.nodes.count where node != initial {
                for layer in (layers[initial] + 1)...(deepest + 1) where layer != layers[node] {
                    guard !neighbours[node].contains(where: { layers[$0] == layer }) else { continue }
                    var candidate = layers
                    candidate[node] = layer
                    let lowest = candidate.min() ?? 0
                    var trial = self
                    trial.build(layers: candidate.map { $0 - lowest }, oriented: oriented)
                    let found = (
                        trial.orderRanks(restarts: Self.searchRestarts), (trial.layers.max() ?? 0) + 1,
                        trial.layers[initial],
                        stray(trial.layers)
                    )
                    if found < bestScore {
                        bestScore = found
                        best = trial
                    }
                }
            }
            guard let best else { break }
            self = best
            score = bestScore
        }
        _ = orderRanks()
    }

    /// Each node's number of edges from `initial` along edge directions (unreachable nodes count as one
    /// deeper than the deepest reachable one).
    static func breadthFirstDepths(_ graph: DiagramGraph, from initial: Int) -> [Int] {
        var outgoing = [[Int]](repeating: [], count: graph.nodes.count)
        for edge in graph.edges { outgoing[edge.from].append(edge.to) }
        var depth = [Int](repeating: -1, count: graph.nodes.count)
        guard !graph.nodes.isEmpty else { return [] }
        depth[initial] = 0
        var queue = [initial]
        var cursor = 0
        while cursor < queue.count {
            let node = queue[cursor]
            cursor += 1
            for next in outgoing[node] where depth[next] < 0 {
                depth[next] = depth[node] + 1
                queue.append(next)
            }
        }
        let deepest = (depth.max() ?? 0) + 1
        return depth.map { $0 < 0 ? deepest : $0 }
    }

    // MARK: Ranks and chains

    /// Builds the elements and segments for `layers` (empty layers removed).
    mutating func build(layers: [Int], oriented: [(upper: Int, lower: Int)]) {
        let used = Set(layers).sorted()
        var compact: [Int: Int] = [:]
        for (index, layer) in used.enumerated() { compact[layer] = index }
        self.layers = layers.map { compact[$0] ?? 0 }
        elements = []
        rankOf = []
        segments = []
        upward = []
        downward = []
        ranks = [[Int]](repeating: [], count: max(1, 2 * used.count - 1))
        var boxOf = [Int](repeating: 0, count: graph.nodes.count)
        for node in Self.discoveryOrder(graph) {
            boxOf[node] = add(.box(node: node), rank: 2 * self.layers[node])
        }
        chains = []
        for (bundle, members) in bundles.enumerated() {
            var upper = oriented[bundle].upper
            var lower = oriented[bundle].lower
            if self.layers[upper] > self.layers[lower] { swap(&upper, &lower) }
            var chain = Chain(
                upperNode: upper, lowerNode: lower, segments: [],
                arrowAtUpper: members.contains { graph.edges[$0].to == upper },
                arrowAtLower: members.contains { graph.edges[$0].to == lower })
            let top = 2 * self.layers[upper]
            let bottom = 2 * self.layers[lower]
            let labelRank = Self.labelRank(
                top: top, bottom: bottom, sourceIsUpper: graph.edges[members[0]].from == upper)
            var previous = boxOf[upper]
            for rank in (top + 1)..<bottom {
                let element = add(rank == labelRank ? .label(bundle: bundle) : .dummy(bundle: bundle), rank: rank)
                chain.segments.append(connect(previous, element, bundle: bundle))
                previous = element
            }
            chain.segments.append(connect(previous, boxOf[lower], bundle: bundle))
            chains.append(chain)
        }
        bundleLines = bundles.indices.map(labelLines)
    }

    /// The label lines of a bundle. One-way: each edge's label. Both ways: each prefixed by the arrowhead
    /// of its direction; labels share a line while it stays within the maximum width.
    func labelLines(_ bundle: Int) -> [[(text: String, edge: Int)]] {
        let chain = chains[bundle]
        let members = bundles[bundle]
        let bothWays = chain.arrowAtUpper && chain.arrowAtLower
        var lines: [[(text: String, edge: Int)]] = []
        var width = 0
        for edge in members where !graph.edges[edge].label.isEmpty {
            let prefix = bothWays ? String(glyphs.arrows[graph.edges[edge].to == chain.upperNode ? 0 : 1]) : ""
            let text = DiagramText.singleColumn(graph.edges[edge].label)
            let wrapped = DiagramText.wrap(text, width: maximumLabelWidth - (prefix.isEmpty ? 0 : 2))
            for (index, piece) in wrapped.enumerated() {
                let run = (index == 0 && !prefix.isEmpty ? prefix + " " : prefix.isEmpty ? "" : "  ") + piece
                if index == 0, let last = lines.indices.last, width + 2 + run.count <= maximumLabelWidth {
                    lines[last].append(("  " + run, edge))
                    width += 2 + run.count
                } else {
                    lines.append([(run, edge)])
                    width = run.count
                }
            }
        }
        return lines
    }

    /// The rank between `top` and `bottom` (node ranks, at least two apart) that holds the label: the odd rank
    /// nearest the middle, the one nearer the edge's source on a tie.
    static func labelRank(top: Int, bottom: Int, sourceIsUpper: Bool) -> Int {
        var best = top + 1
        var rank = top + 1
        while rank < bottom {
            let distance = abs(2 * rank - top - bottom)
            let bestDistance = abs(2 * best - top - bottom)
            if distance < bestDistance || (distance == bestDistance && !sourceIsUpper) { best = rank }
            rank += 2
        }
        return best
    }

    /// Nodes in depth-first discovery order from the initial node, then the rest: the first order of boxes.
    static func discoveryOrder(_ graph: DiagramGraph) -> [Int] {
        var outgoing = [[Int]](repeating: [], count: graph.nodes.count)
        for edge in graph.edges where edge.from != edge.to { outgoing[edge.from].append(edge.to) }
        var seen = [Bool](repeating: false, count: graph.nodes.count)
        var order: [Int] = []
        let roots = (graph.initial.map { [$0] } ?? []) + Array(0..<graph.nodes.count)
        for root in roots where !seen[root] {
            var stack = [root]
            while let node = stack.popLast() {
                guard !seen[node] else { continue }
                seen[node] = true
                order.append(node)
                stack.append(contentsOf: outgoing[node].reversed().filter { !seen[$0] })
            }
        }
        return order
    }

    private mutating func add(_ element: Element, rank: Int) -> Int {
        elements.append(element)
        rankOf.append(rank)
        upward.append([])
        downward.append([])
        ranks[rank].append(elements.count - 1)
        return elements.count - 1
    }

    private mutating func connect(_ upper: Int, _ lower: Int, bundle: Int) -> Int {
        segments.append(Segment(upper: upper, lower: lower, bundle: bundle))
        downward[upper].append(segments.count - 1)
        upward[lower].append(segments.count - 1)
        return segments.count - 1
    }

    // MARK: Order within ranks

    /// Orders every rank by alternating barycenter sweeps with transposition, keeping the best order found;
    /// returns its number of crossings. Small graphs that still cross start again from scrambled orders
    /// (deterministic: the scramble is a hash of the element and the attempt).
    mutating func orderRanks(restarts: Int = restarts) -> Int {
        var position = positions()
        var best = ranks
        var bestCrossings = totalCrossings(position)
        for rank in ranks.indices.dropFirst() {
            sortByBarycenter(rank: rank, usingAbove: true, position: &position)
        }
        let start = ranks
        let swept = sweep(&position)
        if swept < bestCrossings || elements.count == 0 {
            bestCrossings = swept
            best = ranks
        }
        let attempts = elements.count <= Self.restartLimit ? restarts : 0
        var attempt = 1
        while bestCrossings > 0 && attempt <= attempts {
            ranks = start.map { rank in
                rank.sorted { Self.scramble($0, attempt) < Self.scramble($1, attempt) }
            }
            position = positions()
            let crossings = sweep(&position)
            if crossings < bestCrossings {
                bestCrossings = crossings
                best = ranks
            }
            attempt += 1
        }
        ranks = best
        return bestCrossings
    }

    /// Graphs up to this many elements start again from scrambled orders while they cross.
    static let restartLimit = 80
    /// How many times.
    static let restarts = 16

    /// A fixed pseudo-random key of `element` for attempt `attempt`.
    static func scramble(_ element: Int, _ attempt: Int) -> UInt64 {
        var value =
            UInt64(truncatingIfNeeded: element) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(attempt) &* 0xBF58_476D_1CE4_E5B9
        value ^= value >> 31
        value = value &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 29)
    }

    /// Sweeps down and up from the current order; leaves the best order found in `ranks` and returns its
    /// crossings.
    private mutating func sweep(_ position: inout [Int]) -> Int {
        transpose(&position)
        var best = ranks
        var bestCrossings = totalCrossings(position)
        var iteration = 0
        while bestCrossings > 0 && iteration < 8 {
            let downwards = iteration % 2 == 0
            let sequence = downwards ? Array(ranks.indices.dropFirst()) : Array(ranks.indices.dropLast().reversed())
            for rank in sequence {
                sortByBarycenter(rank: rank, usingAbove: downwards, position: &position)
            }
            transpose(&position)
            let crossings = totalCrossings(position)
            if crossings < bestCrossings {
                bestCrossings = crossings
                best = ranks
            }
            iteration += 1
        }
        ranks = best
        position = positions()
        return bestCrossings
    }

    /// Each element's index within its rank.
    func positions() -> [Int] {
        var position = [Int](repeating: 0, count: elements.count)
        for rank in ranks {
            for (index, element) in rank.enumerated() { position[element] = index }
        }
        return position
    }

    /// Sorts one rank by the mean position of each element's neighbours in the rank above (or below);
    /// an element without such neighbours keeps its place.
    private mutating func sortByBarycenter(rank: Int, usingAbove: Bool, position: inout [Int]) {
        let members = ranks[rank]
        var keys: [(element: Int, key: Double, other: Double, tie: Int)] = []
        keys.reserveCapacity(members.count)
        func barycenter(_ links: [Int], above: Bool) -> Double? {
            guard !links.isEmpty else { return nil }
            var sum = 0
            for segment in links { sum += position[above ? segments[segment].upper : segments[segment].lower] }
            return Double(sum) / Double(links.count)
        }
        for (index, element) in members.enumerated() {
            let key = barycenter(usingAbove ? upward[element] : downward[element], above: usingAbove)
            let other = barycenter(usingAbove ? downward[element] : upward[element], above: !usingAbove)
            keys.append((element, key ?? Double(index), other ?? Double(index), index))
        }
        // Equal barycenters (children of one box) are told apart by where they lead on the other side.
        keys.sort { ($0.key, $0.other, $0.tie) < ($1.key, $1.other, $1.tie) }
        ranks[rank] = keys.map(\.element)
        for (index, element) in ranks[rank].enumerated() { position[element] = index }
    }

    /// Swaps neighbours within ranks while that removes crossings with the ranks above and below.
    private mutating func transpose(_ position: inout [Int]) {
        var changed = true
        var passes = 0
        while changed && passes < 4 {
            changed = false
            passes += 1
            for rank in ranks.indices where ranks[rank].count > 1 {
                for index in 0..<(ranks[rank].count - 1) {
                    let left = ranks[rank][index]
                    let right = ranks[rank][index + 1]
                    if pairCrossings(right, left, position) < pairCrossings(left, right, position) {
                        ranks[rank].swapAt(index, index + 1)
                        position[left] = index + 1
                        position[right] = index
                        changed = true
                    }
                }
            }
        }
    }

    /// Crossings between the segments of `left` and `right` when `left` stands first.
    private func pairCrossings(_ left: Int, _ right: Int, _ position: [Int]) -> Int {
        var count = 0
        for segment in upward[left] {
            let mine = position[segments[segment].upper]
            for other in upward[right] where position[segments[other].upper] < mine { count += 1 }
        }
        for segment in downward[left] {
            let mine = position[segments[segment].lower]
            for other in downward[right] where position[segments[other].lower] < mine { count += 1 }
        }
        return count
    }

    /// Crossings between every pair of adjacent ranks, counted as inversions with a Fenwick tree.
    func totalCrossings(_ position: [Int]) -> Int {
        var byRank = [[(upper: Int, lower: Int)]](repeating: [], count: ranks.count)
        for segment in segments {
            byRank[rankOf[segment.upper]].append((position[segment.upper], position[segment.lower]))
        }
        var total = 0
        for rank in byRank.indices where byRank[rank].count > 1 {
            let pairs = byRank[rank].sorted { $0.upper != $1.upper ? $0.upper < $1.upper : $0.lower < $1.lower }
            let size = (rank + 1 < ranks.count ? ranks[rank + 1].count : 0) + 1
            var tree = [Int](repeating: 0, count: size + 1)
            var seen = 0
            for pair in pairs {
                // Earlier segments ending strictly right of this one cross it.
                var index = pair.lower + 1
                var atMost = 0
                while index > 0 {
                    atMost += tree[index]
                    index -= index & -index
                }
                total += seen - atMost
                index = pair.lower + 1
                while index <= size {
                    tree[index] += 1
                    index += index & -index
                }
                seen += 1
            }
        }
        return total
    }
}
