/* SPDX-License-Identifier: MIT */
/*
 * The kmalloc and slab-cache benchmark, the same code in the kernel (KBENCH(), run with "bench";
 * under QEMU -icount shift=0 its cycles are guest instructions) and on the host (make bench).
 */
#ifndef TESTS_BENCH_SLAB_BENCH_H
#define TESTS_BENCH_SLAB_BENCH_H

/*
 * Cycles (and instructions, where counted) per kmalloc() + kfree() pair at every size class
 * from 8 to 4096 bytes and at 16 and 64 KiB (compound pages), one at a time; in batches of 1024
 * (allocate them all, then free them in the same order) at 8, 64, 256, 1024 and 4096 bytes; and
 * per kmem_cache_alloc() + kmem_cache_free() pair of a 64-byte and a 256-byte cache, both shapes.
 * Each row shows Linux 6.1's SLUB figure for the same pair (measured the same way), the ratio
 * ours / Linux in cycles per pair, and whether the target is met (half of Linux at the
 * small sizes, a quarter at 16 and 64 KiB). Poisoning is off while it runs.
 */
void slab_bench(void);

#endif
