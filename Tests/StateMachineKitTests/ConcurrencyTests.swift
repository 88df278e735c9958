import StateMachineKit
import Testing

/// Concurrency tests, each repeated 300 times: a race that shows up one run in a hundred still shows. The
/// repetitions run one after another (`.serialized`), beside the other tests: all at once, the four tests' 1,200
/// repetitions put their tasks (a thousand senders each) ahead of every other test's work on the cooperative
/// pool at the same moment, where one repetition at a time keeps the same race in each.
@Suite struct ConcurrencyTests {
    /// A counter whose events name their sender and their position in that sender's sequence.
    struct Tally: Hashable, Sendable {
        var total = 0
        var lastBySender: [Int: Int] = [:]
    }

    struct Numbered: Hashable, Sendable {
        var sender: Int
        var number: Int
    }

    @Sendable static func count(_ tally: Tally, _ event: Numbered) -> Transition<Tally, Numbered> {
        let expected = (tally.lastBySender[event.sender] ?? 0) + 1
        guard event.number == expected else {
            return .invalid("sender \(event.sender) sent \(event.number) after \(expected - 1)")
        }
        var next = tally
        next.total += 1
        next.lastBySender[event.sender] = event.number
        return .update(next)
    }

    @Test(.serialized, arguments: 0..<300)
    func aThousandConcurrentSendersLoseNothing(repetition: Int) async {
        let machine = StateMachine<Int, Int>(initial: 0, label: "counter", historyLimit: 1000) { total, amount in
            .update(total + amount)
        }
        let reader = Task {
            var last = -1
            for await total in machine.states() {
                // Newest-only never goes backwards.
                if total < last { return false }
                last = total
            }
            return last == 1000
        }
        await withTaskGroup(of: Outcome.self) { group in
            for _ in 0..<1000 { group.addTask { machine.send(1) } }
            for await outcome in group { #expect(outcome == .updated) }
        }
        #expect(machine.state == 1000)
        #expect(machine.history.map(\.sequence) == Array(1...1000))
        #expect(machine.history.map(\.after) == Array(1...1000))
        machine.stop()
        #expect(await reader.value)
    }

    @Test func eventsFromOneSenderAreAppliedInTheOrderSent() async {
        let machine = StateMachine<Tally, Numbered>(
            initial: Tally(), label: "tally", historyLimit: 0, transition: Self.count)
        let invalid = await withTaskGroup(of: Int.self) { group in
            for sender in 0..<100 {
                group.addTask {
                    var rejected = 0
                    for number in 1...100 where machine.send(Numbered(sender: sender, number: number)) != .updated {
                        rejected += 1
                    }
                    return rejected
                }
            }
            return await group.reduce(0, +)
        }
        #expect(invalid == 0)
        #expect(
            machine.state
                == Tally(total: 10_000, lastBySender: Dictionary(uniqueKeysWithValues: (0..<100).map { ($0, 100) })))
    }

    /// Events tagged with the visit their sender belonged to: the machine must apply exactly those
    /// whose visit was current and record the others as stale, however the race falls.
    struct Tagged: Hashable, Sendable {
        var visit: Int
        var restart: Bool
    }

    @Test(.serialized, arguments: 0..<300)
    func staleRejectionHoldsUnderRacingVisits(repetition: Int) async {
        let machine = StateMachine<Int, Tagged>(initial: 0, label: "racer", historyLimit: 10_000) { count, event in
            event.restart ? .to(count + 1) : .stay
        }
        let finished = Signals<Int>()
        machine.whileIn(where: { _ in true }, label: "chatter") { sender in
            for _ in 0..<20 where !Task.isCancelled { sender.send(Tagged(visit: sender.visit, restart: false)) }
            finished.post(sender.visit)
        }
        for _ in 0..<20 { machine.send(Tagged(visit: 0, restart: true)) }
        _ = await finished.next(21)
        machine.stop()
        for record in machine.history where !record.event.restart {
            #expect((record.outcome == .stale) == (record.event.visit != record.visit), "\(record)")
        }
        #expect(machine.state == 20)
    }

    @Test(.serialized, arguments: 0..<300)
    func stopRacingSendersEndsEverything(repetition: Int) async {
        let machine = StateMachine<Turnstile, TurnstileEvent>(
            initial: .locked, label: "gate", historyLimit: 1000, transition: turnstile)
        let causes = Signals<CancellationCause?>()
        machine.whileIn(where: { _ in true }, label: "watch") { sender in
            await untilCancelled()
            causes.post(sender.cancellationCause)
        }
        let reader = Task { for await _ in machine.states() {} }
        let perSender = await withTaskGroup(of: [Outcome].self) { group in
            for _ in 0..<4 {
                group.addTask { (0..<50).map { $0.isMultiple(of: 2) ? machine.send(.coin) : machine.send(.push) } }
            }
            group.addTask {
                machine.stop()
                return []
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        await reader.value
        #expect(machine.send(.coin) == .stopped)
        for outcomes in perSender {
            // Once a sender sees the machine stopped, it never sees it running again.
            let afterStop = outcomes.drop { $0 != .stopped }
            #expect(afterStop.allSatisfy { $0 == .stopped })
        }
        let applied = perSender.joined().filter { $0 != .stopped }
        #expect(machine.history.map(\.outcome.description).sorted() == applied.map(\.description).sorted())
        let runs = applied.filter { $0 == .moved }.count + 1
        let seen = await causes.next(runs)
        #expect(seen.filter { $0 == .machineStopped }.count == 1)
        #expect(seen.filter { $0 == .stateExited }.count == runs - 1)
    }
}
