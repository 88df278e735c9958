/// How fast a simulated transfer moves, on its machine's clock.
public struct SimulationTiming: Hashable, Sendable {
    /// Time between two progress reports.
    public var tick: Duration
    /// How many ticks a whole transfer takes, from 0 to its outcome; each run picks a number in this range
    /// at random, so outcomes come at random times.
    public var ticksPerTransfer: ClosedRange<Int>
    /// How long a worker whose visit ended (paused, cancelled) lives on before its late callback arrives.
    public var lateCallbackDelay: Duration

    /// A timing.
    public init(tick: Duration, ticksPerTransfer: ClosedRange<Int>, lateCallbackDelay: Duration) {
        self.tick = tick
        self.ticksPerTransfer = ticksPerTransfer
        self.lateCallbackDelay = lateCallbackDelay
    }

    /// What the dashboard uses: a report every 150 ms, 8–20 s per transfer, a late callback after 300 ms.
    public static let dashboard = SimulationTiming(
        tick: .milliseconds(150), ticksPerTransfer: 53...133, lateCallbackDelay: .milliseconds(300))
}
