import SeedModels

/// The newest state of one live machine and the one before it, so the Graph screen can light the state and
/// the transition that led there. A change of `source` (another transfer selected) forgets the previous
/// state instead of inventing a transition between two machines.
package struct LiveTrail<Value: Hashable & Sendable>: Hashable, Sendable {
    /// Which machine the states belong to (the transfer's name; the model's name for the others).
    package var source: String?
    /// The newest state seen.
    package var current: Value?
    /// The state before it, from the same source.
    package var previous: Value?

    /// A trail that has seen nothing.
    package init(source: String? = nil, current: Value? = nil, previous: Value? = nil) {
        self.source = source
        self.current = current
        self.previous = previous
    }

    /// Records `value` from `source`: a new state moves the current one to `previous`.
    package mutating func observe(_ value: Value?, from source: String?) {
        guard source == self.source else {
            self = LiveTrail(source: source, current: value)
            return
        }
        guard value != current else { return }
        previous = current
        current = value
    }
}

/// The live machines the Graph screen follows: the selected transfer, the upload and the load. Read from the
/// app state after every action (the machines' newest snapshots), never from the machines themselves.
package struct GraphLiveStates: Hashable, Sendable {
    /// The selected transfer's name, nil when there are no transfers.
    var transferName: String?
    /// The selected transfer's newest state.
    package var transfer: TransferModel?
    /// The upload machine's newest state.
    package var upload: UploadState
    /// The load machine's newest state.
    package var load: LoadState

    /// The live states from their sources.
    package init(transferName: String?, transfer: TransferModel?, upload: UploadState, load: LoadState) {
        self.transferName = transferName
        self.transfer = transfer
        self.upload = upload
        self.load = load
    }

    /// The live states of the dashboard's machines as `state` holds them.
    package init(_ state: AppState) {
        self.init(
            transferName: state[TransfersFeature.self].selectedRow?.name,
            transfer: state[TransfersFeature.self].selectedRow?.model, upload: state[UploadFeature.self].upload,
            load: state[LoadFeature.self].load)
    }
}

/// Where a live state sits in a diagram: its box in the full graph and its case box.
package struct LiveMark: Hashable, Sendable {
    /// The full graph's box name (``SeedModels/TransferModel/diagramName`` and the like).
    package var name: String
    /// The collapsed graph's box name (``SeedModels/TransferModel/diagramCase`` and the like).
    package var caseName: String
    /// The state's canonical text, for the legend.
    package var text: String
}
