import StateMachineKit
import StateMachineTesting
import Testing

/// A job whose work fails after 3 s of running and whose backoff retries after 5 s — with the planted
/// bug that retries are never capped, so a third attempt starts.
private enum Job: Hashable, Sendable {
    case idle
    case running(attempt: Int)
    case backoff(attempt: Int)

    var attempt: Int {
        switch self {
        case .idle: 0
        case .running(let attempt), .backoff(let attempt): attempt
        }
    }

    var isRunning: Bool {
        switch self {
        case .running: true
        case .idle, .backoff: false
        }
    }
}

private enum JobEvent: Hashable, Sendable {
    case start, fail, retry, cancel, ping
}

@Sendable private func job(_ state: Job, _ event: JobEvent) -> Transition<Job, JobEvent> {
    switch (state, event) {
    case (.idle, .start): .to(.running(attempt: 1))
    case (.running(let attempt), .fail):
        .to(.backoff(attempt: attempt), timeout: StateTimeout(after: .seconds(5), send: .retry))
    case (.backoff(let attempt), .retry): .to(.running(attempt: attempt + 1))
    case (.running, .cancel), (.backoff, .cancel): .to(.idle)
    case (.idle, .fail), (.idle, .retry), (.idle, .cancel), (.running, .start), (.running, .retry),
        (.backoff, .start), (.backoff, .fail), (_, .ping):
        .ignore
    }
}

/// A fresh machine whose running work fails after 3 s on the test clock.
private func makeJob() -> (StateMachine<Job, JobEvent>, TestClock) {
    let clock = TestClock()
    let machine = StateMachine(
        initial: Job.idle, label: "job", historyLimit: 256, clock: AnyClock(clock), transition: job)
    machine.whileIn(where: \.isRunning, label: "flaky network") { sender in
        do {
            try await clock.sleep(for: .seconds(3))
            sender.send(.fail)
        } catch {
            // Cancelled with its visit: nothing to report.
        }
    }
    return (machine, clock)
}

/// Exact settling for this machine: running work and backoff timers each hold one sleep on the clock,
/// and it is registered only after the transition that started it, so waiting for it is waiting for quiet.
private func settleJob(_ machine: StateMachine<Job, JobEvent>, _ clock: TestClock) async {
    switch machine.state {
    case .idle: break
    case .running, .backoff: await clock.sleepers(atLeast: 1)
    }
}

private let jobSteps: [LiveStep<JobEvent>] = [.send(.start), .send(.cancel), .send(.ping), .advance(.seconds(5))]

@Suite struct CheckLiveModelTests {
    @Test func workAndTimeoutsTogetherReachTheUncappedThirdAttemptInFiveSteps() async throws {
        let found = try #require(
            await checkLiveModel(
                make: makeJob, events: jobSteps, invariant: { $0.attempt <= 2 }, sequences: 200, seed: 4,
                environment: [:], settle: settleJob))
        // start; work fails at 3 s, retry at 10 s; work fails at 13 s, retry at 20 s: attempt 3.
        #expect(
            found.events == [
                .send(.start), .advance(.seconds(5)), .advance(.seconds(5)), .advance(.seconds(5)),
                .advance(.seconds(5)),
            ])
        #expect(
            found.states == [
                .running(attempt: 1), .backoff(attempt: 1), .running(attempt: 2), .backoff(attempt: 2),
                .running(attempt: 3),
            ])
        #expect(
            found.failure
                == "the invariant does not hold in running(attempt: 3), reached by retry during step 5 (advance(.seconds(5)))"
        )
        #expect(found.initial == .idle)
    }

    @Test func theSameSeedReplaysTheSameLiveCounterexample() async {
        let run = {
            await checkLiveModel(
                make: makeJob, events: jobSteps, invariant: { $0.attempt <= 2 }, sequences: 200, seed: 8,
                environment: [:], settle: settleJob)
        }
        let first = await run()
        let second = await run()
        #expect(first != nil)
        #expect(first == second)
    }

    @Test func aLiveModelThatKeepsItsInvariantReportsNil() async {
        let found = await checkLiveModel(
            make: makeJob, events: jobSteps, invariant: { $0.attempt >= 0 }, sequences: 20, seed: 4,
            environment: [:], settle: settleJob)
        #expect(found == nil)
    }

    @Test func expectLiveModelRecordsAnIssueShowingTheSteps() async {
        await withKnownIssue {
            await expectLiveModel(
                make: makeJob, events: jobSteps, invariant: { $0.attempt <= 2 }, sequences: 200, seed: 4,
                settle: settleJob)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains(".advance(.seconds(5)),  // → running(attempt: 3)") }
        }
    }

    @Test func stepsPrintAsSwift() {
        #expect(
            jobSteps.map(\.description) == ["send(.start)", "send(.cancel)", "send(.ping)", "advance(.seconds(5))"])
        #expect(LiveStep<JobEvent>.advance(.milliseconds(1500)).description == "advance(.milliseconds(1500))")
        #expect(LiveStep<JobEvent>.advance(.nanoseconds(7)).description == "advance(.nanoseconds(7))")
    }
}
