import Foundation
import Synchronization
import TerminalUI

/// The terminal layer's benchmarks: a full 200×60 frame (view + diff), key-to-canvas latency through the
/// store on a headless terminal, a subscription flood against the 60 fps cap, and the store's cost per effect
/// when effects come in bursts (run in order). Prints a table and one JSON line.
func runTerminalBenchmarks() async {
    let (render, renderCPU) = measureRender(iterations: 2000)
    let latency = measureKeyLatency(keys: 2000)
    let flood = await measureFlood(seconds: 1)
    let effects = await measureEffectBursts(runs: 15, keys: 20, effectsPerKey: 100)
    let rows: [(String, String, String)] = [
        ("render 200x60 (build + diff)", microseconds(render.median), microseconds(render.p90)),
        ("render 200x60, thread CPU time", microseconds(renderCPU.median), microseconds(renderCPU.p90)),
        ("key to canvas (headless)", microseconds(latency.median), microseconds(latency.p90)),
        ("flood: values sent", "\(flood.sent)", "\(flood.sent / max(1, flood.seconds))/s"),
        (
            "flood: frames drawn", "\(flood.frames)",
            String(format: "%.1f fps", Double(flood.frames) / Double(max(1, flood.seconds)))
        ),
        ("flood: resident memory", "\(flood.residentStartKB) KB", "\(flood.residentEndKB) KB at end"),
        ("effects in bursts of 100, each", nanoseconds(effects.median), nanoseconds(effects.p90) + " p90"),
    ]
    printFigureTable(group: "terminal", rows: rows)
    let json = """
        {"group":"terminal","render_200x60_median_us":\(render.median.microsecondsValue),"render_200x60_p90_us":\(render.p90.microsecondsValue),\
        "render_200x60_cpu_median_us":\(renderCPU.median.microsecondsValue),\
        "key_to_canvas_median_us":\(latency.median.microsecondsValue),"key_to_canvas_p90_us":\(latency.p90.microsecondsValue),\
        "flood_values":\(flood.sent),"flood_frames":\(flood.frames),"flood_seconds":\(flood.seconds),\
        "rss_start_kb":\(flood.residentStartKB),"rss_end_kb":\(flood.residentEndKB),\
        "effect_in_burst_median_ns":\(effects.median.nanosecondsValue),\
        "effect_in_burst_p90_ns":\(effects.p90.nanosecondsValue)}
        """
    print(json)
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

/// Building a 200×60 dashboard-like frame and diffing it with the previous one, every frame different.
private func measureRender(iterations: Int) -> (wall: Percentiles, cpu: Percentiles) {
    let size = Size(width: 200, height: 60)
    return measureFrames(iterations: iterations) { tick in benchmarkView(tick: tick, size: size) }
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
        keymap: { key, _, _ in
            switch key {
            case .down: .down
            case .character("q"): .quit
            default: nil
            }
        },
        isFinished: { $0.quit }
    )
    let terminal = KeyTimingTerminal(keys: keys) { _ in .down }
    app.run(on: terminal, pacer: FramePacer(minimumInterval: .zero))
    return terminal.latency
}

/// A producer sends values as fast as it can for `seconds`; the store keeps the newest and draws at ≤ 60 fps.
private func measureFlood(seconds: Int) async -> FloodFigures {
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
        keymap: { _, _, _ in nil },
        isFinished: { $0.done },
        subscriptions: [Subscription(stream) { value in value.map(Action.value) ?? .done }]
    )
    let terminal = HeadlessTerminal(size: Size(width: 200, height: 60))
    let start = ownResidentKB()
    _ = await app.run(detachedOn: terminal)
    return FloodFigures(
        sent: sent.load(ordering: .relaxed), frames: terminal.frameCount, seconds: seconds, residentStartKB: start,
        residentEndKB: ownResidentKB(), peakKB: (peakResidentBytes() ?? 0) / 1024)
}

/// Effects asked for in bursts through the store, in order: each of `keys` keys asks for `effectsPerKey`
/// effects, each feeding one action back. Per run, the wall time from the start until the last effect's action
/// is reduced, divided by the number of effects; percentiles over `runs` runs.
private func measureEffectBursts(runs: Int, keys: Int, effectsPerKey: Int) async -> Percentiles {
    struct State: Equatable, Sendable {
        var ended = 0
    }
    let total = keys * effectsPerKey
    let app = App<State, Bool, Int>(
        initialState: State(),
        reduce: { state, isEnd in
            guard isEnd else { return Array(0..<effectsPerKey) }
            state.ended += 1
            return []
        },
        view: { state, size in
            var canvas = Canvas(size: size)
            canvas.write("\(state.ended)", at: Point(x: 0, y: 0))
            return canvas
        },
        keymap: { _, _, _ in false },
        isFinished: { $0.ended == total },
        runEffect: { _, send in send(true) }
    )
    var samples: [Duration] = []
    for _ in 0..<runs {
        let terminal = HeadlessTerminal(
            size: Size(width: 20, height: 1), script: Array(repeating: .key(.character("e")), count: keys))
        let clock = ContinuousClock()
        let start = clock.now
        _ = await app.run(detachedOn: terminal)
        samples.append((clock.now - start) / total)
    }
    return Percentiles(samples)
}

/// `duration` as "123 ns".
private func nanoseconds(_ duration: Duration) -> String {
    String(format: "%.0f ns", duration.nanosecondsValue)
}

extension Duration {
    /// Nanoseconds, whole.
    fileprivate var nanosecondsValue: Double {
        let (seconds, attoseconds) = components
        return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9).rounded()
    }
}
