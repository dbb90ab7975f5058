/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of the zone watermarks and GFP_ATOMIC (mm/watermark.h): the reserve's size and its
 * share in each zone, GFP_KERNEL leaving every zone at its min (isolated frames not counted),
 * GFP_ATOMIC taking the reserve, and the watermarks in the boot report's zone lines.
 */
#include "tests/ktest/mm_helpers.h"
#include "tests/ktest/text_capture.h"

#include "lib/string.h"
#include "mm/page_isolation.h"
#include "mm/watermark.h"

/* The largest r with r * r <= n, the slow way (the test's own, not mm/'s). */
static unsigned long slow_sqrt(unsigned long n)
{
	unsigned long r = 0;

	while ((r + 1) * (r + 1) <= n)
		r++;
	return r;
}

static unsigned long managed_all(void)
{
	unsigned long n = 0;

	for (int z = 0; z < (int)mm_nr_zone_ids; z++)
		n += mm_zones[z].managed_pages;
	return n;
}

static void reserve_follows_the_square_root_rule(struct ktest *t)
{
	unsigned long kb = managed_all() * (PAGE_SIZE / 1024), want = slow_sqrt(16 * kb), pages = 0;

	want = MIN(MAX(want, 128UL), 65536UL);
	want = MIN(want, kb / 16);
	KT_EXPECT_EQ(t, mm_min_free_kbytes, want);
	for (int z = 0; z < (int)mm_nr_zone_ids; z++) {
		const unsigned long *w = mm_zones[z].watermark;

		pages += w[WMARK_MIN];
		KT_EXPECT_EQ(t, w[WMARK_MIN], mm_min_free_kbytes / 4 * mm_zones[z].managed_pages / managed_all());
		KT_EXPECT_EQ(t, w[WMARK_LOW], w[WMARK_MIN] + w[WMARK_MIN] / 4);
		KT_EXPECT_EQ(t, w[WMARK_HIGH], w[WMARK_MIN] + w[WMARK_MIN] / 2);
	}
	KT_EXPECT(t, pages <= mm_min_free_kbytes / 4 && pages + mm_nr_zone_ids > mm_min_free_kbytes / 4,
		  "the zones' mins add up to %lu pages of a reserve of %lu", pages, mm_min_free_kbytes / 4);
}

/*
 * Takes every page GFP_KERNEL gets, then every page GFP_ATOMIC gets on top: the first must stop
 * with each zone exactly at its min (a failing allocation drains the per-CPU lists first, so
 * all that is left is in the buddy lists), the second must empty them.
 */
static void gfp_kernel_stops_at_min_and_gfp_atomic_takes_the_reserve(struct ktest *t)
{
	bool poison = mm_debug_poison;
	struct mm_shape before;
	struct mm_held kernel, atomic;
	unsigned long reserve = 0;

	set_page_poisoning(false);
	mm_shape_take(&before);
	mm_held_init(&kernel);
	mm_held_init(&atomic);
	mm_exhaust(&kernel, 0, 0, GFP_KERNEL);
	for (int z = 0; z < (int)mm_nr_zone_ids; z++) {
		reserve += mm_zones[z].watermark[WMARK_MIN];
		KT_EXPECT(t, mm_zone_free(z) == mm_zones[z].watermark[WMARK_MIN],
			  "zone %s: GFP_KERNEL left %lu pages, its min is %lu", mm_zones[z].name, mm_zone_free(z),
			  mm_zones[z].watermark[WMARK_MIN]);
	}
	KT_EXPECT_EQ(t, nr_free_pages(), reserve);
	mm_exhaust(&atomic, 0, 0, GFP_ATOMIC);
	KT_EXPECT_EQ(t, atomic.pages, reserve);
	KT_EXPECT_EQ(t, nr_free_pages(), 0);
	mm_held_free_all(&atomic);
	mm_held_free_all(&kernel);
	mm_expect_shape(t, &before);
	set_page_poisoning(poison);
}

/*
 * The free frames of an isolated pageblock are no allocation's (mm/page_isolation.h): GFP_KERNEL
 * must still leave each zone its min in frames it could allocate, so in the pageblock's zone it
 * stops with the isolated ones on top. (The watermark once counted them, and GFP_KERNEL took the
 * reserve down by a pageblock.)
 */
static void isolated_free_frames_do_not_count_toward_the_min(struct ktest *t)
{
	bool poison = mm_debug_poison;
	struct mm_shape before;
	struct mm_held kernel;
	struct isolated_range range;
	struct page *block;
	unsigned long pfn, zi;

	if (mm_skip_without_blocks(t, PAGEBLOCK_ORDER, 1, GFP_HIGHUSER_MOVABLE))
		return;
	set_page_poisoning(false);
	mm_shape_take(&before);
	block = alloc_pages(GFP_HIGHUSER_MOVABLE | __GFP_NOWARN, PAGEBLOCK_ORDER);
	if (!KT_EXPECT(t, block != NULL, "no 2 MiB block, though one was free"))
		goto out;
	pfn = page_to_pfn(block);
	zi = (unsigned long)(page_zone(block) - mm_zones);
	__free_pages(block, PAGEBLOCK_ORDER);
	if (!KT_EXPECT_EQ(t, start_isolate_page_range(pfn, pfn + PAGEBLOCK_NR_PAGES, &range), 0))
		goto out;
	KT_EXPECT_EQ(t, zone_usable_free_pages(&mm_zones[zi]) + PAGEBLOCK_NR_PAGES, mm_zone_free((enum zone_type)zi));
	mm_held_init(&kernel);
	mm_exhaust(&kernel, 0, 0, GFP_KERNEL);
	for (unsigned long z = 0; z < mm_nr_zone_ids; z++) {
		unsigned long want = mm_zones[z].watermark[WMARK_MIN] + (z == zi ? PAGEBLOCK_NR_PAGES : 0);

		KT_EXPECT(t, mm_zone_free((enum zone_type)z) == want,
			  "zone %s: GFP_KERNEL left %lu pages, its min is %lu%s", mm_zones[z].name,
			  mm_zone_free((enum zone_type)z), mm_zones[z].watermark[WMARK_MIN],
			  z == zi ? " and a pageblock of it is isolated" : "");
	}
	mm_held_free_all(&kernel);
	undo_isolate_page_range(&range);
	mm_expect_shape(t, &before);
out:
	set_page_poisoning(poison);
}

static void zone_lines_show_the_watermarks(struct ktest *t)
{
	char want[96];

	capture_console_start();
	show_mem_summary();
	capture_console_stop();
	for (int z = 0; z < (int)mm_nr_zone_ids; z++) {
		if (!mm_zones[z].present_pages)
			continue;
		snprintf(want, sizeof(want), "watermarks min %lu low %lu high %lu\n", mm_zones[z].watermark[WMARK_MIN],
			 mm_zones[z].watermark[WMARK_LOW], mm_zones[z].watermark[WMARK_HIGH]);
		KT_EXPECT(t, strstr(captured.text, want) != NULL, "zone %s: no '%s' in the report:\n%s", mm_zones[z].name,
			  want, captured.text);
	}
}

KTEST_SUITE(mm_watermark,
	    KTEST_CASE(reserve_follows_the_square_root_rule),
	    KTEST_CASE(gfp_kernel_stops_at_min_and_gfp_atomic_takes_the_reserve),
	    KTEST_CASE(isolated_free_frames_do_not_count_toward_the_min),
	    KTEST_CASE(zone_lines_show_the_watermarks));
