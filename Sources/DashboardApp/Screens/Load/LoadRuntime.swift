import MachineDrivers
import SeedModels
import StateMachineKit
import Support
import TerminalUI

/// The Load screen's edge: the load machine and the simulated server. A request is the machine's `whileIn`
/// work while it loads, holding the `Sender` of its run, so a response for a request the machine is done
/// with (a late duplicate after a failure) is dropped there as stale. State changes reach the screen only
/// through the machine's `states()` and records, never from here.
package final class LoadRuntime: Sendable {
    /// The machine behind the left pane.
    package let machine: LoadMachine
    /// The simulated server.
    package let server: LoadServer
    private let nextFails = Locked(false)
    private let runs: RunTracker

    /// A runtime for `machine` and `server`.
    package init(machine: LoadMachine = LoadMachine(), server: LoadServer) {
        self.machine = machine
        self.server = server
        runs = RunTracker(scheduler: server.scheduler)
        machine.engine.whileIn(where: Self.requests, label: "load request") { [weak self] sender in
            guard let self else { return }
            let fails = nextFails.withLock { fails in
                defer { fails = false }
                return fails
            }
            await WorkHold.run(
                { finish in
                    self.server.request(fails: fails) { response in
                        sender.send(response)
                        finish()
                    }
                    self.runs.began(visit: sender.visit)
                }, onCancel: {})
        }
    }

    /// The states a request is in flight in: loading.
    static func requests(_ state: LoadState) -> Bool {
        switch state {
        case .loading: true
        case .idle, .loaded, .failed: false
        }
    }

    /// Whether the request the current visit asks for has begun (a scripted demo waits for it).
    package var isSetUp: Bool { runs.isSetUp(machine.engine, runs: Self.requests) }

    /// Performs one effect.
    package func run(_ effect: LoadScreenEffect) {
        switch effect {
        case .refresh(let fails):
            nextFails.withLock { $0 = fails }
            if machine.apply(.refreshTapped) != .moved { nextFails.withLock { $0 = false } }
        case .answerLate:
            server.answerLate()
        }
    }
}
