import Foundation
import StateMachineKit
import Synchronization

// MARK: - Machines under test

/// The turnstile: every event is a `.to`, so every event ends a visit and starts the next.
enum BenchTurnstile: Hashable, Sendable, CustomStringConvertible {
    case locked, unlocked

    var description: String {
        switch self {
        case .locked: "locked"
        case .unlocked: "unlocked"
        }
    }
}

enum BenchCoinOrPush: Hashable, Sendable, CustomStringConvertible {
    case coin, push

    var description: String {
        switch self {
        case .coin: "coin"
        case .push: "push"
        }
    }
}

/// A data-carrying machine: a request whose progress is an `.update` of a state with associated values.
enum BenchTransfer: Hashable, Sendable, CustomStringConvertible {
    case idle(completed: Int)
    case running(request: Int, percent: Int, bytes: Int)
    case done(request: Int, bytes: Int)

    var description: String {
        switch self {
        case .idle(let completed): "idle(completed: \(completed))"
        case .running(let request, let percent, let bytes):
            "running(request: \(request), percent: \(percent), bytes: \(bytes))"
        case .done(let request, let bytes): "done(request: \(request), bytes: \(bytes))"
        }
    }
}

enum BenchTransferEvent: Hashable, Sendable, CustomStringConvertible {
    case start(request: Int)
    case progress(percent: Int, bytes: Int)
    case finish
    case reset

    var description: String {
        switch self {
        case .start(let request): "start(request: \(request))"
        case .progress(let percent, let bytes): "progress(percent: \(percent), bytes: \(bytes))"
        case .finish: "finish"
        case .reset: "reset"
        }
    }
}

/// The state after `transition`, decided by a switch written here so that nothing generic is called.
@inline(__always)
func apply<State, Event>(_ transition: Transition<State, Event>, to state: State) -> State {
    switch transition {
    case .to(let next, _), .update(let next): next
    case .stay, .ignore, .invalid, .postpone: state
    }
}

/// A `Mutex` on the heap, where a shared lock lives (the engine's is in its machine object).
final class SharedMutex<Value: Sendable>: Sendable {
    let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }
}

// The floor (a) is measured, not optimised away: in the release binary, the specialisation of `bare` for
// `TransferBench` holds the inlined switch between two `lock cmpxchg` (lock and unlock) per event (`objdump -d`).
// The mutex is handed to `blackHole` before the loop; the optimiser still places the object on the stack
// (`swift_initStackObject`), but keeps the lock's atomics, which is what the floor measures.

/// (a) for `Machine`: no engine, just its switch under a lock, specialised for its concrete types.
@inline(never)
func bare<Machine: EngineBenchMachine>(_: Machine.Type, _ count: Int) {
    let shared = SharedMutex(Machine.initial)
    blackHole(shared)
    for index in 0..<count {
        let event = Machine.event(index)
        shared.mutex.withLock { $0 = apply(Machine.transition($0, event), to: $0) }
    }
    blackHole(shared.mutex.withLock { $0 })
}

/// Sends `count` of `Machine`'s events to `machine` from a synchronous function, as the floor (a) runs its loop:
/// in the asynchronous `run`, what the loop keeps in memory lives in the task's frame on the heap, which cost the
/// engine's cases and not the floor.
@inline(never)
func send<Machine: EngineBenchMachine>(
    _ count: Int, to machine: StateMachine<Machine.State, Machine.Event>, _: Machine.Type
) {
    for index in 0..<count { machine.send(Machine.event(index)) }
}

/// What a Swift developer would write instead of the engine: an actor with a switch.
actor ActorMachine<State: Sendable, Event: Sendable> {
    private var state: State
    private var visit = 1
    private let transition: (State, Event) -> Transition<State, Event>

    init(initial: State, transition: @escaping @Sendable (State, Event) -> Transition<State, Event>) {
        self.state = initial
        self.transition = transition
    }

    func send(_ event: Event) -> Outcome {
        let decision = transition(state, event)
        switch decision {
        case .to(let next, _):
            state = next
            visit += 1
        case .update(let next):
            state = next
        case .stay, .ignore, .invalid, .postpone:
            // The benchmark machines never postpone, so the actor keeps no queue.
            break
        }
        return Outcome.forBenchmark(decision)
    }
}

extension Outcome {
    static func forBenchmark<State, Event>(_ decision: Transition<State, Event>) -> Outcome {
        switch decision {
        case .to: .moved
        case .update: .updated
        case .stay: .stayed
        case .ignore: .ignored
        case .invalid(let reason): .invalid(reason)
        case .postpone: .postponed
        }
    }
}

// MARK: - Measurement

/// Resident set size in kilobytes, from /proc/self/statm (second field, in pages).
func residentKilobytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return -1 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return -1 }
    return pages * sysconf(Int32(_SC_PAGESIZE)) / 1024
}

/// Wall-clock seconds that `body` takes.
func seconds(_ body: () async -> Void) async -> Double {
    let start = ContinuousClock.now
    await body()
    let elapsed = start.duration(to: .now)
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

/// Keeps a value alive and opaque to the optimiser.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// A machine the engine group measures: its types, transition function and workload, as static members so
/// that every case, the floor (a) included, makes its events the same way, inlined into the loop that sends
/// them; only the engine's own transition closure is called through a function value.
protocol EngineBenchMachine: Sendable {
    associatedtype State: Hashable & Sendable
    associatedtype Event: Sendable
    static var name: String { get }
    static var initial: State { get }
    static func transition(_ state: State, _ event: Event) -> Transition<State, Event>
    /// The workload's event number `index`.
    static func event(_ index: Int) -> Event
}

/// The turnstile workload: every event a `.to`, coin and push alternating.
enum TurnstileBench: EngineBenchMachine {
    static let name = "turnstile"
    static var initial: BenchTurnstile { .locked }

    @inline(__always)
    static func transition(_ state: BenchTurnstile, _ event: BenchCoinOrPush) -> Transition<
        BenchTurnstile, BenchCoinOrPush
    > {
        switch (state, event) {
        case (.locked, .coin): .to(.unlocked)
        case (.locked, .push): .stay
        case (.unlocked, .coin): .ignore
        case (.unlocked, .push): .to(.locked)
        }
    }

    @inline(__always)
    static func event(_ index: Int) -> BenchCoinOrPush { index & 1 == 0 ? .coin : .push }
}

/// The transfer workload: a data-carrying state, mostly `.update`s; each transfer is a start, 98 progress
/// events, a finish and a reset.
enum TransferBench: EngineBenchMachine {
    static let name = "transfer"
    static var initial: BenchTransfer { .idle(completed: 0) }

    @inline(__always)
    static func transition(_ state: BenchTransfer, _ event: BenchTransferEvent) -> Transition<
        BenchTransfer, BenchTransferEvent
    > {
        switch (state, event) {
        case (.idle, .start(let request)): .to(.running(request: request, percent: 0, bytes: 0))
        case (.running(let request, _, let bytes), .progress(let percent, let more)):
            .update(.running(request: request, percent: percent, bytes: bytes + more))
        case (.running(let request, _, let bytes), .finish): .to(.done(request: request, bytes: bytes))
        case (.done(let request, _), .reset): .to(.idle(completed: request))
        case (.idle, _), (.running, _), (.done, _): .invalid("unexpected")
        }
    }

    @inline(__always)
    static func event(_ index: Int) -> BenchTransferEvent {
        let phase = index % 100
        switch phase {
        case 0: return .start(request: index / 100)
        case 98: return .finish
        case 99: return .reset
        default: return .progress(percent: phase, bytes: 4096)
        }
    }
}

/// One workload measured in all eight ways.
struct EngineWorkload<Machine: EngineBenchMachine> {
    typealias State = Machine.State
    typealias Event = Machine.Event

    var name: String { Machine.name }
    var initial: State { Machine.initial }
    /// The transition function as the engine takes it: a closure value.
    var transition: @Sendable (State, Event) -> Transition<State, Event> { { Machine.transition($0, $1) } }

    /// Events per second for each selected case, the median over `rounds`. Every round runs every case
    /// once, so a burst of load from elsewhere on the machine hits all cases alike.
    func measure(events: Int, rounds: Int, cases: Set<String>) async -> EngineRates {
        var samples: [String: [Double]] = [:]
        for _ in 0..<rounds {
            for key in ["a", "b", "h", "c", "g", "d", "e", "f"] where cases.contains(key) {
                // A report per event: a tenth of the events keeps the run short.
                let count = key == "d" ? max(1, events / 10) : events
                let elapsed = await seconds { await run(key, events: count) }
                samples[key, default: []].append(Double(count) / elapsed)
            }
        }
        return EngineRates(samples: samples)
    }

    /// One run of case `key` over `count` events.
    func run(_ key: String, events count: Int) async {
        switch key {
        case "a":
            bare(Machine.self, count)
        case "b":
            let machine = StateMachine(initial: initial, label: name, transition: transition)
            send(count, to: machine, Machine.self)
            blackHole(machine.state)
        case "h":
            // Work registered for a state the workload never enters: every event takes the path of a machine
            // with work (the work taken out of the phase and put back, the registrations asked on each change),
            // as a machine with `whileIn` work does between its runs.
            let machine = StateMachine(initial: initial, label: name, transition: transition)
            machine.whileIn(where: { _ in false }, label: "never") { _ in }
            send(count, to: machine, Machine.self)
            blackHole(machine.state)
            machine.stop()
        case "c":
            await drain(events: count, feed: false)
        case "g":
            await drain(events: count, feed: true)
        case "d":
            let reports = Atomic<Int>(0)
            let machine = StateMachine(
                initial: initial, label: name, reporter: Reporter { _ in reports.add(1, ordering: .relaxed) },
                transition: transition)
            send(count, to: machine, Machine.self)
            blackHole(reports.load(ordering: .relaxed))
        case "e":
            let machine = ActorMachine(initial: initial, transition: transition)
            for index in 0..<count { blackHole(await machine.send(Machine.event(index))) }
        case "f":
            let machine = StateMachine(initial: initial, label: name, transition: transition)
            let senders = 1000
            await withTaskGroup(of: Void.self) { group in
                for sender in 0..<senders {
                    group.addTask {
                        var index = sender
                        while index < count {
                            machine.send(Machine.event(index))
                            index += senders
                        }
                    }
                }
            }
            blackHole(machine.state)
        default:
            preconditionFailure("no benchmark case \(key)")
        }
    }

    /// `count` events through a machine with one `states()` reader draining and, with `feed`, one
    /// `records(after:)` reader beside it.
    func drain(events count: Int, feed: Bool) async {
        let machine = StateMachine(initial: initial, label: name, transition: transition)
        let reader = Task {
            var seen = 0
            for await _ in machine.states() { seen += 1 }
            return seen
        }
        let feedReader = Task {
            guard feed else { return 0 }
            var records = 0
            for await batch in machine.records() { records += batch.records.count + batch.missed }
            return records
        }
        for index in 0..<count { machine.send(Machine.event(index)) }
        machine.stop()
        blackHole(await reader.value)
        blackHole(await feedReader.value)
    }

    /// RSS before and after `events` events through one machine with history and a draining reader.
    func memory(events: Int) async -> (before: Int, after: Int) {
        let machine = StateMachine(initial: initial, label: name, transition: transition)
        let reader = Task { for await _ in machine.states() {} }
        for index in 0..<100_000 { machine.send(Machine.event(index)) }
        let before = residentKilobytes()
        for index in 0..<events { machine.send(Machine.event(index)) }
        let after = residentKilobytes()
        machine.stop()
        await reader.value
        return (before, after)
    }
}

/// The rates of one workload's cases, and how many times slower trace-level reporting makes the machine.
struct EngineRates {
    /// Events per second of each case measured, the median over the rounds.
    let rates: [String: Double]
    /// The slowest and the fastest round of each case, events per second.
    let spreads: [String: (slowest: Double, fastest: Double)]
    /// Silent (b) ÷ traced (d) throughput: the median over the rounds of each round's ratio, so that load
    /// from elsewhere, which comes and goes between rounds, moves both sides of a ratio alike. `nil` unless
    /// both cases ran. Issue 15: at most 5.
    let silentOverTraced: Double?

    init(samples: [String: [Double]]) {
        rates = samples.mapValues(median)
        spreads = samples.mapValues { (slowest: $0.min() ?? 0, fastest: $0.max() ?? 0) }
        if let silent = samples["b"], let traced = samples["d"] {
            silentOverTraced = median(zip(silent, traced).map { $0 / $1 })
        } else {
            silentOverTraced = nil
        }
    }
}

extension EngineWorkload<TurnstileBench> {
    /// The turnstile workload: every event a `.to`.
    static var turnstile: Self { EngineWorkload() }
}

extension EngineWorkload<TransferBench> {
    /// The transfer workload: a data-carrying state, mostly `.update`s.
    static var transfer: Self { EngineWorkload() }
}

let engineCases: [(key: String, title: String)] = [
    ("a", "(a) bare switch under a Mutex"),
    ("b", "(b) engine, history on, no readers"),
    ("h", "(h) (b) + whileIn work that never runs"),
    ("c", "(c) engine + one states() reader draining"),
    ("g", "(g) (c) + one records(after:) reader"),
    ("d", "(d) engine + reporter (every report)"),
    ("e", "(e) actor-based machine"),
    ("f", "(f) engine, 1000 concurrent senders"),
]

/// Measures (a)–(h) on the turnstile and the transfer machine, checks memory over 10 million events,
/// and prints one table and one JSON line.
func runEngineBenchmarks() async {
    let environment = ProcessInfo.processInfo.environment
    let events = Int(environment["BENCH_EVENTS"] ?? "") ?? 1_000_000
    let memoryEvents = Int(environment["BENCH_MEMORY_EVENTS"] ?? "") ?? 10_000_000
    let turnstile = EngineWorkload.turnstile
    let transfer = EngineWorkload.transfer

    let cases = Set((environment["BENCH_CASES"] ?? "abcdefgh").map(String.init))
    let rounds = Int(environment["BENCH_ROUNDS"] ?? "") ?? 7
    let turnstileMeasured = await turnstile.measure(events: events, rounds: rounds, cases: cases)
    let transferMeasured = await transfer.measure(events: events, rounds: rounds, cases: cases)
    let turnstileRates = turnstileMeasured.rates
    let transferRates = transferMeasured.rates
    let turnstileMemory = await turnstile.memory(events: memoryEvents)
    let transferMemory = await transfer.memory(events: memoryEvents)
    let delivery = await issue25Figures(rounds: Int(environment["BENCH_LATENCY_ROUNDS"] ?? "") ?? 5)

    printEngineTable(turnstile: turnstileMeasured, transfer: transferMeasured, events: events, rounds: rounds)
    print(
        "memory over \(memoryEvents) events (RSS kB): turnstile \(turnstileMemory.before) -> \(turnstileMemory.after), "
            + "transfer \(transferMemory.before) -> \(transferMemory.after)")
    for row in delivery.rows { print(row) }
    let targets = engineRatios(turnstile: turnstileMeasured, transfer: transferMeasured)
    let json: [String: Any] = [
        "group": "engine",
        "events": events,
        "unit": "events_per_second",
        "turnstile": turnstileRates.mapValues { $0.rounded() },
        "transfer": transferRates.mapValues { $0.rounded() },
        "ratios": targets.mapValues { ($0 * 1000).rounded() / 1000 },
        "latency": delivery.json,
        "memory": [
            "events": memoryEvents,
            "turnstile_rss_kb": [turnstileMemory.before, turnstileMemory.after],
            "transfer_rss_kb": [transferMemory.before, transferMemory.after],
        ],
    ]
    printJSONLine(json)
}

/// The engine group's table: each case's rate on both workloads and its ratio to the bare switch (a), the
/// trace reporter's cost, and the spread of the reader cases' rounds.
private func printEngineTable(turnstile: EngineRates, transfer: EngineRates, events: Int, rounds: Int) {
    func format(_ rate: Double) -> String { String(format: "%8.2f M/s", rate / 1e6) }
    func ratio(_ rate: Double, _ floor: Double) -> String { String(format: "%5.2f", rate / floor) }
    print(
        "Engine benchmarks: \(events) events per run ((d): a tenth), median of \(rounds) interleaved rounds, events per second"
    )
    print("case                                        turnstile     ×(a)      transfer     ×(a)")
    for (key, title) in engineCases {
        let left = turnstile.rates[key] ?? 0
        let right = transfer.rates[key] ?? 0
        print(
            title.padding(toLength: 42, withPad: " ", startingAt: 0) + "  " + format(left) + "   "
                + ratio(left, turnstile.rates["a"] ?? 1) + "   " + format(right) + "   "
                + ratio(right, transfer.rates["a"] ?? 1))
    }
    print(traceLine(turnstile: turnstile.silentOverTraced, transfer: transfer.silentOverTraced))
    for key in ["b", "c", "g"] {
        guard let left = turnstile.spreads[key], let right = transfer.spreads[key] else { continue }
        print(
            "(\(key)) spread, slowest to fastest round:  turnstile \(format(left.slowest)) to \(format(left.fastest)),"
                + " transfer \(format(right.slowest)) to \(format(right.fastest))")
    }
}

/// The ratios the issues set targets for: the engine with history (b) and with a reader (c) against the bare
/// switch (a), a feed reader beside the states() reader (g over c; issue 26: no slower than c alone), and how
/// many times slower a trace-level reporter that counts makes the machine (b over d; at most 5).
private func engineRatios(turnstile: EngineRates, transfer: EngineRates) -> [String: Double] {
    [
        "b_over_a_turnstile": (turnstile.rates["b"] ?? 0) / (turnstile.rates["a"] ?? 1),
        "c_over_a_turnstile": (turnstile.rates["c"] ?? 0) / (turnstile.rates["a"] ?? 1),
        "b_over_a_transfer": (transfer.rates["b"] ?? 0) / (transfer.rates["a"] ?? 1),
        "c_over_a_transfer": (transfer.rates["c"] ?? 0) / (transfer.rates["a"] ?? 1),
        "h_over_a_turnstile": (turnstile.rates["h"] ?? 0) / (turnstile.rates["a"] ?? 1),
        "h_over_a_transfer": (transfer.rates["h"] ?? 0) / (transfer.rates["a"] ?? 1),
        "g_over_c_turnstile": (turnstile.rates["g"] ?? 0) / (turnstile.rates["c"] ?? 1),
        "g_over_c_transfer": (transfer.rates["g"] ?? 0) / (transfer.rates["c"] ?? 1),
        "b_over_d_turnstile": turnstile.silentOverTraced ?? 0,
        "b_over_d_transfer": transfer.silentOverTraced ?? 0,
    ]
}

/// The trace-reporter line both the engine and the inspector group print: silent ÷ traced throughput, the
/// median of per-round ratios (``EngineRates/silentOverTraced``), "-" for a workload not measured.
func traceLine(turnstile: Double?, transfer: Double?) -> String {
    func figure(_ ratio: Double?) -> String { ratio.map { String(format: "%.2f", $0) } ?? "-" }
    return "trace-level reporter that counts, silent ÷ traced throughput (median of rounds' ratios; "
        + "issue 15: at most 5): turnstile \(figure(turnstile)), transfer \(figure(transfer))"
}

// MARK: - Issue 25: one send that wakes many parked readers, and one send's latency under a flood

/// A count shared with tasks and threads.
final class SharedCount: Sendable {
    let value = Atomic<Int>(0)
}

/// How long one `send` takes when `readers` readers are parked on the machine, once per round.
func wakeParkedReaders(readers: Int, rounds: Int) async -> [Duration] {
    var samples: [Duration] = []
    for _ in 0..<rounds {
        let machine = StateMachine(
            initial: BenchTurnstile.locked, label: "readers", transition: { TurnstileBench.transition($0, $1) })
        let started = SharedCount()
        let tasks = (0..<readers).map { _ in
            let stream = machine.states()
            return Task {
                var seen = 0
                for await _ in stream {
                    seen += 1
                    if seen == 1 { started.value.add(1, ordering: .relaxed) }
                }
                return seen
            }
        }
        while started.value.load(ordering: .relaxed) < readers { try? await Task.sleep(for: .milliseconds(1)) }
        // Each reader parks after its first state; give the last ones time to get there.
        try? await Task.sleep(for: .milliseconds(100))
        let start = ContinuousClock.now
        machine.send(.coin)
        samples.append(start.duration(to: .now))
        machine.stop()
        for task in tasks { blackHole(await task.value) }
    }
    return samples
}

/// The latencies of `sends` single sends from this thread, while another thread sends non-stop into the same
/// machine, whose trace-level sink formats every report's line.
func floodedSendLatencies(sends: Int) -> [Duration] {
    let machine = StateMachine(
        initial: BenchTurnstile.locked, label: "flood", reporter: Reporter { blackHole($0.line) },
        transition: { TurnstileBench.transition($0, $1) })
    let stop = SharedCount()
    let flooderDone = DispatchSemaphore(value: 0)
    Thread {
        var index = 0
        while stop.value.load(ordering: .relaxed) == 0 {
            machine.send(TurnstileBench.event(index))
            index += 1
        }
        flooderDone.signal()
    }.start()
    var samples: [Duration] = []
    samples.reserveCapacity(sends)
    usleep(10_000)
    for index in 0..<sends {
        let start = ContinuousClock.now
        machine.send(TurnstileBench.event(index))
        samples.append(start.duration(to: .now))
        usleep(100)
    }
    stop.value.store(1, ordering: .relaxed)
    flooderDone.wait()
    return samples
}

/// Measures both figures and returns their table rows and JSON fields.
func issue25Figures(rounds: Int) async -> (rows: [String], json: [String: Any]) {
    let readers = 10_000
    let wake = await wakeParkedReaders(readers: readers, rounds: rounds)
    let sends = 2000
    var worst: [Duration] = []
    var medians: [Duration] = []
    for _ in 0..<rounds {
        let samples = floodedSendLatencies(sends: sends)
        worst.append(samples.max() ?? .zero)
        medians.append(Percentiles(samples).median)
    }
    let wakeSorted = wake.sorted()
    let worstSorted = worst.sorted()
    func range(_ sorted: [Duration]) -> String {
        "\(microseconds(sorted.first ?? .zero)) – \(microseconds(sorted.last ?? .zero))"
    }
    let rows = [
        "one send with \(readers) parked readers: median \(microseconds(Percentiles(wake).median)) "
            + "over \(rounds) rounds (range \(range(wakeSorted)))",
        "one send while another thread floods through a trace sink: worst of \(sends) sends, median over "
            + "\(rounds) rounds \(microseconds(Percentiles(worst).median)) (range \(range(worstSorted))); "
            + "a typical send \(microseconds(Percentiles(medians).median))",
    ]
    let json: [String: Any] = [
        "wake_\(readers)_parked_readers_us": Percentiles(wake).median.microsecondsValue,
        "flooded_send_worst_us": Percentiles(worst).median.microsecondsValue,
        "flooded_send_worst_range_us": [
            (worstSorted.first ?? .zero).microsecondsValue, (worstSorted.last ?? .zero).microsecondsValue,
        ],
        "flooded_send_median_us": Percentiles(medians).median.microsecondsValue,
    ]
    return (rows, json)
}
