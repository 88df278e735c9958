import MachineDrivers
import SeedModels
import StateMachineKit
import TerminalUI

/// The Load screen in the dashboard (seed 002): the load machine on the world's clock and the simulated
/// server on the world's scheduler.
extension LoadFeature: DashboardScreen {
    package static let title = "Load"

    package static func makeRuntime(_ world: World, machines: [NamedMachine]) -> LoadRuntime {
        LoadRuntime(machine: LoadMachine(clock: world.clock.machineClock), server: LoadServer(scheduler: world.clock))
    }

    package static func machines(_ runtime: LoadRuntime) -> [NamedMachine] {
        [NamedMachine(name: "load", screen: .load, runtime.machine.engine)]
    }

    package static func initialState(
        _ runtime: LoadRuntime, mode: DashboardMode, machines: [NamedMachine]
    ) -> LoadScreenState {
        LoadScreenState()
    }

    package static func subscriptions(
        _ runtime: LoadRuntime, _ state: LoadScreenState, shown: Bool
    ) -> [Subscription<LoadScreenAction>] {
        feed(runtime).subscriptions(states: { .loadChanged($0) }, records: { .recordsChanged($0) })
    }

    package static func perform(_ effect: LoadScreenEffect, on runtime: LoadRuntime, send: Send<LoadScreenAction>) {
        runtime.run(effect)
    }

    /// The screen shows the machine's current state and newest record, and the request its visit asks for has
    /// begun.
    package static func isSettled(_ state: LoadScreenState, _ runtime: LoadRuntime, shown: Bool) -> Bool {
        runtime.isSetUp && feed(runtime).isShown(state.load, lastSequence: state.tally.lastSequence)
    }

    private static func feed(_ runtime: LoadRuntime) -> MachineFeed<LoadState, LoadAction> {
        MachineFeed("load", runtime.machine.engine)
    }

    package static func stop(_ runtime: LoadRuntime) {
        runtime.machine.engine.stop()
    }
}

extension Screen {
    /// The Load screen.
    package static let load = Screen(LoadFeature.self)
}
