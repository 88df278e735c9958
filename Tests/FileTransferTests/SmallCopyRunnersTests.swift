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

    /// A runner copies at a lower scheduling priority than the thread that made the runners, which keeps its own:
    /// on Linux, where a thread's nice value is its own, ``SmallCopyRunners/niceIncrement`` levels lower (never lower
    /// than the lowest there is); elsewhere, at the process's. A runner that another runner started, for a copy that
    /// waited too long, runs at the same level, not lower again.
    @Test func runnersCopyBelowTheThreadThatMadeThemAllAtOneLevel() {
        let making = SmallCopyRunners.niceOfThisThread()
        let runners = SmallCopyRunners(
            threads: 1, mostThreads: 2, patience: .milliseconds(1), idleTimeout: .seconds(60))
        let nices = Locked<[Int32?]>([])
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let thirdStarted = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let recordNice: @Sendable () -> Void = {
            nices.withLock { $0.append(SmallCopyRunners.niceOfThisThread()) }
            done.signal()
        }
        runners.run {
            recordNice()
            started.signal()
            release.wait()
        }
        started.wait()
        // Both wait behind the held runner. Once it is let go it takes the second copy, finds the third waited longer
        // than the patience and starts a second runner itself; the second copy holds it until the third has started,
        // which can only be on that second runner.
        runners.run {
            recordNice()
            thirdStarted.wait()
        }
        runners.run {
            recordNice()
            thirdStarted.signal()
        }
        usleep(5_000)
        release.signal()
        for _ in 0..<3 { done.wait() }
        #if os(Linux)
        let expected = making.map { min($0 + SmallCopyRunners.niceIncrement, SmallCopyRunners.lowestPriority) }
        #expect(making != nil)
        #else
        let expected: Int32? = nil
        #endif
        #expect(nices.withLock { $0 } == [expected, expected, expected])
        #expect(runners.running == 2)
        #expect(SmallCopyRunners.niceOfThisThread() == making)
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
