import SeedModels
import StateMachineKit
import TerminalUI

/// A machine a screen's runtime holds, by the name the History screen lists it under: how to follow its change
/// feed as History rows and the sequence number of its newest record. Screens publish theirs
/// (``DashboardScreen/machines(_:)``); History lists those of the screens in the dashboard.
package struct NamedMachine: Sendable {
    /// The name History lists: the transfer's file name, `upload`, `load`.
    package let name: String
    /// The screen whose runtime holds the machine.
    package let screen: Screen
    /// The History screen's subscription to the machine's records.
    let history: @Sendable () -> Subscription<HistoryScreenAction>
    /// The sequence number of the machine's newest record (0 before the first).
    let newest: @Sendable () -> Int

    /// `engine`, called `name`, held by `screen`'s runtime.
    package init<State: PresentableState, Event>(name: String, screen: Screen, _ engine: StateMachine<State, Event>) {
        self.name = name
        self.screen = screen
        history = {
            Subscription(id: "history.\(name)", newestOnly: false, { engine.records() }) { batch in
                .recordsChanged(
                    machine: name, HistoryRow.rows(machine: name, history: batch.records), missed: batch.missed)
            }
        }
        newest = { engine.history.last?.sequence ?? 0 }
    }
}
