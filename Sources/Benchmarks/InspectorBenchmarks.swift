import Foundation
import StateMachineInspector
import StateMachineKit
import Synchronization

/// Waits until `inspector` has `count` clients, told by its client counts rather than by polling; gives up after
/// ten seconds, so a client that never connects cannot hang the run.
func waitForClients(_ inspector: Inspector, _ count: Int) async {
    await withTaskGroup(of: Void.self) { group in
        group.addTask {
            for await clients in inspector.clientCounts() where clients == count { return }
        }
        group.addTask { try? await Task.sleep(for: .seconds(10)) }
        await group.next()
        group.cancelAll()
    }
}

/// The inspector group: what registering a machine costs with no client, with a client reading, with a
/// client that never reads, and what a trace-level reporter that counts costs (the engine group's case (d)
/// against its case (b), on the same turnstile workload).
func runInspectorBenchmarks() async {
    let environment = ProcessInfo.processInfo.environment
    let events = Int(environment["BENCH_EVENTS"] ?? "") ?? 1_000_000
    let rounds = Int(environment["BENCH_ROUNDS"] ?? "") ?? 7
    let directory = NSTemporaryDirectory() + "statetui-bench-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let inspector: Inspector
    do {
        inspector = try Inspector.start(name: "bench", directory: directory)
    } catch {
        print("inspector benchmarks: cannot start an inspector: \(error)")
        return
    }
    defer { inspector.stop() }
    let bench = InspectorBench(inspector: inspector, events: events, rounds: rounds)
    var samples = bench.registrationRounds()
    // The trace-level reporter: the engine group's own measurement, not a copy of it.
    let trace = await EngineWorkload.turnstile.measure(events: events, rounds: rounds, cases: ["b", "d"])
    let reading = await bench.readingClientRounds()
    samples["client_reading"] = reading.rates
    let stalled = await bench.stalledClient()
    printInspectorReport(
        InspectorFigures(
            events: events, rounds: rounds, samples: samples, trace: trace, messages: reading.messages,
            stalled: stalled))
}

/// The inspector group's measurements of one workload: `events` turnstile events a run, `rounds` rounds a case.
private struct InspectorBench {
    let inspector: Inspector
    let events: Int
    let rounds: Int

    /// Sends `count` events to `machine`; returns events per second.
    func run(_ machine: StateMachine<BenchTurnstile, BenchCoinOrPush>, _ count: Int) -> Double {
        let start = ContinuousClock.now
        for index in 0..<count { machine.send(TurnstileBench.event(index)) }
        let elapsed = start.duration(to: .now)
        blackHole(machine.state)
        return Double(count) / seconds(elapsed)
    }

    func makeMachine() -> StateMachine<BenchTurnstile, BenchCoinOrPush> {
        StateMachine(initial: .locked, label: "turnstile") { TurnstileBench.transition($0, $1) }
    }

    /// (a) unregistered, (b) registered with no client: interleaved rounds.
    func registrationRounds() -> [String: [Double]] {
        var samples: [String: [Double]] = [:]
        for _ in 0..<rounds {
            samples["unregistered", default: []].append(run(makeMachine(), events))
            let registered = makeMachine()
            inspector.register(registered)
            samples["registered", default: []].append(run(registered, events))
        }
        return samples
    }

    /// (c) a client attached and reading every message: each round's rate, and how many messages it read.
    func readingClientRounds() async -> (rates: [Double], messages: Int) {
        let received = Atomic<Int>(0)
        let socketPath = inspector.socketPath
        // Reads and decodes every message, as `statetui inspect` does (the stream reads on its own thread).
        let client = Task {
            for try await message in InspectorConnection.messages(socketPath: socketPath) {
                blackHole(message)
                received.add(1, ordering: .relaxed)
            }
        }
        await waitForClients(inspector, 1)
        var rates: [Double] = []
        for _ in 0..<rounds {
            let watched = makeMachine()
            inspector.register(watched)
            rates.append(run(watched, events))
            watched.stop()
        }
        let messages = received.load(ordering: .relaxed)
        // The reading client leaves first, so that the next row measures the stalled client alone.
        client.cancel()
        await waitForClients(inspector, 0)
        return (rates, messages)
    }

    /// (d) a client that never reads: memory before and after, and whether it was let go.
    func stalledClient() async -> StalledClientFigures {
        let stalledMachine = makeMachine()
        inspector.register(stalledMachine, describeState: { "\($0) " + String(repeating: "x", count: 4000) })
        // Connected, never read.
        let stalled = try? InspectorConnection(socketPath: inspector.socketPath)
        await waitForClients(inspector, 1)
        let clientsBefore = inspector.clientCount
        _ = run(stalledMachine, 100_000)
        let rssBefore = residentKilobytes()
        var rates: [Double] = []
        for _ in 0..<rounds {
            rates.append(run(stalledMachine, events))
            try? await Task.sleep(for: .milliseconds(250))
        }
        let figures = StalledClientFigures(
            rates: rates, rss: (rssBefore, residentKilobytes()), clients: (clientsBefore, inspector.clientCount))
        stalled?.close()
        return figures
    }
}

/// What a client that never reads did to the program: its rates, resident size and clients before and after.
private struct StalledClientFigures {
    var rates: [Double]
    var rss: (before: Int, after: Int)
    var clients: (before: Int, after: Int)
}

/// Everything the inspector group measured, for its table and JSON line.
private struct InspectorFigures {
    var events: Int
    var rounds: Int
    var samples: [String: [Double]]
    var trace: EngineRates
    var messages: Int
    var stalled: StalledClientFigures
}

/// Prints the inspector group's table and its JSON line.
private func printInspectorReport(_ figures: InspectorFigures) {
    let (events, rounds, trace, stalled) = (figures.events, figures.rounds, figures.trace, figures.stalled)
    // The median of each round's ratio: load from elsewhere moves both sides of a round alike.
    let registeredOverUnregistered = median(
        zip(figures.samples["registered"] ?? [], figures.samples["unregistered"] ?? []).map { $0 / $1 })
    let rates = figures.samples.mapValues(median)
    let unregistered = rates["unregistered"] ?? 1
    let reading = rates["client_reading"] ?? 0
    let traced = trace.rates["d"] ?? 1
    func format(_ rate: Double) -> String { String(format: "%8.2f M/s", rate / 1e6) }
    print("Inspector benchmarks: \(events) events per run (trace reporter: a tenth), median of \(rounds) rounds")
    print("case                                              turnstile    ×unregistered")
    let rows: [(String, Double)] = [
        ("unregistered machine", unregistered),
        ("registered, no client", rates["registered"] ?? 0),
        ("registered, a client reading every message", reading),
        ("registered, a stalled client (never reads)", median(stalled.rates)),
        ("trace reporter that counts (engine case d)", traced),
    ]
    for (title, rate) in rows {
        print(
            title.padding(toLength: 48, withPad: " ", startingAt: 0) + "  " + format(rate) + "    "
                + String(format: "%5.3f", rate / unregistered))
    }
    print(
        "client reading received \(figures.messages) messages; stalled client: RSS \(stalled.rss.before) -> "
            + "\(stalled.rss.after) kB over \(rounds * events) events, clients \(stalled.clients.before) -> "
            + "\(stalled.clients.after)")
    print(
        String(
            format: "registered, no client: registered ÷ unregistered throughput = %.3f (median of rounds' ratios; "
                + "issue 15: within 5%%, at least 0.95)", registeredOverUnregistered))
    print(traceLine(turnstile: trace.silentOverTraced, transfer: nil))
    printJSONLine([
        "group": "inspector",
        "events": events,
        "unit": "events_per_second",
        "rates": rates.merging(["trace_reporter": traced]) { $1 }.mapValues { $0.rounded() },
        "ratios": [
            "registered_over_unregistered": (registeredOverUnregistered * 1000).rounded() / 1000,
            "client_reading_over_unregistered": (reading / unregistered * 1000).rounded() / 1000,
            "silent_over_trace_reporter": ((trace.silentOverTraced ?? 0) * 1000).rounded() / 1000,
        ],
        "stalled_client": [
            "rss_kb": [stalled.rss.before, stalled.rss.after],
            "clients": [stalled.clients.before, stalled.clients.after],
            "events_per_second": median(stalled.rates).rounded(),
        ],
    ])
}
