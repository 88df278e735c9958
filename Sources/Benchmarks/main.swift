// The benchmark executable: each group measures in one run and prints a table and one JSON line.
// Build and run with `make bench` (release). BENCH_ONLY=engine,copy_command runs only the named groups.
import Foundation

let onlyGroups = ProcessInfo.processInfo.environment["BENCH_ONLY"].map {
    Set($0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
}

/// Whether the group named `name` runs in this invocation.
func benchmarkGroupIsWanted(_ name: String) -> Bool {
    onlyGroups?.contains(name) ?? true
}

if benchmarkGroupIsWanted("engine") { await runEngineBenchmarks() }
if benchmarkGroupIsWanted("graph") { runGraphBenchmarks() }
if benchmarkGroupIsWanted("terminal") { await runTerminalBenchmarks() }
if benchmarkGroupIsWanted("copy") { runCopyBenchmarks() }
if benchmarkGroupIsWanted("copy_command") { runCopyCommandBenchmarks() }
