// The benchmark executable: each group measures in one run and prints a table and one JSON line.
// Build and run with `make bench` (release); `make bench GROUPS="engine graph"` runs only those groups.

import Foundation
import Support

if CommandLine.arguments.dropFirst().first == "--flood-child" {
    await runFloodChild(seconds: Int(CommandLine.arguments.dropFirst(2).first ?? "") ?? 2)
    exit(0)
}

let groups = [
    "engine", "graph", "terminal", "dashboard", "copy", "copy_command", "copy_tree", "copy_rows", "inspector", "replay",
]
let chosen = Array(CommandLine.arguments.dropFirst())
if let unknown = chosen.first(where: { !groups.contains($0) }) {
    fatalError("Benchmarks: unknown group '\(unknown)'; the groups are \(groups.joined(separator: ", "))")
}
func selected(_ group: String) -> Bool { chosen.isEmpty || chosen.contains(group) }

/// Runs `group` when chosen, then prints this process's peak resident size during it (the peak is reset
/// before each group, so a group is not charged with an earlier one's memory).
func run(_ group: String, _ body: () async -> Void) async {
    guard selected(group) else { return }
    resetPeakResident()
    let before = ownResidentKB()
    await body()
    let peak = (peakResidentBytes() ?? 0) / 1024
    print("\(group): peak RSS of the run \(peak) KB (\(before) KB at its start)")
    print("{\"group\":\"\(group)_memory\",\"peak_rss_kb\":\(peak),\"rss_at_start_kb\":\(before)}")
    // Each group's lines leave at its end, also into a file or a pipe: a long run is followed group by group,
    // and a run killed later keeps them.
    fflush(nil)
}

await run("engine") { await runEngineBenchmarks() }
await run("graph") { runGraphBenchmarks() }
await run("terminal") { await runTerminalBenchmarks() }
await run("dashboard") { await runDashboardBenchmarks() }
await run("copy") { runCopyBenchmarks() }
// The headless copy blocks its thread while its machines work, as it does on the program's main thread.
await run("copy_command") { await DetachedThread.value(name: "copy_command") { runCopyCommandBenchmarks() } }
await run("copy_tree") { runCopyTreeBenchmarks() }
await run("copy_rows") { await runCopyRowBenchmarks() }
await run("inspector") { await runInspectorBenchmarks() }
await run("replay") { runReplayBenchmarks() }
removeManyFileDirectories()
