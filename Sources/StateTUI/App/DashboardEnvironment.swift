import ScreenStates
import StateMachineKit
import TerminalUI

/// The dashboard's edges, one runtime per screen feature: the machines, their effect runners and their
/// subscriptions. Everything the pure parts (reducer, keymap, view) never touch.
public struct DashboardEnvironment: Sendable {
    /// The Transfers screen's machines and simulated workers.
    public var transfers: TransfersRuntime
    /// The Upload screen's owner: the upload machine and its simulated task.
    public var upload: UploadOwner
    /// The Load screen's machine and simulated server.
    public var load: LoadEffectRunner
    /// The Graph screen's file writer.
    public var graph: GraphEffectRunner

    /// An environment from its runtimes.
    public init(
        transfers: TransfersRuntime, upload: UploadOwner, load: LoadEffectRunner,
        graph: GraphEffectRunner = GraphEffectRunner()
    ) {
        self.transfers = transfers
        self.upload = upload
        self.load = load
        self.graph = graph
    }

    /// The live dashboard: machines on `clock`, simulated work drawn from `seed`; `transfers` replaces the
    /// simulated transfers (`statetui copy` passes its real copies).
    public static func live(
        clock: AnyClock = .continuous, seed: UInt64, transfers: TransfersRuntime? = nil
    ) -> DashboardEnvironment {
        let scheduler = ClockScheduler(clock: clock)
        return DashboardEnvironment(
            transfers: transfers ?? TransfersRuntime(clock: clock, seed: seed),
            upload: UploadOwner(scheduler: scheduler, random: SeededRandom(seed: seed)),
            load: LoadEffectRunner(server: LoadServer(scheduler: scheduler)))
    }

    /// The app state before any snapshot arrived.
    public var initialState: AppState {
        AppState(transfers: transfers.initialState)
    }

    /// Performs one effect (the app's effect runner).
    public func perform(_ effect: AppEffect, send: Send<AppAction>) {
        switch effect {
        case .transfers(let effect): transfers.perform(effect)
        case .upload(let effect): UploadEffectRunner(owner: upload).run(effect, send: Send { send(.upload($0)) })
        case .load(let effect): load.run(effect, send: Send { send(.load($0)) })
        case .graph(let effect): graph.run(effect, send: Send { send(.graph($0)) })
        }
    }

    /// Every feature's subscriptions, as app actions.
    public var subscriptions: [Subscription<AppAction>] {
        let upload = self.upload
        let load = self.load
        let transfers = self.transfers
        var subscriptions = transfers.subscriptions(AppAction.transfers)
        subscriptions.append(
            Subscription(Self.stream { yield in upload.observe { state, _ in yield(state) } }) {
                .upload(.uploadChanged($0))
            })
        subscriptions.append(
            Subscription(Self.stream { yield in load.observe { state, _ in yield(state) } }) {
                .load(.loadChanged($0))
            })
        subscriptions.append(
            Subscription(Self.stream { yield in upload.observe { _, history in yield(history) } }) {
                .history(.recordsChanged(.upload, HistoryRow.rows(machine: "upload", history: $0)))
            })
        subscriptions.append(
            Subscription(Self.stream { yield in load.observe { _, history in yield(history) } }) {
                .history(.recordsChanged(.load, HistoryRow.rows(machine: "load", history: $0)))
            })
        for transfer in transfers.transfers {
            subscriptions.append(
                Subscription(transfer.machine.engine.states()) { _ in
                    .history(.recordsChanged(.transfers, Self.transferRows(transfers)))
                })
        }
        return subscriptions
    }

    /// Connects every machine's observer straight to `send` (the demo runner's way: no tasks in between, so
    /// frames are reproducible); transfers are read by ``snapshotTransfers(_:)``.
    public func connect(_ send: Send<AppAction>) {
        upload.observe { state, history in
            send(.upload(.uploadChanged(state)))
            send(.history(.recordsChanged(.upload, HistoryRow.rows(machine: "upload", history: history))))
        }
        load.observe { state, history in
            send(.load(.loadChanged(state)))
            send(.history(.recordsChanged(.load, HistoryRow.rows(machine: "load", history: history))))
        }
        snapshotTransfers(send)
    }

    /// Sends every transfer machine's current model, worker status and history as actions.
    public func snapshotTransfers(_ send: Send<AppAction>) {
        for (row, transfer) in transfers.transfers.enumerated() {
            send(.transfers(.machineChanged(row: row, transfer.machine.model)))
            send(.transfers(.simulationChanged(row: row, transfer.status)))
        }
        send(.history(.recordsChanged(.transfers, Self.transferRows(transfers))))
    }

    /// The records of every transfer machine, machine by machine.
    static func transferRows(_ transfers: TransfersRuntime) -> [HistoryRow] {
        transfers.transfers.flatMap { HistoryRow.rows(machine: $0.name, history: $0.machine.engine.history) }
    }

    /// A stream fed by an observer `register` installs; only the newest value waits.
    static func stream<Value: Sendable>(
        _ register: (@escaping @Sendable (Value) -> Void) -> Void
    ) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        register { continuation.yield($0) }
        return stream
    }

    /// Stops every machine.
    public func stop() {
        transfers.stop()
        upload.machine.engine.stop()
        load.machine.engine.stop()
    }
}
