/* SPDX-License-Identifier: MIT */
/*
 * The port test: mm/ used as mm/README.md shows, over the environment of env.c (the guide's
 * example, word for word). Boots 64 MiB, takes the 2 MiB hugetlb pool, allocates at several
 * orders, drops a compound page through a tail, kmallocs, prints the watermarks and what
 * GFP_KERNEL and GFP_ATOMIC can take, then runs the guide's leak check. Prints each check and
 * "N passed, N failed".
 */
#include <stdio.h>
#include <string.h>

#include "mm/bad_page.h"
#include "mm/compound.h"
#include "mm/hugetlb.h"
#include "mm/page_alloc.h"
#include "mm/poison.h"
#include "mm/slab.h"
#include "mm/watermark.h"

int env_boot(void); /* env.c */

static unsigned int passed, failed;

static void check(bool ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAILED", what);
	if (ok)
		passed++;
	else
		failed++;
}

/* The leak check: every page back, once the slab caches have given back what they keep. */
static bool no_leaks(unsigned long free_at_start)
{
	kmem_cache_shrink_all(); /* empty slabs and per-CPU objects kept for the next kmalloc() */
	return nr_free_pages() == free_at_start && mm_bad_page_reports == 0 && mm_poison_errors == 0;
}

/* alloc_pages() and __free_pages() at one order: an aligned block, writable, counted. */
static void alloc_and_free(unsigned int order)
{
	unsigned long before = nr_free_pages();
	struct page *p = alloc_pages(GFP_KERNEL, order);
	char what[96];

	snprintf(what, sizeof(what), "order %u: allocated, aligned, %lu fewer free pages", order, 1UL << order);
	check(p && page_to_pfn(p) % (1UL << order) == 0 && (uintptr_t)page_address(p) % PAGE_SIZE == 0 &&
	      nr_free_pages() == before - (1UL << order), what);
	if (!p)
		return;
	memset(page_address(p), 0x5a, PAGE_SIZE << order);
	__free_pages(p, order);
	snprintf(what, sizeof(what), "order %u: freed, free pages back to %lu", order, before);
	check(nr_free_pages() == before, what);
}

/* A compound page held through a tail: the last put_page() frees the whole unit. */
static void compound_by_tail(void)
{
	unsigned long before = nr_free_pages();
	struct page *head = alloc_pages(GFP_KERNEL | __GFP_COMP, 3);

	check(head && PageHead(head) && PageTail(head + 5) && compound_order(head) == 3 &&
	      compound_head(head + 5) == head, "compound order 3: head, tails and order marked");
	if (!head)
		return;
	get_page(head + 5);
	check(page_count(head) == 2, "get_page() on a tail counts on the head (2)");
	put_page(head + 5);
	check(page_count(head) == 1 && nr_free_pages() == before - 8, "put_page() on the tail: 1 left, not freed");
	put_page(head);
	check(nr_free_pages() == before, "last put_page() frees all 8 pages");
}

/* The 2 MiB pool that hugetlb_request() asked for: a page out and back through put_page(). */
static void huge_page(void)
{
	struct page *p = alloc_huge_page();

	check(p && hugetlb_counters(HPAGE_ORDER).free == 1, "hugetlb: a 2 MiB page out of a pool of 2");
	if (p)
		put_page(p + 100);
	check(hugetlb_counters(HPAGE_ORDER).free == 2 && !hugetlb_check(), "hugetlb: put_page() on a tail returns it");
}

/* kmalloc() of a few sizes: aligned to their size class, writable; kfree() them all. */
static void kmalloc_sizes(void)
{
	static const size_t sizes[] = { 8, 100, 4096, 20000 };
	void *p[ARRAY_SIZE(sizes)];
	bool ok = true;

	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		p[i] = kmalloc(sizes[i], GFP_KERNEL);
		ok = ok && p[i] && (uintptr_t)p[i] % 8 == 0;
		if (p[i])
			memset(p[i], 0xa5, sizes[i]);
	}
	check(ok, "kmalloc() of 8, 100, 4096 and 20000 bytes: 8-byte aligned, writable");
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++)
		kfree(p[i]);
}

/* Blocks of order gfp can take before alloc_pages() fails, each appended to held[*n]. */
static unsigned long take_all(gfp_t gfp, unsigned int order, struct page **held, unsigned long *n, unsigned long cap)
{
	unsigned long before = *n;
	struct page *p;

	while (*n < cap && (p = alloc_pages(gfp | __GFP_NOWARN, order)))
		held[(*n)++] = p;
	return *n - before;
}

/*
 * What GFP_KERNEL and then GFP_ATOMIC can take in blocks of order, printed for the guide; frees
 * them. Returns the blocks taken as { GFP_KERNEL, GFP_ATOMIC }.
 */
static void take_and_give_back(unsigned int order, unsigned long taken[2])
{
	static struct page *held[1UL << 15];
	unsigned long n = 0;

	taken[0] = take_all(GFP_KERNEL, order, held, &n, ARRAY_SIZE(held));
	taken[1] = take_all(GFP_ATOMIC, order, held, &n, ARRAY_SIZE(held));
	printf("order %u: GFP_KERNEL took %lu, then GFP_ATOMIC %lu more\n", order, taken[0], taken[1]);
	while (n)
		__free_pages(held[--n], order);
}

/*
 * The watermarks of the guide, with this map's figures: the free pages and the zone's marks, and
 * how many pages and 2 MiB blocks GFP_KERNEL takes before it leaves the reserve to GFP_ATOMIC.
 */
static void watermarks(void)
{
	const struct zone *z = &mm_zones[ZONE_NORMAL];
	unsigned long free, small[2], large[2];

	kmem_cache_shrink_all(); /* so that no allocation below makes the shrinker give pages back */
	free = nr_free_pages();
	printf("free %lu, min %lu, low %lu, high %lu\n", free, z->watermark[WMARK_MIN], z->watermark[WMARK_LOW],
	       z->watermark[WMARK_HIGH]);
	take_and_give_back(0, small);
	take_and_give_back(9, large);
	check(small[0] + small[1] == free && small[0] >= free - z->watermark[WMARK_MIN] - 1,
	      "order 0: GFP_KERNEL leaves min free, GFP_ATOMIC takes the rest");
	check(large[0] << 9 <= free - z->watermark[WMARK_MIN] && large[0] + large[1] <= free >> 9,
	      "order 9: GFP_KERNEL's blocks leave min free too");
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	hugetlb_request(HPAGE_ORDER, 2);
	check(env_boot() == 0, "mm_init() over 64 MiB, the memmap pre-backed");
	check(hugetlb_init() == 0 && hugetlb_counters(HPAGE_ORDER).total == 2, "hugetlb_init(): 2 huge pages");

	unsigned long free_at_start = nr_free_pages();
	static const unsigned int orders[] = { 0, 1, 3, 10 };

	for (size_t i = 0; i < ARRAY_SIZE(orders); i++)
		alloc_and_free(orders[i]);
	compound_by_tail();
	huge_page();
	kmalloc_sizes();
	watermarks();
	check(no_leaks(free_at_start), "the leak check: every page back, no bad_page() report, no poison error");
	check(mm_debug_poison, "MM_DEBUG=1 build: page poisoning on by default");
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
