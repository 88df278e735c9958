import Foundation

/// A median and 90th percentile of some samples.
struct Percentiles {
    var median: Duration
    var p90: Duration

    init(_ samples: [Duration]) {
        let sorted = samples.sorted()
        median = sorted.isEmpty ? .zero : sorted[sorted.count / 2]
        p90 = sorted.isEmpty ? .zero : sorted[min(sorted.count - 1, sorted.count * 9 / 10)]
    }
}

/// The calling thread's CPU time: unlike wall time, it does not count time spent preempted on a busy machine.
func threadCPUTime() -> Duration {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
}
