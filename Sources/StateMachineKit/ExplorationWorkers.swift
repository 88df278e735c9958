import Dispatch
import Support
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How many threads an exploration uses
/// (``StateGraph/explore(from:events:maximumStates:workers:transition:)``).
///
/// The graph is the same whatever the count — the same states in the same order, the same edges, the
/// same invalid pairs and shortest paths — so the count is only a question of speed. Levels of the
/// breadth-first search too small to be worth sharing run on the calling thread alone.
public struct ExplorationWorkers: Sendable, Hashable, CustomStringConvertible {
    /// The number of threads, at least 1.
    public let count: Int

    /// Exactly `count` threads (at least 1), however many cores the machine has.
    public static func exactly(_ count: Int) -> ExplorationWorkers {
        precondition(count >= 1, "ExplorationWorkers: count must be at least 1, got \(count)")
        return ExplorationWorkers(count: count)
    }

    /// One thread per core the machine has online.
    public static var allCores: ExplorationWorkers { ExplorationWorkers(count: onlineCores) }

    /// One thread: the calling one.
    public static var one: ExplorationWorkers { ExplorationWorkers(count: 1) }

    /// `"4 workers"`.
    public var description: String { count == 1 ? "1 worker" : "\(count) workers" }

    /// The cores the system reports online when first asked, at least 1: asked once, because the answer
    /// is read from a file on Linux, and every default exploration needs it.
    static let onlineCores: Int = {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        return Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        #else
        return 1
        #endif
    }()
}

/// Work split into numbered tasks that may run on several threads at once.
@usableFromInline
protocol ConcurrentTasks: Sendable {
    /// Runs task `task`.
    func run(_ task: Int)
}

/// Runs each of `count` tasks once: on `crew` and the calling thread when there is a crew, else in order on
/// the calling thread.
@inlinable
func runAll(_ tasks: some ConcurrentTasks, count: Int, crew: ExplorationCrew?) {
    if let crew {
        crew.run(tasks, count: count)
    } else {
        for task in 0..<count { tasks.run(task) }
    }
}

/// The helper threads of one exploration, kept for its whole run, that share each batch's tasks with the
/// thread that explores.
///
/// A batch of a breadth-first search is often worth only a few hundred microseconds. Helpers woken through
/// the kernel for each one (as `DispatchQueue.concurrentPerform` wakes its threads) joined tens of
/// microseconds late on the 2-core test machine, so two threads did a small batch barely faster than one.
/// A helper here waits for the next batch by watching a counter, for about a tenth of a millisecond (the
/// pause between two batches is shorter), and only then sleeps until it is woken. Each task is taken by
/// whichever thread asks first, so a helper that other processes hold back simply takes fewer.
@usableFromInline
final class ExplorationCrew: Sendable {
    /// One call of ``run(_:count:)``: its tasks, and how many were taken and finished.
    @usableFromInline
    final class Job: Sendable {
        /// Runs one task: a closure made where the tasks' type is known, so that their code stays
        /// specialized for it (through an existential, every look-up went through generic metadata).
        @usableFromInline let runTask: @Sendable (Int) -> Void
        @usableFromInline let count: Int
        @usableFromInline let next = Atomic<Int>(0)
        @usableFromInline let finished = Atomic<Int>(0)
        /// Helpers that took the job, and those of them that are done with it.
        @usableFromInline let entered = Atomic<Int>(0)
        @usableFromInline let departed = Atomic<Int>(0)

        @inlinable
        init(count: Int, runTask: @escaping @Sendable (Int) -> Void) {
            self.runTask = runTask
            self.count = count
        }

        /// Runs tasks until none is left to take.
        @inlinable
        func work() {
            while true {
                let task = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard task < count else { return }
                runTask(task)
                finished.wrappingAdd(1, ordering: .releasing)
            }
        }
    }

    /// What the helpers read under the lock: the latest job (nil once it is done or the crew is finished)
    /// and how many helpers sleep waiting for the next.
    ///
    /// The job is not retained here or by the helpers: ``run(_:count:)`` keeps it, and returns only after
    /// every helper that took it is done with it, so the tasks (and the closures they hold, which the
    /// exploration lends for its duration only) are released with the caller's reference.
    @usableFromInline
    struct Published: @unchecked Sendable {
        // Unchecked for the unretained reference, whose object `run` keeps alive while it is published.
        @usableFromInline var job: Unmanaged<Job>?
        @usableFromInline var generation = 0
        @usableFromInline var finished = false
        @usableFromInline var sleepers = 0
    }

    @usableFromInline let published = Locked(Published())
    /// `published.generation`, read without the lock by helpers watching for the next job.
    @usableFromInline let generation = Atomic<Int>(0)
    /// Where sleeping helpers wait; signalled once for each sleeper when a job is published.
    @usableFromInline let wakeUp = DispatchSemaphore(value: 0)
    /// Signalled by each helper as it returns.
    @usableFromInline let ended = DispatchSemaphore(value: 0)
    @usableFromInline let helpers: Int

    /// How many times a waiting helper reads the counter before it sleeps: about a tenth of a millisecond,
    /// more when other threads take the core it offers every 1,024 reads.
    @inlinable static var watches: Int { 1 << 17 }

    /// A crew of `helpers` threads, started now. ``finish()`` must be called once it is no longer needed.
    @inlinable
    init(helpers: Int) {
        self.helpers = helpers
        for _ in 0..<helpers { startHelper() }
    }

    /// Starts one helper thread (``DetachedThread``), which signals ``ended`` when it returns.
    @usableFromInline
    func startHelper() {
        DetachedThread.start(name: "explore helper") { [self] in
            helperLoop()
            ended.signal()
        }
    }

    /// A helper's life: take the tasks of each job published, until the crew is finished.
    @usableFromInline
    func helperLoop() {
        var seen = 0
        while true {
            var watched = 0
            while generation.load(ordering: .acquiring) == seen && watched < Self.watches {
                watched &+= 1
                // Now and then the core is offered to another thread: with more helpers than cores (a
                // count the caller chose), watching helpers would otherwise hold back the calling thread.
                if watched & 1023 == 0 { sched_yield() }
            }
            let (job, latest, finished) = published.withLock { published in
                if published.generation == seen && !published.finished {
                    published.sleepers &+= 1
                    return (Unmanaged<Job>?.none, seen, false)
                }
                _ = published.job?._withUnsafeGuaranteedRef { $0.entered.wrappingAdd(1, ordering: .relaxed) }
                return (published.job, published.generation, published.finished)
            }
            if finished { return }
            if latest == seen {
                wakeUp.wait()
                continue
            }
            seen = latest
            // The last touch of the job: `run` may release it as soon as `departed` counts this helper, so
            // the helper must not hold a reference of its own (its release could come after the caller's
            // `withoutActuallyEscaping` checked that the closures the tasks hold had not escaped).
            _ = job?._withUnsafeGuaranteedRef { job in
                job.work()
                job.departed.wrappingAdd(1, ordering: .releasing)
            }
        }
    }

    /// Runs each of `count` tasks once, on the helpers and the calling thread, and returns when all have
    /// run: what the tasks wrote is then visible to the caller.
    @inlinable
    func run(_ tasks: some ConcurrentTasks, count: Int) {
        let job = Job(count: count) { task in tasks.run(task) }
        publish(Unmanaged.passUnretained(job), finishing: false)
        job.work()
        // The last tasks taken may still be running on helpers: each is a short piece of work.
        Self.wait(until: { job.finished.load(ordering: .acquiring) >= count })
        // No helper takes the job once it is withdrawn; those that took it leave it at once.
        let entered = published.withLock { published in
            published.job = nil
            return job.entered.load(ordering: .relaxed)
        }
        Self.wait(until: { job.departed.load(ordering: .acquiring) >= entered })
        withExtendedLifetime(job) {}
    }

    /// Returns when `isDone` does, asking again at once, then (after a few thousand times) after
    /// yielding the core.
    @inlinable
    static func wait(until isDone: () -> Bool) {
        var asked = 0
        while !isDone() {
            asked &+= 1
            if asked >= 1 << 12 { sched_yield() }
        }
    }

    @usableFromInline
    func publish(_ job: Unmanaged<Job>?, finishing: Bool) {
        let sleepers = published.withLock { published in
            published.job = job
            published.generation &+= 1
            published.finished = finishing
            generation.store(published.generation, ordering: .releasing)
            defer { published.sleepers = 0 }
            return published.sleepers
        }
        for _ in 0..<sleepers { wakeUp.signal() }
    }

    /// Ends the helpers and waits until every one has returned.
    @inlinable
    func finish() {
        publish(nil, finishing: true)
        for _ in 0..<helpers { ended.wait() }
    }
}
