import MachineDrivers
import ScreenStates
import StateMachineKit
import Support
import TerminalUI

/// The Transfers screen's edge: the transfers (simulated or real, see ``TransferDriver``), the effect
/// runner and the subscriptions that turn each machine's `states()` and records (and each driver's status)
/// into actions, newest only.
package final class TransfersRuntime: Sendable {
    /// The transfers, in row order.
    package let transfers: [any TransferDriver]

    /// The screen over `drivers`, one row each (e.g. the real copies of `statetui copy`).
    package init(drivers: [any TransferDriver]) {
        transfers = drivers
    }

    /// The names the dashboard shows.
    static let defaultNames = ["photos.tar", "backup.img", "dataset.csv", "video.mp4", "notes.md"]

    /// One simulated transfer per name, its worker ticking on `scheduler` and its machine on `clock`; each
    /// draws from its own generator seeded from `seed`, its size among them (1 MB to about 4 GB).
    package init(
        names: [String] = TransfersRuntime.defaultNames, scheduler: any SimulationClock, clock: AnyClock? = nil,
        seed: UInt64, timing: SimulationTiming = .dashboard
    ) {
        var seeds = SplitMix64(seed: seed)
        transfers = names.map { name in
            let random = SplitMix64(seed: seeds.next())
            return SimulatedTransfer(
                name: name, scheduler: scheduler, clock: clock, random: random, timing: timing,
                totalBytes: Self.simulatedSize(seeds.next()))
        }
    }

    /// A simulated file's size from a random draw: a power of two from 1 MiB to 2 GiB times 1 to 2.
    static func simulatedSize(_ draw: UInt64) -> Int64 {
        let magnitude = Int64(1) << (20 + Int(draw % 12))
        return magnitude + magnitude * Int64((draw >> 8) % 1000) / 1000
    }

    /// The screen before the change feed brought anything: each transfer's state and status as they are now,
    /// the first selected.
    package var initialState: TransfersScreenState {
        TransfersScreenState(
            rows: transfers.map { TransferRow(name: $0.name, model: $0.machine.model, driverStatus: $0.status) })
    }

    /// Performs one effect; returns what the screen learns from it that no record tells: the status of a
    /// driver armed to fail (``TransfersScreenEffect/failNextOutcome(row:)``).
    @discardableResult
    package func perform(_ effect: TransfersScreenEffect) -> TransfersScreenAction? {
        switch effect {
        case .send(let row, let events):
            guard transfers.indices.contains(row) else { return nil }
            let transfer = transfers[row]
            if let event = Self.event(of: events, at: transfer.machine.model) { transfer.perform(event) }
        case .sendAll(let events):
            for transfer in transfers {
                if let event = Self.event(of: events, at: transfer.machine.model) { transfer.perform(event) }
            }
        case .failNextOutcome(let row):
            guard transfers.indices.contains(row) else { return nil }
            transfers[row].failNextOutcome()
            return .driverStatusChanged(row: row, transfers[row].status)
        }
        return nil
    }

    /// The event a ``TransfersScreenEffect/send(row:_:)`` sends to a transfer at `model`: the first of `events` its
    /// transition function applies; nil when none does.
    package static func event(of events: [TransferEvent], at model: TransferModel) -> TransferEvent? {
        EventRule.first(of: events, in: model, TransferModel.transition)
    }

    /// One subscription for every transfer, however many: the machines' one change feed
    /// (``StateMachine/records(of:after:)``), each batch read with what the edge measures then and the
    /// driver's status, wrapped by `embed` into the app's action type. A driver changes its status only
    /// before its machine records (a fault armed by `f` comes back as the effect's own result), so the
    /// status read with the records is the newest. A transfer that is still costs the screen nothing.
    package func subscriptions<Action: Sendable>(
        _ embed: @escaping @Sendable (TransfersScreenAction) -> Action
    ) -> [Subscription<Action>] {
        let engines = transfers.map(\.machine.engine)
        return [
            Subscription(id: "transfers.records", newestOnly: false, { StateMachine.records(of: engines) }) {
                [self] changed in embed(action(changed))
            }
        ]
    }

    /// What the screen is told of `changed`, an element of the machines' change feed: each transfer's
    /// records with what the edge measures now and its driver's status now.
    func action(_ changed: [StateMachine<TransferModel, TransferEvent>.IndexedRecordBatch]) -> TransfersScreenAction {
        .transfersRecorded(
            changed.map { indexed in
                let transfer = transfers[indexed.index]
                return TransferChange(
                    row: indexed.index, records: indexed.batch, sample: Self.sample(transfer.machine),
                    status: transfer.status)
            })
    }

    /// What the edge measures with each state: the time on the machine's own clock, its visit and the time left
    /// on its armed timeout (the screen derives rate, ETA and time in state from these, never from a clock).
    static func sample(_ machine: TransferMachine) -> TransferSample {
        let snapshot = machine.engine.snapshot()
        return TransferSample(
            at: machine.engine.clock.now.offset, visit: snapshot.visit, timeout: snapshot.timeout?.remaining)
    }

    /// Stops every machine and worker.
    package func stop() {
        for transfer in transfers { transfer.stop() }
    }
}
