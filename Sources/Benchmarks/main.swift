// Minimal entry point for local runs; the Benchmarks target's real main.swift belongs to the engine
// benchmarks and calls every group, this one included.
runCopyBenchmarks()
