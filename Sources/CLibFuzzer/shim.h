// libFuzzer's driver, for anim-fuzz. It is defined only in a build with
// `-sanitize=fuzzer` (fuzz/run.sh), and anim-fuzz calls it only under `#if FUZZING`, so a
// plain `swift build` never needs it. Under SwiftPM the executable's own `main` wins over
// libFuzzer's, so the fuzzer is started by calling its driver from that main.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
