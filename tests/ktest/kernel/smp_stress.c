/* SPDX-License-Identifier: MIT */
/*
 * Self-test: the SMP stress test of mm/ (tests/stress/stress.h) on every CPU at once, through
 * on_each_cpu(), while every CPU's timer interrupt allocates and frees too (GFP_ATOMIC); then
 * the end checks the host runs: no block handed out twice, one destructor run per shared compound
 * page, the hugetlb pool consistent, and every counter and the free lists' shape as at the start.
 * On a single CPU it is one worker and its timer interrupt.
 *
 * Page poisoning is off while it runs: filling and checking every freed page of up to 4 MiB
 * costs twenty times the rest under QEMU's emulation. The host runs the same core with
 * poisoning (make test-stress-asan).
 */
#include "tests/ktest/ktest.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/timer.h"
#include "lib/printk.h"
#include "mm/pcp.h"
#include "mm/poison.h"
#include "tests/ktest/kernel/tick_hook.h"
#include "tests/stress/stress.h"

/*
 * Operations of all CPUs together. The suite runs in every QEMU boot of make test, with 1 to 8
 * virtual CPUs on a host that may have 2 cores: there 80,000 operations take about 2.5 s on 2
 * CPUs, 5.5 s on 4 and three minutes on 8, because the ticket lock hands the lock to the waiters
 * in turn and the next one's virtual CPU is most often not running (with a test-and-set lock the
 * 8 CPUs take 6 s).
 */
static unsigned long total_ops(unsigned int n)
{
	return n <= 2 ? 40000 : n <= 4 ? 20000 : 2000;
}

#define SEED 0x6b737472657373ULL /* "kstress" */

static unsigned int nr_workers;
static unsigned long timer_calls; /* the hook's runs, all CPUs together */

void stress_relax(void)
{
	cpu_relax();
}

static void worker_on_this_cpu(void *arg)
{
	unsigned int cpu = this_cpu_id();

	(void)arg;
	if (cpu < nr_workers)
		stress_worker(cpu);
}

static void timer_hook(unsigned int cpu)
{
	__atomic_add_fetch(&timer_calls, 1, __ATOMIC_RELAXED);
	stress_irq_tick(cpu);
}

static void every_cpu_allocates_and_frees_at_once(struct ktest *t)
{
	struct stress_config cfg = { .seed = SEED };
	struct stress_totals totals;
	bool poison = mm_debug_poison;

	nr_workers = smp_num_cpus() < STRESS_MAX_WORKERS ? smp_num_cpus() : STRESS_MAX_WORKERS;
	cfg.workers = nr_workers;
	cfg.ops = total_ops(nr_workers) / nr_workers;
	timer_calls = 0;
	KT_ASSERT(t, stress_prepare(&cfg) == 0, "stress_prepare refused %u workers", nr_workers);
	set_page_poisoning(false);
	timer_set_hook(timer_hook);
	on_each_cpu(worker_on_this_cpu, NULL);
	timer_unhook_and_wait(nr_workers);
	stress_irq_release();
	set_page_poisoning(poison);
	drain_pcp_lists();
	KT_EXPECT(t, stress_finish(&totals) == 0, "%lu failures (the lines above say which)", totals.failures);
	KT_EXPECT_EQ(t, totals.ops, nr_workers * cfg.ops);
	printk("    # smp_stress: %u CPUs, %lu operations, %lu allocations in the timer interrupt's %lu runs "
	       "and the workers' masked sections\n", nr_workers, totals.ops, totals.irq_allocs,
	       __atomic_load_n(&timer_calls, __ATOMIC_RELAXED));
}

KTEST_SUITE(smp_stress, KTEST_CASE(every_cpu_allocates_and_frees_at_once));
