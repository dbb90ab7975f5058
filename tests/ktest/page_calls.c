/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of the page allocator's calls by address and by exact size (mm/page_alloc.h):
 * alloc_pages_exact() holds exactly the pages asked for (the free-page count says so to the
 * page) and free_pages_exact() gives exactly those back; split_page() gives every frame its own
 * count; get_zeroed_page() is zeroed; free_pages() and free_pages_exact() of anything that is not
 * what was allocated are reported and free nothing.
 */
#include "tests/ktest/mm_helpers.h"

/* Reports since *reports, which is then moved on. */
static unsigned long new_reports(unsigned long *reports)
{
	unsigned long n = mm_bad_page_reports - *reports;

	*reports = mm_bad_page_reports;
	return n;
}

/* Expects alloc_pages_exact(size) to take exactly npages pages, each its own, and give them back. */
static void expect_exact(struct ktest *t, size_t size, unsigned long npages)
{
	unsigned long before = nr_free_pages();
	char *p = alloc_pages_exact(size, GFP_KERNEL);

	if (!KT_EXPECT(t, p != NULL, "alloc_pages_exact(%zu) failed", size))
		return;
	KT_EXPECT(t, nr_free_pages() == before - npages, "alloc_pages_exact(%zu): %lu pages taken, want %lu",
		  size, before - nr_free_pages(), npages);
	for (unsigned long i = 0; i < npages; i++) {
		struct page *page = virt_to_page(p + i * PAGE_SIZE);

		KT_EXPECT(t, page_count(page) == 1 && alloc_order_of(page) == 0 && !PageHead(page),
			  "size %zu page %lu: count %d order %u", size, i, page_count(page), alloc_order_of(page));
		p[i * PAGE_SIZE + PAGE_SIZE - 1] = 1; /* every page is mapped */
	}
	free_pages_exact(p, size);
	KT_EXPECT(t, nr_free_pages() == before, "free_pages_exact(%zu): %lu free pages, %lu before", size,
		  nr_free_pages(), before);
}

static void alloc_pages_exact_holds_only_the_pages_asked_for(struct ktest *t)
{
	unsigned long reports = mm_bad_page_reports;

	expect_exact(t, 3 * PAGE_SIZE, 3); /* 12 KiB: 3 pages, not 4 */
	expect_exact(t, 5 * PAGE_SIZE - 100, 5);
	expect_exact(t, 1, 1);
	expect_exact(t, 16 * PAGE_SIZE, 16);
	expect_exact(t, 33 * PAGE_SIZE, 33);
	KT_EXPECT_EQ(t, new_reports(&reports), 0);
}

static void alloc_pages_exact_zeroes_with_gfp_zero(struct ktest *t)
{
	unsigned char *p = alloc_pages_exact(3 * PAGE_SIZE, GFP_KERNEL);

	KT_ASSERT(t, p != NULL, "alloc_pages_exact failed");
	memset(p, 0x5A, 3 * PAGE_SIZE);
	free_pages_exact(p, 3 * PAGE_SIZE);
	p = alloc_pages_exact(3 * PAGE_SIZE, GFP_KERNEL | __GFP_ZERO);
	KT_ASSERT(t, p != NULL, "alloc_pages_exact(__GFP_ZERO) failed");
	for (size_t i = 0; i < 3 * PAGE_SIZE; i++)
		if (!KT_EXPECT(t, p[i] == 0, "byte %zu is %#x", i, p[i]))
			break;
	free_pages_exact(p, 3 * PAGE_SIZE);
}

static void alloc_pages_exact_refuses_bad_sizes_and_gfp_comp(struct ktest *t)
{
	unsigned long before = nr_free_pages();

	KT_EXPECT(t, alloc_pages_exact(0, GFP_KERNEL) == NULL, "size 0");
	KT_EXPECT(t, alloc_pages_exact((PAGE_SIZE << MAX_ORDER) + 1, GFP_KERNEL) == NULL, "above MAX_ORDER");
	KT_EXPECT(t, alloc_pages_exact(SIZE_MAX, GFP_KERNEL) == NULL, "SIZE_MAX (its page count overflows)");
	KT_EXPECT(t, alloc_pages_exact(3 * PAGE_SIZE, GFP_KERNEL | __GFP_COMP) == NULL, "__GFP_COMP");
	KT_EXPECT_EQ(t, nr_free_pages(), before);
	free_pages_exact(NULL, PAGE_SIZE); /* ignored, like free(NULL) */
}

static void free_pages_exact_of_a_wrong_range_frees_nothing(struct ktest *t)
{
	unsigned long reports = mm_bad_page_reports, before = nr_free_pages();
	char *p = alloc_pages_exact(3 * PAGE_SIZE, GFP_KERNEL);
	struct page *block = alloc_pages(GFP_KERNEL, 2);

	KT_ASSERT(t, p && block, "allocations failed");
	free_pages_exact(p, 4 * PAGE_SIZE); /* a fourth page that is not held */
	KT_EXPECT_EQ(t, new_reports(&reports), 1);
	free_pages_exact(p + 1, 3 * PAGE_SIZE);
	KT_EXPECT_EQ(t, new_reports(&reports), 1);
	free_pages_exact(page_address(block), PAGE_SIZE); /* the first page of an order-2 block */
	KT_EXPECT_EQ(t, new_reports(&reports), 1);
	KT_EXPECT_EQ(t, nr_free_pages(), before - 3 - 4);
	free_pages_exact(p, 3 * PAGE_SIZE);
	__free_pages(block, 2);
	KT_EXPECT_EQ(t, new_reports(&reports), 0);
	KT_EXPECT_EQ(t, nr_free_pages(), before);
	free_pages_exact(p, 3 * PAGE_SIZE); /* a double free */
	KT_EXPECT_EQ(t, new_reports(&reports), 1);
	KT_EXPECT_EQ(t, nr_free_pages(), before);
}

static void split_page_gives_every_frame_its_own_count(struct ktest *t)
{
	unsigned long reports = mm_bad_page_reports, before = nr_free_pages();
	struct page *block = alloc_pages(GFP_KERNEL, 2), *comp = alloc_pages(GFP_KERNEL | __GFP_COMP, 2);

	KT_ASSERT(t, block && comp, "allocations failed");
	KT_EXPECT_EQ(t, split_page(block, 1), -EINVAL); /* the wrong order */
	KT_EXPECT_EQ(t, new_reports(&reports), 1);
	KT_EXPECT_EQ(t, split_page(comp, 2), -EINVAL); /* compound: split_huge_page()'s */
	KT_EXPECT_EQ(t, new_reports(&reports), 1);
	KT_EXPECT_EQ(t, split_page(block, 2), 0);
	for (int i = 0; i < 4; i++)
		KT_EXPECT(t, page_count(&block[i]) == 1, "page %d: count %d", i, page_count(&block[i]));
	__free_pages(block, 2); /* no longer an order-2 block */
	KT_EXPECT_EQ(t, new_reports(&reports), 1);
	for (int i = 3; i >= 0; i--)
		__free_page(&block[i]);
	__free_pages(comp, 2);
	KT_EXPECT_EQ(t, new_reports(&reports), 0);
	KT_EXPECT_EQ(t, nr_free_pages(), before);
}

static void get_zeroed_page_and_free_page_by_address(struct ktest *t)
{
	unsigned long before = nr_free_pages(), dirty = __get_free_page(GFP_KERNEL), zeroed;

	KT_ASSERT(t, dirty != 0, "__get_free_page failed");
	memset((void *)dirty, 0x77, PAGE_SIZE);
	free_page(dirty);
	zeroed = get_zeroed_page(GFP_KERNEL);
	KT_ASSERT(t, zeroed != 0, "get_zeroed_page failed");
	for (size_t i = 0; i < PAGE_SIZE; i++)
		if (!KT_EXPECT(t, ((unsigned char *)zeroed)[i] == 0, "byte %zu is not zero", i))
			break;
	free_page(zeroed);
	free_page(0);
	KT_EXPECT_EQ(t, nr_free_pages(), before);
}

static void free_pages_of_what_is_not_a_block_start_frees_nothing(struct ktest *t)
{
	unsigned long reports = mm_bad_page_reports, before = nr_free_pages();
	unsigned long addr = __get_free_pages(GFP_KERNEL, 2);

	KT_ASSERT(t, addr != 0, "__get_free_pages(2) failed");
	free_pages(addr + PAGE_SIZE, 0); /* an inner page */
	KT_EXPECT_EQ(t, new_reports(&reports), 1);
	free_pages(addr + 2 * PAGE_SIZE, 1); /* the inner order-1 half */
	KT_EXPECT_EQ(t, new_reports(&reports), 1);
	free_pages(addr, 1); /* the wrong order */
	KT_EXPECT_EQ(t, new_reports(&reports), 1);
	free_pages(addr + 8, 2); /* not page aligned */
	KT_EXPECT_EQ(t, new_reports(&reports), 1);
	KT_EXPECT_EQ(t, nr_free_pages(), before - 4);
	free_pages(addr, 2);
	KT_EXPECT_EQ(t, new_reports(&reports), 0);
	KT_EXPECT_EQ(t, nr_free_pages(), before);
}

KTEST_SUITE(page_calls, KTEST_CASE(alloc_pages_exact_holds_only_the_pages_asked_for),
	    KTEST_CASE(alloc_pages_exact_zeroes_with_gfp_zero), KTEST_CASE(alloc_pages_exact_refuses_bad_sizes_and_gfp_comp),
	    KTEST_MISUSE_CASE(free_pages_exact_of_a_wrong_range_frees_nothing),
	    KTEST_MISUSE_CASE(split_page_gives_every_frame_its_own_count), KTEST_CASE(get_zeroed_page_and_free_page_by_address),
	    KTEST_MISUSE_CASE(free_pages_of_what_is_not_a_block_start_frees_nothing));
