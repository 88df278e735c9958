import StateMachineKit
import Support

#if canImport(Testing)
import Testing

/// Steps a live machine through a Swift Testing test and fails it on anything the test did not assert.
///
/// Every record the machine makes after the tester was created must be asserted, in order, with its event,
/// its outcome and the whole state it left the machine in:
///
/// - ``send(_:_:_:sourceLocation:)`` sends an event and asserts the record of that send;
/// - ``receive(_:_:_:timeout:sourceLocation:)`` awaits and asserts the next record the machine made on its
///   own: an event from `whileIn` work's `Sender`, a state timeout fired by a `TestClock`
///   advance, a postponed event retried after a move, or a late result dropped as `stale`;
/// - ``finish(sourceLocation:)`` (or, failing that, the tester's end) fails on every record left unasserted.
///
/// A send that finds records the test has not received yet fails too, naming them: they happened before the
/// event the test thought came next. Each failure is recorded as a Swift Testing issue at the step's source
/// location, and the tester carries on after it, past the records it named, so one mistake is reported once.
///
/// Waiting never sleeps: ``receive(_:_:_:timeout:sourceLocation:)`` reads the machine's change feed,
/// `records(after:)`, which wakes on every record; its timeout only bounds a wait for a
/// record that never comes, so that the test fails with a message instead of hanging.
///
/// Records made before the tester was created are not asserted. The tester cannot see work that is still
/// running and has not sent yet: a record it makes after ``finish(sourceLocation:)`` is not checked. Stop the
/// machine, or receive what the work sends, before finishing.
public final class MachineTester<State: Hashable & Sendable, Event: Equatable & Sendable>: Sendable {
    /// The machine under test.
    public typealias Machine = StateMachine<State, Event>

    /// The machine under test; send to it only through the tester, or receive what you sent directly.
    public let machine: Machine
    /// How long ``receive(_:_:_:timeout:sourceLocation:)`` waits for a record when it is given no timeout.
    public let timeout: Duration
    private let created: SourceLocation
    private let progress: Locked<Progress>

    /// How far the test has asserted.
    private struct Progress {
        /// The sequence number of the newest record asserted (or reported as unasserted).
        var asserted: Int
        /// Whether ``finish(sourceLocation:)`` ran.
        var finished = false
    }

    /// Starts asserting `machine` from its newest record on.
    ///
    /// - Parameters:
    ///   - machine: the machine under test, with its `whileIn` work registered; its history must keep
    ///     records (`historyLimit` above 0) for the tester to read them.
    ///   - timeout: how long a ``receive(_:_:_:timeout:sourceLocation:)`` waits by default before it fails;
    ///     only a record that never comes takes it.
    ///   - sourceLocation: where an unfinished tester reports the records it found unasserted at its end.
    public init(
        _ machine: Machine, timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation
    ) {
        precondition(machine.historyLimit > 0, "MachineTester reads the history of \(machine.label): it keeps none")
        precondition(timeout > .zero, "MachineTester needs a positive timeout, got \(timeout)")
        self.machine = machine
        self.timeout = timeout
        self.created = sourceLocation
        self.progress = Locked(Progress(asserted: machine.sequence))
    }

    deinit {
        let finished = progress.withLock { $0.finished }
        if !finished { checkNothingLeft(before: "the end of the test (finish() was not called)", at: created) }
    }

    /// Sends `event` and asserts that the machine recorded it with `outcome`, leaving it in `state`.
    ///
    /// Fails first when the machine made records before this one that the test has not received — before the
    /// send or while it was being sent — naming each with the `receive` that asserts it. Records the send
    /// caused after its own (postponed events its move let through) are left for
    /// ``receive(_:_:_:timeout:sourceLocation:)``.
    public func send(
        _ event: Event, _ outcome: Outcome, _ state: State, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let step = "send(\(swiftCase(String(describing: event))))"
        let asserted = progress.withLock { $0.asserted }
        let made = machine.send(event)
        guard made != .stopped else {
            checkNothingLeft(before: step, at: sourceLocation)
            Issue.record(Comment(rawValue: "\(step): the machine is stopped"), sourceLocation: sourceLocation)
            return
        }
        let (records, missed) = unasserted(after: asserted)
        // Its own record is the first with its event and the outcome the send returned; the ones before it were
        // made by work or a timer, before the send or while it was being sent.
        guard let own = records.firstIndex(where: { $0.event == event && $0.outcome == made }) else {
            progress.withLock { $0.asserted = asserted + missed + records.count }
            Issue.record(
                Comment(
                    rawValue:
                        "\(step): its record (\(made)) fell out of the history before it could be read (raise historyLimit)"
                ), sourceLocation: sourceLocation)
            return
        }
        if missed > 0 || own > 0 {
            Issue.record(
                Comment(
                    rawValue: Self.unassertedText(
                        "\(Self.count(missed + own)) not asserted before \(step):", Array(records[..<own]),
                        missed: missed)),
                sourceLocation: sourceLocation)
        }
        expect(records[own], is: event, outcome, state, step: step, at: sourceLocation)
    }

    /// Awaits the next record the machine made on its own and asserts its event, its outcome and the state it
    /// left the machine in.
    ///
    /// Returns at once when the record is there; otherwise waits on `records(after:)` until
    /// it comes. Fails when none comes within `timeout` (``timeout`` when `nil`) or the machine stops first.
    public func receive(
        _ event: Event, _ outcome: Outcome, _ state: State, timeout: Duration? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let step = "receive(\(Self.arguments(event, outcome, state)))"
        let limit = timeout ?? self.timeout
        while true {
            let asserted = progress.withLock { $0.asserted }
            switch await arrival(after: asserted, within: limit) {
            case .batch(let batch):
                if batch.missed > 0 {
                    Issue.record(
                        Comment(
                            rawValue:
                                "\(step): \(Self.count(batch.missed)) fell out of the history before they were received (raise historyLimit)"
                        ),
                        sourceLocation: sourceLocation)
                    progress.withLock { $0.asserted = asserted + batch.missed }
                }
                guard let next = batch.records.first else { continue }
                expect(next, is: event, outcome, state, step: step, at: sourceLocation)
            case .ended:
                Issue.record(
                    Comment(rawValue: "\(step): the machine stopped in \(machine.state) before the record came"),
                    sourceLocation: sourceLocation)
            case .timedOut:
                Issue.record(
                    Comment(
                        rawValue:
                            "\(step): no record came within \(limit); the machine is in \(machine.state) and made nothing since #\(asserted)"
                    ), sourceLocation: sourceLocation)
            case .cancelled:
                break
            }
            return
        }
    }

    /// Fails the test on every record the machine made that the test has not asserted, naming each.
    ///
    /// Call it last; without it, the tester's end runs the same check. Work still running may record
    /// later: stop the machine first when the test should end it.
    public func finish(sourceLocation: SourceLocation = #_sourceLocation) {
        progress.withLock { $0.finished = true }
        checkNothingLeft(before: "finish()", at: sourceLocation)
    }

    // MARK: - Checks

    /// Asserts `record` against the expected event, outcome and state, and marks it asserted either way.
    private func expect(
        _ record: Machine.Record, is event: Event, _ outcome: Outcome, _ state: State, step: String,
        at sourceLocation: SourceLocation
    ) {
        progress.withLock { $0.asserted = record.sequence }
        guard record.event != event || record.outcome != outcome || record.after != state else { return }
        Issue.record(
            Comment(
                rawValue: """
                    \(step) does not match the machine's record #\(record.sequence):
                      expected: \(Self.arguments(event, outcome, state))
                      recorded: \(Self.arguments(record.event, record.outcome, record.after)) (from \(record.before), visit \(record.visit))
                    """), sourceLocation: sourceLocation)
    }

    /// Fails on the records made since the newest asserted one, and marks them asserted.
    private func checkNothingLeft(before step: String, at sourceLocation: SourceLocation) {
        let asserted = progress.withLock { $0.asserted }
        let (records, missed) = unasserted(after: asserted)
        guard missed > 0 || !records.isEmpty else { return }
        progress.withLock { $0.asserted = max($0.asserted, asserted + missed + records.count) }
        Issue.record(
            Comment(
                rawValue: Self.unassertedText(
                    "\(Self.count(missed + records.count)) not asserted before \(step):", records, missed: missed)),
            sourceLocation: sourceLocation)
    }

    /// The records after `asserted` still in the history, oldest first, and how many after it fell out first.
    private func unasserted(after asserted: Int) -> (records: [Machine.Record], missed: Int) {
        let snapshot = machine.snapshot()
        let records = snapshot.history.filter { $0.sequence > asserted }
        return (records, snapshot.sequence - asserted - records.count)
    }

    // MARK: - Waiting

    /// What a wait for the next record found.
    private enum Arrival: Sendable {
        /// Records after the cursor (or the count of those that fell out of the history).
        case batch(Machine.RecordBatch)
        /// The machine stopped (or is gone) with no record after the cursor.
        case ended
        /// No record came within the timeout.
        case timedOut
        /// The test's task was cancelled.
        case cancelled
    }

    /// The first batch of the feed after `cursor`, racing a timeout on the continuous clock.
    private func arrival(after cursor: Int, within limit: Duration) async -> Arrival {
        let machine = self.machine
        return await withTaskGroup(of: Arrival.self) { group in
            group.addTask {
                for await batch in machine.records(after: cursor) { return .batch(batch) }
                return Task.isCancelled ? .cancelled : .ended
            }
            group.addTask {
                do {
                    try await Task.sleep(for: limit)
                } catch {
                    return .cancelled
                }
                return .timedOut
            }
            let first = await group.next() ?? .cancelled
            group.cancelAll()
            return first
        }
    }

    // MARK: - Text

    /// `.completed, .moved, .done`: the arguments of the call that asserts such a record.
    static func arguments(_ event: Event, _ outcome: Outcome, _ state: State) -> String {
        [String(describing: event), outcome.description, String(describing: state)].map(swiftCase)
            .joined(separator: ", ")
    }

    /// `headline`, then the unasserted `records` (after `missed` ones that fell out of the history), each with
    /// the line that would assert it.
    static func unassertedText(_ headline: String, _ records: [Machine.Record], missed: Int) -> String {
        var lines = [headline]
        if missed > 0 { lines.append("  \(count(missed)) fell out of the history first (raise historyLimit)") }
        lines += records.map { "  \($0)" }
        if !records.isEmpty {
            lines.append("Assert \(records.count == 1 ? "it" : "them, in order,") with:")
            lines += records.map { "  await tester.receive(\(arguments($0.event, $0.outcome, $0.after)))" }
        }
        return lines.joined(separator: "\n")
    }

    /// `1 record`, `3 records`.
    static func count(_ records: Int) -> String { records == 1 ? "1 record" : "\(records) records" }
}
#endif
