import SeedModels
import StateMachineKit
import TerminalUI

/// What a screen showing one machine (Upload, Load) asks of it: its `states()`, newest only, and every batch
/// of its change feed, under ids named for the machine; and whether the screen has caught up with it.
package struct MachineFeed<State: Hashable & Sendable, Event: Sendable>: Sendable {
    /// The machine.
    package let engine: StateMachine<State, Event>
    /// The name the subscriptions' ids start with (`upload`: `upload.states`, `upload.records`).
    package let name: String

    /// The feed of `engine`, called `name`.
    package init(_ name: String, _ engine: StateMachine<State, Event>) {
        self.name = name
        self.engine = engine
    }

    /// The machine's states, newest only, and every batch of its records, as the screen's actions.
    package func subscriptions<Action: Sendable>(
        states: @escaping @Sendable (State) -> Action,
        records: @escaping @Sendable (StateMachine<State, Event>.RecordBatch) -> Action
    ) -> [Subscription<Action>] {
        let engine = engine
        return [
            Subscription(id: "\(name).states", { engine.states() }, action: states),
            Subscription(id: "\(name).records", newestOnly: false, { engine.records() }, action: records),
        ]
    }

    /// Whether a screen showing `state` and the records up to `lastSequence` shows the machine's current
    /// state and newest record.
    package func isShown(_ state: State, lastSequence: Int) -> Bool {
        state == engine.state && lastSequence == engine.sequence
    }
}
