/* SPDX-License-Identifier: MIT */
/*
 * The slab allocator on every CPU at once and in interrupt context: each CPU allocates and frees
 * kmalloc objects and objects of a cache without debug (whose per-CPU lists are then in use),
 * trading half of them with the other CPUs through a shared table, so many are freed on another
 * CPU than the one that allocated them; meanwhile every timer tick allocates with GFP_ATOMIC and
 * frees what the CPU's previous tick kept. Every object carries a stamp of its own address,
 * checked before it is freed: an object handed out twice would be overwritten by its other owner.
 */
#include "tests/ktest/ktest.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"
#include "kernel/timer.h"
#include "kernel/x86.h"
#include "mm/slab.h"

#define MAGIC 0x5a5a1234dead0000UL
#define TOTAL_ROUNDS 16000 /* split between the CPUs: 8 emulated CPUs on a 2-core host stay quick */
#define TRADE 64

static struct kmem_cache *plain;
static void *trade[TRADE];
static void *kept[NR_CPUS_MAX];
static unsigned long bad_stamps, failures, irq_allocs, rounds;

static void stamp(void *p)
{
	*(unsigned long *)p = (uintptr_t)p ^ MAGIC;
}

static void check_and_free(void *p)
{
	if (*(unsigned long *)p != ((uintptr_t)p ^ MAGIC))
		__atomic_fetch_add(&bad_stamps, 1, __ATOMIC_RELAXED);
	kfree(p); /* kfree() takes a cache's objects too */
}

static void *alloc_one(unsigned long n, gfp_t gfp)
{
	void *p = n % 3 ? kmem_cache_alloc(plain, gfp) : kmalloc(16 + (n * 40) % 3000, gfp);

	if (!p)
		__atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED);
	else
		stamp(p);
	return p;
}

static void tick(unsigned int cpu)
{
	void *old;

	if (cpu >= NR_CPUS_MAX)
		return;
	old = kept[cpu];
	if (old)
		check_and_free(old);
	kept[cpu] = alloc_one(timer_ticks(cpu), GFP_ATOMIC);
	__atomic_fetch_add(&irq_allocs, 1, __ATOMIC_RELAXED);
}

static void worker(void *arg)
{
	unsigned long seed = this_cpu_id() * 7919UL + 1;

	(void)arg;
	for (unsigned long i = 0; i < rounds; i++) {
		void *p = alloc_one(i + seed, GFP_KERNEL), *old;

		if (!p)
			continue;
		seed = seed * 6364136223846793005UL + 1442695040888963407UL;
		if (i & 1) { /* every other object goes to the table; what was there is freed here */
			old = __atomic_exchange_n(&trade[(seed >> 33) % TRADE], p, __ATOMIC_ACQ_REL);
			if (old)
				check_and_free(old);
		} else {
			check_and_free(p);
		}
	}
}

static void every_cpu_and_the_tick_allocate_at_once(struct ktest *t)
{
	bool was = slab_debug_enabled(kmalloc_cache(8));
	unsigned long reports = slab_reports;
	void *hold = kmalloc(2048, GFP_KERNEL); /* the descriptor's class keeps its mode */
	uint64_t seen[NR_CPUS_MAX];
	unsigned int n = smp_num_cpus();

	slab_set_debug(false);
	plain = kmem_cache_create("slab-irq", 72, 0, 0);
	slab_set_debug(was);
	kfree(hold);
	KT_ASSERT(t, plain != NULL, "kmem_cache_create");
	bad_stamps = failures = irq_allocs = 0;
	rounds = TOTAL_ROUNDS / n;
	timer_set_hook(tick);
	on_each_cpu(worker, NULL);
	timer_set_hook(NULL);
	for (unsigned int cpu = 0; cpu < n; cpu++) /* a tick already running may still call it */
		seen[cpu] = timer_ticks(cpu);
	for (unsigned int cpu = 0; cpu < n; cpu++)
		while (timer_ticks(cpu) < seen[cpu] + 2)
			cpu_relax();
	for (unsigned int i = 0; i < TRADE; i++)
		if (trade[i]) {
			check_and_free(trade[i]);
			trade[i] = NULL;
		}
	for (unsigned int cpu = 0; cpu < NR_CPUS_MAX; cpu++)
		if (kept[cpu]) {
			check_and_free(kept[cpu]);
			kept[cpu] = NULL;
		}
	kmem_cache_destroy(plain);
	KT_EXPECT_EQ(t, bad_stamps, 0);
	KT_EXPECT_EQ(t, failures, 0);
	KT_EXPECT_EQ(t, slab_reports, reports);
	printk("    # slab_irq: %u CPUs, %lu rounds each, %lu allocations in the timer interrupt\n", n, rounds,
	       irq_allocs);
}

KTEST_SUITE(slab_irq, KTEST_CASE(every_cpu_and_the_tick_allocate_at_once));
