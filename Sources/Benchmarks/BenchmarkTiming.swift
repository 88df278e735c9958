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

extension Duration {
    /// Microseconds, rounded to one decimal place (the JSON lines' unit).
    var microsecondsValue: Double {
        let (seconds, attoseconds) = components
        return ((Double(seconds) * 1e6 + Double(attoseconds) / 1e12) * 10).rounded() / 10
    }
}

/// `duration` as "12.3 µs".
func microseconds(_ duration: Duration) -> String {
    String(format: "%.1f µs", duration.microsecondsValue)
}

/// Prints a group's table: a header naming the group, then one row a measurement (name, median or value,
/// p90 or detail) in fixed columns.
func printFigureTable(group: String, rows: [(String, String, String)]) {
    print(pad(group, 37) + "median / value   p90 / detail")
    for (name, first, second) in rows {
        print(pad(name, 37) + pad(first, 17) + second)
    }
}
