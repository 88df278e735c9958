import Dispatch
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

/// Runs each of `count` tasks once on at most `workers` threads, the calling one included; each thread
/// takes the next task not yet taken, so a thread that other processes hold back takes fewer. Returns
/// when all have run: what the tasks wrote is visible to the caller afterwards.
@inlinable
func runConcurrently(workers: Int, count: Int, _ tasks: some ConcurrentTasks) {
    let next = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: Swift.min(workers, count)) { _ in
        while true {
            let task = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard task < count else { return }
            tasks.run(task)
        }
    }
}

/// Runs each of `count` tasks once, on `workers` threads when more than one, else in order on the calling
/// thread.
@inlinable
func runAll(_ tasks: some ConcurrentTasks, count: Int, workers: Int) {
    if workers > 1 {
        runConcurrently(workers: workers, count: count, tasks)
    } else {
        for task in 0..<count { tasks.run(task) }
    }
}
