import Foundation
import SeedModels
import StateMachineDiagrams
import StateMachineKit
import StateMachineTesting
import Support

/// A cell of a grid of two counters that wrap around: the synthetic machine for exploration speed.
struct GridCell: Hashable, Sendable {
    var row: Int32
    var column: Int32
}

/// The four moves on the grid.
enum GridMove: Hashable, Sendable, CaseIterable {
    case up, down, left, right
}

/// A transfer-like machine for model-checking speed: idle, running with a request and percent,
/// paused, completed, failed; stale and duplicate events are part of the alphabet.
enum CheckedTransfer: Hashable, Sendable, CustomStringConvertible {
    case idle(nextRequest: Int)
    case running(request: Int, percent: Int)
    case paused(request: Int, percent: Int)
    case completed(request: Int)
    case failed(request: Int)

    var description: String {
        switch self {
        case .idle(let next): "idle(nextRequest: \(next))"
        case .running(let request, let percent): "running(request: \(request), percent: \(percent))"
        case .paused(let request, let percent): "paused(request: \(request), percent: \(percent))"
        case .completed(let request): "completed(request: \(request))"
        case .failed(let request): "failed(request: \(request))"
        }
    }

    /// The request a running, paused or settled transfer belongs to, if any.
    var request: Int? {
        switch self {
        case .idle: nil
        case .running(let request, _), .paused(let request, _), .completed(let request), .failed(let request): request
        }
    }
}

/// Events of the transfer-like machine; progress and outcomes carry the request they belong to.
enum CheckedTransferEvent: Hashable, Sendable {
    case start, pause, resume, cancel, reset
    case progress(request: Int, percent: Int)
    case succeeded(request: Int)
    case failed(request: Int)
}

/// The transfer-like transition: rejects stale requests and decreasing progress.
func checkedTransfer(_ state: CheckedTransfer, _ event: CheckedTransferEvent) -> Transition<
    CheckedTransfer, CheckedTransferEvent
> {
    switch (state, event) {
    case (.idle(let next), .start): return .to(.running(request: next, percent: 0))
    case (.running(let request, let percent), .pause): return .to(.paused(request: request, percent: percent))
    case (.paused(let request, let percent), .resume): return .to(.running(request: request + 1, percent: percent))
    case (.running(let request, let percent), .progress(let current, let next)):
        guard current == request else { return .ignore }
        return next >= percent && next <= 100
            ? .update(.running(request: request, percent: next)) : .invalid("progress went backwards")
    case (.running(let request, _), .succeeded(let current)):
        return current == request ? .to(.completed(request: request)) : .ignore
    case (.running(let request, _), .failed(let current)):
        return current == request ? .to(.failed(request: request)) : .ignore
    case (.running(let request, _), .cancel), (.paused(let request, _), .cancel):
        return .to(.idle(nextRequest: request + 1))
    case (.completed(let request), .reset), (.failed(let request), .reset):
        return .to(.idle(nextRequest: request + 1))
    case (.idle, _), (.running, _), (.paused, _), (.completed, _), (.failed, _):
        return .ignore
    }
}

/// Seconds taken by `body`, measured on the continuous clock.
func seconds(_ body: () -> Void) -> Double {
    let elapsed = ContinuousClock().measure(body)
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// CPU seconds this thread spent in `body`: unlike wall time, not inflated while other processes
/// hold the machine's cores.
func threadSeconds(_ body: () -> Void) -> Double {
    func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
    let start = now()
    body()
    return now() - start
}

/// The side of the benchmark torus: side × side states, each with four neighbours.
let torusSide: Int32 = 1024

/// The move on the torus: every move leads to a neighbouring cell, wrapping at the edges.
@Sendable func torusMove(_ cell: GridCell, _ move: GridMove) -> Transition<GridCell, GridMove> {
    let side = torusSide
    switch move {
    case .up: return .to(GridCell(row: cell.row == 0 ? side - 1 : cell.row - 1, column: cell.column))
    case .down: return .to(GridCell(row: cell.row == side - 1 ? 0 : cell.row + 1, column: cell.column))
    case .left: return .to(GridCell(row: cell.row, column: cell.column == 0 ? side - 1 : cell.column - 1))
    case .right: return .to(GridCell(row: cell.row, column: cell.column == side - 1 ? 0 : cell.column + 1))
    }
}

/// The floor exploration is measured against: a single-threaded breadth-first search with a `Set` of
/// visited states and an array as its queue, recording no edges. Returns the number of states.
@inline(never)
func bareTorusSearch() -> Int {
    let moves = GridMove.allCases
    var seen: Set<GridCell> = [GridCell(row: 0, column: 0)]
    var queue = [GridCell(row: 0, column: 0)]
    var cursor = 0
    while cursor < queue.count {
        let cell = queue[cursor]
        cursor += 1
        for move in moves {
            guard case .to(let next, _) = torusMove(cell, move) else { continue }
            if seen.insert(next).inserted { queue.append(next) }
        }
    }
    return queue.count
}

/// One contender of the exploration benchmark: its wall seconds and peak resident growth per run.
struct ExplorationSamples {
    var name: String
    var seconds: [Double] = []
    /// CPU seconds of the whole process (every thread) per run: what the load of other processes barely skews.
    var cpuSeconds: [Double] = []
    var residentGrowth: [Int] = []

    /// The median of `values` (the upper one of an even count).
    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    var medianSeconds: Double { Self.median(seconds) }

    /// Wall seconds and process CPU seconds of `body`.
    static func measure(_ body: () -> Void) -> (wall: Double, cpu: Double) {
        func cpuNow() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        let start = cpuNow()
        let wall = Benchmarks.seconds(body)
        return (wall, cpuNow() - start)
    }
    /// Median, fastest and slowest run as "0.412 s (0.398–0.455)".
    var summary: String {
        String(format: "%.3f s (%.3f–%.3f)", medianSeconds, seconds.min() ?? 0, seconds.max() ?? 0)
    }
}

/// The torus explored by the bare search, by `explore` on one worker and on every core, and by the default
/// `explore` (every core for the look-ups, the transition on the calling thread), in alternated rounds so that
/// the machine's load falls on all alike; returns the figures and the last graph.
func torusExplorationRounds(_ rounds: Int) -> (samples: [ExplorationSamples], graph: StateGraph<GridCell, GridMove>) {
    returnLargeBlocksWhenFreed()
    let cores = ExplorationWorkers.allCores
    var bare = ExplorationSamples(name: "bare Set + array BFS")
    var one = ExplorationSamples(name: "explore, 1 worker")
    var byDefault = ExplorationSamples(name: "explore, default (look-ups shared)")
    var all = ExplorationSamples(name: "explore, \(cores) (all cores)")
    var graph: StateGraph<GridCell, GridMove>?
    let expected = Int(torusSide) * Int(torusSide)
    /// `workers` nil: the default entry.
    func explore(_ workers: ExplorationWorkers?, into samples: inout ExplorationSamples) {
        graph = nil
        var time = (wall: 0.0, cpu: 0.0)
        let growth = peakResidentGrowth {
            time = ExplorationSamples.measure {
                if let workers {
                    graph = StateGraph.explore(
                        from: GridCell(row: 0, column: 0), events: GridMove.allCases, maximumStates: 2_000_000,
                        workers: workers, transition: torusMove)
                } else {
                    graph = StateGraph.explore(
                        from: GridCell(row: 0, column: 0), events: GridMove.allCases, maximumStates: 2_000_000,
                        transition: torusMove)
                }
            }
        }
        precondition(graph?.states.count == expected && graph?.isTruncated == false, "torus exploration went wrong")
        samples.seconds.append(time.wall)
        samples.cpuSeconds.append(time.cpu)
        samples.residentGrowth.append(growth ?? -1)
    }
    for round in 0..<rounds {
        // Rotate the order, so no contender always runs first after a pause or last in a busy spell.
        for contender in 0..<4 {
            switch (round + contender) % 4 {
            case 0:
                var found = 0
                var time = (wall: 0.0, cpu: 0.0)
                let growth = peakResidentGrowth { time = ExplorationSamples.measure { found = bareTorusSearch() } }
                precondition(found == expected, "the bare search found \(found) states")
                bare.seconds.append(time.wall)
                bare.cpuSeconds.append(time.cpu)
                bare.residentGrowth.append(growth ?? -1)
            case 1: explore(.one, into: &one)
            case 2: explore(nil, into: &byDefault)
            default: explore(cores, into: &all)
            }
        }
    }
    guard let graph else { fatalError("Internal inconsistency: the exploration rounds ran no exploration") }
    return ([bare, one, byDefault, all], graph)
}

/// Exploration rate on a ≥1M-state torus beside a bare search, memory per state, and checkModel
/// sequences per second.
func runGraphBenchmarks() {
    let side = torusSide
    let rounds = 7
    let load = loadAverage()
    let (samples, graph) = torusExplorationRounds(rounds)
    let stateCount = graph.states.count
    let stateBytes = graph.states.capacity * MemoryLayout<GridCell>.stride
    let beyondStates = Double(graph.approximateMemoryBytes - stateBytes) / Double(stateCount)
    let statesPerState = Double(MemoryLayout<GridCell>.stride)
    let check = checkModelRate()

    print("Graph benchmarks (release; load average \(load) at the start)")
    print(
        "  torus \(side)×\(side), 4 events, \(stateCount) states; \(rounds) alternated rounds, median (fastest–slowest)"
    )
    for contender in samples { print(explorationRow(contender, bare: samples[0], last: samples.last, stateCount)) }
    print(
        "  retained graph memory per state    \(String(format: "%.1f", beyondStates)) bytes beyond the states' \(Int(statesPerState)) (counted capacity; target ≤ 20)"
    )
    print(
        "  checkModel transfer, \(check.events) events, length 40   \(String(format: "%.0f", check.sequencesPerSecond)) sequences/s"
    )
    let layouts = diagramLayoutTimes()
    for (name, times) in layouts {
        print(
            "  text layout, \(name)   median \(layoutMilliseconds(times.median)) ms, p90 \(layoutMilliseconds(times.p90)) ms (thread CPU)"
        )
    }
    var json: [String: Any] = [
        "group": "graph",
        "explore_states": stateCount,
        "bytes_per_state_beyond_states": beyondStates,
        "check_model_sequences_per_second": check.sequencesPerSecond,
    ]
    for (key, contender) in zip(["bare", "explore_1_worker", "explore_default", "explore_all_cores"], samples) {
        json["\(key)_median_seconds"] = contender.medianSeconds
        json["\(key)_median_cpu_seconds"] = ExplorationSamples.median(contender.cpuSeconds)
        json["\(key)_states_per_second"] = Double(stateCount) / contender.medianSeconds
        let growth = contender.residentGrowth.filter { $0 >= 0 }.map(Double.init)
        json["\(key)_peak_resident_bytes_per_state"] =
            growth.isEmpty ? -1 : ExplorationSamples.median(growth) / Double(stateCount)
        if key != "bare" { json["\(key)_ratio_to_bare"] = ExplorationSamples.median(ratios(contender, to: samples[0])) }
    }
    for (name, times) in layouts {
        json["diagram_layout_\(name.split(separator: " ")[0])_median_ms"] =
            Double(layoutMilliseconds(times.median)) ?? -1
    }
    printJSONLine(json)
}

/// The bare search's time over `contender`'s, round by round (the same minutes of load); their median is
/// reported.
private func ratios(_ contender: ExplorationSamples, to bare: ExplorationSamples) -> [Double] {
    zip(bare.seconds, contender.seconds).map { $0 / $1 }
}

/// One exploration's line of the table: its times, rate, CPU, ratio to the bare search (`last`, all cores,
/// with its target) and peak resident growth per state.
private func explorationRow(
    _ contender: ExplorationSamples, bare: ExplorationSamples, last: ExplorationSamples?, _ stateCount: Int
) -> String {
    let rate = Double(stateCount) / contender.medianSeconds / 1e6
    var line = "    \(contender.name.padding(toLength: 36, withPad: " ", startingAt: 0)) \(contender.summary)"
    line += String(format: "  %.2f M states/s", rate)
    let cpu = contender.cpuSeconds
    line += String(format: ", CPU %.3f s (%.3f–%.3f)", ExplorationSamples.median(cpu), cpu.min() ?? 0, cpu.max() ?? 0)
    if contender.name != bare.name {
        let each = ratios(contender, to: bare)
        line += String(
            format: "  %.2f× the bare BFS (%.2f–%.2f)", ExplorationSamples.median(each), each.min() ?? 0,
            each.max() ?? 0)
        if contender.name == last?.name { line += " (target ≥ 2×)" }
    }
    let growth = contender.residentGrowth.filter { $0 >= 0 }.map(Double.init)
    if !growth.isEmpty {
        line += String(format: ", peak RSS +%.1f B/state", ExplorationSamples.median(growth) / Double(stateCount))
    }
    return line
}

/// checkModel's speed on the bench transfer model: random sequences of length 40 a second, and how many events
/// they are drawn from.
private func checkModelRate() -> (events: Int, sequencesPerSecond: Double) {
    let transferEvents: [CheckedTransferEvent] = [
        .start, .pause, .resume, .cancel, .reset,
        .progress(request: 0, percent: 10), .progress(request: 0, percent: 50), .progress(request: 1, percent: 100),
        .succeeded(request: 0), .succeeded(request: 1), .failed(request: 0), .failed(request: 1),
    ]
    let sequences = 2_000
    var counterexample: Counterexample<CheckedTransfer, CheckedTransferEvent>?
    let checkTime = seconds {
        counterexample = checkModel(
            from: .idle(nextRequest: 0), events: transferEvents, transition: checkedTransfer,
            invariant: { state in
                if case .running(_, let percent) = state { return (0...100).contains(percent) }
                return true
            },
            sequences: sequences, maximumLength: 40, seed: 1)
    }
    precondition(counterexample == nil, "the bench transfer model failed: \(String(describing: counterexample))")
    return (transferEvents.count, Double(sequences) / checkTime)
}

/// Thread CPU time of `DiagramLayout` for a random 30-state graph (seeded, about 48 edges with self-loops and
/// cycles) and for the transfer model collapsed and whole, each the median of many runs.
func diagramLayoutTimes() -> [(name: String, times: Percentiles)] {
    var generator = SplitMix64(seed: 30)
    let random = DiagramGraph.random(nodeCount: 30, edgesPerNode: 1.6, using: &generator)
    let transfer = ScreenModel.transfer.diagram
    let cases: [(String, DiagramGraph, Int)] = [
        ("random30 (30 states, \(random.edges.count) edges)", random, 200),
        ("transfer_collapsed (\(transfer.collapsed.nodes.count) states)", transfer.collapsed, 200),
        ("transfer_full (\(transfer.full.nodes.count) states)", transfer.full, 50),
    ]
    return cases.map { name, graph, runs in
        var samples: [Duration] = []
        var width = 0
        for _ in 0..<runs {
            let start = threadCPUTime()
            width = DiagramLayout(graph).width
            samples.append(threadCPUTime() - start)
        }
        precondition(width > 0, "the \(name) layout is empty")
        return (name, Percentiles(samples))
    }
}

/// `duration` in milliseconds with three decimals, for the layout figures.
private func layoutMilliseconds(_ duration: Duration) -> String {
    let components = duration.components
    return String(format: "%.3f", Double(components.seconds) * 1e3 + Double(components.attoseconds) / 1e15)
}
