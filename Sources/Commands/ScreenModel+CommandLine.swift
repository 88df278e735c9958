import SeedModels
import StateMachineDiagrams
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
    /// record readers to wake) and reads the state after it with `state` (see ``ReplayMemory``).
    private static func replayer<Event: CanonicalText, State: CanonicalText & Equatable>(
        of _: Event.Type, apply: @escaping (Event) -> Verdict?, state: @escaping () -> State
    ) -> Replayer {
        var memory = ReplayMemory<Event, State>()
        // One access to what the replayer remembers per line, not one per field.
        return Replayer { text throws(CanonicalTextError) in try memory.step(text, apply: apply, state: state) }
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

/// What a replayer remembers between lines: the events of the last distinct lines it parsed (at most
/// ``ScreenModel/parsedLineLimit``), the last line with its event, and the text of the last state it printed.
/// A stream of a few repeated events (`yes start`) is parsed and printed once per distinct line and state, not
/// once per line.
private struct ReplayMemory<Event: CanonicalText, State: CanonicalText & Equatable> {
    private var parsed: [String: Event] = [:]
    /// The last line and its event: a line like the one before is not even hashed.
    private var last: (text: String, event: Event)?
    private var shown: (state: State, text: String)?

    /// Parses `text` as an event (or recalls it), applies it with `apply` and reads the state after it with
    /// `state`.
    mutating func step(_ text: String, apply: (Event) -> Verdict?, state: () -> State) throws(CanonicalTextError)
        -> Replayer.Step
    {
        let event: Event
        if let last, last.text == text {
            event = last.event
        } else if let known = parsed[text] {
            event = known
        } else {
            event = try Event(parsing: text)
            if parsed.count >= ScreenModel.parsedLineLimit { parsed.removeAll(keepingCapacity: true) }
            parsed[text] = event
        }
        last = (text, event)
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
