func runCopyBenchmarks() {}
