/* SPDX-License-Identifier: MIT */
/*
 * The slab allocator on every CPU at once and in interrupt context: each CPU allocates and frees
 * kmalloc objects and objects of a cache without debug (whose per-CPU lists are then in use),
 * trading half of them with the other CPUs through a shared table, so many are freed on another
 * CPU than the one that allocated them (tests/ktest/slab_trade.h); meanwhile every timer tick
 * allocates with GFP_ATOMIC and frees what the CPU's previous tick kept.
 */
#include "tests/ktest/ktest.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"
#include "tests/ktest/kernel/tick_hook.h"
#include "tests/ktest/slab_trade.h"

#define TOTAL_ROUNDS 16000 /* split between the CPUs: 8 emulated CPUs on a 2-core host stay quick */

static struct slab_trade trade;
static void *kept[NR_CPUS_MAX];
static unsigned long irq_allocs, rounds;

static void tick(unsigned int cpu)
{
	void *old;

	if (cpu >= NR_CPUS_MAX)
		return;
	old = kept[cpu];
	if (old)
		slab_trade_free(&trade, old);
	kept[cpu] = slab_trade_alloc(&trade, timer_ticks(cpu), GFP_ATOMIC);
	__atomic_fetch_add(&irq_allocs, 1, __ATOMIC_RELAXED);
}

static void worker(void *arg)
{
	(void)arg;
	slab_trade_run(&trade, this_cpu_id() * 7919UL + 1, rounds, GFP_KERNEL);
}

static void every_cpu_and_the_tick_allocate_at_once(struct ktest *t)
{
	unsigned long reports = mm_slab_reports;
	unsigned int n = smp_num_cpus();

	KT_ASSERT(t, slab_trade_start(&trade, "slab-irq"), "kmem_cache_create");
	irq_allocs = 0;
	rounds = TOTAL_ROUNDS / n;
	timer_set_hook(tick);
	on_each_cpu(worker, NULL);
	timer_unhook_and_wait(n);
	for (unsigned int cpu = 0; cpu < NR_CPUS_MAX; cpu++)
		if (kept[cpu]) {
			slab_trade_free(&trade, kept[cpu]);
			kept[cpu] = NULL;
		}
	slab_trade_finish(t, &trade, reports);
	printk("    # slab_irq: %u CPUs, %lu rounds each, %lu allocations in the timer interrupt\n", n, rounds,
	       irq_allocs);
}

KTEST_SUITE(slab_irq, KTEST_CASE(every_cpu_and_the_tick_allocate_at_once));
