// The benchmark executable: each group measures in one run and prints a table and one JSON line.
// Build and run with `make bench` (release).

await runEngineBenchmarks()
runGraphBenchmarks()
await runTerminalBenchmarks()
await runDashboardBenchmarks()
runCopyBenchmarks()
