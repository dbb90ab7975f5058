/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of page_owner (mm/page_owner.h): every way of allocating records its caller, the
 * order, the gfp flags and a new sequence number at the block's first frame; freeing clears it;
 * a split hands it to every page. They need the records: on in the host tests, page_owner=on in
 * the kernel; without them the suite skips, saying so.
 */
#include "tests/ktest/ktest.h"
#include "mm/compound.h"
#include "mm/page_alloc.h"
#include "mm/page_owner.h"

static const char *records_off(void)
{
	return mm_page_owner_on ? NULL : "page_owner is off (boot with page_owner=on)";
}

/* Is the recorded site inside fn, whose code takes less than a page? */
static bool site_in(const struct page_owner *rec, void (*fn)(struct ktest *))
{
	return rec->site > (uintptr_t)fn && rec->site < (uintptr_t)fn + PAGE_SIZE;
}

#define EXPECT_RECORD(t, rec, o, g, after, fn)                                                    \
	KT_EXPECT(t, (rec).order == (o) && (rec).gfp == (g) && (rec).seq > (after) && site_in(&(rec), fn), \
		  "record: order %u gfp %#x seq %lu (after %lu) site %#lx (%s at %#lx)", (rec).order,   \
		  (rec).gfp, (rec).seq, (unsigned long)(after), (unsigned long)(rec).site, #fn,        \
		  (unsigned long)(uintptr_t)(fn))

/* An order-0 block comes from the per-CPU fast path; order 5 from the slow path. */
static void both_paths_record_the_caller(struct ktest *t)
{
	unsigned long seq = page_owner_seq();
	struct page *fast = alloc_pages(GFP_KERNEL, 0), *slow = alloc_pages(GFP_KERNEL | __GFP_ZERO, 5);
	struct page_owner a, b;

	KT_ASSERT(t, fast && slow, "allocations failed");
	a = page_owner_get(page_to_pfn(fast));
	b = page_owner_get(page_to_pfn(slow));
	EXPECT_RECORD(t, a, 0, GFP_KERNEL, seq, both_paths_record_the_caller);
	EXPECT_RECORD(t, b, 5, GFP_KERNEL | __GFP_ZERO, a.seq, both_paths_record_the_caller);
	__free_pages(fast, 0);
	__free_pages(slow, 5);
	KT_EXPECT_EQ(t, page_owner_get(page_to_pfn(fast)).seq, 0);
	KT_EXPECT_EQ(t, page_owner_get(page_to_pfn(slow)).seq, 0);
}

static void get_free_pages_records_its_caller(struct ktest *t)
{
	unsigned long seq = page_owner_seq(), addr = __get_free_pages(GFP_KERNEL, 1);
	struct page_owner rec;

	KT_ASSERT(t, addr, "allocation failed");
	rec = page_owner_get(page_to_pfn(virt_to_page((void *)addr)));
	EXPECT_RECORD(t, rec, 1, GFP_KERNEL, seq, get_free_pages_records_its_caller);
	free_pages(addr, 1);
	KT_EXPECT_EQ(t, page_owner_get(page_to_pfn(virt_to_page((void *)addr))).seq, 0);
}

/* A compound page is freed by put_page(), through its destructor: that clears the record too. */
static void compound_pages_are_recorded_and_cleared_by_put_page(struct ktest *t)
{
	unsigned long seq = page_owner_seq();
	struct page *head = alloc_pages(GFP_KERNEL | __GFP_COMP, 2);
	struct page_owner rec;

	KT_ASSERT(t, head, "allocation failed");
	rec = page_owner_get(page_to_pfn(head));
	EXPECT_RECORD(t, rec, 2, GFP_KERNEL | __GFP_COMP, seq, compound_pages_are_recorded_and_cleared_by_put_page);
	KT_EXPECT_EQ(t, page_owner_get(page_to_pfn(head) + 1).seq, 0);
	put_page(head);
	KT_EXPECT_EQ(t, page_owner_get(page_to_pfn(head)).seq, 0);
}

static void a_split_gives_every_page_the_record(struct ktest *t)
{
	struct page *head = alloc_pages(GFP_KERNEL | __GFP_COMP, 3);
	struct page_owner first;

	KT_ASSERT(t, head, "allocation failed");
	first = page_owner_get(page_to_pfn(head));
	KT_ASSERT(t, split_huge_page(head) == 0, "split failed");
	for (unsigned int i = 0; i < 8; i++) {
		struct page_owner rec = page_owner_get(page_to_pfn(head) + i);

		KT_EXPECT(t, rec.seq == first.seq && rec.site == first.site && rec.order == 0,
			  "page %u: seq %lu order %u, the block's seq %lu", i, rec.seq, rec.order, first.seq);
	}
	for (unsigned int i = 0; i < 8; i++)
		__free_pages(head + i, 0);
	for (unsigned int i = 0; i < 8; i++)
		KT_EXPECT_EQ(t, page_owner_get(page_to_pfn(head) + i).seq, 0);
}

static void sequence_numbers_grow_by_one_per_allocation(struct ktest *t)
{
	unsigned long seq = page_owner_seq();
	struct page *a = alloc_pages(GFP_KERNEL, 0), *b = alloc_pages(GFP_KERNEL, 0);

	KT_ASSERT(t, a && b, "allocations failed");
	KT_EXPECT_EQ(t, page_owner_get(page_to_pfn(a)).seq, seq + 1);
	KT_EXPECT_EQ(t, page_owner_get(page_to_pfn(b)).seq, seq + 2);
	KT_EXPECT_EQ(t, page_owner_seq(), seq + 2);
	__free_pages(a, 0);
	__free_pages(b, 0);
}

KTEST_SUITE_SKIP_IF(page_owner, records_off,
		    KTEST_CASE(both_paths_record_the_caller),
		    KTEST_CASE(get_free_pages_records_its_caller),
		    KTEST_CASE(compound_pages_are_recorded_and_cleared_by_put_page),
		    KTEST_CASE(a_split_gives_every_page_the_record),
		    KTEST_CASE(sequence_numbers_grow_by_one_per_allocation));
