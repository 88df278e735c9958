// The second half of the layered layout: sizes and ports of the elements, their columns, the tracks of the
// horizontal jogs between ranks, and the rows of ranks and channels.

import StateMachineKit

/// Where everything of a ranked diagram goes on the grid.
struct DiagramPlacement {
    /// Each node's box width and height.
    var boxWidth: [Int] = []
    var boxHeight: [Int] = []
    /// Each element's width and height (a box's width includes its self-loops and their labels).
    var width: [Int] = []
    var height: [Int] = []
    /// The column of each element's left edge.
    var x: [Int] = []
    /// Per segment, the column offset of its end in the upper and in the lower element.
    var upperOffset: [Int] = []
    var lowerOffset: [Int] = []
    /// The first row and the number of rows of each rank.
    var rankTop: [Int] = []
    var rankHeight: [Int] = []
    /// Per segment, the row of its horizontal jog, or nil for a straight one.
    var trackRow: [Int?] = []
    /// Per node, the row each of its self-loops leaves the box at (in the order of ``DiagramEngine/loops``).
    var loopRows: [[Int]] = []
    /// The grid's size.
    var gridWidth = 0
    var gridHeight = 0

    /// Columns between neighbouring elements of a rank: one between two lines passing through, so they can
    /// line up with ports two columns apart, two next to a box or a label.
    static func gap(_ left: DiagramEngine.Element, _ right: DiagramEngine.Element) -> Int {
        switch (left, right) {
        case (.dummy, .dummy): 1
        case (.box, _), (.label, _), (.dummy, _): 2
        }
    }
}

extension DiagramEngine {
    /// Places the ranked diagram on the grid.
    func place() -> DiagramPlacement {
        var placement = DiagramPlacement()
        measure(&placement)
        assignPorts(&placement)
        assignColumns(&placement)
        alignPorts(&placement)
        assignRows(&placement)
        return placement
    }

    /// Box and element sizes. A box fits its text with a space each side, and its ports two columns apart;
    /// its self-loops take two rows each (more for a long label) on its right side, the last one coming back
    /// in beside the bottom corner.
    private func measure(_ placement: inout DiagramPlacement) {
        placement.boxWidth = [Int](repeating: 0, count: graph.nodes.count)
        placement.boxHeight = [Int](repeating: 0, count: graph.nodes.count)
        placement.loopRows = [[Int]](repeating: [], count: graph.nodes.count)
        placement.width = [Int](repeating: 1, count: elements.count)
        placement.height = [Int](repeating: 0, count: elements.count)
        for (element, kind) in elements.enumerated() {
            switch kind {
            case .box(let node):
                let textWidth = nodeLines[node].map(\.count).max() ?? 0
                let ports = max(upward[element].count, downward[element].count)
                let boxWidth = max(textWidth + 4, 2 * ports + 1)
                var loopRow = 1
                var loopLabelWidth = 0
                for edge in loops[node] {
                    let lines = loopLines[edge] ?? []
                    placement.loopRows[node].append(loopRow)
                    loopRow += max(2, lines.count)
                    loopLabelWidth = max(loopLabelWidth, lines.map(\.count).max() ?? 0)
                }
                // The last loop may come back in beside the bottom border, so loops need one row less than
                // their sum inside the box.
                let boxHeight = max(nodeLines[node].count + 2, loopRow)
                placement.boxWidth[node] = boxWidth
                placement.boxHeight[node] = boxHeight
                let loopWidth = loops[node].isEmpty ? 0 : 2 + (loopLabelWidth > 0 ? 1 + loopLabelWidth : 0)
                placement.width[element] = boxWidth + loopWidth
                placement.height[element] = boxHeight
            case .label(let bundle):
                let textWidth = bundleLines[bundle].map { $0.reduce(0) { $0 + $1.text.count } }.max() ?? 0
                placement.width[element] = textWidth > 0 ? 2 + textWidth : 1
                placement.height[element] = bundleLines[bundle].count
            case .dummy:
                break
            }
        }
    }

    /// Ports on box borders, in the order of the elements they lead to so that they do not cross, centred
    /// and two columns apart. Labels and dummies carry their edge in their first column.
    private func assignPorts(_ placement: inout DiagramPlacement) {
        placement.upperOffset = [Int](repeating: 0, count: segments.count)
        placement.lowerOffset = [Int](repeating: 0, count: segments.count)
        let position = positions()
        for (element, kind) in elements.enumerated() {
            guard case .box(let node) = kind else { continue }
            let width = placement.boxWidth[node]
            let below = downward[element].sorted { position[segments[$0].lower] < position[segments[$1].lower] }
            for (index, offset) in Self.portOffsets(count: below.count, boxWidth: width).enumerated() {
                placement.upperOffset[below[index]] = offset
            }
            let above = upward[element].sorted { position[segments[$0].upper] < position[segments[$1].upper] }
            for (index, offset) in Self.portOffsets(count: above.count, boxWidth: width).enumerated() {
                placement.lowerOffset[above[index]] = offset
            }
        }
    }

    /// `count` port columns inside a box `boxWidth` wide, two apart and centred.
    static func portOffsets(count: Int, boxWidth: Int) -> [Int] {
        guard count > 0 else { return [] }
        let start = 1 + (boxWidth - 2 - (2 * count - 1)) / 2
        return (0..<count).map { start + 2 * $0 }
    }

    /// The column of a segment's end in `element` (its upper or lower end).
    private func offset(_ placement: DiagramPlacement, segment: Int, in element: Int) -> Int {
        segments[segment].upper == element ? placement.upperOffset[segment] : placement.lowerOffset[segment]
    }

    // MARK: Columns

    /// Columns by repeated sweeps: each rank in turn moves towards its neighbours' ports, as close as the
    /// order and the gaps allow (weighted isotonic regression), dummies weighing most so long edges run
    /// straight; then everything shifts so the leftmost column is 0.
    private func assignColumns(_ placement: inout DiagramPlacement) {
        placement.x = [Int](repeating: 0, count: elements.count)
        for rank in ranks {
            var cursor = 0
            for (index, element) in rank.enumerated() {
                placement.x[element] = cursor
                cursor += placement.width[element] + gap(after: index, in: rank)
            }
        }
        guard ranks.count > 1 else { return normalizeColumns(&placement) }
        for _ in 0..<4 {
            for rank in ranks.indices.dropFirst() { placeRank(rank, above: true, below: false, &placement) }
            for rank in ranks.indices.dropLast().reversed() { placeRank(rank, above: false, below: true, &placement) }
        }
        for rank in ranks.indices { placeRank(rank, above: true, below: true, &placement) }
        normalizeColumns(&placement)
    }

    /// The columns between the element at `index` of `rank` and the next one.
    private func gap(after index: Int, in rank: [Int]) -> Int {
        index + 1 < rank.count ? DiagramPlacement.gap(elements[rank[index]], elements[rank[index + 1]]) : 0
    }

    private func normalizeColumns(_ placement: inout DiagramPlacement) {
        let left = placement.x.min() ?? 0
        for index in placement.x.indices { placement.x[index] -= left }
        placement.gridWidth = elements.indices.map { placement.x[$0] + placement.width[$0] }.max() ?? 0
    }

    /// Moves one rank's elements towards the ports of their neighbours above and/or below.
    private func placeRank(_ rank: Int, above: Bool, below: Bool, _ placement: inout DiagramPlacement) {
        let members = ranks[rank]
        guard !members.isEmpty else { return }
        var blocks: [(first: Int, weight: Double, sum: Double)] = []
        var packed = [Int](repeating: 0, count: members.count)
        var cursor = 0
        for (index, element) in members.enumerated() {
            packed[index] = cursor
            cursor += placement.width[element] + gap(after: index, in: members)
            var targets: [Int] = []
            let links = (above ? upward[element] : []) + (below ? downward[element] : [])
            for segment in links {
                let other = segments[segment].upper == element ? segments[segment].lower : segments[segment].upper
                let target = placement.x[other] + offset(placement, segment: segment, in: other)
                targets.append(target - offset(placement, segment: segment, in: element))
            }
            let count = targets.count
            let desired = Double(Self.median(targets, near: placement.x[element]))
            let weight: Double
            switch elements[element] {
            case .box: weight = count > 0 ? 1 : 0.01
            case .label: weight = count > 0 ? 4 : 0.01
            case .dummy: weight = count > 0 ? 8 : 0.01
            }
            blocks.append((index, weight, weight * (desired - Double(packed[index]))))
            while blocks.count > 1,
                blocks[blocks.count - 2].sum / blocks[blocks.count - 2].weight
                    > blocks[blocks.count - 1].sum / blocks[blocks.count - 1].weight
            {
                let last = blocks.removeLast()
                blocks[blocks.count - 1].weight += last.weight
                blocks[blocks.count - 1].sum += last.sum
            }
        }
        var previousEnd = Int.min
        for (blockIndex, block) in blocks.enumerated() {
            let end = blockIndex + 1 < blocks.count ? blocks[blockIndex + 1].first : members.count
            let shift = block.sum / block.weight
            for index in block.first..<end {
                let element = members[index]
                var column = Int((shift + Double(packed[index])).rounded())
                if index > 0 { column = max(column, previousEnd + gap(after: index - 1, in: members)) }
                placement.x[element] = column
                previousEnd = column + placement.width[element]
            }
        }
    }

    /// The median of `values`; of the two middle ones, the one nearer `current` (so a chain element between
    /// two ports lines up with one of them instead of jogging on both sides). `current` when empty.
    static func median(_ values: [Int], near current: Int) -> Int {
        guard !values.isEmpty else { return current }
        let sorted = values.sorted()
        let upper = sorted[sorted.count / 2]
        guard sorted.count % 2 == 0 else { return upper }
        let lower = sorted[sorted.count / 2 - 1]
        return abs(lower - current) <= abs(upper - current) ? lower : upper
    }

    /// Slides each box's ports along its border towards the columns their lines come from, keeping their
    /// order and two columns between them, so a line that reaches the box's span drops straight in.
    private func alignPorts(_ placement: inout DiagramPlacement) {
        for (element, kind) in elements.enumerated() {
            guard case .box(let node) = kind else { continue }
            let width = placement.boxWidth[node]
            let left = placement.x[element]
            for side in [downward[element], upward[element]] where !side.isEmpty {
                let isBottom = segments[side[0]].upper == element
                let ordered = side.sorted { a, b in
                    let ports = isBottom ? placement.upperOffset : placement.lowerOffset
                    return ports[a] < ports[b]
                }
                let wanted = ordered.map { segment -> Int in
                    let other = isBottom ? segments[segment].lower : segments[segment].upper
                    let column =
                        placement.x[other]
                        + (isBottom ? placement.lowerOffset[segment] : placement.upperOffset[segment])
                    return min(max(column - left, 1), width - 2)
                }
                var offsets = wanted
                for index in offsets.indices.dropFirst() {
                    offsets[index] = max(offsets[index], offsets[index - 1] + 2)
                }
                for index in offsets.indices.reversed() {
                    let last = width - 2 - 2 * (offsets.count - 1 - index)
                    offsets[index] = min(offsets[index], index + 1 < offsets.count ? offsets[index + 1] - 2 : last)
                }
                for (index, segment) in ordered.enumerated() {
                    if isBottom {
                        placement.upperOffset[segment] = offsets[index]
                    } else {
                        placement.lowerOffset[segment] = offsets[index]
                    }
                }
            }
        }
    }

    // MARK: Rows

    /// Rank heights, then each channel's jog tracks, then the first row of every rank.
    private func assignRows(_ placement: inout DiagramPlacement) {
        placement.rankHeight = ranks.map { rank in
            let tallest = rank.map { placement.height[$0] }.max() ?? 0
            return max(1, tallest)
        }
        placement.trackRow = [Int?](repeating: nil, count: segments.count)
        var channelRows = [Int](repeating: 0, count: ranks.count)
        var channelTracks = [[(segment: Int, track: Int)]](repeating: [], count: ranks.count)
        var padTop = [Int](repeating: 0, count: ranks.count)
        var bySourceRank = [[Int]](repeating: [], count: ranks.count)
        for (index, segment) in segments.enumerated() { bySourceRank[rankOf[segment.upper]].append(index) }
        for rank in ranks.indices.dropLast() {
            let routed = routeChannel(bySourceRank[rank], rank: rank, placement)
            channelRows[rank] = routed.rows
            channelTracks[rank] = routed.tracks
            padTop[rank] = routed.padTop
        }
        placement.rankTop = [Int](repeating: 0, count: ranks.count)
        var row = 0
        for rank in ranks.indices {
            placement.rankTop[rank] = row
            for (segment, track) in channelTracks[rank] {
                placement.trackRow[segment] = row + placement.rankHeight[rank] + padTop[rank] + track
            }
            row += placement.rankHeight[rank] + channelRows[rank]
        }
        placement.gridHeight = row
    }

    /// The jog tracks of one channel. A segment's top column inside another's jog means it must jog higher,
    /// its bottom column inside another's means lower; segments whose jogs overlap never share a track, and
    /// where the wishes contradict each other the one forced by a shared column wins (a crossing, never an
    /// overlap). Arrowheads next to a box keep a row clear of jogs.
    private func routeChannel(_ members: [Int], rank: Int, _ placement: DiagramPlacement)
        -> (rows: Int, tracks: [(segment: Int, track: Int)], padTop: Int)
    {
        var jogs: [(segment: Int, top: Int, bottom: Int, low: Int, high: Int)] = []
        var arrowUp = false
        var arrowDown = false
        var minimumRows = 0
        for segment in members {
            let top = placement.x[segments[segment].upper] + placement.upperOffset[segment]
            let bottom = placement.x[segments[segment].lower] + placement.lowerOffset[segment]
            let chain = chains[segments[segment].bundle]
            if chain.arrowAtUpper, case .box(let node) = elements[segments[segment].upper],
                placement.boxHeight[node] == placement.rankHeight[rank]
            {
                arrowUp = true
            }
            if chain.arrowAtLower, case .box = elements[segments[segment].lower] { arrowDown = true }
            // Both ways, the two arrowheads need rows of their own beside the label's.
            let touchesBox: Bool
            switch (elements[segments[segment].upper], elements[segments[segment].lower]) {
            case (.box, _), (_, .box): touchesBox = true
            case (.label, _), (.dummy, _): touchesBox = false
            }
            if touchesBox && chain.arrowAtUpper && chain.arrowAtLower { minimumRows = 1 }
            if top != bottom { jogs.append((segment, top, bottom, min(top, bottom), max(top, bottom))) }
        }
        guard !jogs.isEmpty else { return (minimumRows, [], 0) }
        let count = jogs.count
        // before[a] holds b when a should jog above b; hard when a shared column demands it.
        var before = [[Int]](repeating: [], count: count)
        var hardBefore = [[Bool]](repeating: [], count: count)
        for a in 0..<count {
            for b in (a + 1)..<count where jogs[a].low <= jogs[b].high && jogs[b].low <= jogs[a].high {
                let first = jogs[a]
                let second = jogs[b]
                let aAbove =
                    (second.low...second.high).contains(first.top) || (first.low...first.high).contains(second.bottom)
                let aBelow =
                    (second.low...second.high).contains(first.bottom) || (first.low...first.high).contains(second.top)
                let hardAbove = first.top == second.bottom
                let hardBelow = first.bottom == second.top
                if hardAbove || (aAbove && !aBelow) || (!aBelow && !hardBelow) {
                    before[a].append(b)
                    hardBefore[a].append(hardAbove)
                } else {
                    before[b].append(a)
                    hardBefore[b].append(hardBelow)
                }
            }
        }
        let order = Self.orderRespecting(before: before, hard: hardBefore)
        var track = [Int](repeating: 0, count: count)
        var placed: [Int] = []
        for index in order {
            var lowest = 0
            for other in placed where jogs[other].low <= jogs[index].high && jogs[index].low <= jogs[other].high {
                lowest = max(lowest, track[other] + 1)
            }
            track[index] = lowest
            placed.append(index)
        }
        let tracks = (track.max() ?? -1) + 1
        let padTop = arrowUp ? 1 : 0
        let padBottom = arrowDown ? 1 : 0
        return (tracks + padTop + padBottom, (0..<count).map { (jogs[$0].segment, track[$0]) }, padTop)
    }

    /// A topological order of `before` (an edge a → b: a first). On a cycle, the waiting item with the fewest
    /// unmet hard wishes, then the fewest unmet wishes, goes next.
    static func orderRespecting(before: [[Int]], hard: [[Bool]]) -> [Int] {
        let count = before.count
        var waiting = [Int](repeating: 0, count: count)
        var waitingHard = [Int](repeating: 0, count: count)
        for a in 0..<count {
            for (index, b) in before[a].enumerated() {
                waiting[b] += 1
                if hard[a][index] { waitingHard[b] += 1 }
            }
        }
        var done = [Bool](repeating: false, count: count)
        var order: [Int] = []
        while order.count < count {
            var next = -1
            for index in 0..<count where !done[index] {
                if next < 0 || (waitingHard[index], waiting[index]) < (waitingHard[next], waiting[next]) {
                    next = index
                }
                if waiting[index] == 0 { break }
            }
            done[next] = true
            order.append(next)
            for (index, b) in before[next].enumerated() where !done[b] {
                waiting[b] -= 1
                if hard[next][index] { waitingHard[b] -= 1 }
            }
        }
        return order
    }
}
