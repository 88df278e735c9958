import StateMachineDiagrams
import StateMachineKit

/// A model's state diagram as ``DiagramGraph``s: the explored graph whole (one box per sampled state) and
/// collapsed by case (`running(request: 1, percent: 20)` → `running`, edges labelled by event case), and which
/// case box each full box belongs to, so a screen can light a live state in either.
public struct ModelDiagram: Hashable, Sendable {
    /// One box per explored state, labelled with its canonical text.
    public var full: DiagramGraph
    /// One box per case, one arrow per pair of cases an event moves between.
    public var collapsed: DiagramGraph
    /// For each node of ``full``, the node of ``collapsed`` it collapses into.
    public var caseOfNode: [Int]

    /// The diagrams of `graph`, with `caseName` naming the case a state is in.
    public init<State, Event>(_ graph: StateGraph<State, Event>, caseName: (State) -> String) {
        let full = graph.fullDiagram
        let collapsed = graph.diagram(
            groupingStatesBy: caseName, labellingEventsBy: { DiagramGraph.caseName(of: String(describing: $0)) })
        var caseOfNode = [Int](repeating: 0, count: full.nodes.count)
        for state in graph.states {
            if let node = full.node(named: String(describing: state)),
                let group = collapsed.node(named: caseName(state))
            {
                caseOfNode[node] = group
            }
        }
        self.full = full
        self.collapsed = collapsed
        self.caseOfNode = caseOfNode
    }

    /// The full or the collapsed graph.
    public func graph(full wantsFull: Bool) -> DiagramGraph {
        wantsFull ? full : collapsed
    }
}

extension TransferModel {
    /// The box of ``ModelDiagram/full`` this state is drawn as: its canonical text with request ids folded
    /// as the explored graph folds them (``folded(beyond:)``).
    public var diagramName: String { folded(beyond: 1).description }
    /// The box of ``ModelDiagram/collapsed`` this state is drawn as: its phase's case.
    public var diagramCase: String { DiagramGraph.caseName(of: phase.description) }
}

extension UploadState {
    /// The box of ``ModelDiagram/full`` this state is drawn as: its canonical text.
    public var diagramName: String { description }
    /// The box of ``ModelDiagram/collapsed`` this state is drawn as: its case.
    public var diagramCase: String { DiagramGraph.caseName(of: description) }
}

extension LoadState {
    /// The box of ``ModelDiagram/full`` this state is drawn as: its canonical text.
    public var diagramName: String { description }
    /// The box of ``ModelDiagram/collapsed`` this state is drawn as: its case.
    public var diagramCase: String { DiagramGraph.caseName(of: description) }
}

extension ScreenModel {
    /// This model's diagrams, explored with its sample events (the same graph `statetui graph` prints).
    public var diagram: ModelDiagram {
        switch self {
        case .transfer: ModelDiagram(TransferModel.exploreSamples(), caseName: \.diagramCase)
        case .upload: ModelDiagram(UploadState.exploreSamples(), caseName: \.diagramCase)
        case .load: ModelDiagram(LoadState.exploreSamples(), caseName: \.diagramCase)
        }
    }
}
