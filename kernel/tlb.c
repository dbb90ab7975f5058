/* SPDX-License-Identifier: MIT */
/*
 * TLB shootdown (kernel/tlb.h). One request at a time, under shootdown_lock: the sender writes
 * the range, sets pending to the number of other CPUs, sends each the APIC_VECTOR_TLB interrupt
 * and waits for pending to reach zero; each handler flushes the range and counts itself off.
 * The interrupt, not a posted call (kernel/smp.h), so that a CPU busy in a work function or in a
 * loop of its own flushes as well: only an interrupts-off section delays it.
 */
#include "kernel/tlb.h"

#include "kernel/apic.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/traps.h"
#include "kernel/x86.h"
#include "mm/types.h"

static spinlock_t shootdown_lock;
static struct {
	uintptr_t start, end;
	unsigned int pending; /* CPUs that have not flushed yet */
} request;

void flush_tlb_local_range(uintptr_t start, uintptr_t end)
{
	start = ALIGN_DOWN(start, PAGE_SIZE);
	if (end <= start)
		return;
	if ((end - start) / PAGE_SIZE > TLB_FLUSH_ALL_PAGES) {
		write_cr3(read_cr3());
		return;
	}
	for (uintptr_t va = start; va < end; va += PAGE_SIZE)
		invlpg(va);
}

static void shootdown_ipi(unsigned int vector)
{
	struct cpu_local *me = this_cpu_local();

	(void)vector;
	flush_tlb_local_range(__atomic_load_n(&request.start, __ATOMIC_RELAXED),
			      __atomic_load_n(&request.end, __ATOMIC_RELAXED));
	__atomic_store_n(&me->tlb_received, me->tlb_received + 1, __ATOMIC_RELAXED); /* only this CPU writes it */
	/* Release: the flush is done before the sender may free or reuse what was unmapped. */
	__atomic_fetch_sub(&request.pending, 1, __ATOMIC_RELEASE);
	apic_eoi();
}

void tlb_init(void)
{
	irq_register(APIC_VECTOR_TLB, shootdown_ipi);
}

void flush_tlb_kernel_range(uintptr_t start, uintptr_t end)
{
	unsigned int n = smp_num_cpus(), me = this_cpu_id();

	flush_tlb_local_range(start, end);
	if (n == 1)
		return;
	if (irqs_disabled())
		panic("flush_tlb_kernel_range: called with interrupts off on CPU %u (see kernel/tlb.h)", me);
	spin_lock(&shootdown_lock);
	__atomic_store_n(&request.start, start, __ATOMIC_RELAXED);
	__atomic_store_n(&request.end, end, __ATOMIC_RELAXED);
	/* Release: a handler that sees its interrupt sees the range (the ICR write comes after). */
	__atomic_store_n(&request.pending, n - 1, __ATOMIC_RELEASE);
	for (unsigned int cpu = 0; cpu < n; cpu++)
		if (cpu != me)
			apic_send_ipi(smp_cpu_local(cpu)->apic_id, APIC_VECTOR_TLB);
	while (__atomic_load_n(&request.pending, __ATOMIC_ACQUIRE))
		cpu_relax();
	spin_unlock(&shootdown_lock);
}

unsigned long tlb_shootdowns_received(unsigned int cpu)
{
	struct cpu_local *area = smp_cpu_local(cpu);

	return area ? __atomic_load_n(&area->tlb_received, __ATOMIC_RELAXED) : 0;
}
