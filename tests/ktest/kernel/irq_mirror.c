/* SPDX-License-Identifier: MIT */
/*
 * The interrupt flag's mirror (struct cpu_local's irq_off, kernel/spinlock.h) that mm/'s fast
 * paths read instead of saving the flags (kernel/mm_env.h): 0 only while interrupts are on. The
 * masking calls keep it; every interrupt handler runs with it set; and the page and kmalloc fast
 * paths, called with interrupts off (a caller's local_irq_save(), the timer interrupt while the
 * interrupted code has them on), leave them off, where a fast path that trusted a mirror left at
 * 0 would turn them on.
 */
#include "tests/ktest/ktest.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/timer.h"
#include "kernel/tsc.h"
#include "kernel/x86.h"
#include "lib/printk.h"
#include "mm/memmap.h"
#include "mm/page_alloc.h"
#include "mm/pcp.h"
#include "mm/poison.h"
#include "mm/slab.h"
#include "tests/ktest/kernel/tick_hook.h"

#define WAIT_US 3000000u /* emulated CPUs may be slow to get a turn: be generous */
#define TICKS   4u       /* hooked ticks each CPU must take */

/* The invariant: mirror 0 implies interrupts on. */
static bool mirror_holds(void)
{
	return irq_mirror() != 0 || !irqs_disabled();
}

/* Are interrupts off with the mirror set, as local_irq_save() leaves them? */
static bool off_and_mirrored(void)
{
	return irqs_disabled() && irq_mirror() != 0;
}

/* Notes in *what the first call that changed whether interrupts are off (off: before it), or broke the mirror. */
static bool call_kept_flag(bool off, const char *call, const char **what)
{
	if (irqs_disabled() == off && mirror_holds())
		return true;
	if (!**what)
		*what = call;
	return false;
}

/*
 * Allocates and frees a block of each order the fast path serves and a few kmalloc sizes; false
 * when a call changed whether interrupts are off, or broke the mirror (*what: the first such call).
 * Frees what it allocates either way.
 */
static bool round_keeps_flag(const char **what)
{
	static const size_t sizes[] = { 8, 64, 512, 4096 };
	bool off = irqs_disabled(), kept = true;

	*what = "";
	for (unsigned int order = 0; order <= PCP_MAX_ORDER; order++) {
		struct page *page = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, order);

		kept &= call_kept_flag(off, "alloc_pages()", what);
		if (page)
			__free_pages(page, order);
		kept &= call_kept_flag(off, "__free_pages()", what);
	}
	for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		void *obj = kmalloc(sizes[i], GFP_ATOMIC | __GFP_NOWARN);

		kept &= call_kept_flag(off, "kmalloc()", what);
		kfree(obj);
		kept &= call_kept_flag(off, "kfree()", what);
	}
	return kept;
}

/*
 * round_keeps_flag() for the slow paths that mask interrupts the fast paths' way too (the per-CPU
 * lists of whole pageblocks, take_from_pcp() and free_block() in mm/page_alloc.c) and for one they
 * do not serve (PAGEBLOCK_ORDER + 1): a block of each, twice, so that one comes from the list.
 */
static bool slow_round_keeps_flag(const char **what)
{
	static const unsigned int orders[] = { 0, PCP_MAX_ORDER, PAGEBLOCK_ORDER, PAGEBLOCK_ORDER, PAGEBLOCK_ORDER + 1 };
	bool off = irqs_disabled(), kept = true;

	*what = "";
	for (unsigned int i = 0; i < sizeof(orders) / sizeof(orders[0]); i++) {
		struct page *page = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, orders[i]);

		kept &= call_kept_flag(off, "alloc_pages() of a slow path", what);
		if (page)
			__free_pages(page, orders[i]);
		kept &= call_kept_flag(off, "__free_pages() of a slow path", what);
	}
	return kept;
}

/*
 * Poisoned free pages (left by the suites before, with poisoning on) send every alloc_pages() to
 * its slow side until they are allocated (mm_alloc_gate, mm/poison.h). With poisoning off, takes
 * single pages until none is left, at most max, then frees them unpoisoned: true when
 * alloc_pages()'s fast path is open.
 */
static bool open_the_alloc_fast_path(unsigned long max)
{
	void *held = NULL;

	for (unsigned long i = 0; i < max && mm_alloc_gate.fast_orders != PCP_MAX_ORDER + 1; i++) {
		struct page *page = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 0);
		void **frame;

		if (!page)
			break;
		frame = page_address(page);
		*frame = held;
		held = frame;
	}
	while (held) {
		void **frame = held;

		held = *frame;
		__free_pages(virt_to_page(frame), 0);
	}
	return mm_alloc_gate.fast_orders == PCP_MAX_ORDER + 1;
}

static void the_masking_calls_keep_the_mirror(struct ktest *t)
{
	unsigned long outer, inner;

	KT_ASSERT(t, !irqs_disabled(), "the self-tests run with interrupts on");
	KT_EXPECT(t, irq_mirror() == 0, "interrupts on, the mirror is %u", irq_mirror());
	outer = local_irq_save();
	KT_EXPECT(t, off_and_mirrored(), "after local_irq_save(): IF %d, mirror %u", !irqs_disabled(), irq_mirror());
	inner = local_irq_save();
	local_irq_restore(inner);
	KT_EXPECT(t, off_and_mirrored(), "after a nested save and restore: IF %d, mirror %u", !irqs_disabled(),
		  irq_mirror());
	local_irq_restore(outer);
	KT_EXPECT(t, !irqs_disabled() && irq_mirror() == 0, "after local_irq_restore(): IF %d, mirror %u",
		  !irqs_disabled(), irq_mirror());
	local_irq_disable();
	KT_EXPECT(t, off_and_mirrored(), "after local_irq_disable(): IF %d, mirror %u", !irqs_disabled(),
		  irq_mirror());
	local_irq_enable();
	KT_EXPECT(t, !irqs_disabled() && irq_mirror() == 0, "after local_irq_enable(): IF %d, mirror %u",
		  !irqs_disabled(), irq_mirror());
}

static void the_fast_paths_leave_interrupts_off_when_they_were_off(struct ktest *t)
{
	bool poison = set_page_poisoning(false); /* else every free takes the slow path */
	const char *what = "";
	unsigned long irq;
	bool kept;

	KT_ASSERT(t, !irqs_disabled(), "the self-tests run with interrupts on");
	if (!open_the_alloc_fast_path(1UL << 15))
		printk("    # alloc_pages() takes its slow side now (%u poisoned pages, or page_owner): the frees and "
		       "kmalloc test the fast paths\n", mm_alloc_gate.slow_reasons);
	kept = round_keeps_flag(&what);
	KT_EXPECT(t, kept, "%s with interrupts on left them off, or the mirror set", what);
	irq = local_irq_save();
	kept = round_keeps_flag(&what);
	local_irq_restore(irq);
	KT_EXPECT(t, kept, "%s with interrupts off (local_irq_save()) turned them on", what);
	KT_EXPECT(t, !irqs_disabled() && irq_mirror() == 0, "after the rounds: IF %d, mirror %u", !irqs_disabled(),
		  irq_mirror());
	set_page_poisoning(poison);
}

/*
 * The slow paths keep the flag too, with the per-CPU lists on (whole pageblocks from a list, a
 * refill) and off (the plain buddy allocator, every free given back), interrupts on and off.
 */
static void the_slow_paths_leave_interrupts_off_when_they_were_off(struct ktest *t)
{
	bool poison = set_page_poisoning(false), lists = set_pcp_lists(true);
	const char *what = "";
	unsigned long irq;
	bool kept;

	KT_ASSERT(t, !irqs_disabled(), "the self-tests run with interrupts on");
	for (int on = 1; on >= 0; on--) {
		set_pcp_lists(on);
		kept = slow_round_keeps_flag(&what);
		KT_EXPECT(t, kept, "lists %s: %s with interrupts on left them off, or the mirror set", on ? "on" : "off",
			  what);
		irq = local_irq_save();
		kept = slow_round_keeps_flag(&what);
		local_irq_restore(irq);
		KT_EXPECT(t, kept, "lists %s: %s with interrupts off (local_irq_save()) turned them on", on ? "on" : "off",
			  what);
		KT_EXPECT(t, !irqs_disabled() && irq_mirror() == 0, "lists %s, after the rounds: IF %d, mirror %u",
			  on ? "on" : "off", !irqs_disabled(), irq_mirror());
	}
	set_pcp_lists(lists);
	set_page_poisoning(poison);
}

static unsigned int hook_rounds[NR_CPUS_MAX];
static bool hook_mirror_set[NR_CPUS_MAX], hook_kept[NR_CPUS_MAX];
static const char *hook_what[NR_CPUS_MAX];

/* The timer interrupt: its handler sees the mirror set, and allocating there keeps them off. */
static void alloc_in_tick(unsigned int cpu)
{
	const char *what = "";

	if (cpu >= NR_CPUS_MAX || hook_rounds[cpu] >= TICKS)
		return;
	hook_mirror_set[cpu] = off_and_mirrored();
	hook_kept[cpu] = round_keeps_flag(&what) && off_and_mirrored();
	hook_what[cpu] = what;
	__atomic_store_n(&hook_rounds[cpu], hook_rounds[cpu] + 1, __ATOMIC_RELEASE);
}

/*
 * Each CPU waits with interrupts on and the mirror 0 (checked) for its hooked ticks, so that they
 * interrupt code whose mirror is 0: a handler that ran with it still 0 would have the fast paths
 * turn interrupts on inside it.
 */
static void wait_for_hooked_ticks(void *arg)
{
	bool *ok = arg;
	unsigned int cpu = this_cpu_id();
	uint64_t deadline = tsc_deadline_us(WAIT_US);

	if (cpu >= NR_CPUS_MAX)
		return;
	ok[cpu] = !irqs_disabled() && irq_mirror() == 0;
	while (__atomic_load_n(&hook_rounds[cpu], __ATOMIC_ACQUIRE) < TICKS && rdtsc() < deadline)
		cpu_relax();
	ok[cpu] = ok[cpu] && !irqs_disabled() && irq_mirror() == 0;
}

static void an_interrupt_handler_sees_the_mirror_set_and_allocates_with_interrupts_off(struct ktest *t)
{
	static bool work_ok[NR_CPUS_MAX]; /* static: too big for a stack */
	unsigned int n = smp_num_cpus() < NR_CPUS_MAX ? smp_num_cpus() : NR_CPUS_MAX;
	bool poison = set_page_poisoning(false);

	open_the_alloc_fast_path(1UL << 15);
	for (unsigned int cpu = 0; cpu < n; cpu++) {
		hook_rounds[cpu] = 0;
		hook_mirror_set[cpu] = hook_kept[cpu] = false;
		hook_what[cpu] = "";
	}
	timer_set_hook(alloc_in_tick);
	on_each_cpu(wait_for_hooked_ticks, work_ok);
	timer_unhook_and_wait(n);
	set_page_poisoning(poison);
	for (unsigned int cpu = 0; cpu < n; cpu++) {
		KT_EXPECT(t, work_ok[cpu], "CPU %u: the work ran with interrupts off or the mirror set", cpu);
		KT_EXPECT(t, hook_rounds[cpu] == TICKS, "CPU %u: %u hooked ticks of %u", cpu, hook_rounds[cpu], TICKS);
		if (!hook_rounds[cpu])
			continue;
		KT_EXPECT(t, hook_mirror_set[cpu], "CPU %u: the timer interrupt's handler ran with the mirror 0", cpu);
		KT_EXPECT(t, hook_kept[cpu], "CPU %u: %s in the timer interrupt turned interrupts on", cpu,
			  hook_what[cpu]);
	}
}

KTEST_SUITE(irq_mirror,
	    KTEST_CASE(the_masking_calls_keep_the_mirror),
	    KTEST_CASE(the_fast_paths_leave_interrupts_off_when_they_were_off),
	    KTEST_CASE(the_slow_paths_leave_interrupts_off_when_they_were_off),
	    KTEST_CASE(an_interrupt_handler_sees_the_mirror_set_and_allocates_with_interrupts_off));
