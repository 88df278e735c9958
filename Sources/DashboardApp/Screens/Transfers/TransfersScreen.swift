import MachineDrivers
import TerminalUI

/// The Transfers screen in the dashboard: several transfers, simulated or real (`statetui copy`), each a
/// `TransferMachine`, on the ``TransfersRuntime`` built from the world's scheduler, clock and seed.
extension TransfersFeature: DashboardScreen {
    package static let title = "Transfers"

    package static func makeRuntime(_ world: World, machines: [NamedMachine]) -> TransfersRuntime {
        TransfersRuntime(scheduler: world.clock, clock: world.clock.machineClock, seed: world.seed)
    }

    package static func machines(_ runtime: TransfersRuntime) -> [NamedMachine] {
        runtime.names.indices.map { NamedMachine(machine: $0, of: runtime) }
    }

    package static func initialState(
        _ runtime: TransfersRuntime, mode: DashboardMode, machines: [NamedMachine]
    ) -> TransfersScreenState {
        var state = runtime.initialState
        state.simulatesFaults = mode.simulatesFaults
        state.showsTotals = mode.showsTotals
        return state
    }

    /// The machines' one change feed, and while the screen is shown with its detail pane open, the selected
    /// machine's records for the pane.
    package static func subscriptions(
        _ runtime: TransfersRuntime, _ state: TransfersScreenState, shown: Bool
    ) -> [Subscription<TransfersScreenAction>] {
        let detail = shown && state.detail != nil ? runtime.detailSubscription(row: state.selected) : nil
        return runtime.subscriptions { $0 } + (detail.map { [$0] } ?? [])
    }

    package static func perform(
        _ effect: TransfersScreenEffect, on runtime: TransfersRuntime, send: Send<TransfersScreenAction>
    ) {
        if let learned = runtime.perform(effect) { send(learned) }
    }

    /// Every simulated transfer's row shows its machine's current state and newest record and its worker's
    /// status, and the worker has set itself up.
    package static func isSettled(_ state: TransfersScreenState, _ runtime: TransfersRuntime, shown: Bool) -> Bool {
        let simulated = runtime.transfers.compactMap { $0 as? SimulatedTransfer }
        return simulated.enumerated().allSatisfy { row, transfer in
            guard state.rows.indices.contains(row), transfer.isSetUp else { return false }
            let shown = state.rows[row]
            let machine = transfer.machine.engine
            return shown.model == machine.state && shown.tally.lastSequence == machine.sequence
                && shown.driverStatus == transfer.status
        } && detailIsSettled(state, runtime, shown: shown)
    }

    /// The open detail pane of a shown screen ends at its machine's newest record (a row not made has none).
    private static func detailIsSettled(_ state: TransfersScreenState, _ runtime: TransfersRuntime, shown: Bool)
        -> Bool
    {
        guard shown, let detail = state.detail, let machine = runtime.driver(at: state.selected)?.machine.engine
        else { return true }
        return (detail.records.last?.sequence ?? 0) == machine.sequence
    }

    package static func stop(_ runtime: TransfersRuntime) {
        runtime.stop()
    }
}

extension Screen {
    /// The Transfers screen.
    package static let transfers = Screen(TransfersFeature.self)
}
