#include "FuzzDriver.h"

#include <stdlib.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size));

void statetui_fuzz_run(int argc, char **argv, int (*test)(const uint8_t *data, size_t size)) {
    exit(LLVMFuzzerRunDriver(&argc, &argv, test));
}
