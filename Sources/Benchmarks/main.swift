// The benchmark executable: each group measures in one run and prints a table and one JSON line.
// Build and run with `make bench` (release); `make bench GROUPS="engine graph"` runs only those groups.

let groups = ["engine", "graph", "terminal", "dashboard", "copy", "copy_command", "copy_tree", "inspector", "replay"]
let chosen = Array(CommandLine.arguments.dropFirst())
if let unknown = chosen.first(where: { !groups.contains($0) }) {
    fatalError("Benchmarks: unknown group '\(unknown)'; the groups are \(groups.joined(separator: ", "))")
}
func selected(_ group: String) -> Bool { chosen.isEmpty || chosen.contains(group) }

if selected("engine") { await runEngineBenchmarks() }
if selected("graph") { runGraphBenchmarks() }
if selected("terminal") { await runTerminalBenchmarks() }
if selected("dashboard") { await runDashboardBenchmarks() }
if selected("copy") { runCopyBenchmarks() }
if selected("copy_command") { runCopyCommandBenchmarks() }
if selected("copy_tree") { runCopyTreeBenchmarks() }
if selected("inspector") { await runInspectorBenchmarks() }
if selected("replay") { runReplayBenchmarks() }
