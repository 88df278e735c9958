import MachineDrivers
import StateMachineKit
import TerminalUI

/// The dashboard's edges: one runtime per screen of ``Screen/registry``, each built from the one ``World``
/// (the machines, the work they ask for), with the effect runner, the subscriptions and the status timers.
/// Everything the pure parts (reducer, keymap, view) never touch.
///
/// The store learns of the machines only through subscriptions: each machine's `states()` and its change feed
/// (`records(after:)`). Runtimes act on machines and never report changes themselves.
package struct DashboardEnvironment: Sendable {
    /// What the runtimes were built from.
    package let world: World
    /// Each screen's runtime, in ``Screen/registry``'s order.
    private let runtimes: [any Sendable]
    /// Every machine the screens' runtimes hold, in the registry's order (History's list).
    package let machines: [NamedMachine]
    /// Whether `q` asks before stopping transfers under way (``AppState/confirmsQuit``): on for real copies.
    package var confirmsQuit = false
    /// The keys and the theme a configuration file sets (``AppState/settings``).
    package var settings = DashboardSettings()
    /// The demo dashboard or `statetui copy`'s: its screens, its total row and whether `f` injects faults.
    package var mode = DashboardMode.demo
    /// The timers of the status messages shown.
    let statusExpiry = StatusExpiry()

    /// Every screen's runtime built from `world`, in the registry's order (each given the machines of the
    /// screens before it), but those `replacing` gives (`statetui copy` passes its real copies).
    package init(world: World, replacing given: [Screen: any Sendable] = [:]) {
        var runtimes: [any Sendable] = []
        var machines: [NamedMachine] = []
        for entry in Screen.registry {
            let runtime = given[entry.screen] ?? entry.makeRuntime(world, machines)
            runtimes.append(runtime)
            // Only when there are any: appending none to the list History's runtime shares would copy it. Grown to
            // exactly what it holds: grown by appending, the list kept room for twice a copy dashboard's rows (its
            // rows, then Upload's one machine).
            let published = entry.machines(runtime)
            if !published.isEmpty {
                machines.reserveCapacity(machines.count + published.count)
                machines += published
            }
        }
        self.world = world
        self.runtimes = runtimes
        self.machines = machines
    }

    /// The live dashboard: simulated work on `clock`, drawn from `seed`; `replacing` replaces runtimes.
    package static func live(
        clock: AnyClock = .continuous, seed: UInt64, replacing given: [Screen: any Sendable] = [:]
    ) -> DashboardEnvironment {
        DashboardEnvironment(world: .live(clock: clock, seed: seed), replacing: given)
    }

    /// The runtime of the screen `kind`.
    package func runtime<Kind: DashboardScreen>(_ kind: Kind.Type) -> Kind.Runtime {
        guard let runtime = runtimes[Self.index(of: Screen(kind))] as? Kind.Runtime else {
            preconditionFailure("Internal inconsistency: no \(Kind.Runtime.self) for \(Screen(kind))")
        }
        return runtime
    }

    /// The app state before any snapshot arrived.
    package var initialState: AppState {
        let shown = machines.filter { mode.screens.contains($0.screen) }
        var state = AppState(
            screen: mode.screens.first ?? Screen.allCases[0],
            states: Screen.registry.indices.map { Screen.registry[$0].initialState(runtimes[$0], mode, shown) })
        state.screens = mode.screens
        state.confirmsQuit = confirmsQuit
        state.settings = settings
        return state
    }

    /// Performs one effect (the app's effect runner) on the runtime of the screen it belongs to.
    package func perform(_ effect: AppEffect, send: Send<AppAction>) {
        let index = Self.index(of: effect.value.screen)
        Screen.registry[index].perform(effect.value, runtimes[index], send)
    }

    /// The subscriptions `state` asks for: each screen's, in the registry's order (every machine's `states()`
    /// and change feed; the History screen's selected machine's records only while that screen is shown), then
    /// a timer for each status message shown (``StatusExpiry``), named for the message's number, so a new
    /// message gets a timer of its own even when it says the same as the one before.
    package func subscriptions(for state: AppState) -> [Subscription<AppAction>] {
        Screen.registry.indices.flatMap { Screen.registry[$0].subscriptions(runtimes[$0], state) }
            + statusMessages(state).map { statusExpiry.subscription(id: $0.id, on: world.clock, $0.expired) }
    }

    /// The status messages `state` shows, each with the id of its timer and the action that clears it.
    func statusMessages(_ state: AppState) -> [(id: String, expired: AppAction)] {
        // The app's own message (what `y` copied) beside each screen's.
        let yank: [(id: String, expired: AppAction)] =
            state.yank.message.map { [("yank.\($0.number)", .yankExpired($0))] } ?? []
        return yank + Screen.registry.flatMap { $0.statusMessages(state) }
    }

    /// Whether every status message `state` shows has its timer set and not fired.
    package func statusTimersAreSet(_ state: AppState) -> Bool {
        statusMessages(state).allSatisfy { statusExpiry.isPending($0.id) }
    }

    /// Whether `state` has caught up with the world: every screen's own condition (it shows its machines'
    /// current states and newest records, the work each machine's visit asks for has begun) and every status
    /// message shown has its timer set and not fired. A deterministic condition on the machines, read only to
    /// know when to take the next step of a script; the state itself came through the subscriptions.
    package func isSettled(_ state: AppState) -> Bool {
        Screen.registry.indices.allSatisfy { Screen.registry[$0].isSettled(state, runtimes[$0]) }
            && statusTimersAreSet(state)
    }

    /// Stops every machine and worker.
    package func stop() {
        for index in Screen.registry.indices { Screen.registry[index].stop(runtimes[index]) }
    }

    private static func index(of screen: Screen) -> Int {
        guard let index = Screen.registry.firstIndex(where: { $0.screen == screen }) else {
            preconditionFailure("Internal inconsistency: \(screen) is not in Screen.registry")
        }
        return index
    }
}
