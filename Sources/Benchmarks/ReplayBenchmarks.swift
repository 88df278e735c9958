import Foundation

/// `statetui replay` on a stream of simple events, as issue 24 measures it: `yes start | head -n N | statetui
/// replay transfer`, the release binary beside this one, its answers to /dev/null. Whole process, wall time,
/// several runs: the median lines per second and the spread (slowest and fastest run). The target is at least
/// 1 M lines/s. Beside it, the same lines read from a file by `statetui replay` alone, per second of its own
/// CPU time, which the other work on a shared machine barely skews.
func runReplayBenchmarks() {
    let statetui = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path + "/statetui"
    guard FileManager.default.isExecutableFile(atPath: statetui) else {
        print("replay benchmarks: no \(statetui) (make bench builds it)")
        return
    }
    let lines = 10_000_000
    let runs = 7
    let input = NSTemporaryDirectory() + "statetui-replay-bench-\(getpid()).txt"
    guard FileManager.default.createFile(atPath: input, contents: Data(repeating: 0, count: 0)),
        let handle = FileHandle(forWritingAtPath: input)
    else {
        print("replay benchmarks: cannot write \(input)")
        return
    }
    handle.write(Data(String(repeating: "start\n", count: lines).utf8))
    try? handle.close()
    defer { try? FileManager.default.removeItem(atPath: input) }
    print("")
    print(
        "Replay benchmarks: yes start | head -n \(lines) | statetui replay transfer > /dev/null, \(runs) runs, "
            + "load average \(loadAverage())")
    var rates: [Double] = []
    var cpuRates: [Double] = []
    for _ in 0..<runs {
        let elapsed = timeProcess(
            "/bin/sh", ["-c", "yes start | head -n \"$1\" | \"$0\" replay transfer > /dev/null", statetui, "\(lines)"])
        rates.append(Double(lines) / elapsed)
        let before = childCPUSeconds()
        _ = timeProcess("/bin/sh", ["-c", "exec \"$0\" replay transfer < \"$1\" > /dev/null", statetui, input])
        cpuRates.append(Double(lines) / (childCPUSeconds() - before))
    }
    func millions(_ rate: Double) -> String { format(rate / 1e6, 2) }
    func summary(_ rates: [Double]) -> String {
        "median \(millions(median(rates))) M (slowest \(millions(rates.min() ?? .nan)) M, fastest "
            + "\(millions(rates.max() ?? .nan)) M); runs: \(rates.map(millions).joined(separator: " "))"
    }
    print("replay lines/s, wall, through the pipe: " + summary(rates))
    print("replay lines per CPU second, statetui alone: " + summary(cpuRates))
    print(
        "{\"group\":\"replay\",\"lines\":\(lines),\"runs\":\(runs),\"lines_per_s_median\":\(format(median(rates), 0))"
            + ",\"lines_per_s_min\":\(format(rates.min() ?? .nan, 0)),\"lines_per_s_max\":\(format(rates.max() ?? .nan, 0))"
            + ",\"lines_per_cpu_s_median\":\(format(median(cpuRates), 0))}")
}

/// The CPU seconds, user and system, that the finished child processes used so far.
private func childCPUSeconds() -> Double {
    var usage = rusage()
    _ = getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
        + Double(usage.ru_stime.tv_usec) / 1e6
}
