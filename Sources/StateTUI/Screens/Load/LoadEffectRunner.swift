import ScreenStates
import StateMachineKit
import TerminalUI

/// Performs ``LoadScreenEffect``s: actions go to the load machine, requests to the simulated server, whose
/// answers come back as ``LoadScreenAction/serverResponded(_:)``. Observers hear about every machine change.
public final class LoadEffectRunner: Sendable {
    /// What observers receive after every change: the machine's state and its records.
    public typealias Observer = @Sendable (LoadState, [StateMachine<LoadState, LoadAction>.Record]) -> Void

    /// The machine behind the left pane.
    public let machine: LoadMachine
    /// The simulated server.
    public let server: LoadServer
    private let observers = Locked<[Observer]>([])

    /// A runner for `machine` and `server`.
    public init(machine: LoadMachine = LoadMachine(), server: LoadServer) {
        self.machine = machine
        self.server = server
    }

    /// Calls `observer` after every change (and once now).
    public func observe(_ observer: @escaping Observer) {
        observers.withLock { $0.append(observer) }
        observer(machine.state, machine.engine.history)
    }

    /// Sends the machine's state to `send` after every change, starting now.
    public func connect(_ send: Send<LoadScreenAction>) {
        observe { state, _ in send(.loadChanged(state)) }
    }

    /// Performs one effect.
    public func run(_ effect: LoadScreenEffect, send: Send<LoadScreenAction>) {
        switch effect {
        case .deliver(let action):
            machine.apply(action)
            let state = machine.state
            let history = machine.engine.history
            for observer in observers.withLock({ $0 }) { observer(state, history) }
        case .request(let fails):
            server.request(fails: fails) { send(.serverResponded($0)) }
        }
    }
}
