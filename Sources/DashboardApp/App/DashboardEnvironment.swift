import MachineDrivers
import ScreenStates
import StateMachineKit
import Support
import TerminalUI

/// The dashboard's edges, one runtime per screen feature (`XRuntime`): the machines, the work they ask for
/// and their subscriptions. Everything the pure parts (reducer, keymap, view) never touch.
///
/// The store learns of the machines only through subscriptions: each machine's `states()` and its change feed
/// (`records(after:)`). Runtimes act on machines and never report changes themselves.
package struct DashboardEnvironment: Sendable {
    /// The Transfers screen's machines and simulated workers.
    package var transfers: TransfersRuntime
    /// The Upload screen's owner: the upload machine and its simulated task.
    package var upload: UploadRuntime
    /// The Load screen's machine and simulated server.
    package var load: LoadRuntime
    /// The Graph screen's file writer.
    package var graph: GraphRuntime
    /// Where the timers that clear status messages run (``StatusExpiry``): the live clock's, or a demo's and
    /// a test's manual scheduler.
    package var scheduler: any SimulationScheduler
    /// Whether `q` asks before stopping transfers under way (``AppState/confirmsQuit``): on for real copies.
    package var confirmsQuit = false
    /// The keys and the theme a configuration file sets (``AppState/settings``).
    package var settings = DashboardSettings()
    /// The demo dashboard or `statetui copy`'s: its screens, its total row and whether `f` injects faults.
    package var mode = DashboardMode.demo
    /// The timers of the status messages shown.
    let statusExpiry = StatusExpiry()

    /// An environment from its runtimes; status messages clear themselves on `scheduler`.
    package init(
        transfers: TransfersRuntime, upload: UploadRuntime, load: LoadRuntime,
        graph: GraphRuntime = GraphRuntime(), scheduler: any SimulationScheduler = ClockScheduler(clock: .continuous)
    ) {
        self.transfers = transfers
        self.upload = upload
        self.load = load
        self.graph = graph
        self.scheduler = scheduler
    }

    /// The live dashboard: simulated work on `clock`, drawn from `seed`; `transfers` replaces the simulated
    /// transfers (`statetui copy` passes its real copies).
    package static func live(
        clock: AnyClock = .continuous, seed: UInt64, transfers: TransfersRuntime? = nil
    ) -> DashboardEnvironment {
        let scheduler = ClockScheduler(clock: clock)
        return DashboardEnvironment(
            transfers: transfers ?? TransfersRuntime(scheduler: scheduler, clock: clock, seed: seed),
            upload: UploadRuntime(
                owner: UploadOwner(
                    machine: UploadMachine(clock: clock), scheduler: scheduler, random: SplitMix64(seed: seed))),
            load: LoadRuntime(machine: LoadMachine(clock: clock), server: LoadServer(scheduler: scheduler)),
            scheduler: scheduler)
    }

    /// The name the History screen gives the upload machine.
    static let uploadName = "upload"
    /// The name the History screen gives the load machine.
    static let loadName = "load"

    /// Every machine's name, in the History screen's order: the transfers, then the upload and the load when
    /// their screens are in the dashboard.
    var machineNames: [String] {
        transfers.transfers.map(\.name) + (mode.screens.contains(.upload) ? [Self.uploadName] : [])
            + (mode.screens.contains(.load) ? [Self.loadName] : [])
    }

    /// The app state before any snapshot arrived.
    package var initialState: AppState {
        var transfers = transfers.initialState
        transfers.simulatesFaults = mode.simulatesFaults
        transfers.showsTotals = mode.showsTotals
        var state = AppState(
            screen: mode.screens.first ?? .transfers, transfers: transfers,
            graph: GraphScreenState(models: mode.graphModels), history: HistoryScreenState(machines: machineNames))
        state.screens = mode.screens
        state.confirmsQuit = confirmsQuit
        state.settings = settings
        return state
    }

    /// Performs one effect (the app's effect runner) on the runtime of the screen that registered it
    /// (``Screen/feature``).
    package func perform(_ effect: AppEffect, send: Send<AppAction>) {
        switch effect {
        case .transfers, .upload, .load, .graph:
            for screen in Screen.allCases where screen.feature.perform(self, effect, send) { return }
        }
    }

    /// The subscriptions `state` asks for: every machine's `states()` and change feed always (every batch of a
    /// feed is kept: each holds records no other batch repeats), the History
    /// screen's selected machine's records only while that screen is shown, and a timer for each status
    /// message shown (``StatusExpiry``), named for the message's number, so a new message gets a timer of its
    /// own even when it says the same as the one before.
    package func subscriptions(for state: AppState) -> [Subscription<AppAction>] {
        let upload = upload.machine
        let load = load.machine
        var subscriptions = transfers.subscriptions(AppAction.transfers)
        subscriptions += [
            Subscription(id: "upload.states", { upload.engine.states() }) { .upload(.uploadChanged($0)) },
            Subscription(id: "upload.records", newestOnly: false, { upload.engine.records() }) {
                .upload(.recordsChanged($0))
            },
            Subscription(id: "load.states", { load.engine.states() }) { .load(.loadChanged($0)) },
            Subscription(id: "load.records", newestOnly: false, { load.engine.records() }) {
                .load(.recordsChanged($0))
            },
        ]
        if state.screen == .history, let name = state.history.machine, let history = historySubscription(for: name) {
            subscriptions.append(history)
        }
        subscriptions += statusMessages(state).map { statusExpiry.subscription(id: $0.id, on: scheduler, $0.expired) }
        return subscriptions
    }

    /// The status messages `state` shows, each with the id of its timer and the action that clears it.
    func statusMessages(_ state: AppState) -> [(id: String, expired: AppAction)] {
        var messages: [(id: String, expired: AppAction)] = []
        if let yank = state.yank.message { messages.append(("yank.\(yank.number)", .yankExpired(yank))) }
        if let notice = state.upload.notice.message {
            messages.append(("upload.notice.\(notice.number)", .upload(.noticeExpired(notice))))
        }
        if let export = state.graph.export.message {
            messages.append(("graph.export.\(export.number)", .graph(.exportExpired(export))))
        }
        return messages
    }

    /// Whether every status message `state` shows has its timer set and not fired.
    package func statusTimersAreSet(_ state: AppState) -> Bool {
        statusMessages(state).allSatisfy { statusExpiry.isPending($0.id) }
    }

    /// The History screen's subscription to the records of the machine called `name`.
    func historySubscription(for name: String) -> Subscription<AppAction>? {
        let id = "history.\(name)"
        if name == Self.uploadName {
            let machine = upload.machine
            return Subscription(id: id, newestOnly: false, { machine.engine.records() }) { Self.history(of: name, $0) }
        }
        if name == Self.loadName {
            let machine = load.machine
            return Subscription(id: id, newestOnly: false, { machine.engine.records() }) { Self.history(of: name, $0) }
        }
        guard let transfer = transfers.transfers.first(where: { $0.name == name }) else { return nil }
        let machine = transfer.machine
        return Subscription(id: id, newestOnly: false, { machine.engine.records() }) { Self.history(of: name, $0) }
    }

    /// The History screen's action for a batch of the change feed of the machine called `name`.
    static func history<State: PresentableState, Event>(
        of name: String, _ batch: StateMachine<State, Event>.RecordBatch
    ) -> AppAction {
        .history(
            .recordsChanged(
                machine: name, HistoryRow.rows(machine: name, history: batch.records), missed: batch.missed))
    }

    /// Stops every machine.
    package func stop() {
        transfers.stop()
        upload.machine.engine.stop()
        load.machine.engine.stop()
    }
}
