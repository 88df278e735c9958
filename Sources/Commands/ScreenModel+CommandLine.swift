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
            return Self.replayer(
                of: TransferEvent.self, apply: { machine.engine.send($0).verdict }, state: { machine.state })
        case .upload:
            let machine = UploadMachine(label: "replay.upload")
            return Self.replayer(
                of: UploadEvent.self, apply: { machine.engine.send($0).verdict }, state: { machine.state })
        case .load:
            let machine = LoadMachine(label: "replay.load")
            return Self.replayer(
                of: LoadAction.self, apply: { machine.engine.send($0).verdict }, state: { machine.state })
        }
    }

    /// The most distinct lines whose events a replayer keeps parsed.
    static let parsedLineLimit = 256

    /// A replayer that applies each line's event through `apply` (the engine's own `send`: a replay has no
    /// record readers to wake) and reads the state after it with `state`.
    /// It keeps the events of the last distinct lines it parsed (at most ``parsedLineLimit``) and the text of
    /// the last state it printed: a stream of a few repeated events (`yes start`) is parsed and printed once
    /// per distinct line and state, not once per line.
    private static func replayer<Event: CanonicalText, State: CanonicalText & Equatable>(
        of _: Event.Type, apply: @escaping (Event) -> Verdict?, state: @escaping () -> State
    ) -> Replayer {
        var parsed: [String: Event] = [:]
        var shown: (state: State, text: String)?
        return Replayer { text throws(CanonicalTextError) in
            let event: Event
            if let known = parsed[text] {
                event = known
            } else {
                event = try Event(parsing: text)
                if parsed.count >= parsedLineLimit { parsed.removeAll(keepingCapacity: true) }
                parsed[text] = event
            }
            let verdict = apply(event)
            // Only `to` and `update` change the state: after any other verdict the state printed last stands.
            if let shown, verdict != .to, verdict != .update, verdict != nil {
                return Replayer.Step(verdict: verdict, state: shown.text)
            }
            let after = state()
            if let shown, shown.state == after { return Replayer.Step(verdict: verdict, state: shown.text) }
            let printed = after.description
            shown = (after, printed)
            return Replayer.Step(verdict: verdict, state: printed)
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
