/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of the other CPUs (kernel/smp.h) and the tick (kernel/timer.h): every CPU came up
 * with its own number and per-CPU area, cross-CPU calls run once on each CPU and wake idle ones,
 * a spinlock keeps a counter that every CPU increments exact, and every CPU ticks with interrupts
 * on, in work functions too; mm/'s cross-CPU call runs on each CPU in an interrupt, and a page
 * freed on CPU 1 is in the buddy lists after a drain on CPU 0, and a slab object freed on CPU 1
 * comes back to its slab when CPU 0 shrinks its cache. They pass with one CPU as well,
 * where the calls run on the caller.
 */
#include "kernel/apic.h"
#include "kernel/cpu_call.h"
#include "tests/ktest/ktest.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/timer.h"
#include "kernel/traps.h"
#include "kernel/tsc.h"
#include "kernel/x86.h"
#include "lib/printk.h"
#include "mm/page_alloc.h"
#include "mm/pcp.h"
#include "tests/ktest/mm_helpers.h"
#include "tests/ktest/slab_shared.h"
#include "mm/slab_cache.h"

#define MSR_GS_BASE    0xc0000101u
#define LOCK_MS        300u
#define WAIT_US        3000000u /* emulated CPUs may be slow to get a turn: be generous */

struct seen {
	struct cpu_local *area[NR_CPUS_MAX];
	uint64_t gs_base[NR_CPUS_MAX];
	unsigned int cpu[NR_CPUS_MAX], apic[NR_CPUS_MAX], runs[NR_CPUS_MAX];
	bool irqs_on[NR_CPUS_MAX];
};

static void record(void *arg)
{
	struct seen *s = arg;
	unsigned int cpu = this_cpu_id();

	s->area[cpu] = this_cpu_local();
	s->gs_base[cpu] = rdmsr(MSR_GS_BASE);
	s->cpu[cpu] = this_cpu_local()->cpu;
	s->apic[cpu] = apic_id();
	s->irqs_on[cpu] = !irqs_disabled();
	__atomic_fetch_add(&s->runs[cpu], 1, __ATOMIC_RELAXED);
}

static void every_cpu_has_its_own_number_and_area(struct ktest *t)
{
	static struct seen s;
	unsigned int n = smp_num_cpus();

	KT_ASSERT(t, n >= 1 && n <= NR_CPUS_MAX, "%u CPUs online", n);
	on_each_cpu(record, &s);
	for (unsigned int i = 0; i < n; i++) {
		KT_EXPECT(t, s.area[i] == smp_cpu_local(i) && s.area[i]->self == s.area[i],
			  "CPU %u runs on area %p, smp_cpu_local() says %p", i, (void *)s.area[i],
			  (void *)smp_cpu_local(i));
		KT_EXPECT_EQ(t, s.gs_base[i], (uintptr_t)s.area[i]);
		KT_EXPECT_EQ(t, s.cpu[i], i);
		KT_EXPECT_EQ(t, s.apic[i], smp_cpu_local(i)->apic_id);
		for (unsigned int j = 0; j < i; j++)
			KT_EXPECT(t, s.area[i] != s.area[j] && s.apic[i] != s.apic[j],
				  "CPUs %u and %u share an area or an APIC id (%u)", j, i, s.apic[i]);
	}
	KT_EXPECT(t, smp_cpu_local(n) == NULL, "no area past the last CPU online");
}

static void on_each_cpu_runs_once_on_each_with_interrupts_on(struct ktest *t)
{
	static struct seen s;

	for (int round = 0; round < 3; round++)
		on_each_cpu(record, &s);
	for (unsigned int i = 0; i < smp_num_cpus(); i++) {
		KT_EXPECT(t, s.runs[i] == 3, "CPU %u ran the function %u times in 3 calls", i, s.runs[i]);
		KT_EXPECT(t, s.irqs_on[i], "CPU %u ran it with interrupts off", i);
	}
}

static void call_function_skips_the_caller_and_wakes_idle_cpus(struct ktest *t)
{
	static struct seen s;
	uint64_t deadline;
	bool all;

	smp_call_function(record, &s, true);
	KT_EXPECT(t, s.runs[0] == 0, "the caller ran it too");
	for (unsigned int i = 1; i < smp_num_cpus(); i++)
		KT_EXPECT(t, s.runs[i] == 1, "CPU %u ran it %u times", i, s.runs[i]);

	/* Without waiting: each CPU sleeps in hlt until the IPI arrives. */
	smp_call_function(record, &s, false);
	deadline = tsc_deadline_us(WAIT_US);
	do {
		all = true;
		for (unsigned int i = 1; i < smp_num_cpus(); i++)
			all &= __atomic_load_n(&s.runs[i], __ATOMIC_RELAXED) == 2;
	} while (!all && rdtsc() < deadline);
	KT_EXPECT(t, all, "not every CPU ran the call posted without waiting within %u ms", WAIT_US / 1000);
	smp_call_function(record, &s, true); /* the slot is free again after an unwaited call */
	for (unsigned int i = 1; i < smp_num_cpus(); i++)
		KT_EXPECT(t, s.runs[i] == 3, "CPU %u ran 3 calls %u times", i, s.runs[i]);
}

/*
 * Every CPU increments a shared counter under a spinlock for LOCK_MS, counting its own increments
 * on the side: the counter must equal their sum. Bounded by time, not by a number of rounds: with
 * more virtual CPUs than host cores, a ticket lock hands over only when the next CPU in line gets
 * a host core, which can take a millisecond each time.
 */
struct locked_count {
	spinlock_t lock;
	unsigned long count;
	uint64_t deadline;
	unsigned long own[NR_CPUS_MAX];
};

static void add_under_lock(void *arg)
{
	struct locked_count *c = arg;
	unsigned long own = 0;

	/*
	 * The deadline is checked after every increment: past it, each CPU waits for the CPUs
	 * queued ahead of it once, not for rounds of them (with 128 virtual CPUs on two host
	 * cores each hand-over can take a host time slice).
	 */
	do {
		spin_lock(&c->lock);
		c->count++; /* a plain read-modify-write: only the lock keeps it exact */
		spin_unlock(&c->lock);
		own++;
	} while (rdtsc() < c->deadline);
	c->own[this_cpu_id()] = own;
}

static void spinlock_keeps_a_shared_counter_exact(struct ktest *t)
{
	static struct locked_count c;
	unsigned int n = smp_num_cpus();
	unsigned long sum = 0;

	c.deadline = tsc_deadline_us(LOCK_MS * 1000);
	on_each_cpu(add_under_lock, &c);
	for (unsigned int i = 0; i < n; i++) {
		KT_EXPECT(t, c.own[i] > 0, "CPU %u never took the lock", i);
		sum += c.own[i];
	}
	KT_EXPECT(t, c.count == sum, "%u CPUs made %lu increments, the counter says %lu", n, sum, c.count);
	printk("    # %lu increments under the lock in %u ms, from %u CPU%s\n", sum, LOCK_MS, n, n == 1 ? "" : "s");
	KT_EXPECT(t, !spin_is_locked(&c.lock), "the lock is left held");
}

struct try_result {
	spinlock_t *lock;
	bool retry; /* try until it works (the others may hold the lock for a moment) */
	bool got[NR_CPUS_MAX];
};

static void try_and_release(void *arg)
{
	struct try_result *r = arg;
	uint64_t deadline = tsc_deadline_us(WAIT_US);
	bool got;

	while (!(got = spin_trylock(r->lock)) && r->retry && rdtsc() < deadline)
		cpu_relax();
	r->got[this_cpu_id()] = got;
	if (got)
		spin_unlock(r->lock);
}

static void trylock_fails_while_another_cpu_holds_the_lock(struct ktest *t)
{
	static spinlock_t lock;
	static struct try_result r = { .lock = &lock };

	KT_ASSERT(t, spin_trylock(&lock), "an unlocked lock");
	KT_EXPECT(t, !spin_trylock(&lock), "the lock taken twice");
	smp_call_function(try_and_release, &r, true);
	for (unsigned int i = 1; i < smp_num_cpus(); i++)
		KT_EXPECT(t, !r.got[i], "CPU %u took the lock CPU 0 holds", i);
	spin_unlock(&lock);
	r.retry = true;
	smp_call_function(try_and_release, &r, true);
	for (unsigned int i = 1; i < smp_num_cpus(); i++)
		KT_EXPECT(t, r.got[i], "CPU %u could not take the free lock in %u ms", i, WAIT_US / 1000);
	KT_EXPECT(t, !spin_is_locked(&lock), "the lock is left held");
}

/* Waits until every CPU's tick count is past before[cpu] + 2; false at the deadline. */
static bool ticks_pass(const uint64_t *before)
{
	uint64_t deadline = tsc_deadline_us(WAIT_US);
	bool all;

	do {
		all = true;
		for (unsigned int i = 0; i < smp_num_cpus(); i++)
			all &= timer_ticks(i) > before[i] + 2;
	} while (!all && rdtsc() < deadline);
	return all;
}

static void every_cpu_ticks_with_interrupts_on(struct ktest *t)
{
	static uint64_t before[NR_CPUS_MAX]; /* static: too big for a stack */

	KT_EXPECT(t, !irqs_disabled(), "the self-tests run with interrupts off");
	for (unsigned int i = 0; i < smp_num_cpus(); i++)
		before[i] = timer_ticks(i);
	KT_EXPECT(t, ticks_pass(before), "not every CPU ticked 3 times within %u ms", WAIT_US / 1000);
	for (unsigned int i = 0; i < smp_num_cpus(); i++)
		KT_EXPECT(t, timer_ticks(i) > before[i] + 2, "CPU %u: %llu ticks, %llu before", i,
			  (unsigned long long)timer_ticks(i), (unsigned long long)before[i]);
}

static unsigned int hook_calls[NR_CPUS_MAX];
static bool hook_irqs_off[NR_CPUS_MAX];

static void count_hook(unsigned int cpu)
{
	hook_irqs_off[cpu] = irqs_disabled();
	__atomic_fetch_add(&hook_calls[cpu], 1, __ATOMIC_RELAXED);
}

static void timer_hook_runs_on_every_cpu_in_interrupt_context(struct ktest *t)
{
	uint64_t deadline = tsc_deadline_us(WAIT_US);
	bool all;

	timer_set_hook(count_hook);
	do {
		all = true;
		for (unsigned int i = 0; i < smp_num_cpus(); i++)
			all &= __atomic_load_n(&hook_calls[i], __ATOMIC_RELAXED) > 0;
	} while (!all && rdtsc() < deadline);
	timer_set_hook(NULL);
	for (unsigned int i = 0; i < smp_num_cpus(); i++) {
		KT_EXPECT(t, hook_calls[i] > 0, "the hook never ran on CPU %u", i);
		KT_EXPECT(t, hook_calls[i] == 0 || hook_irqs_off[i], "CPU %u ran the hook with interrupts on", i);
	}
}

/* A work function that runs until its own CPU has ticked twice: ticks interrupt work. */
static void wait_for_own_ticks(void *arg)
{
	bool *ticked = arg;
	unsigned int cpu = this_cpu_id();
	uint64_t start = timer_ticks(cpu), deadline = tsc_deadline_us(WAIT_US);

	while (timer_ticks(cpu) < start + 2 && rdtsc() < deadline)
		cpu_relax();
	ticked[cpu] = timer_ticks(cpu) >= start + 2;
}

static void ticks_interrupt_long_work(struct ktest *t)
{
	static bool ticked[NR_CPUS_MAX];

	on_each_cpu(wait_for_own_ticks, ticked);
	for (unsigned int i = 0; i < smp_num_cpus(); i++)
		KT_EXPECT(t, ticked[i], "CPU %u did not tick while it ran a work function", i);
}

#define TEST_VECTOR 0xe8 /* free: kernel/apic.h lists the kernel's own */

static unsigned int test_vector_hits;

static void count_test_vector(unsigned int vector)
{
	(void)vector;
	__atomic_fetch_add(&test_vector_hits, 1, __ATOMIC_RELAXED);
	apic_eoi();
}

/*
 * xAPIC mode names a CPU in 8 bits: an IPI to 256 would reach APIC id 0 and one to 255 every
 * CPU. Both must be refused, not sent: nothing arrives on the vector, not even here.
 */
static void xapic_refuses_ids_it_cannot_name(struct ktest *t)
{
	uint64_t deadline;

	if (apic_is_x2apic())
		return ktest_skip(t, "x2APIC mode: 32-bit destinations");
	irq_register(TEST_VECTOR, count_test_vector);
	__atomic_store_n(&test_vector_hits, 0, __ATOMIC_RELAXED);
	KT_EXPECT(t, !apic_send_ipi(256, TEST_VECTOR), "an IPI to APIC id 256 was sent");
	KT_EXPECT(t, !apic_send_ipi(255, TEST_VECTOR), "an IPI to APIC id 255 was sent");
	deadline = tsc_deadline_us(20000);
	while (rdtsc() < deadline)
		cpu_relax();
	KT_EXPECT(t, __atomic_load_n(&test_vector_hits, __ATOMIC_RELAXED) == 0,
		  "%u interrupts arrived from IPIs to APIC ids 255 and 256",
		  __atomic_load_n(&test_vector_hits, __ATOMIC_RELAXED));
	KT_EXPECT(t, apic_send_ipi(apic_id(), TEST_VECTOR), "an IPI to this CPU was refused");
}

/* Free pages in every zone, every CPU's lists included. */
static unsigned long free_pages_now(void)
{
	unsigned long n = 0;

	for (unsigned int z = 0; z < mm_nr_zone_ids; z++)
		n += zone_free_pages(&mm_zones[z]);
	return n;
}

/*
 * Frees the held pages (all of order 0) but one in each aligned group of 8: plenty of free memory
 * then, in blocks of 4 pages at most, so a CPU's 32 KiB stack cannot be had, its other pages can.
 */
static void keep_one_in_eight(struct mm_held *h)
{
	struct list_head *prev = &h->list;

	for (struct list_head *l = h->list.next, *next; l != &h->list; l = next) {
		struct page *page = lru_to_page(l);

		next = l->next;
		if (page_to_pfn(page) % 8 == 0) {
			prev = l;
			continue;
		}
		prev->next = next;
		h->blocks--;
		h->pages--;
		__free_pages(page, 0);
	}
}

/* Starting a CPU needs a 32 KiB stack and smaller pieces: when the stack fails, nothing is kept. */
static void a_cpu_without_memory_for_its_stack_keeps_nothing(struct ktest *t)
{
	struct mm_held held;
	unsigned long before;
	bool prepared;

	mm_held_init(&held);
	mm_exhaust(&held, 0, 0, GFP_ATOMIC);
	keep_one_in_eight(&held);
	before = free_pages_now();
	prepared = smp_prepare_test_slot();
	KT_EXPECT(t, !prepared, "a CPU's memory was found with no 8 free pages in a row");
	KT_EXPECT(t, prepared || free_pages_now() == before, "%lu free pages after the failure, %lu before",
		  free_pages_now(), before);
	mm_held_free_all(&held);
}

/* What mm's cross-CPU call saw on each CPU (arch_run_on_cpus(), kernel/cpu_call.c). */
struct cpu_call_seen {
	unsigned int runs[NR_CPUS_MAX], ran_on[NR_CPUS_MAX];
	bool irqs_off[NR_CPUS_MAX];
};

static void record_cpu_call(unsigned int cpu, void *arg)
{
	struct cpu_call_seen *s = arg;

	if (cpu >= NR_CPUS_MAX)
		return;
	s->runs[cpu]++;
	s->ran_on[cpu] = this_cpu_id();
	s->irqs_off[cpu] = irqs_disabled();
}

/* Each running CPU runs mm's function for itself, in an interrupt (interrupts off), once. */
static void mm_cross_cpu_call_runs_on_each_cpu_with_interrupts_off(struct ktest *t)
{
	static struct cpu_call_seen s;
	unsigned long before = cpu_calls_received(smp_num_cpus() - 1);

	arch_run_on_cpus(record_cpu_call, &s);
	for (unsigned int i = 0; i < smp_num_cpus(); i++)
		KT_EXPECT(t, s.runs[i] == 1 && s.ran_on[i] == i && s.irqs_off[i],
			  "CPU %u's part: ran %u times, on CPU %u, interrupts %s", i, s.runs[i], s.ran_on[i],
			  s.irqs_off[i] ? "off" : "on");
	if (smp_num_cpus() > 1)
		KT_EXPECT(t, cpu_calls_received(smp_num_cpus() - 1) == before + 1,
			  "CPU %u's interrupt handler ran %lu calls, not 1", smp_num_cpus() - 1,
			  cpu_calls_received(smp_num_cpus() - 1) - before);
}

/* The page CPU 1 frees, and what it saw: the free went to its own list (not straight to the buddy lists). */
struct remote_free {
	struct page *page;
	bool done, bypassed, on_list;
};

static void free_on_cpu_1(void *arg)
{
	struct remote_free *r = arg;
	unsigned long flags;

	if (this_cpu_id() != 1)
		return;
	flags = local_irq_save(); /* the CPU's lists stay as the free leaves them until the check */
	r->bypassed = mm_pcp_free_bypasses(r->page);
	__free_pages(r->page, 0);
	r->on_list = !mm_pfn_in_buddy_block(page_to_pfn(r->page));
	local_irq_restore(flags);
	r->done = true;
}

/*
 * A page freed on CPU 1 stays on CPU 1's list; drain_pcp_lists() on CPU 0 asks CPU 1 to give it
 * back (an interrupt: CPU 1's lists have no lock), and afterwards it is in the buddy lists.
 */
static void a_page_freed_on_cpu_1_is_in_the_buddy_lists_after_a_drain_on_cpu_0(struct ktest *t)
{
	static struct remote_free r;

	if (smp_num_cpus() < 2)
		return ktest_skip(t, "one CPU");
	r = (struct remote_free){ .page = alloc_pages(GFP_KERNEL, 0) };
	KT_ASSERT(t, r.page != NULL, "alloc_pages(0) failed");
	smp_call_function(free_on_cpu_1, &r, true);
	KT_ASSERT(t, r.done, "CPU 1 did not run the free");
	if (r.bypassed)
		return ktest_skip(t, "CPU 1's free went straight to the buddy lists (busy zone or lists off)");
	KT_EXPECT(t, r.on_list, "the page CPU 1 freed is not on its list but in the buddy lists");
	drain_pcp_lists();
	KT_EXPECT(t, mm_pfn_in_buddy_block(page_to_pfn(r.page)),
		  "pfn %#lx, freed on CPU 1, is not in the buddy lists after drain_pcp_lists() on CPU %u",
		  page_to_pfn(r.page), this_cpu_id());
}

/* The object CPU 1 frees to the cache (its own list of it, a cache without debug). */
struct remote_kfree {
	struct kmem_cache *cache;
	void *obj;
	bool done;
};

static void kfree_on_cpu_1(void *arg)
{
	struct remote_kfree *r = arg;

	if (this_cpu_id() != 1)
		return;
	kmem_cache_free(r->cache, r->obj);
	r->done = true;
}

/*
 * A cache without debug (whose CPUs keep lists of free objects) and one object of it, allocated
 * here, freed on CPU 1: on CPU 1's list of the cache then. False (reported) when that fails.
 */
static bool object_freed_on_cpu_1(struct ktest *t, struct remote_kfree *r, const char *name)
{
	bool debug = slab_test_debug_default();

	slab_set_debug(false);
	*r = (struct remote_kfree){ .cache = kmem_cache_create(name, 64, 0, 0) };
	slab_set_debug(debug);
	if (!KT_EXPECT(t, r->cache != NULL && !slab_debug_enabled(r->cache), "no cache without debug"))
		return false;
	r->obj = kmem_cache_alloc(r->cache, GFP_KERNEL);
	if (!KT_EXPECT(t, r->obj != NULL, "kmem_cache_alloc failed"))
		return false;
	smp_call_function(kfree_on_cpu_1, r, true);
	return KT_EXPECT(t, r->done, "CPU 1 did not run the free");
}

/*
 * An object freed on CPU 1 stays on CPU 1's list of its cache; shrink (kmem_cache_shrink(), or
 * kmem_cache_shrink_all() with every cache) on CPU 0 asks CPU 1 to give it back (an interrupt:
 * the list has no lock), and its slab, empty then, goes back to the page allocator.
 */
static void check_shrink_finds_object_freed_on_cpu_1(struct ktest *t, bool all)
{
	static struct remote_kfree r;
	unsigned long calls, slabs;

	if (smp_num_cpus() < 2)
		return ktest_skip(t, "one CPU");
	if (!object_freed_on_cpu_1(t, &r, all ? "smp-shrink-all" : "smp-shrink"))
		goto out;
	calls = cpu_calls_received(1);
	if (all)
		kmem_cache_shrink_all();
	else
		kmem_cache_shrink(r.cache);
	KT_EXPECT(t, cpu_calls_received(1) > calls, "CPU 1 was not asked to give its objects back");
	slabs = __atomic_load_n(&r.cache->nr_slabs, __ATOMIC_RELAXED);
	KT_EXPECT(t, slabs == 0, "%lu slab(s) left after a shrink on CPU %u: the object CPU 1 freed was not given back",
		  slabs, this_cpu_id());
out:
	kmem_cache_destroy(r.cache);
}

static void a_slab_object_freed_on_cpu_1_comes_back_by_a_shrink_on_cpu_0(struct ktest *t)
{
	check_shrink_finds_object_freed_on_cpu_1(t, false);
}

static void a_slab_object_freed_on_cpu_1_comes_back_by_shrinking_every_cache_on_cpu_0(struct ktest *t)
{
	check_shrink_finds_object_freed_on_cpu_1(t, true);
}

KTEST_SUITE(smp,
	    KTEST_CASE(every_cpu_has_its_own_number_and_area),
	    KTEST_CASE(on_each_cpu_runs_once_on_each_with_interrupts_on),
	    KTEST_CASE(call_function_skips_the_caller_and_wakes_idle_cpus),
	    KTEST_CASE(spinlock_keeps_a_shared_counter_exact),
	    KTEST_CASE(trylock_fails_while_another_cpu_holds_the_lock),
	    KTEST_CASE(every_cpu_ticks_with_interrupts_on),
	    KTEST_CASE(timer_hook_runs_on_every_cpu_in_interrupt_context),
	    KTEST_CASE(ticks_interrupt_long_work),
	    KTEST_CASE(xapic_refuses_ids_it_cannot_name),
	    KTEST_CASE(a_cpu_without_memory_for_its_stack_keeps_nothing),
	    KTEST_CASE(mm_cross_cpu_call_runs_on_each_cpu_with_interrupts_off),
	    KTEST_CASE(a_page_freed_on_cpu_1_is_in_the_buddy_lists_after_a_drain_on_cpu_0),
	    KTEST_CASE(a_slab_object_freed_on_cpu_1_comes_back_by_a_shrink_on_cpu_0),
	    KTEST_CASE(a_slab_object_freed_on_cpu_1_comes_back_by_shrinking_every_cache_on_cpu_0));
