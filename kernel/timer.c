/* SPDX-License-Identifier: MIT */
/* The periodic tick (kernel/timer.h), from each CPU's local APIC timer. */
#include "kernel/timer.h"

#include "kernel/apic.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"
#include "kernel/tsc.h"
#include "kernel/traps.h"
#include "lib/printk.h"

#define DIVIDE_BY_16 0x3 /* the timer divide configuration register's code for 16 */
#define MEASURE_MS   10

static uint32_t period;                   /* initial count: one tick, at divide by 16 */
static void (*hook)(unsigned int cpu);

static void tick(unsigned int vector)
{
	struct cpu_local *me = this_cpu_local();
	unsigned int cpu = me->cpu;
	void (*fn)(unsigned int) = __atomic_load_n(&hook, __ATOMIC_ACQUIRE);

	(void)vector;
	__atomic_store_n(&me->ticks, me->ticks + 1, __ATOMIC_RELAXED); /* only this CPU writes it */
	if (fn)
		fn(cpu);
	apic_eoi();
}

void timer_start_cpu(void)
{
	apic_write(APIC_TIMER_DIV, DIVIDE_BY_16);
	apic_write(APIC_LVT_TIMER, APIC_LVT_PERIODIC | APIC_VECTOR_TIMER);
	apic_write(APIC_TIMER_INIT, period);
}

void timer_init(void)
{
	uint32_t counted;

	/* Count down from the top, masked, for MEASURE_MS of the TSC. */
	apic_write(APIC_TIMER_DIV, DIVIDE_BY_16);
	apic_write(APIC_LVT_TIMER, APIC_LVT_MASKED);
	apic_write(APIC_TIMER_INIT, 0xffffffffu);
	mdelay(MEASURE_MS);
	counted = 0xffffffffu - apic_read(APIC_TIMER_CUR);
	apic_write(APIC_TIMER_INIT, 0);
	period = (uint32_t)((uint64_t)counted * 1000 / MEASURE_MS / TIMER_HZ);
	if (!period)
		period = 1;
	printk("timer: local APIC timer at %llu kHz (divided by 16); ticking at %u Hz\n",
	       (unsigned long long)counted / MEASURE_MS, TIMER_HZ);
	irq_register(APIC_VECTOR_TIMER, tick);
	timer_start_cpu();
}

void timer_set_hook(void (*fn)(unsigned int cpu))
{
	__atomic_store_n(&hook, fn, __ATOMIC_RELEASE);
}

uint64_t timer_ticks(unsigned int cpu)
{
	struct cpu_local *area = smp_cpu_local(cpu);

	return area ? __atomic_load_n(&area->ticks, __ATOMIC_RELAXED) : 0;
}
