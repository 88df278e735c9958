import Foundation
import ScreenStates
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

/// Peak resident set size of this process in bytes (Linux `VmHWM`), or nil where unavailable.
func peakResidentBytes() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let fields = line.split(separator: " ")
        if fields.count >= 2, let kilobytes = Int(fields[1]) { return kilobytes * 1024 }
    }
    return nil
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

/// Exploration rate on a ≥1M-state grid, memory per state, and checkModel sequences per second.
func runGraphBenchmarks() {
    let side: Int32 = 1024
    let moves = GridMove.allCases
    func move(_ cell: GridCell, _ move: GridMove) -> Transition<GridCell, GridMove> {
        switch move {
        case .up: .to(GridCell(row: cell.row == 0 ? side - 1 : cell.row - 1, column: cell.column))
        case .down: .to(GridCell(row: cell.row == side - 1 ? 0 : cell.row + 1, column: cell.column))
        case .left: .to(GridCell(row: cell.row, column: cell.column == 0 ? side - 1 : cell.column - 1))
        case .right: .to(GridCell(row: cell.row, column: cell.column == side - 1 ? 0 : cell.column + 1))
        }
    }
    let residentBefore = peakResidentBytes()
    var graph: StateGraph<GridCell, GridMove>?
    var best = Double.infinity
    var bestCPU = Double.infinity
    for _ in 0..<5 {
        graph = nil
        var wall = 0.0
        let cpu = threadSeconds {
            wall = seconds {
                graph = StateGraph.explore(
                    from: GridCell(row: 0, column: 0), events: moves, maximumStates: 2_000_000, transition: move)
            }
        }
        best = min(best, wall)
        bestCPU = min(bestCPU, cpu)
    }
    guard let graph else { fatalError("Internal inconsistency: the exploration loop ran no iteration") }
    let stateCount = graph.states.count
    precondition(
        stateCount == Int(side) * Int(side) && !graph.isTruncated, "grid exploration found \(stateCount) states")
    let statesPerSecond = Double(stateCount) / best
    let statesPerCPUSecond = Double(stateCount) / bestCPU
    let bytesPerState = Double(graph.approximateMemoryBytes) / Double(stateCount)
    let residentPerState = residentBefore.zipped(peakResidentBytes()).map { Double($0.1 - $0.0) / Double(stateCount) }

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
    let sequencesPerSecond = Double(sequences) / checkTime

    print("Graph benchmarks (release, single thread)")
    print(
        "  explore grid \(side)×\(side), 4 events   \(stateCount) states in \(String(format: "%.3f", best)) s  → \(String(format: "%.2f", statesPerSecond / 1e6)) M states/s (best of 5, wall)"
    )
    print(
        "  same, thread CPU time              \(String(format: "%.3f", bestCPU)) s  → \(String(format: "%.2f", statesPerCPUSecond / 1e6)) M states/s"
    )
    print("  retained memory per state          \(String(format: "%.1f", bytesPerState)) bytes (graph storage)")
    if let residentPerState {
        print(
            "  peak resident growth per state     \(String(format: "%.1f", residentPerState)) bytes (includes growth copies)"
        )
    }
    print(
        "  checkModel transfer, \(transferEvents.count) events, length 40   \(String(format: "%.0f", sequencesPerSecond)) sequences/s"
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
        "explore_seconds": best,
        "explore_states_per_second": statesPerSecond,
        "explore_states_per_cpu_second": statesPerCPUSecond,
        "bytes_per_state": bytesPerState,
        "peak_resident_bytes_per_state": residentPerState ?? -1,
        "check_model_sequences_per_second": sequencesPerSecond,
    ]
    for (name, times) in layouts {
        json["diagram_layout_\(name.split(separator: " ")[0])_median_ms"] =
            Double(layoutMilliseconds(times.median)) ?? -1
    }
    if let data = try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]),
        let line = String(data: data, encoding: .utf8)
    {
        print(line)
    }
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

extension Optional {
    /// Pairs two optionals: both values, or nil when either is missing.
    fileprivate func zipped<Other>(_ other: Other?) -> (Wrapped, Other)? {
        guard let self, let other else { return nil }
        return (self, other)
    }
}
