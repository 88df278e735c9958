#ifndef STATETUI_FUZZ_DRIVER_H
#define STATETUI_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer (its LLVMFuzzerRunDriver) on the process's arguments, calling `test` once per input, and
/// exits with its status. The fuzz executables call it from their own entry point: SwiftPM gives every Swift
/// executable one, so libFuzzer's `main` cannot be used.
_Noreturn void statetui_fuzz_run(int argc, char **argv, int (*test)(const uint8_t *data, size_t size));

#endif
