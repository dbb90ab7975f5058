/* SPDX-License-Identifier: MIT */
/*
 * For the kernel suites that hook the timer tick (slab_irq, smp_stress): taking the hook off.
 */
#ifndef TESTS_KTEST_KERNEL_TICK_HOOK_H
#define TESTS_KTEST_KERNEL_TICK_HOOK_H

#include "kernel/percpu.h"
#include "kernel/timer.h"
#include "kernel/spinlock.h"

/*
 * Takes the hook off the tick (timer_set_hook(NULL)) and returns once none of the first ncpus
 * CPUs can still be in it: a tick already running may still call the old hook, so each CPU
 * takes two more ticks first.
 */
static inline void timer_unhook_and_wait(unsigned int ncpus)
{
	static uint64_t seen[NR_CPUS_MAX]; /* static: too big for a stack; the boot CPU's caller only */

	if (ncpus > NR_CPUS_MAX)
		ncpus = NR_CPUS_MAX;
	timer_set_hook(NULL);
	for (unsigned int cpu = 0; cpu < ncpus; cpu++)
		seen[cpu] = timer_ticks(cpu);
	for (unsigned int cpu = 0; cpu < ncpus; cpu++)
		while (timer_ticks(cpu) < seen[cpu] + 2)
			cpu_relax();
}

#endif
