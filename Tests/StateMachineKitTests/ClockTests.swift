import StateMachineKit
import Testing

@Suite struct ClockTests {
    @Test func testClockWakesSleepersInDeadlineOrderWhenAdvancedPastThem() async throws {
        let clock = TestClock()
        let woke = Signals<Int>()
        let start = clock.now
        let late = Task {
            try await clock.sleep(until: start.advanced(by: .seconds(3)))
            woke.post(3)
        }
        let early = Task {
            try await clock.sleep(until: start.advanced(by: .seconds(1)))
            woke.post(1)
        }
        await clock.sleepers(atLeast: 2)
        clock.advance(by: .seconds(1))
        #expect(await woke.next() == [1])
        #expect(clock.pendingSleeps == 1)
        clock.advance(by: .seconds(2))
        #expect(await woke.next() == [3])
        try await early.value
        try await late.value
        #expect(clock.now == TestClock.Instant(offset: .seconds(3)))
    }

    @Test func cancellingASleepThrowsAndForgetsIt() async {
        let clock = TestClock()
        let sleep = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(1))) }
        await clock.sleepers(atLeast: 1)
        sleep.cancel()
        let result = await sleep.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(clock.pendingSleeps == 0)
    }

    @Test func aSleepPastItsDeadlineReturnsAtOnce() async throws {
        let clock = TestClock()
        clock.advance(by: .seconds(2))
        try await clock.sleep(until: TestClock.Instant(offset: .seconds(1)))
        #expect(clock.pendingSleeps == 0)
    }

    @Test func anyClockMeasuresFromTheMomentItWrapped() async throws {
        let clock = TestClock()
        clock.advance(by: .seconds(10))
        let wrapped = AnyClock(clock)
        #expect(wrapped.now == AnyClock.Instant(offset: .zero))
        clock.advance(by: .milliseconds(1500))
        #expect(wrapped.now == AnyClock.Instant(offset: .milliseconds(1500)))
        let sleep = Task { try await wrapped.sleep(until: AnyClock.Instant(offset: .seconds(2))) }
        await clock.sleepers(atLeast: 1)
        clock.advance(by: .milliseconds(500))
        try await sleep.value
        #expect(wrapped.now.duration(to: AnyClock.Instant(offset: .seconds(3))) == .seconds(1))
    }
}
