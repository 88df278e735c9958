import MachineDrivers
import SeedModels
import StateMachineKit
import Support
import TerminalUI

/// The Transfers screen's edge: the transfers (simulated or real, see ``TransferDriver``), the effect
/// runner and the subscription that turns the machines' one change feed (and each driver's status) into
/// actions.
///
/// A long list (``CopyFiles``) makes a row's driver, and with it its machine, only when the row is first used:
/// an effect whose event the model's initial state takes (a start), `S`, `f`, or ``makeAll()``. Until then the
/// row shows the model's initial state, which is what its machine would show; once made, the machine joins the
/// change feed (``StateMachine/MachineSet``) and is the only authority on the row.
///
/// Once the screen took in the record of a row's completion, the runtime asks the list to let the row's
/// transfer go (``TransferList/settle(_:at:)``): a completed row then costs about 540 bytes (`make bench`'s
/// `copy_rows`, journal entry included) rather than about 4 KB, a transfer, a machine and its history, and shows
/// where its machine ended; History and the detail pane show its last record. An event its state takes (a start)
/// makes the transfer again, on a machine restored where it ended, which joins the feed in its turn. Every event
/// the screen sends and every let-go happen under one lock (``sending``), so no event reaches a transfer let go.
/// With `keepsMachines` (`--inspectable`: the inspector follows every machine made) no row is let go.
package final class TransfersRuntime: Sendable {
    /// The transfers, in row order, made as they are first used.
    package let list: any TransferList
    /// Each row's name, read once: the rows and History's list share these strings.
    package let names: [String]
    /// The machines made, in the order they were made: what the change feed follows.
    private let machines = StateMachine<TransferModel, TransferEvent>.MachineSet()
    /// The rows made, in the order their machines were added to ``machines``, and what is told of each driver
    /// made.
    private let made: Locked<Made>
    /// Held while an event is sent to a row and while a row is let go.
    private let sending = Locked(())
    /// Whether completed rows keep their transfers.
    private let keepsMachines: Bool

    private struct Made {
        /// The row of each machine, by its index in ``TransfersRuntime/machines``.
        var rows: [Int] = []
        var observers: [@Sendable (any TransferDriver) -> Void] = []
    }

    /// The screen over `list`, one row each (e.g. the files of `statetui copy`); the drivers it made already
    /// are followed from the start.
    package init(list: any TransferList, keepsMachines: Bool = false) {
        self.list = list
        self.keepsMachines = keepsMachines
        names = (0..<list.count).map(list.name(at:))
        var made = Made()
        for row in 0..<list.count {
            guard let driver = list.driver(at: row) else { continue }
            made.rows.append(row)
            machines.add(driver.machine.engine, after: driver.recordsStart)
        }
        self.made = Locked(made)
    }

    /// The screen over `drivers`, one row each, all made.
    package convenience init(drivers: [any TransferDriver]) {
        self.init(list: MadeTransfers(drivers))
    }

    /// The names the dashboard shows.
    static let defaultNames = ["photos.tar", "backup.img", "dataset.csv", "video.mp4", "notes.md"]

    /// One simulated transfer per name, its worker ticking on `scheduler` and its machine on `clock`; each
    /// draws from its own generator seeded from `seed`, its size among them (1 MB to about 4 GB).
    package convenience init(
        names: [String] = TransfersRuntime.defaultNames, scheduler: any SimulationClock, clock: AnyClock? = nil,
        seed: UInt64, timing: SimulationTiming = .dashboard
    ) {
        var seeds = SplitMix64(seed: seed)
        self.init(
            drivers: names.map { name in
                let random = SplitMix64(seed: seeds.next())
                return SimulatedTransfer(
                    name: name, scheduler: scheduler, clock: clock, random: random, timing: timing,
                    totalBytes: Self.simulatedSize(seeds.next()))
            })
    }

    /// A simulated file's size from a random draw: a power of two from 1 MiB to 2 GiB times 1 to 2.
    static func simulatedSize(_ draw: UInt64) -> Int64 {
        let magnitude = Int64(1) << (20 + Int(draw % 12))
        return magnitude + magnitude * Int64((draw >> 8) % 1000) / 1000
    }

    /// The drivers made so far, in row order (all of them for a list made up front).
    package var transfers: [any TransferDriver] {
        made.withLock { $0.rows }.sorted().compactMap(list.driver(at:))
    }

    /// Row `row`'s driver, nil while it was not made.
    package func driver(at row: Int) -> (any TransferDriver)? {
        list.driver(at: row)
    }

    /// Row `row`'s driver, made now when it was not (or made again after it was let go): its machine then joins
    /// the change feed, and whoever ``whenMade(_:)`` asked is told.
    @discardableResult
    package func makeDriver(at row: Int) -> any TransferDriver {
        let (driver, observers) = made.withLock {
            made -> (any TransferDriver, [@Sendable (any TransferDriver) -> Void]) in
            let (driver, isNew) = list.makeDriver(at: row)
            guard isNew else { return (driver, []) }
            // Under the lock, so a machine's index in the feed and its place in `rows` agree.
            made.rows.append(row)
            machines.add(driver.machine.engine, after: driver.recordsStart)
            return (driver, made.observers)
        }
        for observer in observers { observer(driver) }
        return driver
    }

    /// Makes every row's driver (`statetui copy --inspectable`: the inspector lists every machine).
    package func makeAll() {
        for row in 0..<list.count { makeDriver(at: row) }
    }

    /// Calls `body` with every driver made: those made already now, each later one as it is made.
    package func whenMade(_ body: @escaping @Sendable (any TransferDriver) -> Void) {
        let existing = made.withLock { made in
            made.observers.append(body)
            return made.rows
        }
        for row in existing.sorted() { list.driver(at: row).map(body) }
    }

    /// Row `row`'s model now: its machine's, where it ended once let go, or the model's initial state while the
    /// row was not made (what its machine would start in).
    package func model(at row: Int) -> TransferModel {
        list.driver(at: row)?.machine.model ?? list.settled(at: row)?.model ?? .initial
    }

    /// The screen before the change feed brought anything: each transfer's state and status as they are now,
    /// the first selected.
    package var initialState: TransfersScreenState {
        TransfersScreenState(
            rows: names.indices.map { row in
                let driver = list.driver(at: row)
                return TransferRow(
                    name: names[row], model: model(at: row),
                    driverStatus: driver?.status ?? TransferDriverStatus(totalBytes: list.size(at: row)))
            })
    }

    /// Performs one effect; returns what the screen learns from it that no record tells: the status of a
    /// driver armed to fail (``TransfersScreenEffect/failNextOutcome(row:)``). A row is made only for an event
    /// its state takes, or to arm a fault.
    @discardableResult
    package func perform(_ effect: TransfersScreenEffect) -> TransfersScreenAction? {
        switch effect {
        case .send(let row, let events):
            guard names.indices.contains(row) else { return nil }
            send(events, to: row)
        case .sendAll(let events):
            for row in names.indices { send(events, to: row) }
        case .failNextOutcome(let row):
            guard names.indices.contains(row) else { return nil }
            let driver = sending.withLock { _ in
                let driver = makeDriver(at: row)
                driver.failNextOutcome()
                return driver
            }
            return .driverStatusChanged(row: row, driver.status)
        }
        return nil
    }

    /// Sends row `row` the first of `events` its transition function applies, making the row when one does.
    private func send(_ events: [TransferEvent], to row: Int) {
        sending.withLock { _ in
            if let event = Self.event(of: events, at: model(at: row)) { makeDriver(at: row).perform(event) }
        }
    }

    /// The event a ``TransfersScreenEffect/send(row:_:)`` sends to a transfer at `model`: the first of `events` its
    /// transition function applies; nil when none does.
    package static func event(of events: [TransferEvent], at model: TransferModel) -> TransferEvent? {
        EventRule.first(of: events, in: model, TransferModel.transition)
    }

    /// One subscription for every transfer, however many: the machines' one change feed
    /// (``StateMachine/MachineSet/records()``, which follows each machine made later from its first record),
    /// each batch read with what the edge measures then and the
    /// driver's status, wrapped by `embed` into the app's action type. A driver changes its status only
    /// before its machine records (a fault armed by `f` comes back as the effect's own result), so the
    /// status read with the records is the newest. A transfer that is still, or not made, costs the screen nothing.
    package func subscriptions<Action: Sendable>(
        _ embed: @escaping @Sendable (TransfersScreenAction) -> Action
    ) -> [Subscription<Action>] {
        [
            Subscription(id: "transfers.records", newestOnly: false, { [self] in records() }) {
                [self] changed in embed(action(changed))
            }
        ]
    }

    /// The open detail pane's subscription to row `row`'s machine's records, from the oldest its history keeps
    /// (once the row was let go, its last record); nil while the row is not made (its pane has no records to
    /// show). Only the open pane follows a machine's records, so the rows keep none. The subscription is named
    /// after the machine it follows, so a pane following a machine let go goes on as it was, and one made again
    /// is followed anew.
    package func detailSubscription(row: Int) -> Subscription<TransfersScreenAction>? {
        guard let records = recordsOf(row) else { return nil }
        return Subscription(id: "transfers.detail.\(row)@\(records.machine)", newestOnly: false, records.feed) {
            .detailRecorded(row: row, $0)
        }
    }

    /// Row `row`'s records for a pane: its machine's (after its ``TransferDriver/recordsStart``), or its last
    /// one once it was let go, with the records start of the machine they come from; nil while not made.
    private func recordsOf(_ row: Int) -> (
        machine: Int, feed: @Sendable () -> AsyncStream<StateMachine<TransferModel, TransferEvent>.RecordBatch>
    )? {
        if let driver = list.driver(at: row) {
            let (engine, start) = (driver.machine.engine, driver.recordsStart)
            return (start, { engine.records(after: start) })
        }
        guard let settled = list.settled(at: row) else { return nil }
        return (settled.machineRecordsStart, { settled.records() })
    }

    /// The made machines' one change feed, following each machine made later from its first record: a batch's
    /// index is the machine's place in the order the rows were made (``action(_:)`` finds its row).
    func records() -> AsyncStream<[StateMachine<TransferModel, TransferEvent>.IndexedRecordBatch]> {
        machines.records()
    }

    /// How many machines the change feed follows: those made and not let go.
    var followedMachines: Int { machines.memberCount }

    /// What the screen is told of `changed`, an element of the machines' change feed: each transfer's
    /// records with what the edge measures now and its driver's status now.
    /// A row whose records tell of its completion is then let go (``letCompletedGo(_:)``).
    func action(_ changed: [StateMachine<TransferModel, TransferEvent>.IndexedRecordBatch]) -> TransfersScreenAction {
        let rows = made.withLock { $0.rows }
        let changes = changed.compactMap { indexed -> (machine: Int, change: TransferChange)? in
            let row = rows[indexed.index]
            guard let transfer = list.driver(at: row) else { return nil }
            return (
                indexed.index,
                TransferChange(
                    row: row, records: indexed.batch, sample: Self.sample(transfer.machine), status: transfer.status)
            )
        }
        if !keepsMachines { letCompletedGo(changes) }
        return .transfersRecorded(changes.map(\.change))
    }

    /// Asks the list to let go of each row whose newest record in `changes` left it completed: once the screen
    /// has the record, the row needs its transfer no more (unless an event came since, which the list sees).
    /// A row let go takes its machine (`machine`, its index in ``machines``) out of the change feed, which
    /// then holds nothing of it.
    private func letCompletedGo(_ changes: [(machine: Int, change: TransferChange)]) {
        for (machine, change) in changes {
            guard case .completed = change.records.state.phase, let newest = change.records.records.last else {
                continue
            }
            if sending.withLock({ _ in list.settle(change.row, at: newest.sequence) }) { machines.remove(machine) }
        }
    }

    /// What the edge measures with each state: the time on the machine's own clock, its visit and the time left
    /// on its armed timeout (the screen derives rate, ETA and time in state from these, never from a clock).
    static func sample(_ machine: TransferMachine) -> TransferSample {
        let snapshot = machine.engine.snapshot()
        return TransferSample(
            at: machine.engine.clock.now.offset, visit: snapshot.visit, timeout: snapshot.timeout?.remaining)
    }

    /// Stops every machine and worker made, every one asked first (``TransferDriver/askToStop()``).
    package func stop() {
        let transfers = self.transfers
        for transfer in transfers { transfer.askToStop() }
        for transfer in transfers { transfer.stop() }
    }
}

extension TransfersRuntime: MachineHistories {
    package var screen: Screen { .transfers }

    /// Each row's name, as the rows show it.
    package var machineNames: [String] { names }

    /// Row `row`'s machine's records for History, once the row is made (its last one once it was let go),
    /// named after the machine they come from as the detail pane's are.
    package func history(of row: Int, name: String) -> Subscription<HistoryScreenAction>? {
        recordsOf(row).map { NamedMachine.history(name: name, machine: $0.machine, $0.feed) }
    }

    /// The sequence number of row `row`'s machine's newest record (its last one once let go); 0 while the row
    /// is not made.
    package func newest(of row: Int) -> Int {
        list.driver(at: row)?.machine.engine.sequence ?? list.settled(at: row)?.last.sequence ?? 0
    }
}
