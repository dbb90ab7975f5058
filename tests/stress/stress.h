/* SPDX-License-Identifier: MIT */
/*
 * The SMP stress test of mm/: the same core on the host (tests/stress/main.c: one pthread per
 * CPU) and in the kernel (a self-test suite that runs it on every CPU at once). Freestanding.
 *
 * Each worker plays one CPU and runs random operations with its own seeded generator: blocks of
 * every order and gfp combination allocated and freed (the three ways), blocks handed to other
 * workers through mailboxes to be freed there, compound pages shared by several workers whose
 * last references drop at the same time (a counting destructor must run exactly once each),
 * huge pages, reservations and pool resizes, kmalloc() objects of every size class and large
 * ones and objects of a slab cache (also handed to other workers, so that objects allocated on
 * one CPU are freed on another, and kmalloc(GFP_ATOMIC) in interrupt context), movable blocks that worker 0
 * migrates and the last worker compacts while the others write, pin and free them
 * (tests/stress/stress_migrate.c), and reads of the free page count and the pool's counters while all this goes on (each must be a
 * consistent snapshot). Every block carries a
 * stamp in its memory (owner, sequence number, order, pfn; an object its tag), checked before
 * it is freed, so a block handed out twice shows.
 * At the end every counter, the slab report count and (every cache shrunk) the free lists' shape
 * must be what they were at the start.
 *
 * The driver's sequence:
 *   stress_prepare(&cfg)             one CPU, nothing else running
 *   stress_worker(id) on ids 0..n-1  concurrently, on n different CPUs (arch_cpu_id() distinct)
 *   the pcp lists of every CPU drained (the driver knows how to reach each CPU)
 *   stress_finish()                  one CPU again: the end checks; returns the failures
 * stress_irq_tick() may run on any CPU between stress_prepare() and the drain, in interrupt
 * context, at most once at a time per CPU.
 */
#ifndef TESTS_STRESS_STRESS_H
#define TESTS_STRESS_STRESS_H

#include <stdbool.h>
#include <stdint.h>

#define STRESS_MAX_WORKERS 8

struct stress_config {
	unsigned int workers;      /* 1..STRESS_MAX_WORKERS */
	unsigned long ops;         /* random operations per worker */
	uint64_t seed;             /* worker i's generator starts from a mix of seed and i */
	bool quiet;                /* no per-worker summary lines */
};

/* Totals of one run, for the driver's report. */
struct stress_totals {
	unsigned long ops, allocs, alloc_failures, frees, sends, remote_frees, shared_units, dtor_runs;
	unsigned long ref_ops, together_drops, huge_allocs, reservations, resizes, irq_allocs, failures;
	unsigned long kmallocs, cache_allocs, object_remote_frees;
	unsigned long movable_allocs, movable_writes, migrations, migrate_pinned, compactions, compacted_pages;
};

/*
 * Records the starting state (free lists' shape, counters, the hugetlb pool, emptied for the
 * run), registers the counting destructor and resets the workers. Returns 0, or -1 (reported)
 * when the configuration cannot run.
 */
int stress_prepare(const struct stress_config *cfg);

/* Worker id's whole run: waits for the others, operates, hands back everything it holds. */
void stress_worker(unsigned int id);

/*
 * One allocation in interrupt context on CPU cpu (GFP_ATOMIC when mm/ has it): the block is
 * checked and freed at once or kept until the next tick on the same CPU.
 */
void stress_irq_tick(unsigned int cpu);

/* Frees what stress_irq_tick() still keeps; after the last tick, before the drain. */
void stress_irq_release(void);

/* The end checks (see the top); prints the totals. Returns the number of failures. */
unsigned long stress_finish(struct stress_totals *totals);

/* The environment's: let another thread or CPU run while this one waits. */
void stress_relax(void);

#endif
