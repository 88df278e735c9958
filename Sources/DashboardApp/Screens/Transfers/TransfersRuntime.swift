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
        names: [String] = TransfersRuntime.defaultNames, scheduler: any SimulationScheduler, clock: AnyClock? = nil,
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

    /// The screen before any snapshot arrived: every transfer idle, the first selected.
    package var initialState: TransfersScreenState {
        TransfersScreenState(rows: transfers.map { TransferRow(name: $0.name, model: $0.machine.model) })
    }

    /// Performs one effect.
    package func perform(_ effect: TransfersScreenEffect) {
        switch effect {
        case .send(let row, let events):
            guard transfers.indices.contains(row) else { return }
            let transfer = transfers[row]
            if let event = Self.event(of: events, at: transfer.machine.model) { transfer.perform(event) }
        case .sendAll(let events):
            for transfer in transfers {
                if let event = Self.event(of: events, at: transfer.machine.model) { transfer.perform(event) }
            }
        case .failNextOutcome(let row):
            guard transfers.indices.contains(row) else { return }
            transfers[row].failNextOutcome()
        }
    }

    /// The event a ``TransfersScreenEffect/send(row:_:)`` sends to a transfer at `model`: the first of `events` its
    /// transition function applies; nil when none does.
    package static func event(of events: [TransferEvent], at model: TransferModel) -> TransferEvent? {
        EventRule.first(of: events, in: model, TransferModel.transition)
    }

    /// Three subscriptions per transfer: the machine's states and the worker's status, newest only, and every
    /// batch of the machine's change feed, wrapped by `embed` into the app's action type.
    package func subscriptions<Action: Sendable>(
        _ embed: @escaping @Sendable (TransfersScreenAction) -> Action
    ) -> [Subscription<Action>] {
        transfers.enumerated().flatMap { row, transfer in
            let machine = transfer.machine
            return [
                Subscription(id: "transfers.\(row).states", { machine.engine.states() }) {
                    embed(.machineSampled(row: row, $0, Self.sample(machine)))
                },
                Subscription(id: "transfers.\(row).records", newestOnly: false, { machine.engine.records() }) {
                    embed(.recordsChanged(row: row, $0))
                },
                Subscription(id: "transfers.\(row).status", { transfer.statusUpdates }) {
                    embed(.driverStatusChanged(row: row, $0))
                },
            ]
        }
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
