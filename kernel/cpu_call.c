/* SPDX-License-Identifier: MIT */
/*
 * arch_run_on_cpus() (mm/arch.h, kernel/cpu_call.h). One call at a time, under call_lock, taken
 * with interrupts on so that a CPU waiting for it still answers the others' calls and TLB
 * shootdowns: the caller writes fn and arg, sets pending to the number of other running CPUs,
 * sends each APIC_VECTOR_MM_CALL, runs its own part with interrupts off, runs the parts of the
 * CPUs mm/ knows of that are not running (nobody else touches their lists: call_lock serializes
 * those), and waits for pending to reach zero. Each handler runs fn for its CPU and counts itself
 * off. The interrupt arrives only where the CPU has interrupts on, that is, never in the middle
 * of its own use of its lists.
 */
#include "kernel/cpu_call.h"

#include "kernel/apic.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/traps.h"
#include "kernel/x86.h"
#include "mm/arch.h"

static spinlock_t call_lock;
static unsigned int mm_cpus = 1;
static unsigned long calls_received[NR_CPUS_MAX];
static struct {
	void (*fn)(unsigned int cpu, void *arg);
	void *arg;
	unsigned int pending; /* CPUs that have not run fn yet */
} request;

static void call_ipi(unsigned int vector)
{
	unsigned int me = this_cpu_id();

	(void)vector;
	/* Acquire: pending was stored with release after fn and arg, and so was what fn reads. */
	if (__atomic_load_n(&request.pending, __ATOMIC_ACQUIRE))
		request.fn(me, request.arg);
	__atomic_store_n(&calls_received[me], calls_received[me] + 1, __ATOMIC_RELAXED); /* only this CPU writes it */
	/* Release: fn's work is done before the caller goes on. */
	__atomic_fetch_sub(&request.pending, 1, __ATOMIC_RELEASE);
	apic_eoi();
}

void cpu_call_init(void)
{
	irq_register(APIC_VECTOR_MM_CALL, call_ipi);
}

void cpu_call_set_mm_cpus(unsigned int nr_cpus)
{
	mm_cpus = nr_cpus ? nr_cpus : 1;
}

unsigned long cpu_calls_received(unsigned int cpu)
{
	return cpu < NR_CPUS_MAX ? __atomic_load_n(&calls_received[cpu], __ATOMIC_RELAXED) : 0;
}

/* fn for cpu, here, with interrupts off (the caller's own part, and the parts of CPUs not running). */
static void run_here(void (*fn)(unsigned int cpu, void *arg), unsigned int cpu, void *arg)
{
	unsigned long flags = local_irq_save();

	fn(cpu, arg);
	local_irq_restore(flags);
}

void arch_run_on_cpus(void (*fn)(unsigned int cpu, void *arg), void *arg)
{
	unsigned int n = smp_num_cpus(), me = this_cpu_id();

	if (irqs_disabled() || in_interrupt())
		panic("arch_run_on_cpus: called with interrupts off or in an interrupt on CPU %u (see mm/arch.h)", me);
	spin_lock(&call_lock);
	request.fn = fn;
	request.arg = arg;
	/* Release: a handler that sees its interrupt sees fn and arg (the ICR write comes after). */
	__atomic_store_n(&request.pending, n - 1, __ATOMIC_RELEASE);
	for (unsigned int cpu = 0; cpu < n; cpu++)
		if (cpu != me)
			apic_send_ipi(smp_cpu_local(cpu)->apic_id, APIC_VECTOR_MM_CALL);
	run_here(fn, me, arg);
	for (unsigned int cpu = n; cpu < mm_cpus; cpu++)
		run_here(fn, cpu, arg);
	while (__atomic_load_n(&request.pending, __ATOMIC_ACQUIRE))
		cpu_relax();
	spin_unlock(&call_lock);
}
