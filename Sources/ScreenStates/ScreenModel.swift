import StateMachineKit

/// The three models of the seeds by name, as `statetui replay` and `statetui graph` select them.
public enum ScreenModel: String, CaseIterable, Hashable, Sendable {
    /// Seed 000's transfer: ``TransferMachine``.
    case transfer
    /// Seed 001's upload: ``UploadMachine``.
    case upload
    /// Seed 002's loading screen: ``LoadMachine``.
    case load

    /// What one input line is for this model: `transfer event`, `upload event`, `load action`.
    public var inputName: String {
        switch self {
        case .transfer: TransferEvent.canonicalTypeName
        case .upload: UploadEvent.canonicalTypeName
        case .load: LoadAction.canonicalTypeName
        }
    }

    /// The canonical forms an input line may take.
    public var inputForms: [String] {
        switch self {
        case .transfer: TransferEvent.canonicalForms
        case .upload: UploadEvent.canonicalForms
        case .load: LoadAction.canonicalForms
        }
    }

    /// A fresh machine for this model behind a line-at-a-time interface.
    public func makeReplayer() -> Replayer {
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
}
