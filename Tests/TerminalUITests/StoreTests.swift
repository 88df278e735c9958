import Foundation
import Support
import Testing

@testable import TerminalUI

/// A small app for the store's tests: a counter whose increments are echoed back by an effect.
private struct Counter: Equatable, Sendable {
    var count = 0
    var echoed: Set<Int> = []
    var received: [Int] = []
    var resized = 0
    var quit = false
}

private enum CounterAction: Sendable, Equatable {
    case increment
    case echoed(Int)
    case received(Int)
    case noChange
    case resized
    case quit
}

private enum CounterEffect: Sendable, Equatable {
    case echo(Int)
}

private func counterApp(
    until finished: @escaping @Sendable (Counter) -> Bool = { $0.quit },
    subscriptions: [Subscription<CounterAction>] = [],
    subscribe: @escaping @Sendable (Counter) -> [Subscription<CounterAction>] = { _ in [] }
) -> App<Counter, CounterAction, CounterEffect> {
    App(
        initialState: Counter(),
        reduce: { state, action in
            switch action {
            case .increment:
                state.count += 1
                return [.echo(state.count)]
            case .echoed(let value):
                state.echoed.insert(value)
                return []
            case .received(let value):
                state.received.append(value)
                return []
            case .noChange:
                return []
            case .resized:
                state.resized += 1
                return []
            case .quit:
                state.quit = true
                return []
            }
        },
        view: { state, size in
            var canvas = Canvas(size: size)
            canvas.write("count \(state.count)", at: Point(x: 0, y: 0))
            return canvas
        },
        keymap: { key, _, _ in
            switch key {
            case .character("+"): .increment
            case .character("x"): .noChange
            case .character("q"): .quit
            case .resize: .resized
            default: nil
            }
        },
        isFinished: finished,
        runEffect: { effect, send in
            switch effect {
            case .echo(let value): send(.echoed(value))
            }
        },
        subscriptions: subscriptions,
        subscribe: subscribe
    )
}

@Suite struct StoreTests {
    @Test func dispatchReducesAndReturnsEffects() {
        let store = Store(app: counterApp())
        #expect(store.dispatch(.increment) == [.echo(1)])
        #expect(store.dispatch(.noChange) == [])
        #expect(store.state == Counter(count: 1))
    }

    @Test func effectsFeedActionsBack() async {
        let terminal = HeadlessTerminal(
            size: Size(width: 20, height: 2),
            script: [.key(.character("+")), .key(.character("+")), .key(.character("+"))])
        let app = counterApp(until: { $0.echoed.count == 3 })
        let final = await app.run(detachedOn: terminal, pacer: FramePacer(minimumInterval: .zero))
        #expect(final == Counter(count: 3, echoed: [1, 2, 3]))
    }

    /// Effects run one after another in the order they were asked for: an earlier effect that takes longer
    /// still ends before a later one starts (`s p` typed fast must reach a machine as start, then pause).
    @Test func effectsRunOneAfterAnotherInTheOrderTheyWereAskedFor() async {
        // Key n asks for effect n, which yields (6 - n) × 50 times and then feeds back -n: left to run side by
        // side, the later effects would end first. The state lists the effects in the order they ended.
        let app = App<[Int], Int, Int>(
            initialState: [],
            reduce: { ended, action in
                guard action > 0 else {
                    ended.append(-action)
                    return []
                }
                return [action]
            },
            view: { _, size in Canvas(size: size) },
            keymap: { key, _, _ in
                guard case .character(let character) = key else { return nil }
                return Int(String(character))
            },
            isFinished: { $0.count == 5 },
            runEffect: { effect, send in
                for _ in 0..<(6 - effect) * 50 { await Task.yield() }
                send(-effect)
            })
        let terminal = HeadlessTerminal(
            size: Size(width: 1, height: 1), script: (1...5).map { .key(.character(Character("\($0)"))) })
        let final = await app.run(detachedOn: terminal, pacer: FramePacer(minimumInterval: .zero))
        #expect(final == [1, 2, 3, 4, 5])
    }

    /// A subscription a state asks for starts once asked (making its sequence only then) and is cancelled
    /// once a state no longer asks for it; one never asked for is never made.
    @Test(.timeLimit(.minutes(1))) func subscriptionsRunOnlyWhileTheStateAsksForThem() async {
        let made = Locked<[String]>([])
        let ended = Locked<[String]>([])
        // What the test waits for, told as it happens: a value delivered, a stream ended.
        let (deliveries, noteDelivered) = AsyncStream.makeStream(of: Void.self)
        let (endings, noteEnded) = AsyncStream.makeStream(of: Void.self)
        @Sendable func sequence(_ name: String) -> AsyncStream<Int> {
            made.withLock { $0.append(name) }
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
            continuation.onTermination = { _ in
                ended.withLock { $0.append(name) }
                noteEnded.yield()
            }
            continuation.yield(1)
            return stream
        }
        let app = counterApp(
            until: { $0.received.count == 1 && $0.count == 2 },
            subscribe: { state in
                (state.count == 1
                    ? [
                        Subscription(id: "one", { sequence("one") }) { value in
                            made.withLock { $0.append("delivered") }
                            noteDelivered.yield()
                            return CounterAction.received(value)
                        }
                    ] : [])
                    + (state.count > 100
                        ? [Subscription(id: "never", { sequence("never") }) { CounterAction.received($0) }] : [])
            })
        let terminal = HeadlessTerminal(size: Size(width: 10, height: 1), script: [.key(.character("+"))])
        let run = Task { await app.run(detachedOn: terminal) }
        // The value is queued once delivered; only then does the state stop asking.
        var delivered = deliveries.makeAsyncIterator()
        await delivered.next()
        terminal.enqueue(keys: [.character("+")])
        let final = await run.value
        // Cancelling the subscription's task ends its stream when that task next waits for a value, which may
        // come after the run returns: wait for it (a stream never ended fails at the time limit).
        var ending = endings.makeAsyncIterator()
        await ending.next()
        #expect(final.count == 2)
        #expect(made.withLock { $0 } == ["one", "delivered"])
        #expect(ended.withLock { $0 } == ["one"])
    }

    @Test func subscriptionValuesBecomeActionsInOrder() async {
        let values = AsyncStream<Int> { continuation in
            for value in [1, 2, 3] { continuation.yield(value) }
            continuation.finish()
        }
        let subscription = Subscription(values, newestOnly: false) { CounterAction.received($0 * 10) }
        let app = counterApp(until: { $0.received.count == 3 }, subscriptions: [subscription])
        let final = await app.run(detachedOn: HeadlessTerminal(size: Size(width: 10, height: 1)))
        #expect(final == Counter(received: [10, 20, 30]))
    }

    @Test func newestOnlySlotKeepsOnlyTheLatestWaitingAction() {
        let queue = ActionQueue<CounterAction>()
        queue.append(.increment)
        queue.replaceLatest(slot: 0, with: .received(1))
        queue.replaceLatest(slot: 1, with: .received(100))
        queue.append(.noChange)
        queue.replaceLatest(slot: 0, with: .received(2))
        queue.replaceLatest(slot: 0, with: .received(3))
        #expect(queue.drain() == [.increment, .received(3), .received(100), .noChange])
        queue.replaceLatest(slot: 0, with: .received(4))
        #expect(queue.drain() == [.received(4)])
        #expect(queue.drain() == [])
    }

    /// Effects handed out are let go of while the queue is still busy, and an emptied queue keeps no storage: a
    /// run whose effects keep coming does not hold all of them.
    @Test func effectsHandedOutAreLetGoOfWhileTheQueueIsBusy() {
        let queue = EffectQueue<EffectToken>()
        weak var first: EffectToken?
        do {
            let tokens = (0..<1_000).map { _ in EffectToken() }
            first = tokens[0]
            #expect(queue.enqueue(tokens))
        }
        for _ in 0..<900 { #expect(queue.next() != nil) }
        #expect(first == nil)
        #expect(queue.held == 125)
        for _ in 0..<100 { #expect(queue.next() != nil) }
        #expect(queue.next() == nil)
        #expect(queue.held == 0)
    }

    /// A burst drained leaves the inbox no room kept for it: the largest burst ever taken in is not held for
    /// the rest of the run.
    @Test func aDrainedBurstLeavesNoStorageBehind() {
        let queue = ActionQueue<CounterAction>()
        for value in 0..<10_000 {
            queue.append(.received(value))
            queue.replaceLatest(slot: value, with: .received(-value))
        }
        let drained = queue.drain()
        #expect(drained.count == 20_000)
        #expect(queue.reserved == (actions: 0, slots: 0))
        queue.append(.increment)
        #expect(queue.drain() == [.increment])
    }

    // The limit guards against a hang only: under ThreadSanitizer on a loaded 2-core machine the cooperative
    // pool is shared with every other test, and a minute was seen to run out without anything being wrong.
    @Test(.timeLimit(.minutes(10)))
    func subscriptionsStillRunningAreCancelledWhenTheAppFinishes() async {
        let (never, _) = AsyncStream<Int>.makeStream()
        let (ended, endedContinuation) = AsyncStream<Void>.makeStream()
        // A sequence that never yields, and says when its iteration ends.
        let watched = AsyncStream<Int> { continuation in
            let task = Task {
                for await value in never { continuation.yield(value) }
                endedContinuation.yield()
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        let app = counterApp(subscriptions: [Subscription(watched) { CounterAction.received($0) }])
        let terminal = HeadlessTerminal(size: Size(width: 10, height: 1), script: [.key(.character("q"))])
        let final = await app.run(detachedOn: terminal)
        #expect(final == Counter(quit: true))
        var iterator = ended.makeAsyncIterator()
        #expect(await iterator.next() != nil)
    }

    @Test func manyQueuedActionsMakeOneFrame() {
        let store = Store(app: counterApp())
        for _ in 0..<1000 { store.send(.increment) }
        let terminal = HeadlessTerminal(size: Size(width: 12, height: 1), script: [.key(.character("q"))])
        let final = store.run(on: terminal, pacer: FramePacer(minimumInterval: .zero))
        #expect(final.count == 1000)
        #expect(store.frameCount == 1)
        #expect(terminal.text == "count 1000\n")
    }

    @Test func noFrameWhenNothingChanged() {
        let store = Store(app: counterApp())
        let script: [HeadlessInput] = [
            .key(.character("x")), .key(.character("n")), .key(.character("x")), .key(.character("q")),
        ]
        let terminal = HeadlessTerminal(size: Size(width: 12, height: 1), script: script)
        store.run(on: terminal, pacer: FramePacer(minimumInterval: .zero))
        #expect(store.frameCount == 1)
        #expect(terminal.frameCount == 1)
    }

    @Test func everyChangeIsDrawnWhenThePacerAllows() {
        let store = Store(app: counterApp())
        let terminal = HeadlessTerminal(
            size: Size(width: 12, height: 1),
            script: [.key(.character("+")), .key(.character("+")), .key(.character("q"))])
        store.run(on: terminal, pacer: FramePacer(minimumInterval: .zero))
        #expect(store.frameCount == 3)
        #expect(terminal.text == "count 2\n")
    }

    @Test func changesWithinThePacerIntervalAreCoalesced() {
        let store = Store(app: counterApp())
        let script: [HeadlessInput] = Array(repeating: .key(.character("+")), count: 50) + [.key(.character("q"))]
        let terminal = HeadlessTerminal(size: Size(width: 12, height: 1), script: script)
        let final = store.run(on: terminal, pacer: FramePacer(minimumInterval: .seconds(3600)))
        #expect(final.count == 50)
        #expect(store.frameCount == 1)
    }

    @Test func resizeRedrawsAtTheNewSizeAndReachesTheKeymap() {
        let store = Store(app: counterApp())
        let terminal = HeadlessTerminal(
            size: Size(width: 12, height: 1), script: [.resize(Size(width: 5, height: 2)), .key(.character("q"))])
        let final = store.run(on: terminal, pacer: FramePacer(minimumInterval: .zero))
        #expect(final.resized == 1)
        #expect(store.frameCount == 2)
        #expect(terminal.canvas.lines == ["count", ""])
    }

    /// The keymap is asked with the size of the frame on screen: a click after a resize is read against the
    /// frame drawn at the new size.
    @Test func theKeymapSeesTheSizeOfTheDrawnFrame() {
        var app = counterApp()
        let keymap = app.keymap
        app.keymap = { key, state, size in
            guard case .mouse(let event) = key else { return keymap(key, state, size) }
            return .received(size.width * 1000 + event.position.x)
        }
        let click = { (x: Int) in HeadlessInput.key(.mouse(MouseEvent(.press(.left), at: Point(x: x, y: 0)))) }
        let terminal = HeadlessTerminal(
            size: Size(width: 12, height: 1),
            script: [click(3), .resize(Size(width: 5, height: 2)), click(4), .key(.character("q"))])
        let final = Store(app: app).run(on: terminal, pacer: FramePacer(minimumInterval: .zero))
        #expect(final.received == [12_003, 5_004])
        #expect(final.resized == 1)
    }

    /// The progress indicator follows the state with each frame (here: the count as a percentage).
    @Test func theProgressIndicatorFollowsTheState() {
        var app = counterApp()
        app.progress = { $0.count == 0 ? .none : .percent($0.count * 10) }
        let terminal = HeadlessTerminal(
            size: Size(width: 8, height: 1),
            script: [.key(.character("+")), .key(.character("+")), .key(.character("q"))])
        let final = Store(app: app).run(on: terminal, pacer: FramePacer(minimumInterval: .zero))
        #expect(final.count == 2)
        #expect(terminal.progress == .percent(20))
    }

    @Test func controlZSuspendsAndRepaintsEverything() {
        let store = Store(app: counterApp())
        let terminal = HeadlessTerminal(
            size: Size(width: 8, height: 1), script: [.key(.controlZ), .key(.character("q"))])
        store.run(on: terminal, pacer: FramePacer(minimumInterval: .zero))
        #expect(terminal.suspensionCount == 1)
        #expect(store.frameCount == 2)
        #expect(terminal.text == "count 0\n")
    }

    @Test func traceWritesOneLinePerFrame() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let trace = try FrameTrace(path: path)
        let store = Store(app: counterApp())
        let terminal = HeadlessTerminal(
            size: Size(width: 12, height: 2), script: [.key(.character("+")), .key(.character("q"))])
        store.run(on: terminal, trace: trace, pacer: FramePacer(minimumInterval: .zero))
        trace.close()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        let shapes = lines.map { $0.replacing(/=\d+(?= |$)/, with: "=N") }
        #expect(
            shapes == [
                "frame=N size=12x2 build_us=N diff_us=N flush_us=N total_us=N changed=N",
                "frame=N size=12x2 build_us=N diff_us=N flush_us=N total_us=N changed=N",
            ])
        #expect(lines.map { $0.hasSuffix("changed=24") || $0.hasSuffix("changed=1") } == [true, true])
    }

    @Test func traceLineFormat() {
        let timing = FrameTiming(
            frame: 3, size: Size(width: 80, height: 24), build: .microseconds(41), diff: .microseconds(12),
            flush: .microseconds(95), changedCells: 17)
        #expect(timing.line == "frame=3 size=80x24 build_us=41 diff_us=12 flush_us=95 total_us=148 changed=17")
    }

    /// Issue 24: `--trace /dev/full` used to end in silence; the failed write is kept and reported.
    @Test func aTraceWriteThatFailsIsReportedAtClose() throws {
        let trace = try FrameTrace(path: "/dev/full")
        trace.record(
            FrameTiming(
                frame: 1, size: Size(width: 1, height: 1), build: .zero, diff: .zero, flush: .zero, changedCells: 1))
        #expect(trace.close() == FrameTraceError(path: "/dev/full", reason: "No space left on device"))
    }

    /// Issue 24: a link in the trace file's place is not followed; the file it names keeps its bytes.
    @Test func aTraceFileThatIsALinkIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let victim = directory.appendingPathComponent("victim").path
        try "precious".write(toFile: victim, atomically: false, encoding: .utf8)
        let link = directory.appendingPathComponent("t.log").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        #expect(throws: FrameTraceError(path: link, reason: "it is a symbolic link, which is not followed")) {
            try FrameTrace(path: link)
        }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
    }

    @Test func traceFileThatCannotBeOpenedNamesTheCause() {
        #expect(
            throws: FrameTraceError(
                path: "/nonexistent-dir/t.log", reason: "its directory /nonexistent-dir does not exist")
        ) {
            try FrameTrace(path: "/nonexistent-dir/t.log")
        }
    }

    @Test(
        arguments: [
            (nil, Duration.zero), (Duration.milliseconds(5), Duration.seconds(1) / 60 - .milliseconds(5)),
            (Duration.milliseconds(20), .zero),
        ] as [(Duration?, Duration)])
    func pacerDelaysUntilTheIntervalPassed(elapsed: Duration?, expected: Duration) {
        #expect(FramePacer().delay(sinceLastFrame: elapsed) == expected)
    }
}

/// Issue 23 (item 6): the store holds the only copy of the app's initial state and changes it in place. Before,
/// the app the store ran kept the initial state for the whole run, so the first change copied the whole state
/// and the original stayed (a copy dashboard's list of rows, 88 bytes a row, twice).
@Suite struct InitialStateTests {
    /// Something the initial state holds, to see whether anything still does.
    private final class Canary: Sendable {}

    private struct Caged: Equatable, Sendable {
        var canary: Canary?

        static func == (lhs: Caged, rhs: Caged) -> Bool { lhs.canary === rhs.canary }
    }

    /// The canary, watched without being kept, and whether it was freed once the state dropped it.
    private final class Watch: Sendable {
        private struct Weak: Sendable {
            weak var canary: Canary?
        }

        private let watched = Locked(Weak())
        private let freed = Locked<Bool?>(nil)

        /// A canary watched from now on.
        func canary() -> Canary {
            let canary = Canary()
            watched.withLock { $0.canary = canary }
            return canary
        }

        /// Notes whether the canary is freed now.
        func noteDropped() {
            let gone = watched.withLock { $0.canary == nil }
            freed.withLock { $0 = gone }
        }

        /// Whether the canary was freed when the state dropped it; nil when it never did.
        var freedWhenDropped: Bool? { freed.withLock { $0 } }
    }

    /// An app whose initial state holds `watch`'s canary, whose one key drops it, and which ends once it is
    /// dropped, `watch` noting then whether the canary was freed.
    private static func cagedApp(_ watch: Watch) -> App<Caged, Bool, Never> {
        App(
            initialState: Caged(canary: watch.canary()),
            reduce: { state, _ in
                state.canary = nil
                return []
            },
            view: { _, size in Canvas(size: size) },
            keymap: { _, _, _ in true },
            isFinished: { state in
                guard state.canary == nil else { return false }
                watch.noteDropped()
                return true
            })
    }

    @Test(arguments: [false, true]) func nothingButTheStoreKeepsTheInitialState(detached: Bool) async {
        let watch = Watch()
        let terminal = HeadlessTerminal(size: Size(width: 4, height: 1), script: [.key(.character("d"))])
        let final: Caged
        if detached {
            final = await Self.cagedApp(watch).run(detachedOn: terminal)
        } else {
            final = Self.cagedApp(watch).run(on: terminal)
        }
        #expect(final == Caged(canary: nil))
        #expect(watch.freedWhenDropped == true)
    }
}

/// An effect with an identity, to see when the queue lets go of it.
private final class EffectToken: Sendable {}
