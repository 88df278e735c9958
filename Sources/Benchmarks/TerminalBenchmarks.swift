import Foundation
import Synchronization
import TerminalUI

/// The terminal layer's benchmarks: a full 200×60 frame (view + diff), key-to-canvas latency through the
/// store on a headless terminal, and a subscription flood against the 60 fps cap. Prints a table and one
/// JSON line.
func runTerminalBenchmarks() async {
    let (render, renderCPU) = measureRender(iterations: 2000)
    let latency = measureKeyLatency(keys: 2000)
    let flood = await measureFlood(seconds: 1)
    let rows: [(String, String, String)] = [
        ("render 200x60 (build + diff)", micro(render.median), micro(render.p90)),
        ("render 200x60, thread CPU time", micro(renderCPU.median), micro(renderCPU.p90)),
        ("key to canvas (headless)", micro(latency.median), micro(latency.p90)),
        ("flood: values sent", "\(flood.values)", "\(flood.values / max(1, flood.seconds))/s"),
        (
            "flood: frames drawn", "\(flood.frames)",
            String(format: "%.1f fps", Double(flood.frames) / Double(max(1, flood.seconds)))
        ),
        ("flood: resident memory", "\(flood.residentStartKB) KB", "\(flood.residentEndKB) KB at end"),
    ]
    print("terminal                             median / value   p90 / detail")
    for (name, first, second) in rows {
        print(
            name.padding(toLength: 37, withPad: " ", startingAt: 0)
                + first.padding(toLength: 17, withPad: " ", startingAt: 0) + second)
    }
    let json = """
        {"group":"terminal","render_200x60_median_us":\(render.median.micro),"render_200x60_p90_us":\(render.p90.micro),\
        "render_200x60_cpu_median_us":\(renderCPU.median.micro),\
        "key_to_canvas_median_us":\(latency.median.micro),"key_to_canvas_p90_us":\(latency.p90.micro),\
        "flood_values":\(flood.values),"flood_frames":\(flood.frames),"flood_seconds":\(flood.seconds),\
        "rss_start_kb":\(flood.residentStartKB),"rss_end_kb":\(flood.residentEndKB)}
        """
    print(json)
}

extension Duration {
    fileprivate var micro: Double {
        let (seconds, attoseconds) = components
        return (Double(seconds) * 1e6 + Double(attoseconds) / 1e12).rounded(toPlaces: 1)
    }
}

extension Double {
    fileprivate func rounded(toPlaces places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (self * scale).rounded() / scale
    }
}

private func micro(_ duration: Duration) -> String {
    String(format: "%.1f µs", duration.micro)
}

/// A dashboard-like screen: tab bar, a boxed table of 56 rows with progress bars, a help bar.
private func benchmarkView(tick: Int, size: Size) -> Canvas {
    var canvas = Canvas(size: size)
    let rows = canvas.bounds.rows([.fixed(1), .fill, .fixed(1)])
    TabBar(titles: ["Transfers", "Upload", "Load", "Graph", "History"], selected: 0).render(in: rows[0], on: &canvas)
    let box = Box(title: "Transfers")
    box.render(in: rows[1], on: &canvas)
    let inner = box.inner(rows[1])
    let columns = [
        TableColumn("Name", width: .fixed(24)), TableColumn("Progress", width: .fixed(40)),
        TableColumn("State", width: .fill), TableColumn("Request", width: .fixed(8), alignment: .right),
    ]
    let count = max(0, inner.height - 1)
    let table = Table(
        columns: columns,
        rows: (0..<count).map { index in
            [
                Line("transfer-\(index).bin"), Line(""),
                Line("running(request: \(index), percent: \((index + tick) % 100))"), Line("\(index)"),
            ]
        },
        selected: tick % max(1, count)
    )
    table.render(in: inner, on: &canvas)
    for index in 0..<count {
        let cells = table.columnAreas(in: inner.row(index + 1))
        ProgressBar(fraction: Double((index + tick) % 100) / 100).render(in: cells[1], on: &canvas)
    }
    KeyHelpBar(items: [
        KeyHelp("↑/k", "up"), KeyHelp("↓/j", "down"), KeyHelp("s", "start"), KeyHelp("p", "pause"),
        KeyHelp("q", "quit"),
    ])
    .render(in: rows[2], on: &canvas)
    return canvas
}

/// Wall-clock and CPU-time percentiles of building a 200×60 dashboard frame and diffing it with the last.
private func measureRender(iterations: Int) -> (wall: Percentiles, cpu: Percentiles) {
    let clock = ContinuousClock()
    let size = Size(width: 200, height: 60)
    var previous = benchmarkView(tick: 0, size: size)
    var wall: [Duration] = []
    var cpu: [Duration] = []
    wall.reserveCapacity(iterations)
    cpu.reserveCapacity(iterations)
    var changed = 0
    for tick in 1...iterations {
        let start = clock.now
        let cpuStart = threadCPUTime()
        let canvas = benchmarkView(tick: tick, size: size)
        changed &+= canvas.forEachChange(from: previous) { _, _, _ in }
        cpu.append(threadCPUTime() - cpuStart)
        wall.append(clock.now - start)
        previous = canvas
    }
    precondition(changed > 0, "frames never differed")
    let warmUp = iterations / 10
    return (Percentiles(Array(wall.dropFirst(warmUp))), Percentiles(Array(cpu.dropFirst(warmUp))))
}

/// A headless terminal that delivers keys one at a time and measures from handing a key over to the next
/// frame being drawn.
private final class LatencyTerminal: Terminal {
    let size = Size(width: 200, height: 60)
    let wakeup = Wakeup()
    private let clock = ContinuousClock()
    private var remaining: Int
    private var keyTime: ContinuousClock.Instant?
    private var previous: Canvas?
    private(set) var samples: [Duration] = []

    init(keys: Int) {
        remaining = keys
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
        return .down
    }

    func suspend() {}
    func resume() {}
    func restore() {}
}

private func measureKeyLatency(keys: Int) -> Percentiles {
    struct State: Equatable, Sendable {
        var selected = 0
        var quit = false
    }
    enum Action: Sendable {
        case down, quit
    }
    let app = App<State, Action, Never>(
        initialState: State(),
        reduce: { state, action in
            switch action {
            case .down: state.selected += 1
            case .quit: state.quit = true
            }
            return []
        },
        view: { state, size in benchmarkView(tick: state.selected, size: size) },
        keymap: { key, _ in
            switch key {
            case .down: .down
            case .character("q"): .quit
            default: nil
            }
        },
        isFinished: { $0.quit }
    )
    let terminal = LatencyTerminal(keys: keys)
    app.run(on: terminal, pacer: FramePacer(minimumInterval: .zero))
    return Percentiles(Array(terminal.samples.dropFirst(keys / 10)))
}

private struct FloodResult {
    var values: Int
    var frames: Int
    var seconds: Int
    var residentStartKB: Int
    var residentEndKB: Int
}

/// Resident memory in KB from /proc (0 where there is none).
private func residentKB() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}

/// A producer sends values as fast as it can for `seconds`; the store keeps the newest and draws at ≤ 60 fps.
private func measureFlood(seconds: Int) async -> FloodResult {
    struct State: Equatable, Sendable {
        var latest = 0
        var done = false
    }
    enum Action: Sendable {
        case value(Int)
        case done
    }
    let sent = Atomic<Int>(0)
    let stream = AsyncStream<Int?>(bufferingPolicy: .bufferingNewest(1)) { continuation in
        let thread = Thread {
            let clock = ContinuousClock()
            let end = clock.now + .seconds(seconds)
            var value = 0
            while clock.now < end {
                for _ in 0..<1000 {
                    value += 1
                    continuation.yield(value)
                }
            }
            sent.store(value, ordering: .relaxed)
            continuation.yield(nil)
            continuation.finish()
        }
        thread.start()
    }
    let app = App<State, Action, Never>(
        initialState: State(),
        reduce: { state, action in
            switch action {
            case .value(let value): state.latest = value
            case .done: state.done = true
            }
            return []
        },
        view: { state, size in benchmarkView(tick: state.latest, size: size) },
        keymap: { _, _ in nil },
        isFinished: { $0.done },
        subscriptions: [Subscription(stream) { value in value.map(Action.value) ?? .done }]
    )
    let terminal = HeadlessTerminal(size: Size(width: 200, height: 60))
    let start = residentKB()
    _ = await app.run(detachedOn: terminal)
    return FloodResult(
        values: sent.load(ordering: .relaxed), frames: terminal.frameCount, seconds: seconds, residentStartKB: start,
        residentEndKB: residentKB())
}
