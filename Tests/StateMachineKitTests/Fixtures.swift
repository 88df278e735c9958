import StateMachineKit
import StateMachineTesting
import Support
import Testing

// The test machines print as Swift prints an enum case (`running(percent: 10)`, `pass(1)`): the form the
// engine's records, reports and diagrams show, with no `description` written out by hand.

/// The classic turnstile: a coin unlocks, a push locks.
enum Turnstile: Hashable, Sendable {
    case locked, unlocked, broken
}

enum TurnstileEvent: Hashable, Sendable {
    case coin, push, kick, repair, reenter
}

@Sendable func turnstile(_ state: Turnstile, _ event: TurnstileEvent) -> Transition<Turnstile, TurnstileEvent> {
    switch (state, event) {
    case (.locked, .coin): .to(.unlocked)
    case (.locked, .push): .stay
    case (.unlocked, .coin): .ignore
    case (.unlocked, .push): .to(.locked)
    case (.broken, .coin), (.broken, .push): .ignore
    case (.locked, .kick), (.unlocked, .kick): .to(.broken)
    case (.broken, .kick): .invalid("already broken")
    case (.broken, .repair): .to(.locked)
    case (.locked, .repair), (.unlocked, .repair): .invalid("nothing to repair")
    case (let state, .reenter): .to(state)
    }
}

/// A data-carrying machine: a download whose running and paused states carry progress.
enum Download: Hashable, Sendable, Codable {
    case idle
    case running(percent: Int)
    case paused(percent: Int)
    case waiting(attempt: Int)
    case done

    var isRunning: Bool {
        switch self {
        case .running: true
        case .idle, .paused, .waiting, .done: false
        }
    }
}

enum DownloadEvent: Hashable, Sendable, Codable {
    case start
    case progress(Int)
    case pause, resume, fail, retry, finish, restart
}

/// Pausing is an `.update` (same visit), so `whileIn(where: isRunning)` must stop and restart within
/// one visit; failing waits five seconds, then retries by itself.
@Sendable func download(_ state: Download, _ event: DownloadEvent) -> Transition<Download, DownloadEvent> {
    switch (state, event) {
    case (.idle, .start): .to(.running(percent: 0))
    case (.running, .progress(let percent)): .update(.running(percent: percent))
    case (.paused, .progress): .ignore
    case (.running(let percent), .pause): .update(.paused(percent: percent))
    case (.paused(let percent), .resume): .update(.running(percent: percent))
    case (.running, .fail): .to(.waiting(attempt: 1), timeout: StateTimeout(after: .seconds(5), send: .retry))
    case (.waiting(let attempt), .fail): .update(.waiting(attempt: attempt + 1))
    case (.waiting, .retry): .to(.running(percent: 0))
    case (.running, .finish): .to(.done)
    case (let state, .restart): .to(state)
    case (.idle, _), (.done, _): .invalid("no download in progress")
    case (.running, _), (.paused, _), (.waiting, _): .ignore
    }
}

/// Collects reports from any thread.
final class ReportLog: Sendable {
    private let reports = Locked<[Report]>([])

    var all: [Report] { reports.withLock { $0 } }

    func named(_ name: String) -> [Report] { all.filter { $0.name == name } }

    var reporter: Reporter { Reporter { report in self.reports.withLock { $0.append(report) } } }

    /// Expects `expected` to be the one report filed under its name, compared as a whole value.
    func expectOnly(_ expected: Report, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(named(expected.name) == [expected], sourceLocation: sourceLocation)
    }
}

/// A slot filled after the fact, for closures that must reach an object created after them.
final class Late<Value: Sendable>: Sendable {
    private let slot = Locked<Value?>(nil)

    var value: Value? {
        get { slot.withLock { $0 } }
        set { slot.withLock { $0 = newValue } }
    }
}

/// Suspends until the current task is cancelled; no clock involved.
func untilCancelled() async {
    let (never, keepOpen) = AsyncStream<Never>.makeStream()
    for await _ in never {}
    withExtendedLifetime(keepOpen) {}
}

/// Waits until `object()` is nil, or until the task is cancelled (a test's time limit ends the wait for an
/// object that is never freed). A reader parks under its machine's lock and lets its own hold on the machine go
/// just after, on its thread: a test that sees the reader parked may look before that (a sanitizer's run did).
func untilFreed(_ object: () -> AnyObject?) async {
    while object() != nil, !Task.isCancelled { await Task.yield() }
}

/// A channel a test awaits: work and reporters post, the test reads in order.
final class Signals<Value: Sendable>: Sendable {
    let stream: AsyncStream<Value>
    private let continuation: AsyncStream<Value>.Continuation

    init() { (stream, continuation) = AsyncStream<Value>.makeStream() }

    func post(_ value: Value) { continuation.yield(value) }

    /// The next `count` values posted.
    func next(_ count: Int = 1) async -> [Value] {
        var values: [Value] = []
        var iterator = stream.makeAsyncIterator()
        while values.count < count, let value = await iterator.next() { values.append(value) }
        return values
    }
}

/// Expects the armed retry timeout of a waiting download to hold through `early` on `clock` (its sleeper still
/// pending) and to fire `late` after that, moving the machine to `running(percent: 0)`, and the machine to record
/// nothing else meanwhile.
func expectRetryFires(
    _ machine: StateMachine<Download, DownloadEvent>, on clock: TestClock, notAfter early: Duration,
    butAfter late: Duration, sourceLocation: SourceLocation = #_sourceLocation
) async {
    let tester = MachineTester(machine, sourceLocation: sourceLocation)
    await clock.sleepers(atLeast: 1)
    clock.advance(by: early)
    #expect(clock.pendingSleeps == 1, sourceLocation: sourceLocation)
    clock.advance(by: late)
    await tester.receive(.retry, .moved, .running(percent: 0), sourceLocation: sourceLocation)
    tester.finish(sourceLocation: sourceLocation)
}
