/*
 * Host tests of the memmap and of mm_init() on other maps than the default: a 2 GiB hole costs
 * no memmap; frames in holes have no struct page; a map without RAM is refused; a map with more
 * usable ranges than memblock holds still boots. Each case re-runs mm_init() on its own simulated
 * memory and puts the default map back at the end.
 */
#include <stdio.h>
#include <string.h>

#include "kernel/ktest.h"
#include "mm/fw_map_parse.h"
#include "mm/hugetlb.h"
#include "mm/memblock.h"
#include "mm/page_alloc.h"
#include "tests/mm/host_mm.h"
#include "tests/mm/mm_check.h"

static struct fw_map map;

/* Boots mm/ on a text map quietly; returns mm_init()'s result. */
static int boot_text(const char *text)
{
	fw_map_init(&map);
	if (fw_map_parse_text(&map, text, strlen(text)) < 0)
		return -EINVAL;
	host_console_quiet = true;
	int err = host_mm_init(&map, true);
	host_console_quiet = false;
	return err;
}

static void restore_default(struct ktest *t)
{
	host_default_map(&map);
	host_console_quiet = true;
	KT_EXPECT_EQ(t, host_mm_init(&map, true), 0);
	host_console_quiet = false;
}

/* Re-running mm_init() would orphan pool pages: only when the hugetlb pools are empty. */
static const char *pools_in_use(void)
{
	return hugetlb_counters(HPAGE_ORDER).total || hugetlb_counters(GIGANTIC_ORDER).total
		       ? "hugetlb pool pages exist; re-initializing mm would orphan them" : NULL;
}

static const char hole_2g[] =
	"BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable\n"
	"BIOS-e820: [mem 0x0000000000100000-0x000000007fffffff] usable\n"
	"BIOS-e820: [mem 0x0000000100000000-0x000000017fffffff] usable\n";
static const char no_hole[] =
	"BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable\n"
	"BIOS-e820: [mem 0x0000000000100000-0x00000000ffffffff] usable\n";

static void hole_of_2_gib_costs_no_memmap(struct ktest *t)
{
	unsigned long with_hole, without;

	KT_ASSERT(t, boot_text(no_hole) == 0, "mm_init on 4 GiB without a hole");
	without = memmap_bytes;
	KT_ASSERT(t, boot_text(hole_2g) == 0, "mm_init on 4 GiB around a 2 GiB hole");
	with_hole = memmap_bytes;
	KT_EXPECT(t, with_hole <= without + 2 * PAGE_SIZE,
		  "memmap %lu bytes with the hole, %lu without: the hole cost %lu bytes", with_hole, without,
		  with_hole - without);
	KT_EXPECT(t, !pfn_valid(PFN_DOWN(0x80000000ULL)) && !pfn_valid(PFN_DOWN(0xffffffffULL)),
		  "frames in the hole have struct pages");
	KT_EXPECT(t, pfn_valid(PFN_DOWN(0x7fffffffULL)) && pfn_valid(PFN_DOWN(0x100000000ULL)),
		  "frames at the hole's edges have no struct page");
	KT_EXPECT(t, mm_check_exhaustive(&map) == NULL, "%s", mm_check_exhaustive(&map));
	restore_default(t);
}

static void partial_chunk_frames_are_reserved(struct ktest *t)
{
	/* RAM ends in the middle of a 128-frame chunk: the rest of the chunk has reserved struct pages. */
	KT_ASSERT(t, boot_text("BIOS-e820: [mem 0x100000-0x1040fff] usable\n") == 0, "mm_init");
	KT_EXPECT(t, pfn_valid(0x1041) && PageReserved(pfn_to_page(0x1041)), "frame after RAM");
	KT_EXPECT(t, !pfn_valid(0x1080), "frame past the last chunk has a struct page");
	KT_EXPECT(t, mm_check_free_lists(&map, NULL) == NULL, "%s", mm_check_free_lists(&map, NULL));
	restore_default(t);
}

static void map_without_ram_is_refused(struct ktest *t)
{
	KT_EXPECT_EQ(t, boot_text("BIOS-e820: [mem 0x0-0xfffff] reserved\n"), -ENOMEM);
	KT_EXPECT_EQ(t, boot_text("BIOS-e820: [mem 0x0-0x7ff] usable\n"), -ENOMEM);
	restore_default(t);
}

static void map_with_more_ranges_than_memblock_holds_boots(struct ktest *t)
{
	char text[MEMBLOCK_MAX_REGIONS * 2 * 80 + 1];
	size_t len = 0;

	for (unsigned int i = 0; i < MEMBLOCK_MAX_REGIONS + 20; i++) /* 1 MiB of RAM, 1 MiB hole ... */
		len += (size_t)snprintf(text + len, sizeof(text) - len, "BIOS-e820: [mem %#llx-%#llx] usable\n",
					(2ULL * i + 1) << 20, ((2ULL * i + 2) << 20) - 1);
	KT_ASSERT(t, boot_text(text) == 0, "mm_init");
	KT_EXPECT_EQ(t, memblock.memory.cnt, MEMBLOCK_MAX_REGIONS);
	KT_EXPECT(t, mm_check_exhaustive(&map) == NULL, "%s", mm_check_exhaustive(&map));
	restore_default(t);
}

KTEST_SUITE_SKIP_IF(mm_memmap_host, pools_in_use,
		    KTEST_CASE(hole_of_2_gib_costs_no_memmap),
		    KTEST_CASE(partial_chunk_frames_are_reserved),
		    KTEST_CASE(map_without_ram_is_refused),
		    KTEST_CASE(map_with_more_ranges_than_memblock_holds_boots));
