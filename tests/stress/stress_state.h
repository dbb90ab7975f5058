/* SPDX-License-Identifier: MIT */
/*
 * The stress core's shared state (tests/stress/stress.h is its interface): the workers, their
 * mailboxes, the per-CPU slots of the interrupt-context allocations, and the failure report.
 */
#ifndef TESTS_STRESS_STRESS_STATE_H
#define TESTS_STRESS_STRESS_STATE_H

#include "mm/gfp.h"
#include "tests/ktest/mm_test_rand.h"
#include "tests/stress/block.h"
#include "tests/stress/mailbox.h"
#include "tests/stress/stress.h"

#define HELD_MAX 48   /* blocks a worker holds at once */
#define SHARED_MAX 16 /* shared compound pages a worker holds a reference to */

struct worker {
	unsigned int id;
	bool finishing;    /* past its operations: keeps nothing it receives */
	unsigned long rng; /* mm_test_rand() state */
	unsigned long op;  /* operations done */
	uint64_t seq;      /* the last stamp's sequence number */
	struct block held[HELD_MAX];
	unsigned int nheld;
	struct block shared[SHARED_MAX];
	unsigned int nshared;
	struct stress_totals t;
} __attribute__((aligned(64)));

/* A CPU's interrupt-context allocations: touched only by that CPU, with interrupts off. */
struct irq_slot {
	struct block kept; /* page NULL when none */
	unsigned long rng;
	uint64_t seq;
	unsigned long allocs, failures;
} __attribute__((aligned(64)));

extern struct stress_config stress_cfg;
extern struct worker stress_workers[STRESS_MAX_WORKERS];
/* mailboxes[to][from] */
extern struct mailbox stress_mailboxes[STRESS_MAX_WORKERS][STRESS_MAX_WORKERS];
extern struct irq_slot stress_irq_slots[STRESS_MAX_WORKERS];
extern unsigned long stress_failures;  /* atomic */
extern unsigned long stress_dtor_runs; /* atomic: the counting destructor's runs */
/*
 * The run's slab caches (BLOCK_CACHE objects; the block's order is the index): 0 without
 * debugging (the per-CPU lists), 1 with SLAB_DEBUG (every operation under the cache's lock,
 * checked). The kmalloc caches run without debugging too, when they hold nothing at the start.
 */
extern struct kmem_cache *stress_caches[2];

/* Bytes of a BLOCK_CACHE object. */
#define STRESS_CACHE_SIZE 72

/* Gives back an object (an object kind of block): kfree() or kmem_cache_free(). */
void stress_object_free(const struct block *b);

/* A new run starts with no worker started (stress_prepare()). */
void stress_worker_reset(void);

/* The counting destructor of BLOCK_SHARED pages. */
void stress_shared_dtor(struct page *head);

/* Who reports a failure: a worker's id, STRESS_IRQ_OWNER + cpu, or this for the other checks. */
#define STRESS_CHECKS 0xff

/* Counts a failure and prints it (the first few): who saw it, at which operation, the seed. */
void stress_fail(unsigned int who, unsigned long op, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Checks b's stamps; on a mismatch reports what the first page holds and returns false. */
bool stress_check_stamp(unsigned int who, unsigned long op, const struct block *b, const char *when);

/*
 * The movable blocks (stress_migrate.c): one operation of worker w (worker 0 migrates, the others
 * own); w's pins given back at its end; the table emptied at the start; every block freed at the
 * end, on one CPU.
 */
void stress_movable_op(struct worker *w);
void stress_movable_release(struct worker *w);
void stress_movable_reset(void);
void stress_movable_finish(void);

/* A worker's or a CPU's generator from the run's seed: distinct, never 0. */
static inline unsigned long stress_seed(uint64_t seed, unsigned int n)
{
	unsigned long s = (unsigned long)(seed ^ (n + 1) * 0x9e3779b97f4a7c15ULL);

	return s ? s : 1;
}

/* gfp for interrupt context: GFP_ATOMIC once mm/ has it (may dip into the reserve). */
#ifdef GFP_ATOMIC
#define STRESS_IRQ_GFP (GFP_ATOMIC | __GFP_NOWARN)
#else
#define STRESS_IRQ_GFP (GFP_KERNEL | __GFP_NOWARN)
#endif

#endif
