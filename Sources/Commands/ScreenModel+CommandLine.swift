import ScreenStates
import StateMachineKit

/// The command line's view of a model: what a `statetui replay` line is, the machine it feeds, and the
/// formats `statetui graph` prints.
extension ScreenModel {
    /// What one input line is for this model: `transfer event`, `upload event`, `load action`.
    package var inputName: String {
        switch self {
        case .transfer: TransferEvent.canonicalTypeName
        case .upload: UploadEvent.canonicalTypeName
        case .load: LoadAction.canonicalTypeName
        }
    }

    /// The canonical forms an input line may take.
    package var inputForms: [String] {
        switch self {
        case .transfer: TransferEvent.canonicalForms
        case .upload: UploadEvent.canonicalForms
        case .load: LoadAction.canonicalForms
        }
    }

    /// A fresh machine for this model behind a line-at-a-time interface.
    package func makeReplayer() -> Replayer {
        switch self {
        case .transfer:
            let machine = TransferMachine(label: "replay.transfer")
            return Replayer { text throws(CanonicalTextError) in
                let outcome = machine.apply(try TransferEvent(parsing: text))
                return Replayer.Step(verdict: outcome.verdict, state: machine.state.description)
            }
        case .upload:
            let machine = UploadMachine(label: "replay.upload")
            return Replayer { text throws(CanonicalTextError) in
                let outcome = machine.apply(try UploadEvent(parsing: text))
                return Replayer.Step(verdict: outcome.verdict, state: machine.state.description)
            }
        case .load:
            let machine = LoadMachine(label: "replay.load")
            return Replayer { text throws(CanonicalTextError) in
                let outcome = machine.apply(try LoadAction(parsing: text))
                return Replayer.Step(verdict: outcome.verdict, state: machine.state.description)
            }
        }
    }

    /// The sample events the graph explores, in canonical text.
    package var sampleInputs: [String] {
        switch self {
        case .transfer: TransferModel.sampleEvents.map(\.description)
        case .upload: UploadState.sampleEvents.map(\.description)
        case .load: LoadState.sampleActions.map(\.description)
        }
    }

    /// The explored graph of this model with its sample events, rendered in `format`. The text diagram is
    /// collapsed by case unless `full`, drawn in `charset`; the other formats always show the full graph.
    package func graph(_ format: GraphFormat, full: Bool = false, charset: DiagramCharset = .unicode) -> String {
        switch format {
        case .text: textDiagram(full: full, charset: charset)
        case .mermaid, .dot, .table:
            switch self {
            case .transfer: Self.render(TransferModel.exploreSamples(), format)
            case .upload: Self.render(UploadState.exploreSamples(), format)
            case .load: Self.render(LoadState.exploreSamples(), format)
            }
        }
    }

    private static func render<State, Event>(_ graph: StateGraph<State, Event>, _ format: GraphFormat) -> String {
        switch format {
        case .mermaid: graph.mermaid
        case .dot: graph.dot
        case .table: graph.transitionTable
        case .text: DiagramLayout(graph.fullDiagram).text
        }
    }

    /// The diagram drawn as text: collapsed by case unless `full`, in `charset`.
    package func textDiagram(full: Bool = false, charset: DiagramCharset = .unicode) -> String {
        DiagramLayout(diagram.graph(full: full), charset: charset).text
    }
}
