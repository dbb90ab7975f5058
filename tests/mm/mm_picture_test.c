/* SPDX-License-Identifier: MIT */
/*
 * Host tests of the memory picture (mm/mm_picture.h) on a small map whose every slice and line is
 * known, and of what lets the picture's reserved ranges tell their users apart: memblock keeps
 * touching reservations of different users apart. Each case boots its map through the kernel's
 * path and puts the default map back.
 */
#include <string.h>

#include "tests/ktest/ktest.h"
#include "lib/printk.h"
#include "mm/hugetlb.h"
#include "mm/memblock.h"
#include "mm/mm_picture.h"
#include "mm/node.h"
#include "mm/page_alloc.h"
#include "mm/pageblock.h"
#include "tests/ktest/text_capture.h"
#include "tests/mm/host_mm.h"
#include "tests/mm/mm_rebuild.h"

static struct fw_map map;

/*
 * 32 MiB with a 4 MiB hole at 20 MiB. DMA is [0, 16 MiB) in slices of 256 KiB: the first 1 MiB
 * and the simulated kernel image at [2, 6) MiB reserved, free blocks between and after. DMA32 is
 * [16, 32) MiB: an order-10 block to the hole, the hole, another, then smaller blocks up to the
 * early allocations at the top (memmap, per-CPU lists, the map's storage) in the last slice.
 */
static const char small_map[] =
	"BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable\n"
	"BIOS-e820: [mem 0x0000000000100000-0x00000000013fffff] usable\n"
	"BIOS-e820: [mem 0x0000000001800000-0x0000000001ffffff] usable\n";

static const char dma_picture[] =
	"DMA    |RRRR8888RRRRRRRRRRRRRRRR99999999AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA|";
static const char dma32_picture[] =
	"DMA32  |AAAAAAAAAAAAAAAA................AAAAAAAAAAAAAAAA999999998888775R|";

/* Boots text without page_owner's records, which would take the top slices the pictures expect. */
static int boot_text(const char *text)
{
	bool owner = host_mm_page_owner;

	host_mm_page_owner = false;
	int err = rebuild_on_text(text, &map);
	host_mm_page_owner = owner;
	return err;
}

static void expect_line(struct ktest *t, enum zone_type z, const char *want)
{
	char line[ZONE_PICTURE_COLS + 16];
	int len = zone_picture_line(&mm_zones[z], line, sizeof(line));

	KT_EXPECT(t, len == (int)strlen(want) && !strcmp(line, want), "zone %s:\n  got  \"%s\"\n  want \"%s\"",
		  mm_zones[z].name, line, want);
}

static void each_slice_shows_reserved_free_order_and_hole(struct ktest *t)
{
	KT_ASSERT(t, boot_text(small_map) == 0, "mm_init on the small map");
	expect_line(t, ZONE_DMA, dma_picture);
	expect_line(t, ZONE_DMA32, dma32_picture);
	expect_line(t, ZONE_NORMAL, "Normal empty");
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

/* An allocated block outranks reserved but not free: its slices turn '#' once nothing there is free. */
static void allocated_slices_show_hash(struct ktest *t)
{
	struct page *p[2];

	KT_ASSERT(t, boot_text(small_map) == 0, "mm_init on the small map");
	for (int i = 0; i < 2; i++) /* DMA32's two order-10 blocks, one each side of the hole */
		p[i] = alloc_pages(GFP_KERNEL | __GFP_DMA32, MAX_ORDER);
	for (int i = 0; i < 2; i++)
		KT_EXPECT(t, p[i] && page_to_pfn(p[i]) >= PFN_DOWN(16UL << 20), "order-10 block %d in DMA32", i);
	expect_line(t, ZONE_DMA32, "DMA32  |################................################999999998888775R|");
	for (int i = 0; i < 2; i++)
		if (p[i])
			__free_pages(p[i], MAX_ORDER);
	expect_line(t, ZONE_DMA32, dma32_picture);
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

/* Like snprintf: the full length whatever the room, and a terminated prefix. */
static void short_buffer_gets_a_terminated_prefix(struct ktest *t)
{
	char small[12];

	KT_ASSERT(t, boot_text(small_map) == 0, "mm_init on the small map");
	KT_EXPECT_EQ(t, zone_picture_line(&mm_zones[ZONE_DMA], small, sizeof(small)), (int)strlen(dma_picture));
	KT_EXPECT(t, !strcmp(small, "DMA    |RRR"), "got \"%s\"", small);
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

/* The lines mm/README.md defines, exactly, for the small map: its entries, holes, users, runs. */
static void picture_lines_describe_the_small_map(struct ktest *t)
{
	static const char want[] =
		"mm: picture begin\n"
		"mm: map 0x0 0x9f000 usable\n"
		"mm: hole 0x9f000 0x100000\n"
		"mm: map 0x100000 0x1400000 usable\n"
		"mm: hole 0x1400000 0x1800000\n"
		"mm: map 0x1800000 0x2000000 usable\n"
		"mm: reserved 0x0 0x100000 first 1 MiB\n"
		"mm: reserved 0x200000 0x600000 kernel image (simulated)\n"
		"mm: reserved 0x1fb6000 0x1fef000 memmap\n" /* 56 pages for 28 MiB, 1 for the chunk map */
		"mm: reserved 0x1fef000 0x1ff0000 pageblock types\n"
		"mm: reserved 0x1ff0000 0x1ff1000 slab per-CPU slots\n"
		"mm: reserved 0x1ff1000 0x1fff000 per-CPU lists\n" /* 4 CPUs: a zone index of every node each, the table */
		"mm: reserved 0x1fff000 0x2000000 firmware memory map\n"
		"mm: zone 0x0 0x1000000 DMA\n"
		"mm: free 0x100000 0x200000 order 8\n"
		"mm: free 0x600000 0x800000 order 9\n"
		"mm: free 0x800000 0x1000000 order 10\n"
		"mm: pageblock 0x0 0x1000000 Movable\n" /* every pageblock is movable after boot */
		"mm: zone 0x1000000 0x2000000 DMA32\n"
		"mm: free 0x1000000 0x1400000 order 10\n"
		"mm: free 0x1800000 0x1c00000 order 10\n" /* the hole between: no line */
		"mm: free 0x1c00000 0x1e00000 order 9\n"
		"mm: free 0x1e00000 0x1f00000 order 8\n"
		"mm: free 0x1f00000 0x1f80000 order 7\n"
		"mm: free 0x1f80000 0x1fa0000 order 5\n"
		"mm: free 0x1fa0000 0x1fb0000 order 4\n"
		"mm: free 0x1fb0000 0x1fb4000 order 2\n"
		"mm: free 0x1fb4000 0x1fb6000 order 1\n"
		"mm: pageblock 0x1000000 0x2000000 Movable\n"
		"mm: picture end\n";
	const char *begin, *end;

	host_mm_picture = true;
	capture_console_start();
	int err = boot_text(small_map);
	capture_console_stop();
	host_mm_picture = false;
	KT_ASSERT(t, err == 0, "mm_init on the small map");
	begin = strstr(captured.text, "mm: picture begin\n");
	end = begin ? strstr(begin, "mm: picture end\n") : NULL;
	KT_ASSERT(t, begin && end, "no picture lines in:\n%s", captured.text);
	captured.text[end - captured.text + strlen("mm: picture end\n")] = '\0';
	KT_EXPECT(t, !strcmp(begin, want), "got:\n%s", begin);
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

/* The pageblock lines of DMA32 (the text from its zone line to the end), the picture printed now. */
static const char *dma32_pageblock_lines(void)
{
	const char *zone;

	capture_console_start();
	show_memory_picture(&map);
	capture_console_stop();
	zone = strstr(captured.text, "mm: zone 0x1000000");
	zone = zone ? strstr(zone, "mm: pageblock") : NULL;
	return zone ? zone : "(none)";
}

/*
 * A pageblock of another type splits its zone's run in three: the lines follow the types, each
 * 2 MiB; the first run spans the hole, which pageblocks cover too.
 */
static void pageblock_lines_follow_the_types(struct ktest *t)
{
	static const char want[] =
		"mm: pageblock 0x1000000 0x1c00000 Movable\n"
		"mm: pageblock 0x1c00000 0x1e00000 Isolate\n"
		"mm: pageblock 0x1e00000 0x2000000 Movable\n"
		"mm: picture end\n";
	const char *got;

	KT_ASSERT(t, boot_text(small_map) == 0, "mm_init on the small map");
	KT_ASSERT(t, isolate_pageblock(PFN_DOWN(0x1c00000)) == 0, "isolate_pageblock refused");
	got = dma32_pageblock_lines();
	KT_EXPECT(t, !strcmp(got, want), "got:\n%s\nwant:\n%s", got, want);
	KT_EXPECT_EQ(t, unisolate_pageblock(PFN_DOWN(0x1c00000), MIGRATE_MOVABLE), 0);
	got = dma32_pageblock_lines();
	KT_EXPECT(t, !strcmp(got, "mm: pageblock 0x1000000 0x2000000 Movable\nmm: picture end\n"), "got:\n%s", got);
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

/*
 * The text line of types under each zone's picture: all movable after boot; an isolated pageblock
 * of DMA32 ([28, 30) MiB: 8 of its 64 slices of 256 KiB) shows as 'I'.
 */
static void pageblock_text_line_marks_the_isolated_pageblock(struct ktest *t)
{
	static const char movable[] = "       |MMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMM|";
	static const char isolated[] = "       |MMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMIIIIIIIIMMMMMMMM|";
	char line[ZONE_PICTURE_COLS + 16];

	KT_ASSERT(t, boot_text(small_map) == 0, "mm_init on the small map");
	zone_pageblock_line(&mm_zones[ZONE_DMA], line, sizeof(line));
	KT_EXPECT(t, !strcmp(line, movable), "DMA:\n  got  \"%s\"\n  want \"%s\"", line, movable);
	KT_ASSERT(t, isolate_pageblock(PFN_DOWN(0x1c00000)) == 0, "isolate_pageblock refused");
	zone_pageblock_line(&mm_zones[ZONE_DMA32], line, sizeof(line));
	KT_EXPECT_EQ(t, unisolate_pageblock(PFN_DOWN(0x1c00000), MIGRATE_MOVABLE), 0);
	KT_EXPECT(t, !strcmp(line, isolated), "DMA32:\n  got  \"%s\"\n  want \"%s\"", line, isolated);
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

/*
 * The small map on three nodes: node 0 up to the hole, node 1 without memory, node 2 after the
 * hole. Node 0 has DMA and the DMA32 below the hole, node 2 the DMA32 above it.
 */
static const struct mm_numa_layout three_nodes = {
	.nr_nodes = 3,
	.nr_ranges = 2,
	.ranges = { { 0, 0x1800000, 0 }, { 0x1800000, 0x2000000, 2 } },
	.distance = { { 10, 20, 30 }, { 20, 10, 20 }, { 30, 20, 10 } },
};

/* The "mm: zone" lines of the picture printed now, one after the other. */
static void picture_zone_lines(char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	capture_console_start();
	show_memory_picture(&map);
	capture_console_stop();
	for (const char *z = strstr(captured.text, "mm: zone "); z && len < size; z = strstr(z + 1, "mm: zone ")) {
		size_t n = strcspn(z, "\n") + 1;

		len += (size_t)snprintf(buf + len, size - len, "%.*s", (int)n, z);
	}
}

/* With more than one node, each zone's line ends with its node, and its text picture starts with it. */
static void zone_lines_name_each_zones_node(struct ktest *t)
{
	static const char want[] =
		"mm: zone 0x0 0x1000000 DMA node 0\n"
		"mm: zone 0x1000000 0x1400000 DMA32 node 0\n"
		"mm: zone 0x1800000 0x2000000 DMA32 node 2\n";
	static const char *const labels[] = { "N0 DMA    |", "N0 DMA32  |", "N2 DMA32  |" };
	static const unsigned int zones[] = { ZONE_DMA, ZONE_DMA32, 2 * MAX_NR_ZONES + ZONE_DMA32 };
	char got[256], line[ZONE_PICTURE_COLS + 16];

	host_mm_numa = &three_nodes;
	int err = boot_text(small_map);
	host_mm_numa = NULL;
	KT_ASSERT(t, err == 0 && mm_nr_node_ids == 3, "mm_init on the small map with three nodes: %d, %u nodes",
		  err, mm_nr_node_ids);
	picture_zone_lines(got, sizeof(got));
	KT_EXPECT(t, !strcmp(got, want), "got:\n%swant:\n%s", got, want);
	for (unsigned int i = 0; i < 3; i++) {
		const struct zone *zone = &mm_zones[zones[i]];

		KT_EXPECT_EQ(t, pfn_to_nid(zone->start_pfn), zone_to_nid(zone));
		zone_picture_line(zone, line, sizeof(line));
		KT_EXPECT(t, !strncmp(line, labels[i], strlen(labels[i])), "zone %u: got \"%s\", want \"%s...\"",
			  zones[i], line, labels[i]);
		zone_pageblock_line(zone, line, sizeof(line));
		KT_EXPECT(t, !strncmp(line, "          |M", 12), "zone %u: pageblock line \"%s\"", zones[i], line);
	}
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

/* With one node, the zone lines end at the name, as before nodes were added. */
static void one_node_zone_lines_end_at_the_name(struct ktest *t)
{
	char got[256];

	KT_ASSERT(t, boot_text(small_map) == 0, "mm_init on the small map");
	picture_zone_lines(got, sizeof(got));
	KT_EXPECT(t, !strcmp(got, "mm: zone 0x0 0x1000000 DMA\nmm: zone 0x1000000 0x2000000 DMA32\n"), "got:\n%s", got);
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

/* Touching reservations of different users stay two ranges; of the same user, one. */
static void touching_reservations_merge_only_for_the_same_user(struct ktest *t)
{
	KT_ASSERT(t, boot_text(small_map) == 0, "mm_init on the small map");
	memblock_reset();
	memblock_add(0x100000, 0x1000000);
	KT_EXPECT_EQ(t, memblock_reserve(0x200000, 0x100000, "kernel image"), 0);
	KT_EXPECT_EQ(t, memblock_reserve(0x300000, 0x1000, "boot information"), 0);
	KT_EXPECT_EQ(t, memblock_reserve(0x1ff000, 0x1000, "boot information"), 0);
	KT_EXPECT_EQ(t, mm_memblock.reserved.cnt, 3);
	KT_EXPECT_EQ(t, memblock_reserve(0x301000, 0x1000, "boot information"), 0);
	KT_EXPECT_EQ(t, mm_memblock.reserved.cnt, 3);
	KT_EXPECT(t, mm_memblock.reserved.regions[2].base == 0x300000 && mm_memblock.reserved.regions[2].size == 0x2000,
		  "boot information at %#llx, %#llx bytes", (unsigned long long)mm_memblock.reserved.regions[2].base,
		  (unsigned long long)mm_memblock.reserved.regions[2].size);
	/* An overlap merges whatever the users: the ranges stay disjoint. */
	KT_EXPECT_EQ(t, memblock_reserve(0x2ff000, 0x2000, "module"), 0);
	KT_EXPECT_EQ(t, mm_memblock.reserved.cnt, 2);
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

KTEST_SUITE_SKIP_IF(mm_picture_host, hugetlb_pools_in_use,
		    KTEST_CASE(each_slice_shows_reserved_free_order_and_hole),
		    KTEST_CASE(allocated_slices_show_hash),
		    KTEST_CASE(short_buffer_gets_a_terminated_prefix),
		    KTEST_CASE(picture_lines_describe_the_small_map),
		    KTEST_CASE(pageblock_lines_follow_the_types),
		    KTEST_CASE(pageblock_text_line_marks_the_isolated_pageblock),
		    KTEST_CASE(zone_lines_name_each_zones_node),
		    KTEST_CASE(one_node_zone_lines_end_at_the_name),
		    KTEST_CASE(touching_reservations_merge_only_for_the_same_user));
