/* SPDX-License-Identifier: MIT */
/*
 * Host tests of the per-CPU page lists with threads playing CPUs (host_mm_set_cpu()): a block
 * freed on another CPU goes to that CPU's list; memory stranded on another CPU's list is found
 * before an allocation fails, merged when a larger block is asked for; and when two CPUs drop
 * the last two references to a page at once, exactly one of them frees it.
 */
#include <pthread.h>
#include <sched.h>

#include "tests/ktest/ktest.h"
#include "mm/bad_page.h"
#include "mm/pcp.h"
#include "mm/page_alloc.h"
#include "mm/poison.h"
#include "tests/ktest/mm_helpers.h"
#include "tests/mm/host_mm.h"
#include "tests/mm/mm_check.h"

/* The lists of cpu for the zone page is in. */
static struct per_cpu_pages *pcp_of(unsigned int cpu, const struct page *page)
{
	return cpu_pcp(cpu, page_zonenum(page));
}

static void a_block_freed_on_another_cpu_goes_to_that_cpus_list(struct ktest *t)
{
	struct page *page;

	host_mm_set_cpu(0);
	page = alloc_pages(GFP_KERNEL, 1);
	KT_ASSERT(t, page != NULL, "alloc_pages(1) failed");
	host_mm_set_cpu(1);
	__free_pages(page, 1);
	host_mm_set_cpu(0);
	KT_EXPECT(t, pcp_of(1, page)->count[1] >= 1 && lru_to_page(pcp_of(1, page)->lists[1][MIGRATE_UNMOVABLE].next) == page,
		  "the block is not first on CPU 1's order-1 list (%u blocks there)", pcp_of(1, page)->count[1]);
	KT_EXPECT(t, pcp_of(0, page)->count[1] == 0 || lru_to_page(pcp_of(0, page)->lists[1][MIGRATE_UNMOVABLE].next) != page,
		  "the block went to CPU 0's list");
	drain_pcp_lists();
}

#define HELD_MARK 0x48454c44UL /* private of a page take_everything() holds */

/* Every page GFP_ATOMIC gets at order 0, chained through lru.next, marked in private. */
static void take_everything(struct list_head *held)
{
	struct page *page;

	held->next = held;
	while ((page = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 0))) {
		page->private = HELD_MARK;
		page->lru.next = held->next;
		held->next = &page->lru;
	}
}

/* Takes page off the chain of held pages. */
static void unchain(struct list_head *held, struct page *page)
{
	for (struct list_head *l = held; l->next != held; l = l->next)
		if (l->next == &page->lru) {
			l->next = page->lru.next;
			return;
		}
}

static void give_everything_back(struct list_head *held)
{
	for (struct list_head *l = held->next, *next; l != held; l = next) {
		next = l->next;
		__free_pages(lru_to_page(l), 0);
	}
}

/* An even page of the chain whose buddy is held too, or NULL. */
static struct page *held_buddies(struct list_head *held)
{
	for (struct list_head *l = held->next; l != held; l = l->next) {
		struct page *p = lru_to_page(l);

		if (!(page_to_pfn(p) & 1) && page_count(p + 1) == 1 && p[1].private == HELD_MARK)
			return p;
	}
	return NULL;
}

/*
 * With memory exhausted on CPU 0, CPU 1 frees two buddies: they sit unmerged on CPU 1's list.
 * CPU 0 then asks for an order-1 block: only draining CPU 1's list (and merging the two) can
 * give it, and it must; then the same for two single pages.
 */
static void memory_on_another_cpus_list_is_found_before_an_allocation_fails(struct ktest *t)
{
	bool poison = mm_debug_poison;
	struct mm_shape before;
	struct list_head held;
	struct page *pair[2], *got;

	mm_debug_poison = false;
	mm_shape_take(&before);
	host_mm_set_cpu(0);
	take_everything(&held);
	KT_ASSERT(t, nr_free_pages() == 0, "%lu pages still free", nr_free_pages());
	pair[0] = held_buddies(&held);
	KT_ASSERT(t, pair[0] != NULL, "no two held pages are buddies");
	pair[1] = pair[0] + 1;
	unchain(&held, pair[0]);
	unchain(&held, pair[1]);
	host_mm_set_cpu(1);
	__free_pages(pair[0], 0);
	__free_pages(pair[1], 0);
	host_mm_set_cpu(0);
	KT_EXPECT_EQ(t, pcp_free_pages(pcp_of(1, pair[0])), 2);
	got = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 1);
	KT_EXPECT(t, got == pair[0], "order 1 on CPU 0 got %p, not the buddies freed on CPU 1 (%p)",
		  (void *)got, (void *)pair[0]);
	KT_EXPECT_EQ(t, pcp_free_pages(pcp_of(1, pair[0])), 0);
	if (got) {
		host_mm_set_cpu(1);
		__free_pages(got, 1);
		host_mm_set_cpu(0);
		got = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0); /* under min: GFP_KERNEL gets nothing */
		KT_EXPECT(t, got == NULL, "GFP_KERNEL got a page with %lu free", nr_free_pages() + 1);
		if (got)
			__free_pages(got, 0);
		got = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 0);
		KT_EXPECT(t, got == pair[0] || got == pair[1], "order 0 on CPU 0 got %p", (void *)got);
		if (got)
			__free_pages(got, 0);
	}
	give_everything_back(&held);
	mm_expect_shape(t, &before);
	mm_debug_poison = poison;
}

/* ---- two CPUs drop the last two references at once --------------------------------------- */

#define RACE_ROUNDS 20000

static struct page *race_page;
static unsigned long race_round; /* written by the main thread, read by the racer */
static unsigned long race_done;  /* rounds the racer has finished */
static unsigned long race_ready; /* rounds the racer is waiting to start */

/* A delay of n pauses: sweeps how far apart the two put_page() calls start. */
static void delay(unsigned long n)
{
	while (n--)
		__builtin_ia32_pause();
}

/* Waits until *v reaches r: spinning, so that both CPUs start their put_page() together. */
static void wait_for(unsigned long *v, unsigned long r)
{
	for (unsigned int spins = 0; __atomic_load_n(v, __ATOMIC_ACQUIRE) < r;)
		if (++spins % 4096 == 0)
			sched_yield(); /* a host with one core: let the other thread run */
		else
			__builtin_ia32_pause();
}

static void *racer(void *arg)
{
	(void)arg;
	host_mm_set_cpu(1);
	for (unsigned long r = 1; r <= RACE_ROUNDS; r++) {
		__atomic_store_n(&race_ready, r, __ATOMIC_RELEASE);
		wait_for(&race_round, r);
		delay(r % 7);
		put_page(race_page);
		__atomic_store_n(&race_done, r, __ATOMIC_RELEASE);
	}
	return NULL;
}

static void last_two_references_dropped_at_once_free_the_page_once(struct ktest *t)
{
	unsigned long reports = bad_page_reports, free0;
	pthread_t thread;

	host_mm_set_cpu(0);
	drain_pcp_lists();
	free0 = nr_free_pages();
	KT_ASSERT(t, pthread_create(&thread, NULL, racer, NULL) == 0, "no thread");
	for (unsigned long r = 1; r <= RACE_ROUNDS; r++) {
		struct page *page = alloc_pages(GFP_KERNEL, 0);

		if (!page)
			break;
		get_page(page); /* two references: one for each CPU */
		race_page = page;
		wait_for(&race_ready, r);
		__atomic_store_n(&race_round, r, __ATOMIC_RELEASE);
		delay(r / 7 % 64); /* the racer sees the round some time after the store */
		put_page(page);
		wait_for(&race_done, r);
		if (__atomic_load_n(&bad_page_reports, __ATOMIC_RELAXED) != reports)
			break;
	}
	__atomic_store_n(&race_round, RACE_ROUNDS + 1, __ATOMIC_RELEASE);
	pthread_join(thread, NULL);
	KT_EXPECT_EQ(t, __atomic_load_n(&bad_page_reports, __ATOMIC_RELAXED), reports);
	drain_pcp_lists();
	KT_EXPECT_EQ(t, nr_free_pages(), free0);
}

KTEST_SUITE(mm_pcp,
	    KTEST_CASE(a_block_freed_on_another_cpu_goes_to_that_cpus_list),
	    KTEST_CASE(memory_on_another_cpus_list_is_found_before_an_allocation_fails),
	    KTEST_CASE(last_two_references_dropped_at_once_free_the_page_once));
