// Runs every benchmark group in release builds: `make bench`.
runGraphBenchmarks()
