/*
 * The page-allocator benchmark, the same code in the kernel (command line "bench"; under QEMU
 * with -icount shift=0 the TSC counts guest instructions) and on the host (make bench).
 */
#ifndef TESTS_BENCH_PAGE_ALLOC_BENCH_H
#define TESTS_BENCH_PAGE_ALLOC_BENCH_H

#include <stdbool.h>
#include <stdint.h>

/* The time-stamp counter (rdtsc). */
static inline uint64_t bench_cycles(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

/* Retired instructions so far, where the environment can count them (host: perf); else NULL. */
extern uint64_t (*bench_instructions)(void);

/* Fewer rounds (a hundredth), for runs under a single-stepping tracer. */
extern bool bench_quick;

/*
 * For orders 0, 1, 3, 9 and 10, prints cycles (and instructions, when counted) per
 * alloc_pages() + __free_pages() pair in two shapes: one block at a time, and 1024 blocks
 * allocated then freed. Then the memmap initialisation cost measured by the last mm_init().
 * Poisoning is off while it runs.
 */
void page_alloc_bench(void);

#endif
