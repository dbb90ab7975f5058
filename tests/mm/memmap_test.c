/* SPDX-License-Identifier: MIT */
/*
 * Host tests of the memmap and of mm_init() on other maps than the default: a 2 GiB hole costs
 * no memmap; frames in holes have no struct page; a map without RAM is refused; a map with more
 * usable ranges than memblock starts with keeps every one. Each case boots its map through the
 * kernel's path (host_mm_boot_text()) on its own simulated memory and puts the default map back.
 * And the memmap initialized by several threads comes out as one thread's, on a real map.
 */
#include <stdio.h>
#include <string.h>

#include "tests/ktest/ktest.h"
#include "mm/hugetlb.h"
#include "mm/init.h"
#include "mm/memblock.h"
#include "mm/page_alloc.h"
#include "kernel/boot_memmap.h"
#include "tests/mm/host_mm.h"
#include "tests/mm/map_text.h"
#include "tests/mm/mm_rebuild.h"
#include "tests/mm/mm_check.h"

static struct fw_map map;

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

	KT_ASSERT(t, rebuild_on_text(no_hole, &map) == 0, "mm_init on 4 GiB without a hole");
	without = mm_memmap_bytes;
	KT_ASSERT(t, rebuild_on_text(hole_2g, &map) == 0, "mm_init on 4 GiB around a 2 GiB hole");
	with_hole = mm_memmap_bytes;
	KT_EXPECT(t, with_hole <= without + 2 * PAGE_SIZE,
		  "memmap %lu bytes with the hole, %lu without: the hole cost %lu bytes", with_hole, without,
		  with_hole - without);
	KT_EXPECT(t, !pfn_valid(PFN_DOWN(0x80000000ULL)) && !pfn_valid(PFN_DOWN(0xffffffffULL)),
		  "frames in the hole have struct pages");
	KT_EXPECT(t, pfn_valid(PFN_DOWN(0x7fffffffULL)) && pfn_valid(PFN_DOWN(0x100000000ULL)),
		  "frames at the hole's edges have no struct page");
	KT_EXPECT(t, mm_check_exhaustive(&map) == NULL, "%s", mm_check_exhaustive(&map));
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

static void partial_chunk_frames_are_reserved(struct ktest *t)
{
	/* RAM ends in the middle of a 128-frame chunk: the rest of the chunk has reserved struct pages. */
	KT_ASSERT(t, rebuild_on_text("BIOS-e820: [mem 0x100000-0x1040fff] usable\n", &map) == 0, "mm_init");
	KT_EXPECT(t, pfn_valid(0x1041) && PageReserved(pfn_to_page(0x1041)), "frame after RAM");
	KT_EXPECT(t, !pfn_valid(0x1080), "frame past the last chunk has a struct page");
	KT_EXPECT(t, mm_check_free_lists(&map) == NULL, "%s", mm_check_free_lists(&map));
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

static void map_without_ram_is_refused(struct ktest *t)
{
	KT_EXPECT_EQ(t, rebuild_on_text("BIOS-e820: [mem 0x0-0xfffff] reserved\n", &map), -ENOMEM);
	KT_EXPECT_EQ(t, rebuild_on_text("BIOS-e820: [mem 0x0-0x7ff] usable\n", &map), -ENOMEM);
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

/* Every range is recorded: memblock's lists grow (this failed open once, dropping all past 128). */
static void map_with_more_ranges_than_memblock_starts_with_keeps_them_all(struct ktest *t)
{
	enum { N = 4 * MEMBLOCK_INIT_REGIONS + 20 };
	static char text[N * 80 + 1];
	size_t len = 0;

	for (unsigned int i = 0; i < N; i++) /* 1 MiB of RAM, 1 MiB hole ... */
		len += (size_t)snprintf(text + len, sizeof(text) - len, "BIOS-e820: [mem %#llx-%#llx] usable\n",
					(2ULL * i + 1) << 20, ((2ULL * i + 2) << 20) - 1);
	KT_ASSERT(t, rebuild_on_text(text, &map) == 0, "mm_init");
	KT_EXPECT_EQ(t, mm_memblock.memory.cnt, N);
	KT_EXPECT(t, mm_memblock.memory.max >= N, "memory list holds %u", mm_memblock.memory.max);
	KT_EXPECT_EQ(t, mm_unused_ram_bytes, 0);
	KT_EXPECT_EQ(t, mm_zones[ZONE_DMA].present_pages + mm_zones[ZONE_DMA32].present_pages, N * 256UL);
	KT_EXPECT(t, mm_check_reserved() == NULL, "%s", mm_check_reserved());
	KT_EXPECT(t, mm_check_exhaustive(&map) == NULL, "%s", mm_check_exhaustive(&map));
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

/* The reserved range holding addr, or NULL. */
static const struct memblock_region *reserved_at(phys_addr_t addr)
{
	for (unsigned int i = 0; i < mm_memblock.reserved.cnt; i++) {
		const struct memblock_region *r = &mm_memblock.reserved.regions[i];
		if (addr >= r->base && addr < r->base + r->size)
			return r;
	}
	return NULL;
}

/*
 * memblock's lists double into memory they hold, the new array reserved and the old one given
 * back, and later allocations never land on it. Runs on a fresh memblock over simulated memory
 * of a map booted only for this (the allocator on it is discarded).
 */
static void memblock_lists_grow_into_memory_they_hold(struct ktest *t)
{
	enum { N = 1000 };
	phys_addr_t arr, p, old[4];
	unsigned int nold = 0;
	const void *regions;

	KT_ASSERT(t, rebuild_on_text("BIOS-e820: [mem 0x0-0x4ffffff] usable\n", &map) == 0, "mm_init");
	memblock_reset();
	KT_EXPECT_EQ(t, memblock_add(0x100000, 0x4f00000), 0);
	memblock_allow_resize();
	regions = mm_memblock.reserved.regions;
	for (unsigned int i = 0; i < N; i++) {
		KT_ASSERT(t, memblock_reserve(0x100000 + (phys_addr_t)i * 0x4000, 0x1000, "test") == 0, "reserve %u", i);
		if (mm_memblock.reserved.regions != regions && nold < 4) {
			old[nold++] = virt_to_phys(mm_memblock.reserved.regions);
			regions = mm_memblock.reserved.regions;
		}
	}
	arr = virt_to_phys(mm_memblock.reserved.regions);
	KT_EXPECT_EQ(t, nold, 3); /* 128 -> 256 -> 512 -> 1024 */
	for (unsigned int i = 0; i + 1 < nold; i++)
		KT_EXPECT(t, !reserved_at(old[i]), "the array at %#llx was not given back", (unsigned long long)old[i]);
	KT_EXPECT(t, mm_memblock.reserved.max == 1024 && mm_memblock.reserved.cnt == N + 1, "reserved: %u of %u",
		  mm_memblock.reserved.cnt, mm_memblock.reserved.max);
	KT_EXPECT(t, reserved_at(arr) && reserved_at(arr + 1024 * sizeof(struct memblock_region) - 1) == reserved_at(arr),
		  "the list's own array at %#llx is not reserved whole", (unsigned long long)arr);
	for (unsigned int i = 0; i < 64; i++) {
		p = memblock_alloc(0x3000, 0x1000);
		KT_EXPECT(t, p && (p + 0x3000 <= arr || p >= arr + 1024 * sizeof(struct memblock_region)),
			  "allocation %u at %#llx overlaps the list at %#llx", i, (unsigned long long)p,
			  (unsigned long long)arr);
	}
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

/* Without memblock_allow_resize() (before the ranges in use are reserved) nothing grows. */
static void memblock_lists_do_not_grow_before_resizing_is_allowed(struct ktest *t)
{
	KT_ASSERT(t, rebuild_on_text("BIOS-e820: [mem 0x0-0x4ffffff] usable\n", &map) == 0, "mm_init");
	memblock_reset();
	memblock_add(0x100000, 0x4f00000);
	for (unsigned int i = 0; i < MEMBLOCK_INIT_REGIONS; i++)
		memblock_reserve(0x100000 + (phys_addr_t)i * 0x4000, 0x1000, "test");
	KT_EXPECT_EQ(t, memblock_reserve(0x4000000, 0x1000, "one too many"), -ENOMEM);
	KT_EXPECT_EQ(t, mm_memblock.reserved.max, MEMBLOCK_INIT_REGIONS);
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

/* A real machine's map (tests/fixtures/memmaps/), read from the source tree the binary runs in. */
#define REAL_MAP "tests/fixtures/memmaps/lenovo-g530-bios-2g.txt"

/* FNV-1a over n bytes, continuing from h. */
static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	for (const unsigned char *b = p; n--; b++)
		h = (h ^ *b) * 0x100000001b3ULL;
	return h;
}

/*
 * The memmap and the free lists, hashed: every backed struct page's bytes (their list links
 * give the free lists' order too), and every free list walked, its blocks' frames in order.
 */
static uint64_t memmap_and_free_lists_hash(void)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (unsigned long pfn = 0; pfn < mm_memmap_end_pfn; pfn += MEMMAP_CHUNK_PAGES)
		if (pfn_valid(pfn))
			h = hash_bytes(h, pfn_to_page(pfn), MEMMAP_CHUNK_PAGES * sizeof(struct page));
	for (unsigned int z = 0; z < MAX_NR_ZONES; z++)
		for (unsigned int o = 0; o < NR_ORDERS; o++)
			for (unsigned int mt = 0; mt < MIGRATE_TYPES; mt++) {
				const struct list_head *head = &mm_zones[z].free_area[o].free_list[mt];

				for (const struct list_head *e = head->next; e != head; e = e->next) {
					unsigned long pfn = page_to_pfn(lru_to_page(e));

					h = hash_bytes(h, &pfn, sizeof(pfn));
				}
			}
	return h;
}

/* Boots REAL_MAP with the struct pages initialized by threads; its hash in *hash. */
static int boot_real_map(unsigned int threads, uint64_t *hash)
{
	static struct map_text text;
	struct boot_memmap raw;
	int err;

	map_text_free(&text);
	err = map_text_read_file(&text, REAL_MAP);
	if (err < 0 || !map_text_raw(&text, &raw))
		return err < 0 ? err : -EINVAL;
	host_mm_memmap_threads = threads;
	host_console_quiet = true;
	err = host_mm_boot(&raw, true, &map);
	host_console_quiet = false;
	host_mm_memmap_threads = 1;
	*hash = err ? 0 : memmap_and_free_lists_hash();
	return err;
}

/*
 * mm_init() with the struct pages initialized by several threads at once (mm_init_params.
 * run_parallel), the memmap split in ranges, leaves the memmap and the free lists exactly as one
 * thread does, on a real machine's map: 1 thread, then 3 (ranges that end inside the map's runs
 * of RAM and holes), then 2.
 */
static void a_parallel_memmap_init_equals_a_serial_one(struct ktest *t)
{
	uint64_t serial, parallel;

	KT_ASSERT(t, boot_real_map(1, &serial) == 0, "mm_init on %s with one thread failed", REAL_MAP);
	for (unsigned int threads = 3; threads >= 2; threads--) {
		KT_ASSERT(t, boot_real_map(threads, &parallel) == 0, "mm_init on %s with %u threads failed", REAL_MAP,
			  threads);
		KT_EXPECT(t, parallel == serial, "with %u threads the memmap and free lists hash to %#llx, with one "
			  "to %#llx", threads, (unsigned long long)parallel, (unsigned long long)serial);
	}
	KT_EXPECT(t, mm_check_exhaustive(&map) == NULL, "%s", mm_check_exhaustive(&map));
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

KTEST_SUITE_FLAGS(mm_memmap_host, hugetlb_pools_in_use, KTEST_REBUILDS_MM,
		    KTEST_CASE(hole_of_2_gib_costs_no_memmap),
		    KTEST_CASE(partial_chunk_frames_are_reserved),
		    KTEST_CASE(map_without_ram_is_refused),
		    KTEST_CASE(map_with_more_ranges_than_memblock_starts_with_keeps_them_all),
		    KTEST_CASE(memblock_lists_grow_into_memory_they_hold),
		    KTEST_CASE(memblock_lists_do_not_grow_before_resizing_is_allowed),
		    KTEST_CASE(a_parallel_memmap_init_equals_a_serial_one));
