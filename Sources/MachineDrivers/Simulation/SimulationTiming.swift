/// How fast a simulated transfer moves, on its machine's clock.
package struct SimulationTiming: Hashable, Sendable {
    /// Time between two progress reports.
    package var tick: Duration
    /// How many ticks a whole transfer takes, from 0 to its outcome; each run picks a number in this range
    /// at random, so outcomes come at random times.
    package var ticksPerTransfer: ClosedRange<Int>
    /// How long a worker whose visit ended (paused, cancelled) lives on before its late callback arrives.
    package var lateCallbackDelay: Duration

    /// A timing.
    package init(tick: Duration, ticksPerTransfer: ClosedRange<Int>, lateCallbackDelay: Duration) {
        self.tick = tick
        self.ticksPerTransfer = ticksPerTransfer
        self.lateCallbackDelay = lateCallbackDelay
    }

    /// What the dashboard uses: a report every 150 ms, 8–20 s per transfer, a late callback after 300 ms.
    package static let dashboard = SimulationTiming(
        tick: .milliseconds(150), ticksPerTransfer: 53...133, lateCallbackDelay: .milliseconds(300))
}
