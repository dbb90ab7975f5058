/* SPDX-License-Identifier: MIT */
/*
 * make bench: the page-allocator benchmark on the host. Sets up mm/ over simulated memory from a
 * 10 GiB map (enough for 1024 blocks of 4 MiB), runs page_alloc_bench() keeping the fastest of 5
 * runs of each figure, and prints the memmap initialisation cost per page and per GiB; then
 * slab_bench() (kmalloc and slab caches, tests/bench/slab_bench.h) the same way.
 *
 * Then smp_bench(): the same pairs from threads pinned to two cores (tests/bench/smp_bench.h);
 * `bench --smp` runs that part alone.
 *
 * Instructions come from perf_event_open() where the CPU's counters are available. Where they are
 * not (many virtual machines), `bench --single-step` (make bench-count) runs the benchmark with
 * fewer rounds in a child process that this one single-steps with ptrace, counting every
 * instruction the child executes: slow (several minutes), but exact.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdint.h>

#include "mm/init.h"
#include "mm/page_alloc.h"
#include "tests/bench/page_alloc_bench.h"
#include "tests/bench/slab_bench.h"
#include "tests/bench/smp_bench.h"
#include "tests/mm/host_mm.h"

static int perf_fd = -1;
static volatile uint64_t *stepped; /* shared with the tracer: instructions single-stepped so far */

static uint64_t perf_instructions(void)
{
	uint64_t n = 0;

	if (read(perf_fd, &n, sizeof(n)) != sizeof(n))
		return 0;
	return n;
}

static uint64_t stepped_instructions(void)
{
	return *stepped;
}

static bool open_perf_counter(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE, .size = sizeof(attr), .config = PERF_COUNT_HW_INSTRUCTIONS,
		.exclude_kernel = 1, .exclude_hv = 1,
	};

	perf_fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	return perf_fd >= 0 && perf_instructions() > 0;
}

/* A 10 GiB machine: 2 GiB below 4 GiB (DMA, DMA32) and 8 GiB above (Normal). */
static void bench_map(struct fw_map *map)
{
	host_fw_map_init(map, 8);
	fw_map_add_range(map, 0x0, 0x9fc00, FW_USABLE);
	fw_map_add_range(map, 0xf0000, 0x10000, FW_RESERVED);
	fw_map_add_range(map, 0x100000, 0x80000000 - 0x100000, FW_USABLE);
	fw_map_add_range(map, 0x100000000ULL, 8ULL << 30, FW_USABLE);
}

/* TSC ticks per nanosecond, measured against the monotonic clock. */
static double tsc_per_ns(void)
{
	double t0 = host_seconds();
	uint64_t c0 = bench_cycles();

	while (host_seconds() - t0 < 0.05)
		;
	return (double)(bench_cycles() - c0) / ((host_seconds() - t0) * 1e9);
}

/* Boots mm/ on the bench map twice (the second time over memory the host has already mapped). */
static int setup(void)
{
	static struct fw_map map;
	double ghz = tsc_per_ns();

	for (int pass = 0; pass < 2; pass++) {
		const struct mm_init_timing *m = &mm_init_timing;
		double t = host_seconds(), ns_all, ns_ours;

		bench_map(&map);
		host_console_quiet = true;
		host_map_cycles = 0;
		if (host_mm_init_timed(&map, bench_cycles))
			return -1;
		host_console_quiet = false;
		t = host_seconds() - t;
		ns_all = (double)m->memmap_cycles / ghz / (double)m->memmap_pages;
		ns_ours = (double)(m->memmap_cycles - host_map_cycles) / ghz / (double)m->memmap_pages;
		printf("bench: mm_init on a 10 GiB map (%s simulated memory): %.3f s\n",
		       pass ? "already populated" : "fresh", t);
		printf("bench:   memmap init: %.2f ns/page = %.2f ms per GiB of RAM (%.2f ns/page with the host's "
		       "mapping of the memmap), hand-off %.2f ns/page\n", ns_ours, ns_ours * 262144 / 1e6,
		       ns_all, (double)m->handoff_cycles / ghz / (double)m->memmap_pages);
	}
	return 0;
}

/* Runs the benchmark in a child that this process single-steps, counting its instructions. */
static void run_single_stepped(void)
{
	pid_t child;
	int status;

	stepped = mmap(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	child = fork();
	if (child == 0) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGSTOP);
		bench_instructions = stepped_instructions;
		bench_quick = true;
		page_alloc_bench();
		slab_bench();
		_exit(0);
	}
	waitpid(child, &status, 0);
	while (ptrace(PTRACE_SINGLESTEP, child, NULL, NULL) == 0 && waitpid(child, &status, 0) == child &&
	       WIFSTOPPED(status))
		(*stepped)++;
}

int main(int argc, char **argv)
{
	bool single_step = argc > 1 && !strcmp(argv[1], "--single-step");
	bool smp_only = argc > 1 && !strcmp(argv[1], "--smp"); /* the threaded part alone */

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (setup())
		return 1;
	if (single_step) {
		printf("bench: instructions counted by single-stepping a run with fewer rounds:\n");
		run_single_stepped();
	} else if (smp_only) {
		smp_bench();
	} else {
		if (open_perf_counter())
			bench_instructions = perf_instructions;
		bench_runs = 5; /* host timings vary with the frequency and the other processes */
		page_alloc_bench();
		slab_bench();
		if (!bench_instructions)
			printf("bench: no instruction counter here (perf_event_open); make bench-count counts "
			       "them by single-stepping\n");
		smp_bench();
	}
	host_mm_release();
	return 0;
}
