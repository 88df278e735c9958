import Foundation

/// `statetui replay` on a stream of simple events, as issue 24 measures it: `yes start | head -n N | statetui
/// replay transfer`, the release binary beside this one, its answers to /dev/null. Whole process, wall time,
/// several runs: the median lines per second and the spread (slowest and fastest run). The target is at least
/// 1 M lines/s.
func runReplayBenchmarks() {
    let statetui = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path + "/statetui"
    guard FileManager.default.isExecutableFile(atPath: statetui) else {
        print("replay benchmarks: no \(statetui) (make bench builds it)")
        return
    }
    let lines = 10_000_000
    let runs = 7
    print("")
    print(
        "Replay benchmarks: yes start | head -n \(lines) | statetui replay transfer > /dev/null, \(runs) runs, "
            + "load average \(loadAverage())")
    var rates: [Double] = []
    for _ in 0..<runs {
        let elapsed = timeProcess(
            "/bin/sh", ["-c", "yes start | head -n \"$1\" | \"$0\" replay transfer > /dev/null", statetui, "\(lines)"])
        rates.append(Double(lines) / elapsed)
    }
    let sorted = rates.sorted()
    func millions(_ rate: Double) -> String { format(rate / 1e6, 2) }
    print(
        "replay lines/s: median \(millions(median(rates))) M (slowest \(millions(sorted.first ?? .nan)) M, "
            + "fastest \(millions(sorted.last ?? .nan)) M); runs: \(rates.map(millions).joined(separator: " "))")
    print(
        "{\"group\":\"replay\",\"lines\":\(lines),\"runs\":\(runs),\"lines_per_s_median\":\(format(median(rates), 0))"
            + ",\"lines_per_s_min\":\(format(sorted.first ?? .nan, 0)),\"lines_per_s_max\":\(format(sorted.last ?? .nan, 0))}"
    )
}
