import Dispatch
import Support
import Testing

@testable import FileTransfer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The small files' runners: copies handed in run in their turn, each once, on the runners' own threads; a copy
/// that waits too long for one gets another runner, and a runner with nothing to copy ends.
@Suite(.timeLimit(.minutes(1))) struct SmallCopyRunnersTests {
    /// One runner takes the copies in the order they were handed in, every one of them.
    @Test func oneRunnerTakesTheCopiesInTheirOrder() {
        let runners = SmallCopyRunners(threads: 1, mostThreads: 1, patience: .seconds(60), idleTimeout: .seconds(60))
        let ran = Locked<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        for index in 0..<200 {
            runners.run {
                ran.withLock { $0.append(index) }
                done.signal()
            }
        }
        for _ in 0..<200 { done.wait() }
        #expect(ran.withLock { $0 } == Array(0..<200))
        #expect(runners.running == 1)
    }

    /// Several runners run every copy handed in exactly once, also copies handed in from several threads at once,
    /// and work on at most as many copies at once as there are runners.
    @Test func severalRunnersRunEveryCopyOnce() {
        let runners = SmallCopyRunners(threads: 3, mostThreads: 3, patience: .seconds(60), idleTimeout: .seconds(60))
        let counts = Locked<(ran: [Int], running: Int, most: Int)>(([], 0, 0))
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.concurrentPerform(iterations: 4) { giver in
            for index in 0..<250 {
                runners.run {
                    counts.withLock {
                        $0.running += 1
                        $0.most = max($0.most, $0.running)
                    }
                    counts.withLock {
                        $0.ran.append(giver * 1000 + index)
                        $0.running -= 1
                    }
                    done.signal()
                }
            }
        }
        for _ in 0..<1000 { done.wait() }
        let (ran, running, most) = counts.withLock { $0 }
        #expect(ran.sorted() == (0..<4).flatMap { giver in (0..<250).map { giver * 1000 + $0 } })
        #expect(running == 0)
        #expect((1...3).contains(most))
        #expect((1...3).contains(runners.running))
    }

    /// A runner copies at a lower scheduling priority than the thread that hands it copies, which keeps its own: on
    /// Linux, where a thread's nice value is its own, ``SmallCopyRunners/niceIncrement`` levels lower (never lower
    /// than the lowest there is); elsewhere, at the process's.
    @Test func aRunnerCopiesBelowTheThreadThatHandsItCopies() {
        let runners = SmallCopyRunners(threads: 1, mostThreads: 1, patience: .seconds(60), idleTimeout: .seconds(60))
        let niceOfTheRunner = Locked<Int32?>(nil)
        let done = DispatchSemaphore(value: 0)
        let handingIn = Self.niceOfThisThread()
        runners.run {
            niceOfTheRunner.withLock { $0 = Self.niceOfThisThread() }
            done.signal()
        }
        done.wait()
        #if os(Linux)
        let expected = min(handingIn + SmallCopyRunners.niceIncrement, SmallCopyRunners.lowestPriority)
        #else
        let expected = handingIn
        #endif
        #expect(niceOfTheRunner.withLock { $0 } == expected)
        #expect(Self.niceOfThisThread() == handingIn)
    }

    /// The calling thread's nice value (on Linux its own; elsewhere the process's).
    private static func niceOfThisThread() -> Int32 {
        #if os(Linux)
        getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        #else
        getpriority(PRIO_PROCESS, 0)
        #endif
    }

    /// While every runner is held by a copy that waits (for a slow device, say), a copy handed in after another
    /// waited longer than the patience starts one more runner, which runs it: copies that wait for the device are
    /// soon as many at once as before there were runners. Never more than the most runners start.
    @Test func aCopyThatWaitsTooLongGetsAnotherRunner() {
        let runners = SmallCopyRunners(
            threads: 1, mostThreads: 2, patience: .milliseconds(1), idleTimeout: .seconds(60))
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let ran = DispatchSemaphore(value: 0)
        runners.run {
            started.signal()
            release.wait()
            ran.signal()
        }
        started.wait()
        // The only runner is held: this copy waits.
        runners.run { ran.signal() }
        usleep(5_000)
        // Handed in after the one before waited 5 ms, longer than the patience: a second runner starts and runs the
        // copy waiting, while the first is still held.
        runners.run { ran.signal() }
        ran.wait()
        ran.wait()
        #expect(runners.running == 2)
        usleep(5_000)
        runners.run { ran.signal() }
        release.signal()
        for _ in 0..<2 { ran.wait() }
        #expect(runners.running == 2)
    }

    /// A runner with nothing to copy for its idle time ends, and a copy handed in afterwards starts one again.
    @Test func idleRunnersEndAndComeBackForTheNextCopy() {
        let runners = SmallCopyRunners(
            threads: 2, mostThreads: 2, patience: .seconds(60), idleTimeout: .milliseconds(20))
        #expect(runners.running == 0)
        let ran = DispatchSemaphore(value: 0)
        for _ in 0..<2 { runners.run { ran.signal() } }
        for _ in 0..<2 { ran.wait() }
        // Waits for the runners to end: the suite's time limit fails the test if they never do.
        while runners.running > 0 { usleep(5_000) }
        runners.run { ran.signal() }
        ran.wait()
        #expect((1...2).contains(runners.running))
    }
}
