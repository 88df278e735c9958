import SeedModels
import StateMachineDiagrams
import StateMachineKit

/// What the Graph screen shows of one model, explored with the same sample events as `statetui graph`:
/// the transition table, the counts, the invalid pairs with their reasons and the dead ends, as text.
package struct GraphReport: Hashable, Sendable {
    /// The model explored.
    package var model: ScreenModel
    /// Reachable states.
    package var stateCount: Int
    /// Edges (`.to` and `.update` transitions).
    package var edgeCount: Int
    /// The transition table's lines (states × events: next state, `·` ignored, `=` stay, `!` invalid).
    package var table: [String]
    /// `state + event: reason` for every invalid pair.
    var invalidPairs: [String]
    /// Reachable states no edge leaves.
    package var deadEnds: [String]
    /// The Mermaid diagram `m` writes.
    package var mermaid: String
    /// The diagrams drawn on the screen, whole and collapsed by case.
    package var diagram: ModelDiagram

    /// Explores `model` with its sample events (the same sample events `statetui graph` explores).
    package init(_ model: ScreenModel) {
        switch model {
        case .transfer: self.init(model: model, graph: TransferModel.exploreSamples(), caseName: \.diagramCase)
        case .upload: self.init(model: model, graph: UploadState.exploreSamples(), caseName: \.diagramCase)
        case .load: self.init(model: model, graph: LoadState.exploreSamples(), caseName: \.diagramCase)
        }
    }

    private init<State, Event>(model: ScreenModel, graph: StateGraph<State, Event>, caseName: (State) -> String) {
        self.model = model
        diagram = ModelDiagram(graph, caseName: caseName)
        stateCount = graph.states.count
        edgeCount = graph.edgeCount
        table = graph.transitionTable.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if table.last == "" { table.removeLast() }
        invalidPairs = graph.invalid.map { "\($0.state) + \($0.event): \($0.reason)" }
        deadEnds = graph.deadEnds.map { String(describing: $0) }
        mermaid = graph.mermaid
    }

    /// The file `m` writes in the current directory: `statetui-transfer.mmd`.
    var mermaidFileName: String { "statetui-\(model.rawValue).mmd" }

    /// Everything below the header, one line each: table, invalid pairs, dead ends.
    package var bodyLines: [String] {
        var lines = table
        lines += ["", "Invalid pairs (\(invalidPairs.count)):"]
        lines += invalidPairs.isEmpty ? ["  none"] : invalidPairs.map { "  " + $0 }
        lines += ["", "Dead ends (\(deadEnds.count)):"]
        lines += deadEnds.isEmpty ? ["  none"] : deadEnds.map { "  " + $0 }
        return lines
    }
}

extension GraphReport {
    /// The report of `model`, explored once per process, the first time a Graph screen reads it. Explored and
    /// laid out in the dashboard's initial state, it cost as much as building and drawing the first frame,
    /// which shows Transfers. A report depends on its model alone, so every Graph screen shares it.
    package static func explored(_ model: ScreenModel) -> GraphReport {
        switch model {
        case .transfer: transfer
        case .upload: upload
        case .load: load
        }
    }

    /// The diagram of `model`'s report, full or collapsed by case, laid out once per process when first read.
    static func layout(of model: ScreenModel, full: Bool) -> DiagramLayout {
        switch (model, full) {
        case (.transfer, false): transferCollapsed
        case (.transfer, true): transferFull
        case (.upload, false): uploadCollapsed
        case (.upload, true): uploadFull
        case (.load, false): loadCollapsed
        case (.load, true): loadFull
        }
    }

    // Global constants are initialised on first use, once, whichever thread reads them first.
    private static let transfer = GraphReport(.transfer)
    private static let upload = GraphReport(.upload)
    private static let load = GraphReport(.load)
    private static let transferCollapsed = DiagramLayout(transfer.diagram.collapsed)
    private static let transferFull = DiagramLayout(transfer.diagram.full)
    private static let uploadCollapsed = DiagramLayout(upload.diagram.collapsed)
    private static let uploadFull = DiagramLayout(upload.diagram.full)
    private static let loadCollapsed = DiagramLayout(load.diagram.collapsed)
    private static let loadFull = DiagramLayout(load.diagram.full)
}
