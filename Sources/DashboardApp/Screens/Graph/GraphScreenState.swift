import SeedModels
import StateMachineDiagrams
import StateMachineKit

/// What the Graph screen shows: the selected model's report and diagram, collapsed or full, diagram or
/// table, how far it is panned, the live machines' trails, and what became of the last Mermaid export.
package struct GraphScreenState: Hashable, Sendable {
    /// The outcome of writing a Mermaid file.
    package enum Export: Hashable, Sendable {
        /// Written to this path.
        case written(path: String)
        /// Could not be written to this path, for this reason.
        case failed(path: String, reason: String)
    }

    /// What the body shows.
    package enum Presentation: Hashable, Sendable {
        /// Boxes and arrows (``StateMachineKit/DiagramLayout``).
        case diagram
        /// The transition table, invalid pairs and dead ends.
        case table
    }

    /// The models the screen cycles through, in tab order: every model in the demo dashboard, the transfer
    /// alone in `statetui copy`'s (its copies are transfers; the simulated upload and load are not there).
    package let models: [ScreenModel]
    /// The selected model.
    package private(set) var model: ScreenModel
    /// Whether the diagram shows every explored state rather than one box per case.
    private(set) var showsFullGraph: Bool
    /// Diagram or table.
    package var presentation: Presentation
    /// The first row shown (of the diagram or the table's body).
    package var offset: Int
    /// The first column shown.
    package var column: Int
    /// What became of the last export, until it has been shown long enough.
    package var export: StatusLine<Export>
    /// The selected transfer's states, newest and previous.
    package var transferTrail: LiveTrail<TransferModel>
    /// The upload's states.
    package var uploadTrail: LiveTrail<UploadState>
    /// The load's states.
    var loadTrail: LiveTrail<LoadState>

    /// The screen on `model`, one of `models`, at the top left, collapsed by case unless `full`.
    package init(
        model: ScreenModel = .transfer, models: [ScreenModel] = ScreenModel.allCases, offset: Int = 0, column: Int = 0,
        export: Export? = nil, full: Bool = false, presentation: Presentation = .diagram
    ) {
        precondition(models.contains(model), "the Graph screen shows \(model), which is not among \(models)")
        self.models = models
        self.model = model
        showsFullGraph = full
        self.presentation = presentation
        self.offset = offset
        self.column = column
        self.export = StatusLine(export)
        transferTrail = LiveTrail()
        uploadTrail = LiveTrail()
        loadTrail = LiveTrail()
    }

    /// The explored model: explored the first time any Graph screen reads it (``GraphReport/explored(_:)``),
    /// not when the dashboard starts on another screen.
    package var report: GraphReport { GraphReport.explored(model) }

    /// The diagram drawn, laid out the first time it is read and kept, so a frame never lays out.
    package var layout: DiagramLayout { GraphReport.layout(of: model, full: showsFullGraph) }

    /// Shows `model` (collapsed or full as now), back at the top left; the trails and export stay.
    package mutating func select(_ model: ScreenModel) {
        self.model = model
        offset = 0
        column = 0
    }

    /// Switches between the full and the collapsed diagram, back at the top left.
    package mutating func toggleFullGraph() {
        showsFullGraph.toggle()
        offset = 0
        column = 0
    }

    /// Where the selected model's live machine is, and where it was just before: (previous, current).
    package var liveMarks: (previous: LiveMark?, current: LiveMark?) {
        switch model {
        case .transfer:
            let mark = { (state: TransferModel) in
                LiveMark(name: state.diagramName, caseName: state.diagramCase, text: state.phase.description)
            }
            return (transferTrail.previous.map(mark), transferTrail.current.map(mark))
        case .upload:
            let mark = { (state: UploadState) in
                LiveMark(name: state.diagramName, caseName: state.diagramCase, text: state.description)
            }
            return (uploadTrail.previous.map(mark), uploadTrail.current.map(mark))
        case .load:
            let mark = { (state: LoadState) in
                LiveMark(name: state.diagramName, caseName: state.diagramCase, text: state.description)
            }
            return (loadTrail.previous.map(mark), loadTrail.current.map(mark))
        }
    }

    /// The boxes to light for `mark`: its own box, or (in the full graph, for a state the samples never
    /// reached) every box of its case.
    package func nodes(for mark: LiveMark) -> [Int] {
        let diagram = report.diagram
        guard showsFullGraph else { return diagram.collapsed.node(named: mark.caseName).map { [$0] } ?? [] }
        if let node = diagram.full.node(named: mark.name) { return [node] }
        guard let group = diagram.collapsed.node(named: mark.caseName) else { return [] }
        return diagram.caseOfNode.indices.filter { diagram.caseOfNode[$0] == group }
    }

    /// The edges of the last transition: from the previous state's box to the current one's.
    package var lastTransitionEdges: [Int] {
        let marks = liveMarks
        guard let previous = marks.previous, let current = marks.current else { return [] }
        let graph = report.diagram.graph(full: showsFullGraph)
        var edges: [Int] = []
        for from in nodes(for: previous) {
            for to in nodes(for: current) { edges += graph.edges(from: from, to: to) }
        }
        return edges
    }
}
