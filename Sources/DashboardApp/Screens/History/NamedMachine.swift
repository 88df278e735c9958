import SeedModels
import StateMachineKit
import TerminalUI

/// A machine a screen's runtime holds, by the name the History screen lists it under: how to follow its change
/// feed as History rows and the sequence number of its newest record. Screens publish theirs
/// (``DashboardScreen/machines(_:)``); History lists those of the screens in the dashboard. A machine made only
/// when first used (a copy's row) is listed from the start and followed once it is made.
///
/// It holds its runtime's ``MachineHistories`` and its index there, and reads its name and screen from them: a
/// copy dashboard lists every row, and a name and a screen kept in each cost 40 bytes a row more (64 instead of
/// 24).
package struct NamedMachine: Sendable {
    /// Where the machine is found, shared by the machines of one runtime, and its index there.
    private let source: any MachineHistories
    private let index: Int

    /// The name History lists: the transfer's file name, `upload`, `load`.
    package var name: String { source.machineNames[index] }
    /// The screen whose runtime holds the machine.
    package var screen: Screen { source.screen }

    /// `engine`, called `name`, held by `screen`'s runtime.
    package init<State: PresentableState, Event>(name: String, screen: Screen, _ engine: StateMachine<State, Event>) {
        self.init(machine: 0, of: OneMachine(engine, name: name, screen: screen))
    }

    /// Machine `index` of `source`.
    package init(machine index: Int, of source: any MachineHistories) {
        self.source = source
        self.index = index
    }

    /// The names of `machines`, in order. When they are all of one runtime's machines, each at its index, the
    /// runtime's own list is taken as it is, so History's list shares its storage (a copy dashboard's rows' names,
    /// 16 bytes a row, not held twice).
    static func names(of machines: [NamedMachine]) -> [String] {
        guard let source = machines.first?.source else { return [] }
        let all = source.machineNames
        let isWholeRuntime =
            all.count == machines.count
            && machines.indices.allSatisfy { machines[$0].source === source && machines[$0].index == $0 }
        return isWholeRuntime ? all : machines.map(\.name)
    }

    /// The History screen's subscription to the machine's records; nil while the machine is not made.
    func history() -> Subscription<HistoryScreenAction>? {
        source.history(of: index, name: name)
    }

    /// The sequence number of the machine's newest record (0 before the first, and while it is not made).
    func newest() -> Int {
        source.newest(of: index)
    }

    /// The History screen's subscription to `engine`'s records, listed as `name`.
    package static func history<State: PresentableState, Event>(
        of engine: StateMachine<State, Event>, name: String
    ) -> Subscription<HistoryScreenAction> {
        history(name: name, machine: 0) { engine.records() }
    }

    /// The History screen's subscription to the batches of `records`, listed as `name`: those of one of the
    /// machines a row has had (a row let go and made again has another), told apart by `machine` (its first
    /// record read, after this).
    package static func history<State: PresentableState, Event>(
        name: String, machine: Int,
        _ records: @escaping @Sendable () -> AsyncStream<StateMachine<State, Event>.RecordBatch>
    ) -> Subscription<HistoryScreenAction> {
        let id = machine == 0 ? "history.\(name)" : "history.\(name)@\(machine)"
        return Subscription(id: id, newestOnly: false, records) { batch in
            .recordsChanged(machine: name, HistoryRow.rows(machine: name, history: batch.records), missed: batch.missed)
        }
    }
}

/// Where History finds a runtime's machines, by index: one object for all of a runtime's machines, so a list of
/// thousands costs History a reference and an index each.
package protocol MachineHistories: AnyObject, Sendable {
    /// The screen whose runtime holds the machines.
    var screen: Screen { get }
    /// The name History lists each machine under, by index.
    var machineNames: [String] { get }
    /// History's subscription to machine `index`'s records, listed as `name`; nil while it is not made.
    func history(of index: Int, name: String) -> Subscription<HistoryScreenAction>?
    /// The sequence number of machine `index`'s newest record (0 before the first, and while it is not made).
    func newest(of index: Int) -> Int
}

/// A runtime's one machine.
private final class OneMachine<State: PresentableState & Hashable & Sendable, Event: Sendable>: MachineHistories {
    let engine: StateMachine<State, Event>
    let machineNames: [String]
    let screen: Screen

    init(_ engine: StateMachine<State, Event>, name: String, screen: Screen) {
        self.engine = engine
        machineNames = [name]
        self.screen = screen
    }

    func history(of index: Int, name: String) -> Subscription<HistoryScreenAction>? {
        NamedMachine.history(of: engine, name: name)
    }

    func newest(of index: Int) -> Int {
        engine.sequence
    }
}
