// What malloc has handed out: for engine.memory (EngineBenchmarks.swift). Swift's Glibc
// module does not include <malloc.h>, so mallinfo2 is reached through this tiny C target.
#pragma once
#include <stddef.h>

/// Bytes allocated and not freed: mallinfo2's uordblks (the heap) plus hblkhd (the blocks
/// malloc mmaps on its own, where large arrays live).
size_t anim_bench_heap_in_use(void);
