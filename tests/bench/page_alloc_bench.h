/* SPDX-License-Identifier: MIT */
/*
 * The page-allocator benchmark, the same code in the kernel (registered with KBENCH(), it runs
 * when the command line says "bench"; under QEMU with -icount shift=0 the TSC counts guest
 * instructions) and on the host (make bench).
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

/* Fewer rounds (a 500th, one batch), for runs under a single-stepping tracer. */
extern bool bench_quick;

/* Each figure is the fastest of this many runs (1 by default; where timings vary, more). */
extern unsigned int bench_runs;

/* A measured run of pairs: its cycles and instructions (0 where they cannot be counted). */
struct bench_sample {
	uint64_t cycles, instructions;
	unsigned long pairs;
	unsigned long batch; /* blocks per batch actually allocated (memory may not hold 1024) */
};

static inline uint64_t bench_instructions_now(void)
{
	return bench_instructions ? bench_instructions() : 0;
}

static inline void bench_start(struct bench_sample *s)
{
	s->instructions = bench_instructions_now();
	s->cycles = bench_cycles();
}

static inline void bench_stop(struct bench_sample *s)
{
	s->cycles = bench_cycles() - s->cycles;
	s->instructions = bench_instructions_now() - s->instructions;
}

/*
 * First the harness's own cost (the timing calls, and an empty loop timed the same way; the
 * table does not subtract it). Then, for orders 0, 1, 3, 9 and 10, cycles (and instructions,
 * when counted) per alloc_pages() + __free_pages() pair in two shapes: one block at a time, and
 * 1024 blocks allocated then freed. Under each row, the same pairs with the per-CPU lists off
 * (set_pcp_lists(false): the plain buddy path), and on the row the ratio of cycles per pair,
 * ours / that baseline. The two are run in turn, bench_runs times, keeping the fastest run of
 * each. Each row of ours also shows the reference figures: Linux 6.1's instructions per pair
 * (one at a time) and this allocator's on one CPU before it took locks. Then the memmap
 * initialisation cost measured by the last mm_init(). Poisoning is off
 * while it runs; the per-CPU lists are left on or off as they were.
 */
void page_alloc_bench(void);

#endif
