import MachineDrivers
import StateMachineKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What every screen's runtime is built from (``DashboardScreen/makeRuntime(_:machines:)``): the one clock the
/// machines run on and the simulated work and status timers wait on, the seed every simulated draw comes
/// from and the directory files are written to. The live app, the demos and the tests build the same runtimes
/// from different worlds.
package struct World: Sendable {
    /// The world's time: the machines' clock and where simulated work waits, on one timeline.
    package let clock: any SimulationClock
    /// The seed of every simulated draw.
    package let seed: UInt64
    /// Where files the dashboard writes go (the Graph screen's Mermaid exports).
    package let directory: String

    /// A world of its parts.
    package init(clock: any SimulationClock, seed: UInt64, directory: String) {
        self.clock = clock
        self.seed = seed
        self.directory = directory
    }

    /// The live world: real time on `clock`, files in the current directory.
    package static func live(clock: AnyClock = .continuous, seed: UInt64) -> World {
        World(clock: LiveClock(clock: clock), seed: seed, directory: currentDirectory)
    }

    /// The process's current directory, where the live dashboard writes files.
    package static var currentDirectory: String { FileManager.default.currentDirectoryPath }
}
