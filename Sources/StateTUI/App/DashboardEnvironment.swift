import StateMachineKit
import TerminalUI

/// The dashboard's edges, one runtime per screen feature: the machines, their effect runners and their
/// subscriptions. Everything the pure parts (reducer, keymap, view) never touch.
public struct DashboardEnvironment: Sendable {
    /// The Transfers screen's machines and simulated workers.
    public var transfers: TransfersRuntime

    /// An environment from its runtimes.
    public init(transfers: TransfersRuntime) {
        self.transfers = transfers
    }

    /// The live dashboard: machines on `clock`, simulated work drawn from `seed`.
    public static func live(clock: AnyClock = .continuous, seed: UInt64) -> DashboardEnvironment {
        DashboardEnvironment(transfers: TransfersRuntime(clock: clock, seed: seed))
    }

    /// The app state before any snapshot arrived.
    public var initialState: AppState {
        AppState(transfers: transfers.initialState)
    }

    /// Performs one effect (the app's effect runner).
    public func perform(_ effect: AppEffect) {
        switch effect {
        case .transfers(let effect): transfers.perform(effect)
        }
    }

    /// Every feature's subscriptions, as app actions.
    public var subscriptions: [Subscription<AppAction>] {
        transfers.subscriptions(AppAction.transfers)
    }

    /// Stops every machine.
    public func stop() {
        transfers.stop()
    }
}
