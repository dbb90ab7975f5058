/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of misuse of the page allocator: each case must be reported by bad_page() (one
 * report), leave the page as it was, change no counter and no free list; the block is then freed
 * properly and everything is back.
 */
#include "tests/ktest/mm_helpers.h"

#include "lib/string.h"
#include "mm/compound.h"

/* State around one misuse: reports, free lists. */
struct misuse {
	unsigned long reports;
	struct mm_shape shape;
};

static void misuse_begin(struct misuse *m)
{
	m->reports = mm_bad_page_reports;
	mm_shape_take(&m->shape);
}

/*
 * Expects exactly n reports since misuse_begin() and the free lists unchanged (use it only around
 * misuse: a correct free changes them).
 */
static void expect_reported(struct ktest *t, struct misuse *m, unsigned long n, const char *what)
{
	KT_EXPECT(t, mm_bad_page_reports - m->reports == n, "%s: %lu bad_page reports, expected %lu", what,
		  mm_bad_page_reports - m->reports, n);
	mm_expect_shape(t, &m->shape);
	misuse_begin(m);
}

static void double_free_is_reported_and_loses_nothing(struct ktest *t)
{
	unsigned long before = nr_free_pages();
	struct page *page = alloc_pages(GFP_KERNEL, 0), *block = alloc_pages(GFP_KERNEL, 3);
	struct misuse m;

	KT_ASSERT(t, page && block, "allocations failed");
	__free_pages(page, 0);
	__free_pages(block, 3);
	misuse_begin(&m);
	__free_pages(page, 0);
	expect_reported(t, &m, 1, "second free of an order-0 page");
	__free_pages(block, 3);
	expect_reported(t, &m, 1, "second free of an order-3 block");
	put_page(page);
	expect_reported(t, &m, 1, "put_page on a free page");
	get_page(block);
	expect_reported(t, &m, 1, "get_page on a free page");
	KT_EXPECT_EQ(t, nr_free_pages(), before);
}

/* A reserved frame with a struct page: the first frame of the first MiB, or any other. */
static struct page *find_reserved_page(void)
{
	for (unsigned long pfn = 0; pfn < mm_max_pfn; pfn++)
		if (pfn_valid(pfn) && PageReserved(pfn_to_page(pfn)))
			return pfn_to_page(pfn);
	return NULL;
}

static void freeing_a_reserved_page_is_refused(struct ktest *t)
{
	struct page *page = find_reserved_page();
	struct misuse m;
	uint32_t flags;

	KT_ASSERT(t, page != NULL, "no reserved page found");
	flags = page->flags;
	misuse_begin(&m);
	__free_pages(page, 0);
	expect_reported(t, &m, 1, "__free_pages on a reserved page");
	page->_refcount = 1; /* even with a count that looks allocated */
	__free_pages(page, 0);
	page->_refcount = 0;
	expect_reported(t, &m, 1, "__free_pages on a reserved page with count 1");
	KT_EXPECT_EQ(t, page->flags, flags);
}

static void wrong_order_is_refused(struct ktest *t)
{
	struct page *block = alloc_pages(GFP_KERNEL, 2);
	struct misuse m;

	KT_ASSERT(t, block != NULL, "alloc_pages(2) failed");
	misuse_begin(&m);
	__free_pages(block, 1);
	expect_reported(t, &m, 1, "order-2 block freed at order 1");
	__free_pages(block, 3);
	expect_reported(t, &m, 1, "order-2 block freed at order 3");
	__free_pages(block, 0);
	expect_reported(t, &m, 1, "order-2 block freed at order 0");
	KT_EXPECT_EQ(t, page_count(block), 1);
	__free_pages(block, 2);
	KT_EXPECT_EQ(t, mm_bad_page_reports, m.reports);
	KT_EXPECT_EQ(t, nr_free_pages(), m.shape.free_pages + 4);
}

static void misaligned_block_is_refused(struct ktest *t)
{
	struct page *odd = NULL;
	struct mm_held held;
	struct misuse m;

	mm_held_init(&held);
	for (int i = 0; i < 64 && !odd; i++) { /* order-0 pages until one has an odd pfn */
		struct page *page = alloc_pages(GFP_KERNEL, 0);

		KT_ASSERT(t, page != NULL, "alloc_pages(0) failed");
		if (page_to_pfn(page) & 1)
			odd = page;
		else
			mm_held_add(&held, page, 0);
	}
	KT_EXPECT(t, odd != NULL, "no odd pfn in 64 order-0 allocations");
	if (odd) {
		misuse_begin(&m);
		__free_pages(odd, 1);
		expect_reported(t, &m, 1, "order-1 free at an odd pfn");
		__free_pages(odd, 0);
	}
	mm_held_free_all(&held);
}

static void inner_page_of_a_block_is_refused(struct ktest *t)
{
	struct page *block = alloc_pages(GFP_KERNEL, 3);
	struct misuse m;

	KT_ASSERT(t, block != NULL, "alloc_pages(3) failed");
	misuse_begin(&m);
	__free_pages(&block[4], 2);
	expect_reported(t, &m, 1, "inner order-2 half of an order-3 block");
	__free_pages(&block[1], 0);
	expect_reported(t, &m, 1, "inner page of an order-3 block");
	__free_pages(block, 3);
}

static void nonzero_refcount_is_refused(struct ktest *t)
{
	struct page *page = alloc_pages(GFP_KERNEL, 0);
	struct misuse m;

	KT_ASSERT(t, page != NULL, "alloc_pages failed");
	get_page(page);
	misuse_begin(&m);
	__free_pages(page, 0);
	expect_reported(t, &m, 1, "__free_pages with two references");
	KT_EXPECT_EQ(t, page_count(page), 2);
	put_page(page);
	__free_pages(page, 0);
	KT_EXPECT_EQ(t, mm_bad_page_reports, m.reports);
	KT_EXPECT_EQ(t, nr_free_pages(), m.shape.free_pages + 1);
}

static void tail_page_free_is_refused(struct ktest *t)
{
	struct page *head = alloc_pages(GFP_KERNEL | __GFP_COMP, 2);
	struct misuse m;

	KT_ASSERT(t, head != NULL, "alloc_pages(__GFP_COMP, 2) failed");
	misuse_begin(&m);
	__free_pages(&head[1], 0);
	expect_reported(t, &m, 1, "__free_pages on a tail page");
	__free_pages(&head[2], 1);
	expect_reported(t, &m, 1, "__free_pages on a tail page at order 1");
	KT_EXPECT(t, PageTail(&head[1]) && PageHead(head), "compound marks damaged");
	__free_pages(head, 2);
	KT_EXPECT_EQ(t, mm_bad_page_reports, m.reports);
	KT_EXPECT_EQ(t, nr_free_pages(), m.shape.free_pages + 4);
}

static void free_pages_of_a_bad_address_is_refused(struct ktest *t)
{
	struct misuse m;

	misuse_begin(&m);
	free_pages(mm_direct_map_offset + 0x123, 0);
	expect_reported(t, &m, 1, "free_pages of an unaligned address");
	free_pages(mm_direct_map_offset + PFN_PHYS(mm_memmap_end_pfn + 1024), 0);
	expect_reported(t, &m, 1, "free_pages beyond RAM");
}

/*
 * An order-0 page whose free goes to this CPU's list (mm_pcp_free_bypasses()), so that the next
 * allocation gives it back: in a zone that hugepages= fills, a page of a sparse pageblock goes
 * straight to the buddy lists instead, so up to 64 pages are tried. NULL (the case skipped,
 * saying why) when none is such a page.
 */
static struct page *page_freed_to_this_cpu(struct ktest *t)
{
	struct mm_held others;
	struct page *page = NULL;

	mm_held_init(&others);
	for (int i = 0; i < 64; i++) {
		page = alloc_pages(GFP_KERNEL, 0);
		if (!page || !mm_pcp_free_bypasses(page))
			break;
		mm_held_add(&others, page, 0);
		page = NULL;
	}
	mm_held_free_all(&others);
	if (!page)
		ktest_skip(t, "no order-0 page whose free stays on this CPU's list among 64 (a busy zone)");
	return page;
}

static void write_after_free_is_caught_by_poison(struct ktest *t)
{
	bool poison = mm_debug_poison;
	unsigned long errors = mm_poison_errors;
	struct page *page;
	char *mem;

	set_page_poisoning(true);
	page = page_freed_to_this_cpu(t);
	if (!page) {
		set_page_poisoning(poison);
		return;
	}
	mem = page_address(page);
	__free_pages(page, 0);
	KT_EXPECT(t, page_flag_test(page, PG_poisoned), "freed page not marked poisoned");
	KT_EXPECT_EQ(t, (unsigned char)mem[100], PAGE_POISON);
	mem[100] = 0x42; /* the bug the poison is there to catch */
	page = alloc_pages(GFP_KERNEL, 0); /* the most recently freed page comes back first */
	KT_EXPECT(t, page_address(page) == mem, "a different page came back");
	KT_EXPECT_EQ(t, mm_poison_errors, errors + 1);
	KT_EXPECT(t, !page_flag_test(page, PG_poisoned), "allocated page still marked poisoned");
	__free_pages(page, 0);
	set_page_poisoning(poison);
}

/*
 * Runs a case with poisoning off: a free of a plain block of order <= PCP_MAX_ORDER then meets
 * __free_pages()'s fast path, whose one compare must refuse the misuse too (with poisoning on,
 * as in MM_DEBUG builds, every free takes the slow path and its checks).
 */
static void without_poison(struct ktest *t, void (*fn)(struct ktest *t))
{
	bool poison = mm_debug_poison;

	set_page_poisoning(false);
	fn(t);
	set_page_poisoning(poison);
}

static void fast_path_refuses_a_double_free(struct ktest *t)
{
	without_poison(t, double_free_is_reported_and_loses_nothing);
}

/*
 * A page freed onto this CPU's list keeps its flags as an allocated page's (its order and list
 * type): only its reference count, 0, tells the fast path that a second free is a double free.
 */
static void double_free_of_a_listed_page(struct ktest *t)
{
	struct page *page = page_freed_to_this_cpu(t), *again, *next;
	unsigned long reports = mm_bad_page_reports;

	if (!page)
		return;
	__free_pages(page, 0);
	__free_pages(page, 0);
	KT_EXPECT_EQ(t, mm_bad_page_reports, reports + 1);
	again = alloc_pages(GFP_KERNEL, 0); /* the most recently freed page comes back first */
	next = alloc_pages(GFP_KERNEL, 0);
	KT_EXPECT(t, again == page, "a different page came back");
	KT_EXPECT(t, next != page, "the page was handed out twice: the second free put it on the list again");
	if (again)
		__free_pages(again, 0);
	if (next && next != again)
		__free_pages(next, 0);
}

static void fast_path_refuses_a_double_free_of_a_listed_page(struct ktest *t)
{
	without_poison(t, double_free_of_a_listed_page);
}

static void fast_path_refuses_a_wrong_order(struct ktest *t)
{
	without_poison(t, wrong_order_is_refused);
}

static void fast_path_refuses_a_reserved_page(struct ktest *t)
{
	without_poison(t, freeing_a_reserved_page_is_refused);
}

static void fast_path_refuses_a_misaligned_block(struct ktest *t)
{
	without_poison(t, misaligned_block_is_refused);
}

static void fast_path_refuses_other_references(struct ktest *t)
{
	without_poison(t, nonzero_refcount_is_refused);
}

static void fast_path_refuses_a_tail_page(struct ktest *t)
{
	without_poison(t, tail_page_free_is_refused);
}

KTEST_SUITE(mm_misuse,
	    KTEST_MISUSE_CASE(double_free_is_reported_and_loses_nothing),
	    KTEST_MISUSE_CASE(freeing_a_reserved_page_is_refused),
	    KTEST_MISUSE_CASE(wrong_order_is_refused),
	    KTEST_MISUSE_CASE(misaligned_block_is_refused),
	    KTEST_MISUSE_CASE(inner_page_of_a_block_is_refused),
	    KTEST_MISUSE_CASE(nonzero_refcount_is_refused),
	    KTEST_MISUSE_CASE(tail_page_free_is_refused),
	    KTEST_MISUSE_CASE(free_pages_of_a_bad_address_is_refused),
	    KTEST_MISUSE_CASE(write_after_free_is_caught_by_poison),
	    KTEST_MISUSE_CASE(fast_path_refuses_a_double_free),
	    KTEST_MISUSE_CASE(fast_path_refuses_a_double_free_of_a_listed_page),
	    KTEST_MISUSE_CASE(fast_path_refuses_a_wrong_order),
	    KTEST_MISUSE_CASE(fast_path_refuses_a_reserved_page),
	    KTEST_MISUSE_CASE(fast_path_refuses_a_misaligned_block),
	    KTEST_MISUSE_CASE(fast_path_refuses_other_references),
	    KTEST_MISUSE_CASE(fast_path_refuses_a_tail_page));
