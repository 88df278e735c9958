import MachineDrivers
import StateMachineKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What every screen's runtime is built from (``DashboardScreen/makeRuntime(_:machines:)``): the machines'
/// clock, where simulated work waits, the seed every simulated draw comes from and the directory files are
/// written to. The live app, the demos and the tests build the same runtimes from different worlds.
package struct World: Sendable {
    /// The machines' clock.
    package let clock: AnyClock
    /// Where simulated work (transfers, the upload task, the load server) and status timers wait.
    package let scheduler: any SimulationScheduler
    /// The seed of every simulated draw.
    package let seed: UInt64
    /// Where files the dashboard writes go (the Graph screen's Mermaid exports).
    package let directory: String

    /// A world of its parts.
    package init(clock: AnyClock, scheduler: any SimulationScheduler, seed: UInt64, directory: String) {
        self.clock = clock
        self.scheduler = scheduler
        self.seed = seed
        self.directory = directory
    }

    /// The live world: real time on `clock`, files in the current directory.
    package static func live(clock: AnyClock = .continuous, seed: UInt64) -> World {
        World(
            clock: clock, scheduler: ClockScheduler(clock: clock), seed: seed, directory: currentDirectory)
    }

    /// The process's current directory, where the live dashboard writes files.
    package static var currentDirectory: String { FileManager.default.currentDirectoryPath }
}
