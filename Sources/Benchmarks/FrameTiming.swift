import TerminalUI

/// Wall-clock and thread-CPU-time percentiles of building frame `tick` (1…`iterations`) with `frame` and
/// diffing it with the frame before, every frame different; the first tenth is dropped as warm-up.
func measureFrames(iterations: Int, frame: (Int) -> Canvas) -> (wall: Percentiles, cpu: Percentiles) {
    let clock = ContinuousClock()
    var previous = frame(0)
    var wall: [Duration] = []
    var cpu: [Duration] = []
    wall.reserveCapacity(iterations)
    cpu.reserveCapacity(iterations)
    var changed = 0
    for tick in 1...iterations {
        let start = clock.now
        let cpuStart = threadCPUTime()
        let canvas = frame(tick)
        changed &+= canvas.forEachChange(from: previous) { _, _, _ in }
        cpu.append(threadCPUTime() - cpuStart)
        wall.append(clock.now - start)
        previous = canvas
    }
    precondition(changed > 0, "frames never differed")
    let warmUp = iterations / 10
    return (Percentiles(Array(wall.dropFirst(warmUp))), Percentiles(Array(cpu.dropFirst(warmUp))))
}

/// A headless 200×60 terminal that hands the store `keys` keys one at a time (`key` picks each from the
/// number still to come), then `q`, and times each key until the frame showing it has been drawn (view,
/// diff, and the draw call).
final class KeyTimingTerminal: Terminal {
    let size = Size(width: 200, height: 60)
    let wakeup = Wakeup()
    private let clock = ContinuousClock()
    private let keys: Int
    private let key: (Int) -> Key
    private var remaining: Int
    private var keyTime: ContinuousClock.Instant?
    private var previous: Canvas?
    private var samples: [Duration] = []

    init(keys: Int, key: @escaping (Int) -> Key) {
        self.keys = keys
        self.key = key
        remaining = keys
    }

    /// Key-to-frame percentiles, the first tenth of the keys dropped as warm-up.
    var latency: Percentiles {
        Percentiles(Array(samples.dropFirst(keys / 10)))
    }

    func draw(_ canvas: Canvas) -> DrawReport {
        let changed = canvas.forEachChange(from: previous) { _, _, _ in }
        previous = canvas
        if let keyTime {
            samples.append(clock.now - keyTime)
            self.keyTime = nil
        }
        return DrawReport(changedCells: changed, diff: .zero, flush: .zero)
    }

    func readKey(timeout: Duration?) -> Key? {
        if remaining == 0 { return .character("q") }
        remaining -= 1
        keyTime = clock.now
        return key(remaining)
    }

    func suspend() {}
    func resume() {}
    func restore() {}
}

/// What a flood run measured: how many values or machine changes were sent in `seconds`, how many frames
/// the store drew at its 60 fps cap, and resident memory before and after.
struct FloodFigures {
    var sent: Int
    var frames: Int
    var seconds: Int
    var residentStartKB: Int
    var residentEndKB: Int
    /// Peak resident size of the process that ran the flood (`VmHWM`), KB.
    var peakKB: Int
}
