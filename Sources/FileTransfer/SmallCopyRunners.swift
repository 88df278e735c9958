import Dispatch
import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The threads that run the copies of small files (``CopyJob/run(sizeHint:progress:filesClosed:stopAsked:)`` with a
/// hint under ``CopyJob/commitTogetherMaximumSize``): a few threads, each taking the next copy handed in as soon as
/// it finished one, more when copies wait too long for one, none once there is nothing to copy.
///
/// Each copy used to run on a serial dispatch queue of its own, on dispatch's pool of threads: a thread woke for
/// each file and went idle after it, since the next file's copy was handed in only just after the thread had
/// looked for more work. Those wakes were half the copy threads' context switches. Here, while copies wait their
/// turn, no runner goes idle: 10,000 empty files took 7-9% less time and 55% fewer context switches. A few runners
/// rather than one a copy also keep fewer threads creating and renaming files in one directory at once, whose lock
/// they would wait for.
///
/// On storage where every call waits (a network file system), a few runners would copy small files many times
/// slower than one thread a copy: when the oldest copy waiting was handed in longer than ``patience`` ago, another
/// runner starts, up to ``mostThreads``, so copies that wait for the device are soon as many at once as before. A
/// runner with nothing to copy for ``idleTimeout`` ends, as dispatch's threads do, so an idle dashboard keeps none.
///
/// A copy waiting its turn holds no descriptor (it has opened nothing yet), and one stopped meanwhile returns as
/// soon as its turn comes, before it opens anything (``CopyJob``). A large file's copy, which may wait long for the
/// device, keeps a queue of its own.
///
/// Runners run at a lower scheduling priority than the process's other threads (``niceIncrement``, on Linux): they
/// are most of the threads that want a core while a tree of small files is copied, and each of their copies is
/// finished by others — the thread that walks the tree and hands copies out (or the dashboard's), the journal's
/// thread that commits them in batches, the threads that tell the machines. At the same priority, on a machine with
/// few cores, those few threads waited for a core behind four runners, the runners then waited for them, and the
/// cores idled in between: 10,000 empty files on a 2-core machine took 11% less time once runners yield (device,
/// 6 alternated rounds: 0.40 s against 0.45 s), as fast as the cores let the slowest of those threads go. A
/// dashboard's own thread keeps its priority too, so keys are answered while the files are copied.
final class SmallCopyRunners: Sendable {
    /// The runners every copy of the process shares: as many as copies wait, up to twice the cores (at least
    /// four), and up to 64 (as many copies as run at once) when copies wait over 10 ms; each ends after 5 s idle.
    static let shared = SmallCopyRunners(
        threads: max(4, 2 * onlineProcessors), mostThreads: 64, patience: .milliseconds(10), idleTimeout: .seconds(5))

    /// How many runners start as soon as copies wait for one.
    let threads: Int
    /// The most runners there will be.
    let mostThreads: Int
    /// How long the oldest copy waiting may have waited before a runner beyond ``threads`` starts.
    let patience: Duration
    /// How long a runner waits for a copy before it ends.
    let idleTimeout: Duration
    private let clock = ContinuousClock()
    private let state = SleepingLock(State())
    /// Signalled once for each copy handed in; a runner waits on it for the next.
    private let handedIn = DispatchSemaphore(value: 0)

    /// The copies handed in and not taken yet, oldest first (an array read from `next` on, compacted once half of
    /// it was taken, so taking the oldest shifts none of the others), and how many runners there are.
    private struct State {
        var waiting: [(since: ContinuousClock.Instant, work: @Sendable () -> Void)] = []
        var next = 0
        var running = 0

        var isEmpty: Bool { next == waiting.count }

        mutating func take() -> @Sendable () -> Void {
            let taken = waiting[next].work
            next += 1
            if next == waiting.count {
                waiting.removeAll(keepingCapacity: true)
                next = 0
            } else if next >= 64 && next * 2 >= waiting.count {
                waiting.removeFirst(next)
                next = 0
            }
            return taken
        }
    }

    /// The nice value every runner runs at (Linux): ``niceIncrement`` levels below the thread that made the runners
    /// (the first copy's, for ``shared``), read once, so that a runner another runner starts (a copy waited too long)
    /// runs at the same level, not lower again. Nil where a thread has no nice value of its own, or it was unreadable.
    let runnerNice: Int32?

    /// Runners started as copies are handed in: `threads` (at least one) at once, up to `mostThreads` as copies wait
    /// longer than `patience`; each ends after `idleTimeout` without a copy.
    init(threads: Int, mostThreads: Int, patience: Duration, idleTimeout: Duration) {
        self.threads = max(1, threads)
        self.mostThreads = max(self.threads, mostThreads)
        self.patience = patience
        self.idleTimeout = idleTimeout
        runnerNice = Self.niceOfThisThread().map { min($0 + Self.niceIncrement, Self.lowestPriority) }
    }

    /// How many runners there are now.
    var running: Int { state.withLock { $0.running } }

    /// Runs `work` on a runner, after the copies handed in before it.
    func run(_ work: @escaping @Sendable () -> Void) {
        let now = clock.now
        let starts = state.withLock { state in
            state.waiting.append((now, work))
            return startsRunner(&state, at: now)
        }
        if starts { startRunner() }
        handedIn.signal()
    }

    /// Counts one more runner, to be started by the caller, when fewer than ``threads`` run, or when the oldest copy
    /// waiting has waited longer than ``patience`` at `now` and fewer than ``mostThreads`` run; returns whether it did.
    private func startsRunner(_ state: inout State, at now: ContinuousClock.Instant) -> Bool {
        guard !state.isEmpty, state.running < mostThreads,
            state.running < threads || state.waiting[state.next].since.duration(to: now) > patience
        else { return false }
        state.running += 1
        return true
    }

    /// What a runner does after its wait for a copy.
    private enum Next {
        case run(@Sendable () -> Void, startsRunner: Bool)
        /// A copy was handed in just after the wait timed out: its signal is still to take.
        case waitAgain
        case end
    }

    private func startRunner() {
        let idle = DispatchTimeInterval.milliseconds(Int(idleTimeout.inSeconds * 1000))
        DetachedThread.start(name: "statetui copy") { [self] in
            if let runnerNice { Self.setNiceOfThisThread(runnerNice) }
            while true {
                let timedOut = handedIn.wait(timeout: .now() + idle) == .timedOut
                let now = clock.now
                let next = state.withLock { state -> Next in
                    if timedOut {
                        guard state.isEmpty else { return .waitAgain }
                        state.running -= 1
                        return .end
                    }
                    return .run(state.take(), startsRunner: startsRunner(&state, at: now))
                }
                switch next {
                case .run(let work, let starts):
                    if starts { startRunner() }
                    work()
                case .waitAgain:
                    continue
                case .end:
                    return
                }
            }
        }
    }

    /// How many nice levels below the process's other threads a runner runs (Linux, where a thread's nice value is its
    /// own). Four levels give a runner about 40% of the weight of a thread at the process's level when both want a
    /// core, and a runner still takes every core nothing else wants.
    static let niceIncrement: Int32 = 4

    /// The calling thread's own nice value (Linux, where `who` 0 names the calling thread, not the process); nil
    /// elsewhere, where a nice value belongs to the whole process, or when it cannot be read.
    static func niceOfThisThread() -> Int32? {
        #if os(Linux)
        errno = 0
        let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        // -1 is also a nice value: only `errno` tells a failure apart.
        return errno == 0 ? nice : nil
        #else
        return nil
        #endif
    }

    /// Gives the calling thread the nice value `nice` (Linux; a runner only ever lowers its priority, which needs no
    /// privilege). A value that cannot be set leaves the thread as it is: it copies all the same.
    static func setNiceOfThisThread(_ nice: Int32) {
        #if os(Linux)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice)
        #endif
    }

    /// The lowest scheduling priority a thread can have: nice 19.
    static let lowestPriority: Int32 = 19

    /// The cores the system has online (1 when it cannot tell).
    private static var onlineProcessors: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
}
