// Minimal entry point for local runs of the terminal group; the shared main.swift calls every group.
await runTerminalBenchmarks()
