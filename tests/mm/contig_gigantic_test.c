/* SPDX-License-Identifier: MIT */
/*
 * Host tests of 1 GiB pages grown after boot, on a map large enough to hold an aligned 1 GiB
 * range (3 GiB, one zone above 16 MiB): the range [1, 2) GiB, holding a test owner's movable
 * pages, is emptied and becomes a gigantic pool page; shrinking the pool gives it back to the
 * buddy allocator; a range with an unmovable page is left alone; the search for a range skips a
 * hole in the memmap. Booted without page_owner, so that frees take the fast path the isolation
 * must turn away from. The default map is put back.
 */
#include "tests/ktest/contig_owner.h"
#include "tests/ktest/ktest.h"
#include "tests/ktest/mm_helpers.h"
#include "tests/mm/host_mm.h"
#include "tests/mm/mm_check.h"
#include "tests/mm/mm_rebuild.h"

#include "mm/compound.h"
#include "mm/contig_alloc.h"
#include "mm/vmstat.h"

static struct fw_map map;

static const char big_map[] =
	"BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable\n"
	"BIOS-e820: [mem 0x0000000000100000-0x00000000bfffffff] usable\n";

#define GIG_PAGES (1UL << GIGANTIC_ORDER)
#define RANGE_1G (GIG_PAGES)

static bool boot_big(struct ktest *t)
{
	bool owner = host_mm_page_owner;
	int err;

	host_mm_page_owner = false;
	err = rebuild_on_text(big_map, &map);
	host_mm_page_owner = owner;
	return KT_EXPECT(t, err == 0, "mm_init on the 3 GiB map: %d", err);
}

static void back_to_default(struct ktest *t)
{
	KT_EXPECT(t, mm_check_free_lists(&map) == NULL, "%s", mm_check_free_lists(&map));
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

static bool in_1g_range(const struct page *page)
{
	return page_to_pfn(page) >= RANGE_1G && page_to_pfn(page) < 2 * RANGE_1G;
}

/*
 * Puts the owner's pages (every 8th page of one 2 MiB block) in [1, 2) GiB: 2 MiB blocks are
 * allocated until one lands there, the others given back. false when none does.
 */
static bool owner_pages_in_1g_range(struct ktest *t, struct contig_owner *o)
{
	struct mm_held held;
	struct page *page;

	contig_owner_init(o);
	mm_held_init(&held);
	while ((page = alloc_pages(GFP_HIGHUSER_MOVABLE | __GFP_COMP | __GFP_NOWARN, HPAGE_ORDER)) &&
	       !in_1g_range(page))
		mm_held_add(&held, page, HPAGE_ORDER);
	mm_held_free_all(&held);
	if (!KT_EXPECT(t, page != NULL, "no 2 MiB block in [1, 2) GiB"))
		return false;
	split_huge_page(page);
	for (unsigned long i = 0; i < (1UL << HPAGE_ORDER); i++) {
		if (i % 8 == 3)
			contig_owner_adopt(o, page + i);
		else
			__free_pages(page + i, 0);
	}
	return true;
}

static void gigantic_page_grows_after_boot_from_an_emptied_range(struct ktest *t)
{
	unsigned long grown, free_before;
	struct contig_owner o;
	struct page *gig;

	if (!boot_big(t))
		return;
	if (owner_pages_in_1g_range(t, &o)) {
		grown = vm_event_count(HTLB_POOL_GROWN);
		drain_pcp_lists();
		free_before = nr_free_pages();
		KT_EXPECT_EQ(t, contig_owner_in(&o, RANGE_1G, 2 * RANGE_1G), 64);
		KT_EXPECT_EQ(t, hugetlb_set_pool_size_order(GIGANTIC_ORDER, 1), 0);
		KT_EXPECT_EQ(t, hugetlb_counters(GIGANTIC_ORDER).total, 1);
		KT_EXPECT_EQ(t, vm_event_count(HTLB_POOL_GROWN) - grown, 1);
		KT_EXPECT_EQ(t, contig_owner_in(&o, RANGE_1G, 2 * RANGE_1G), 0);
		KT_EXPECT(t, contig_owner_bad_block(&o) < 0, "block %d lost its contents", contig_owner_bad_block(&o));
		gig = alloc_gigantic_page();
		KT_EXPECT(t, gig && page_to_pfn(gig) == RANGE_1G, "the gigantic page is at pfn %#lx, not at 1 GiB",
			  gig ? page_to_pfn(gig) : 0);
		if (gig) {
			KT_EXPECT(t, compound_check(gig, GIGANTIC_ORDER) == NULL, "%s", compound_check(gig, GIGANTIC_ORDER));
			put_page(gig + 12345); /* back to the pool through a tail */
		}
		KT_EXPECT_EQ(t, hugetlb_counters(GIGANTIC_ORDER).free, 1);
		KT_EXPECT_EQ(t, hugetlb_set_pool_size_order(GIGANTIC_ORDER, 0), 0);
		KT_EXPECT_EQ(t, hugetlb_counters(GIGANTIC_ORDER).total, 0);
		drain_pcp_lists();
		KT_EXPECT_EQ(t, nr_free_pages(), free_before);
		KT_EXPECT(t, hugetlb_check() == NULL, "%s", hugetlb_check());
	}
	contig_owner_free_all(&o);
	back_to_default(t);
}

/*
 * An unmovable page in every 1 GiB candidate: the pool cannot grow, says so in its counter, and
 * every page is where it was.
 */
static void gigantic_page_is_refused_when_no_range_can_be_emptied(struct ktest *t)
{
	unsigned long fails, free_before;
	struct page *pins[3] = { NULL, NULL, NULL };

	if (!boot_big(t))
		return;
	for (unsigned long g = 1; g < 3; g++) {
		struct mm_held held;
		struct page *page;

		mm_held_init(&held);
		while ((page = alloc_pages(GFP_HIGHUSER_MOVABLE | __GFP_COMP | __GFP_NOWARN, HPAGE_ORDER)) &&
		       !(page_to_pfn(page) >= g * RANGE_1G && page_to_pfn(page) < (g + 1) * RANGE_1G))
			mm_held_add(&held, page, HPAGE_ORDER);
		mm_held_free_all(&held);
		if (!page)
			continue;
		split_huge_page(page); /* one page stays, held by nobody who could move it */
		for (unsigned long i = 1; i < (1UL << HPAGE_ORDER); i++)
			__free_pages(page + i, 0);
		pins[g] = page;
	}
	fails = vm_event_count(HTLB_POOL_GROW_FAIL);
	drain_pcp_lists();
	free_before = nr_free_pages();
	KT_EXPECT_EQ(t, hugetlb_set_pool_size_order(GIGANTIC_ORDER, 1), -ENOMEM);
	KT_EXPECT_EQ(t, hugetlb_counters(GIGANTIC_ORDER).total, 0);
	KT_EXPECT_EQ(t, vm_event_count(HTLB_POOL_GROW_FAIL) - fails, 1);
	drain_pcp_lists();
	KT_EXPECT_EQ(t, nr_free_pages(), free_before);
	for (int g = 1; g < 3; g++)
		if (KT_EXPECT(t, pins[g] != NULL, "no page in GiB %d", g))
			__free_pages(pins[g], 0);
	back_to_default(t);
}

/*
 * 768 MiB of RAM around a 512 MiB hole: no struct page backs the hole's frames (the memmap is
 * backed in pieces of 2 MiB, 256 MiB of frames each, and the hole holds two whole ones).
 */
static const char holed_map[] =
	"BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable\n"
	"BIOS-e820: [mem 0x0000000000100000-0x000000000fffffff] usable\n"
	"BIOS-e820: [mem 0x0000000030000000-0x000000005fffffff] usable\n";

/*
 * The search for a range to empty skips a hole in the memmap: with free memory enough but no free
 * 2 MiB block the buddy allocator would give (every other page of the last ones allocated given
 * back) it scans the candidates, the hole's among them (it read the hole's struct pages, which do
 * not exist: a page fault in a UEFI boot's hugetlb_pool suite, a crash here).
 */
static void range_search_skips_a_hole_in_the_memmap(struct ktest *t)
{
	static struct page *pages[0x30000];
	unsigned long n = 0;
	struct page *page;
	int err;

	err = rebuild_on_text(holed_map, &map);
	if (!KT_EXPECT(t, err == 0, "mm_init on the holed map: %d", err))
		return;
	KT_EXPECT(t, !pfn_valid(0x20000), "the hole's frames have no struct page");
	while (n < sizeof(pages) / sizeof(pages[0]) && (pages[n] = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0)))
		n++;
	for (unsigned long i = n > 8192 ? n - 8192 : 0; i < n; i += 2) {
		__free_pages(pages[i], 0);
		pages[i] = NULL;
	}
	page = alloc_contig_pages(1UL << HPAGE_ORDER, __GFP_COMP | __GFP_NOWARN);
	if (page) { /* a free range the watermark's reserve kept: fine, outside the hole */
		unsigned long pfn = page_to_pfn(page);

		KT_EXPECT(t, pfn_valid(pfn) && (pfn < 0x10000 || pfn >= 0x30000), "a 2 MiB range at pfn %#lx", pfn);
		put_page(page);
	}
	for (unsigned long i = 0; i < n; i++)
		if (pages[i])
			__free_pages(pages[i], 0);
	back_to_default(t);
}

KTEST_SUITE_SKIP_IF(contig_gigantic_host, hugetlb_pools_in_use,
		    KTEST_CASE(gigantic_page_grows_after_boot_from_an_emptied_range),
		    KTEST_CASE(gigantic_page_is_refused_when_no_range_can_be_emptied),
		    KTEST_CASE(range_search_skips_a_hole_in_the_memmap));
