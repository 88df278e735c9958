// A StateGraph as a DiagramGraph: whole (one box per state) or collapsed by a grouping function (one box per
// group, e.g. per case), then laid out as text by DiagramLayout.

import StateMachineKit

extension StateGraph {
    /// The graph as boxes and arrows, with states that share a group drawn as one box.
    ///
    /// `group` names each state's box: states with the same name become one node (in the order their first
    /// member was discovered, so the initial state's group is node 0 and the initial node). Edges between the
    /// same two boxes are merged into one arrow whose label lists each distinct `label(event)` once, in edge
    /// order, joined by `, `. Pass the canonical text for the full graph, a case name for the collapsed one.
    public func diagram(
        groupingStatesBy group: (State) -> String, labellingEventsBy label: (Event) -> String
    ) -> DiagramGraph {
        var names: [String] = []
        var nodeOfName: [String: Int] = [:]
        var nodeOfState: [Int] = []
        nodeOfState.reserveCapacity(states.count)
        for state in states {
            let name = group(state)
            if let node = nodeOfName[name] {
                nodeOfState.append(node)
            } else {
                nodeOfName[name] = names.count
                nodeOfState.append(names.count)
                names.append(name)
            }
        }
        let eventLabels = events.map(label)
        var edgeOfPair: [Int: Int] = [:]
        var labels: [[String]] = []
        var pairs: [(from: Int, to: Int)] = []
        forEachEdge { from, event, to, _ in
            let pair = (from: nodeOfState[from], to: nodeOfState[to])
            let key = pair.from &* names.count &+ pair.to
            let text = eventLabels[event]
            if let existing = edgeOfPair[key] {
                if !labels[existing].contains(text) { labels[existing].append(text) }
            } else {
                edgeOfPair[key] = pairs.count
                pairs.append(pair)
                labels.append([text])
            }
        }
        let edges = pairs.indices.map { index in
            DiagramGraph.Edge(
                from: pairs[index].from, to: pairs[index].to,
                label: labels[index].filter { !$0.isEmpty }.joined(separator: ", "))
        }
        return DiagramGraph(nodes: names, edges: edges, initial: 0)
    }

    /// Every state a box of its canonical text, every event an arrow (parallel arrows merged).
    public var fullDiagram: DiagramGraph {
        diagram(groupingStatesBy: { String(describing: $0) }, labellingEventsBy: { String(describing: $0) })
    }

    /// States and events collapsed by case: each box is the canonical text up to its first `(`
    /// (``DiagramGraph/caseName(of:)``), each arrow lists the event cases that move between two boxes.
    ///
    /// For a state whose canonical text does not start with its case (a struct wrapping an enum), group with
    /// ``diagram(groupingStatesBy:labellingEventsBy:)`` and a function that names the case.
    public var caseDiagram: DiagramGraph {
        diagram(
            groupingStatesBy: { DiagramGraph.caseName(of: String(describing: $0)) },
            labellingEventsBy: { DiagramGraph.caseName(of: String(describing: $0)) })
    }

    /// The full graph (``fullDiagram``) laid out as text, for a test failure message or a terminal.
    public func textDiagram(charset: DiagramCharset = .unicode) -> String {
        DiagramLayout(fullDiagram, charset: charset).text
    }
}
