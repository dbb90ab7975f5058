/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of the hugetlb pool: growing and shrinking, allocation and free through any sub-page,
 * surplus pages under the overcommit limit, reservations, the /proc/meminfo lines, misuse, and
 * the invariants under a randomized sequence of operations. Each case starts from an empty 2 MiB
 * pool and puts the pool back the way it found it.
 */
#include "tests/ktest/compound_helpers.h"

#include "lib/printk.h"
#include "lib/string.h"
#include "mm/hugetlb.h"
#include "tests/ktest/hugetlb_saved_pool.h"

#define HPAGE_NR (1UL << HPAGE_ORDER)

static struct hugetlb_counters pool(void) { return hugetlb_counters(HPAGE_ORDER); }

/*
 * Empties the pool; false (case skipped) if pages are handed out or reserved by someone else, or
 * if the memory free then (the pool's pages given back) cannot hold the `need` huge pages the
 * case uses at once; the pool is then as it was.
 */
static bool pool_begin(struct ktest *t, struct saved_pool *s, unsigned long need)
{
	if (!saved_pool_empty(t, s))
		return false;
	if (mm_skip_without_blocks(t, HPAGE_ORDER, need, GFP_KERNEL)) {
		hugetlb_set_overcommit(s->overcommit);
		hugetlb_set_pool_size(s->persistent);
		return false;
	}
	return KT_EXPECT_EQ(t, pool().total, 0);
}

/* Expects the four counters; and the invariants. */
#define EXPECT_POOL(t, tot, fr, rsv, sur)                                                    \
	do {                                                                                 \
		struct hugetlb_counters _c = pool();                                         \
		KT_EXPECT(t, _c.total == (tot) && _c.free == (fr) && _c.reserved == (rsv) && \
				     _c.surplus == (sur),                                    \
			  "total/free/rsvd/surp %lu/%lu/%lu/%lu, want %lu/%lu/%lu/%lu",    \
			  _c.total, _c.free, _c.reserved, _c.surplus, (unsigned long)(tot), \
			  (unsigned long)(fr), (unsigned long)(rsv), (unsigned long)(sur));  \
		KT_EXPECT(t, hugetlb_check() == NULL, "%s", hugetlb_check());                \
	} while (0)

static void pool_grows_from_buddy_and_shrinks_back(struct ktest *t)
{
	struct saved_pool s;
	unsigned long before;

	if (!pool_begin(t, &s, 4))
		return;
	before = test_free_pages();
	KT_EXPECT_EQ(t, hugetlb_set_pool_size(4), 0);
	EXPECT_POOL(t, 4, 4, 0, 0);
	KT_EXPECT_EQ(t, test_free_pages(), before - 4 * HPAGE_NR);
	KT_EXPECT_EQ(t, hugetlb_set_pool_size(1), 0);
	EXPECT_POOL(t, 1, 1, 0, 0);
	KT_EXPECT_EQ(t, test_free_pages(), before - HPAGE_NR);
	hugetlb_set_pool_size(0);
	EXPECT_POOL(t, 0, 0, 0, 0);
	KT_EXPECT_EQ(t, test_free_pages(), before);
	saved_pool_restore(t, &s);
}

static void pool_growth_stops_when_the_buddy_allocator_runs_out(struct ktest *t)
{
	struct saved_pool s;
	unsigned long before, want;

	if (!pool_begin(t, &s, 1))
		return;
	before = test_free_pages();
	want = before / HPAGE_NR + 8;
	KT_EXPECT_EQ(t, hugetlb_set_pool_size(want), -ENOMEM);
	KT_EXPECT(t, pool().total > 0 && pool().total < want, "pool of %lu pages", pool().total);
	KT_EXPECT(t, hugetlb_check() == NULL, "%s", hugetlb_check());
	KT_EXPECT_EQ(t, test_free_pages(), before - pool().total * HPAGE_NR);
	hugetlb_set_pool_size(0);
	KT_EXPECT_EQ(t, test_free_pages(), before);
	saved_pool_restore(t, &s);
}

/*
 * A pool grown as far as it goes (hugepages=100000 at boot) leaves no 2 MiB block free: a case
 * that needs one must be told to skip, as on a machine too small for it, not run and fail. With
 * the pool empty again it runs.
 */
static void a_full_pool_makes_cases_that_need_its_blocks_skip(struct ktest *t)
{
	struct ktest probe = { .name = "probe" };
	struct saved_pool s;

	if (!pool_begin(t, &s, 1))
		return;
	hugetlb_set_pool_size(test_free_pages() / HPAGE_NR + 8);
	KT_EXPECT(t, mm_skip_without_blocks(&probe, HPAGE_ORDER, 1, GFP_KERNEL),
		  "a case that needs a 2 MiB block would run: %lu huge pages in the pool, %lu pages free",
		  pool().total, test_free_pages());
	KT_EXPECT(t, probe.skip_reason && strstr(probe.skip_reason, "needs 1 free block of order 9"),
		  "reason \"%s\"", probe.skip_reason ? probe.skip_reason : "(none)");
	hugetlb_set_pool_size(0);
	probe.skip_reason = NULL;
	KT_EXPECT(t, !mm_skip_without_blocks(&probe, HPAGE_ORDER, 1, GFP_KERNEL), "skipped with the pool empty: %s",
		  probe.skip_reason);
	saved_pool_restore(t, &s);
}

static void huge_page_is_a_compound_page_freed_from_any_subpage(struct ktest *t)
{
	struct saved_pool s;
	struct page *head;

	if (!pool_begin(t, &s, 2))
		return;
	hugetlb_set_pool_size(2);
	head = alloc_huge_page();
	KT_ASSERT(t, head != NULL, "alloc_huge_page failed with 2 free");
	EXPECT_POOL(t, 2, 1, 0, 0);
	KT_EXPECT(t, PageHead(head) && PageHugeTLB(head), "flags %#x", (unsigned int)head->flags);
	KT_EXPECT_EQ(t, compound_order(head), HPAGE_ORDER);
	KT_EXPECT(t, get_compound_page_dtor(head) == free_huge_page, "dtor is free_huge_page");
	KT_EXPECT_EQ(t, compound_head(&head[HPAGE_NR - 1]), head);
	get_page(&head[77]);
	put_page(head);
	EXPECT_POOL(t, 2, 1, 0, 0);
	put_page(&head[77]);
	EXPECT_POOL(t, 2, 2, 0, 0);
	saved_pool_restore(t, &s);
}

static void surplus_pages_come_from_buddy_and_go_back(struct ktest *t)
{
	struct saved_pool s;
	struct page *p[4];
	unsigned long before;

	if (!pool_begin(t, &s, 3))
		return;
	before = test_free_pages();
	hugetlb_set_pool_size(1);
	hugetlb_set_overcommit(2);
	for (int i = 0; i < 3; i++)
		KT_ASSERT(t, (p[i] = alloc_huge_page()) != NULL, "allocation %d failed", i);
	EXPECT_POOL(t, 3, 0, 0, 2);
	KT_EXPECT(t, alloc_huge_page() == NULL, "allocated beyond the overcommit limit");
	put_page(p[1]);
	EXPECT_POOL(t, 2, 0, 0, 1);
	KT_EXPECT_EQ(t, test_free_pages(), before - 2 * HPAGE_NR);
	put_page(p[0]);
	put_page(p[2]);
	EXPECT_POOL(t, 1, 1, 0, 0);
	KT_EXPECT_EQ(t, test_free_pages(), before - HPAGE_NR);
	saved_pool_restore(t, &s);
}

static void shrinking_below_pages_in_use_makes_them_surplus(struct ktest *t)
{
	struct saved_pool s;
	struct page *a, *b;

	if (!pool_begin(t, &s, 3))
		return;
	hugetlb_set_pool_size(3);
	a = alloc_huge_page();
	b = alloc_huge_page();
	KT_ASSERT(t, a && b, "allocations failed");
	hugetlb_set_pool_size(0);
	EXPECT_POOL(t, 2, 0, 0, 2);
	put_page(a);
	EXPECT_POOL(t, 1, 0, 0, 1);
	hugetlb_set_pool_size(1); /* the page still out becomes persistent again */
	EXPECT_POOL(t, 1, 0, 0, 0);
	put_page(b);
	EXPECT_POOL(t, 1, 1, 0, 0);
	saved_pool_restore(t, &s);
}

static void reservations_guarantee_allocations(struct ktest *t)
{
	struct saved_pool s;
	struct page *a, *b;

	if (!pool_begin(t, &s, 2))
		return;
	hugetlb_set_pool_size(2);
	KT_EXPECT_EQ(t, hugetlb_reserve_pages(2), 0);
	EXPECT_POOL(t, 2, 2, 2, 0);
	KT_EXPECT(t, alloc_huge_page() == NULL, "unreserved allocation took a reserved page");
	KT_EXPECT_EQ(t, hugetlb_reserve_pages(1), -ENOMEM);
	a = alloc_huge_page_reserved();
	KT_ASSERT(t, a != NULL, "reserved allocation failed");
	EXPECT_POOL(t, 2, 1, 1, 0);
	hugetlb_unreserve_pages(1);
	EXPECT_POOL(t, 2, 1, 0, 0);
	KT_EXPECT(t, alloc_huge_page_reserved() == NULL, "allocated against no reservation");
	b = alloc_huge_page();
	KT_ASSERT(t, b != NULL, "unreserved allocation failed");
	put_page(a);
	put_page(b);
	EXPECT_POOL(t, 2, 2, 0, 0);
	saved_pool_restore(t, &s);
}

static void reservations_beyond_the_pool_take_surplus(struct ktest *t)
{
	struct saved_pool s;
	unsigned long before;

	if (!pool_begin(t, &s, 3))
		return;
	before = test_free_pages();
	hugetlb_set_pool_size(1);
	hugetlb_set_overcommit(2);
	KT_EXPECT_EQ(t, hugetlb_reserve_pages(4), -ENOMEM);
	EXPECT_POOL(t, 1, 1, 0, 0);
	KT_EXPECT_EQ(t, hugetlb_reserve_pages(3), 0);
	EXPECT_POOL(t, 3, 3, 3, 2);
	hugetlb_unreserve_pages(5); /* more than held: reported, clamped */
	EXPECT_POOL(t, 1, 1, 0, 0);
	KT_EXPECT_EQ(t, test_free_pages(), before - HPAGE_NR);
	saved_pool_restore(t, &s);
}

static void meminfo_prints_linux_lines(struct ktest *t)
{
	struct saved_pool s;
	char buf[256];
	struct page *p;

	if (!pool_begin(t, &s, 3))
		return;
	hugetlb_set_pool_size(3);
	hugetlb_reserve_pages(1);
	p = alloc_huge_page();
	hugetlb_meminfo(buf, sizeof(buf));
	KT_EXPECT(t, strstr(buf, "HugePages_Total:       3\n") != NULL, "got:\n%s", buf);
	KT_EXPECT(t, strstr(buf, "HugePages_Free:        2\n") != NULL, "got:\n%s", buf);
	KT_EXPECT(t, strstr(buf, "HugePages_Rsvd:        1\n") != NULL, "got:\n%s", buf);
	KT_EXPECT(t, strstr(buf, "HugePages_Surp:        0\n") != NULL, "got:\n%s", buf);
	KT_EXPECT(t, strstr(buf, "Hugepagesize:       2048 kB\n") != NULL, "got:\n%s", buf);
	hugetlb_report();
	if (p)
		put_page(p);
	hugetlb_unreserve_pages(1);
	saved_pool_restore(t, &s);
}

static void double_free_and_foreign_pages_are_refused(struct ktest *t)
{
	struct saved_pool s;
	struct page *head, *plain;
	unsigned long reports = mm_bad_page_reports;

	if (!pool_begin(t, &s, 2))
		return;
	hugetlb_set_pool_size(1);
	head = alloc_huge_page();
	KT_ASSERT(t, head != NULL, "alloc_huge_page failed");
	free_huge_page(head); /* still referenced */
	__free_pages(head, HPAGE_ORDER); /* pool pages go back with put_page() */
	EXPECT_POOL(t, 1, 0, 0, 0);
	put_page(head);
	EXPECT_POOL(t, 1, 1, 0, 0);
	free_huge_page(head); /* already in the pool */
	EXPECT_POOL(t, 1, 1, 0, 0);
	plain = alloc_pages(GFP_KERNEL | __GFP_COMP, HPAGE_ORDER);
	KT_ASSERT(t, plain != NULL, "alloc_pages failed");
	plain->_refcount = 0;
	free_huge_page(plain); /* not a pool page */
	plain->_refcount = 1;
	EXPECT_POOL(t, 1, 1, 0, 0);
	KT_EXPECT_EQ(t, mm_bad_page_reports - reports, 4);
	put_page(plain);
	saved_pool_restore(t, &s);
}

KTEST_SUITE(hugetlb_pool,
	    KTEST_CASE(pool_grows_from_buddy_and_shrinks_back),
	    KTEST_CASE(pool_growth_stops_when_the_buddy_allocator_runs_out),
	    KTEST_CASE(a_full_pool_makes_cases_that_need_its_blocks_skip),
	    KTEST_CASE(huge_page_is_a_compound_page_freed_from_any_subpage),
	    KTEST_CASE(surplus_pages_come_from_buddy_and_go_back),
	    KTEST_CASE(shrinking_below_pages_in_use_makes_them_surplus),
	    KTEST_CASE(reservations_guarantee_allocations),
	    KTEST_CASE(reservations_beyond_the_pool_take_surplus),
	    KTEST_CASE(meminfo_prints_linux_lines),
	    KTEST_MISUSE_CASE(double_free_and_foreign_pages_are_refused));
