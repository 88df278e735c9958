import MachineDrivers
import ScreenStates
import StateMachineKit
import Support
import TerminalUI

/// The dashboard's edges, one runtime per screen feature (`XRuntime`): the machines, the work they ask for
/// and their subscriptions. Everything the pure parts (reducer, keymap, view) never touch.
///
/// The store learns of the machines only through subscriptions: each machine's `states()` and its records
/// (``RecordFeed``). Runtimes act on machines and never report changes themselves.
package struct DashboardEnvironment: Sendable {
    /// The Transfers screen's machines and simulated workers.
    package var transfers: TransfersRuntime
    /// The Upload screen's owner: the upload machine and its simulated task.
    package var upload: UploadRuntime
    /// The Load screen's machine and simulated server.
    package var load: LoadRuntime
    /// The Graph screen's file writer.
    package var graph: GraphRuntime

    /// An environment from its runtimes.
    package init(
        transfers: TransfersRuntime, upload: UploadRuntime, load: LoadRuntime,
        graph: GraphRuntime = GraphRuntime()
    ) {
        self.transfers = transfers
        self.upload = upload
        self.load = load
        self.graph = graph
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
            load: LoadRuntime(machine: LoadMachine(clock: clock), server: LoadServer(scheduler: scheduler)))
    }

    /// The name the History screen gives the upload machine.
    static let uploadName = "upload"
    /// The name the History screen gives the load machine.
    static let loadName = "load"

    /// Every machine's name, in the History screen's order: the transfers, the upload, the load.
    var machineNames: [String] {
        transfers.transfers.map(\.name) + [Self.uploadName, Self.loadName]
    }

    /// The app state before any snapshot arrived.
    package var initialState: AppState {
        AppState(transfers: transfers.initialState, history: HistoryScreenState(machines: machineNames))
    }

    /// Performs one effect (the app's effect runner).
    package func perform(_ effect: AppEffect, send: Send<AppAction>) {
        switch effect {
        case .transfers(let effect): transfers.perform(effect)
        case .upload(let effect): upload.run(effect, send: Send { send(.upload($0)) })
        case .load(let effect): load.run(effect)
        case .graph(let effect): graph.run(effect, send: Send { send(.graph($0)) })
        }
    }

    /// The subscriptions `state` asks for: every machine's `states()` and records always, and the History
    /// screen's selected machine's records only while that screen is shown.
    package func subscriptions(for state: AppState) -> [Subscription<AppAction>] {
        let upload = upload.machine
        let load = load.machine
        var subscriptions = transfers.subscriptions(AppAction.transfers)
        subscriptions += [
            Subscription(id: "upload.states", { upload.engine.states() }) { .upload(.uploadChanged($0)) },
            Subscription(id: "upload.records", { upload.records() }) { .upload(.recordsChanged($0)) },
            Subscription(id: "load.states", { load.engine.states() }) { .load(.loadChanged($0)) },
            Subscription(id: "load.records", { load.records() }) { .load(.recordsChanged($0)) },
        ]
        if state.screen == .history, let name = state.history.machine, let history = historySubscription(for: name) {
            subscriptions.append(history)
        }
        return subscriptions
    }

    /// The History screen's subscription to the records of the machine called `name`.
    func historySubscription(for name: String) -> Subscription<AppAction>? {
        let id = "history.\(name)"
        if name == Self.uploadName {
            let machine = upload.machine
            return Subscription(id: id, { machine.records() }) { Self.history(of: name, $0) }
        }
        if name == Self.loadName {
            let machine = load.machine
            return Subscription(id: id, { machine.records() }) { Self.history(of: name, $0) }
        }
        guard let transfer = transfers.transfers.first(where: { $0.name == name }) else { return nil }
        let machine = transfer.machine
        return Subscription(id: id, { machine.records() }) { Self.history(of: name, $0) }
    }

    /// The History screen's action for the records of the machine called `name`.
    static func history<State, Event>(of name: String, _ records: [StateMachine<State, Event>.Record]) -> AppAction {
        .history(.recordsChanged(machine: name, HistoryRow.rows(machine: name, history: records)))
    }

    /// Stops every machine.
    package func stop() {
        transfers.stop()
        upload.machine.engine.stop()
        load.machine.engine.stop()
    }
}
