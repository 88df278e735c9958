import StateMachineKit
import StateMachineTesting
import Synchronization
import Testing

/// A page fetch: the server answers one second after a request (the first request fails, later ones return
/// the page), a failure retries by itself after five seconds, and `show` waits (postponed) until a page is
/// there.
private enum Fetch: Hashable, Sendable {
    case idle
    case loading(attempt: Int)
    case failed(attempt: Int)
    case loaded(String)

    var isLoading: Bool {
        switch self {
        case .loading: true
        case .idle, .failed, .loaded: false
        }
    }
}

private enum FetchEvent: Hashable, Sendable {
    case load
    case response(String)
    case failure, retry, cancel, show
}

@Sendable private func fetch(_ state: Fetch, _ event: FetchEvent) -> Transition<Fetch, FetchEvent> {
    switch (state, event) {
    case (.idle, .load): .to(.loading(attempt: 1))
    case (.loading, .response(let page)): .to(.loaded(page))
    case (.loading(let attempt), .failure):
        .to(.failed(attempt: attempt), timeout: StateTimeout(after: .seconds(5), send: .retry))
    case (.failed(let attempt), .retry): .to(.loading(attempt: attempt + 1))
    case (.loading, .cancel), (.failed, .cancel): .to(.idle)
    case (.loading, .show), (.failed, .show): .postpone
    case (.loaded, .show): .stay
    case (.idle, .show): .invalid("nothing to show")
    case (.idle, _), (.loading, _), (.failed, _), (.loaded, _): .ignore
    }
}

/// A fetch machine on `clock` whose server answers after one second; with `lateResults`, its work ignores
/// cancellation and answers anyway, so an answer for a request the machine gave up on arrives stale.
private func fetchMachine(
    _ clock: TestClock, historyLimit: Int = 64, lateResults: Bool = false
) -> StateMachine<Fetch, FetchEvent> {
    let machine = StateMachine(
        initial: Fetch.idle, label: "fetch", historyLimit: historyLimit, clock: AnyClock(clock), transition: fetch)
    let requests = Atomic<Int>(0)
    machine.whileIn(where: \.isLoading, label: "request") { sender in
        let request = requests.add(1, ordering: .relaxed).newValue
        do {
            try await clock.sleep(for: .seconds(1))
        } catch {
            guard lateResults else { return }
        }
        sender.send(request == 1 ? .failure : .response("page"))
    }
    return machine
}

/// What a failing step of a tester records: one issue whose comment is `message`.
private func recorded(_ message: String) -> @Sendable (Issue) -> Bool {
    { issue in issue.comments.map(\.rawValue) == [message] }
}

@Suite struct MachineTesterTests {
    /// Work's answers, a state timeout and a postponed event, each received in order: no issue.
    @Test func everyRecordAssertedInOrderPasses() async {
        let clock = TestClock()
        let machine = fetchMachine(clock)
        let tester = MachineTester(machine)
        tester.send(.load, .moved, .loading(attempt: 1))
        tester.send(.show, .postponed, .loading(attempt: 1))
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .seconds(1))
        await tester.receive(.failure, .moved, .failed(attempt: 1))
        await tester.receive(.show, .postponed, .failed(attempt: 1))
        clock.advance(by: .seconds(5))
        await tester.receive(.retry, .moved, .loading(attempt: 2))
        await tester.receive(.show, .postponed, .loading(attempt: 2))
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .seconds(1))
        await tester.receive(.response("page"), .moved, .loaded("page"))
        await tester.receive(.show, .stayed, .loaded("page"))
        tester.send(.cancel, .ignored, .loaded("page"))
        tester.finish()
    }

    /// A late answer for a request the machine gave up on is a record of its own: `stale`, state unchanged.
    @Test func aLateAnswerIsReceivedAsStale() async {
        let clock = TestClock()
        let machine = fetchMachine(clock, lateResults: true)
        let tester = MachineTester(machine)
        tester.send(.load, .moved, .loading(attempt: 1))
        tester.send(.cancel, .moved, .idle)
        await tester.receive(.failure, .stale, .idle)
        tester.finish()
    }

    @Test func aRecordLeftUnassertedFailsFinishNamingIt() {
        let machine = fetchMachine(TestClock())
        let tester = MachineTester(machine)
        machine.send(.load)
        withKnownIssue {
            tester.finish()
        } matching: {
            recorded(
                """
                1 record not asserted before finish():
                  #1 visit 1: idle + load -> loading(attempt: 1) (moved)
                Assert it with:
                  await tester.receive(.load, .moved, .loading(attempt: 1))
                """)($0)
        }
        machine.stop()
    }

    /// A record made since the last assertion is unexpected at the next send; the send itself is still asserted.
    @Test func aSendThatFindsRecordsNotReceivedFailsNamingThem() async {
        let machine = fetchMachine(TestClock())
        let tester = MachineTester(machine)
        machine.send(.load)
        machine.send(.show)
        withKnownIssue {
            tester.send(.cancel, .moved, .idle)
        } matching: {
            recorded(
                """
                2 records not asserted before send(.cancel):
                  #1 visit 1: idle + load -> loading(attempt: 1) (moved)
                  #2 visit 2: loading(attempt: 1) + show -> loading(attempt: 1) (postponed)
                Assert them, in order, with:
                  await tester.receive(.load, .moved, .loading(attempt: 1))
                  await tester.receive(.show, .postponed, .loading(attempt: 1))
                """)($0)
        }
        // The cancel's move let the postponed `show` through, into `idle`.
        await tester.receive(.show, .invalid("nothing to show"), .idle)
        tester.finish()
    }

    @Test func aSendWhoseRecordDiffersFailsShowingBoth() {
        let machine = fetchMachine(TestClock())
        let tester = MachineTester(machine)
        withKnownIssue {
            tester.send(.show, .ignored, .idle)
        } matching: {
            recorded(
                """
                send(.show) does not match the machine's record #1:
                  expected: .show, .ignored, .idle
                  recorded: .show, .invalid("nothing to show"), .idle (from idle, visit 1)
                """)($0)
        }
        tester.finish()
    }

    @Test func aReceivedRecordThatDiffersFailsShowingBoth() async {
        let clock = TestClock()
        let machine = fetchMachine(clock)
        let tester = MachineTester(machine)
        tester.send(.load, .moved, .loading(attempt: 1))
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .seconds(1))
        await withKnownIssue {
            await tester.receive(.response("page"), .moved, .loaded("page"))
        } matching: {
            recorded(
                """
                receive(.response("page"), .moved, .loaded("page")) does not match the machine's record #2:
                  expected: .response("page"), .moved, .loaded("page")
                  recorded: .failure, .moved, .failed(attempt: 1) (from loading(attempt: 1), visit 2)
                """)($0)
        }
        tester.finish()
        machine.stop()
    }

    /// Nothing answers while the clock stands still: the wait ends at its bound with a message, not a hang.
    @Test func aReceiveThatNothingAnswersFailsAtItsBound() async {
        let machine = fetchMachine(TestClock())
        let tester = MachineTester(machine)
        tester.send(.load, .moved, .loading(attempt: 1))
        await withKnownIssue {
            await tester.receive(.failure, .moved, .failed(attempt: 1), timeout: .milliseconds(50))
        } matching: {
            recorded(
                """
                receive(.failure, .moved, .failed(attempt: 1)): no record came within 0.05 seconds; \
                the machine is in loading(attempt: 1) and made nothing since #1
                """)($0)
        }
        tester.finish()
        machine.stop()
    }

    @Test func aReceiveFailsWhenTheMachineStopsFirst() async {
        let machine = fetchMachine(TestClock())
        let tester = MachineTester(machine)
        tester.send(.load, .moved, .loading(attempt: 1))
        machine.stop()
        await withKnownIssue {
            await tester.receive(.failure, .moved, .failed(attempt: 1))
        } matching: {
            recorded(
                "receive(.failure, .moved, .failed(attempt: 1)): the machine stopped in loading(attempt: 1) before the record came"
            )($0)
        }
        tester.finish()
    }

    @Test func aSendToAStoppedMachineFails() {
        let machine = fetchMachine(TestClock())
        let tester = MachineTester(machine)
        machine.stop()
        withKnownIssue {
            tester.send(.load, .moved, .loading(attempt: 1))
        } matching: {
            recorded("send(.load): the machine is stopped")($0)
        }
        tester.finish()
    }

    /// A tester dropped without `finish()` runs the same check at its end.
    @Test func anUnfinishedTesterChecksAtItsEnd() {
        let machine = fetchMachine(TestClock())
        withKnownIssue {
            let tester = MachineTester(machine)
            tester.machine.send(.load)
        } matching: {
            recorded(
                """
                1 record not asserted before the end of the test (finish() was not called):
                  #1 visit 1: idle + load -> loading(attempt: 1) (moved)
                Assert it with:
                  await tester.receive(.load, .moved, .loading(attempt: 1))
                """)($0)
        }
        machine.stop()
    }

    /// Records that fell out of a short history before they were asserted are counted, never skipped silently.
    @Test func recordsThatFellOutOfTheHistoryAreCounted() {
        let machine = fetchMachine(TestClock(), historyLimit: 2)
        let tester = MachineTester(machine)
        machine.send(.show)
        machine.send(.load)
        machine.send(.cancel)
        withKnownIssue {
            tester.finish()
        } matching: {
            recorded(
                """
                3 records not asserted before finish():
                  1 record fell out of the history first (raise historyLimit)
                  #2 visit 1: idle + load -> loading(attempt: 1) (moved)
                  #3 visit 2: loading(attempt: 1) + cancel -> idle (moved)
                Assert them, in order, with:
                  await tester.receive(.load, .moved, .loading(attempt: 1))
                  await tester.receive(.cancel, .moved, .idle)
                """)($0)
        }
    }

    /// A send whose own record was pushed out of a one-record history by the postponed event its move let
    /// through cannot be asserted, and says so.
    @Test func aSendWhoseRecordFellOutOfTheHistoryFails() {
        let machine = fetchMachine(TestClock(), historyLimit: 1)
        machine.send(.load)
        machine.send(.show)
        let tester = MachineTester(machine)
        let message =
            "send(.cancel): its record (moved) fell out of the history before it could be read (raise historyLimit)"
        withKnownIssue {
            tester.send(.cancel, .moved, .idle)
        } matching: {
            recorded(message)($0)
        }
        tester.finish()
    }

    /// Records from before the tester existed are the setup's, not the test's.
    @Test func recordsBeforeTheTesterAreNotAsserted() {
        let machine = fetchMachine(TestClock())
        machine.send(.show)
        let tester = MachineTester(machine)
        tester.send(.show, .invalid("nothing to show"), .idle)
        tester.finish()
    }
}
