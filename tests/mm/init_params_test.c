/* SPDX-License-Identifier: MIT */
/*
 * Host tests of what mm_init() checks in its environment and parameters before it trusts them:
 * a direct map whose base is not page aligned is refused; a memmap array the caller backed
 * itself (mm_init_params.memmap) is used in place of the mapped region, and one too small or
 * not page aligned is refused. Each case runs mm_init() on a 32 MiB map of its own inside the
 * simulated memory of a 64 MiB one, then puts the default map back.
 */
#include <stdlib.h>

#include "tests/ktest/ktest.h"
#include "mm/init.h"
#include "mm/memmap.h"
#include "mm/page_alloc.h"
#include "tests/mm/host_mm.h"
#include "tests/mm/mm_rebuild.h"

#define MiB (1ULL << 20)
#define RAM_END (32 * MiB) /* inside the simulated memory, so a wrong offset stays in it */

static struct fw_map map;

/* Boots the 64 MiB map (simulated memory for the cases) and fills map with 32 MiB of RAM. */
static int prepare(void)
{
	int err = rebuild_on_text("BIOS-e820: [mem 0x0-0x3ffffff] usable\n", &map);

	if (err)
		return err;
	host_fw_map_init(&map, 2);
	return fw_map_add_range(&map, MiB, RAM_END - MiB, FW_USABLE);
}

/* mm_init() on map with the first 1 MiB reserved, quiet, and memmap (NULL: the mapped region). */
static int init_with(void *memmap, size_t memmap_size)
{
	static const struct mm_reservation low = { 0, MiB, "first 1 MiB" };
	struct mm_init_params params = {
		.map = &map, .reserve = &low, .nreserve = 1, .quiet = true,
		.memmap = memmap, .memmap_size = memmap_size,
	};

	return mm_init(&params);
}

static void misaligned_direct_map_is_refused(struct ktest *t)
{
	KT_ASSERT(t, prepare() == 0, "the 64 MiB map boots");
	mm_direct_map_offset += 16; /* as malloc'd "RAM" would give it */
	int err = init_with(NULL, 0);
	mm_direct_map_offset -= 16;
	KT_EXPECT_EQ(t, err, -EINVAL);
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

/* mm_init() with a host array as the memmap; puts the default map back. Returns its result. */
static int init_prebacked(struct ktest *t, size_t bytes, size_t misalign)
{
	uintptr_t region = mm_vmemmap_base;
	char *array = aligned_alloc(PAGE_SIZE, bytes + PAGE_SIZE);
	int err;

	if (!array)
		return -ENOMEM;
	host_map_cycles = 0;
	err = init_with(array + misalign, bytes);
	if (!err) {
		KT_EXPECT(t, mm_vmemmap_base == (uintptr_t)array, "the memmap is the caller's array");
		KT_EXPECT(t, host_map_cycles == 0, "arch_map_memmap() was called");
		struct page *p = alloc_pages(GFP_KERNEL, 3);
		KT_EXPECT(t, p && (char *)p >= array && (char *)p < array + bytes, "an allocation's struct page is in the array");
		if (p)
			__free_pages(p, 3);
	}
	mm_vmemmap_base = region; /* the simulated machine's region, for the default map */
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
	free(array);
	return err;
}

static void prebacked_memmap_is_used_without_mapping(struct ktest *t)
{
	KT_ASSERT(t, prepare() == 0, "the 64 MiB map boots");
	KT_EXPECT_EQ(t, init_prebacked(t, MEMMAP_BYTES(RAM_END), 0), 0);
}

static void prebacked_memmap_too_small_is_refused(struct ktest *t)
{
	KT_ASSERT(t, prepare() == 0, "the 64 MiB map boots");
	KT_EXPECT_EQ(t, init_prebacked(t, MEMMAP_BYTES(RAM_END) - PAGE_SIZE, 0), -EINVAL);
}

static void misaligned_prebacked_memmap_is_refused(struct ktest *t)
{
	KT_ASSERT(t, prepare() == 0, "the 64 MiB map boots");
	KT_EXPECT_EQ(t, init_prebacked(t, MEMMAP_BYTES(RAM_END), sizeof(struct page)), -EINVAL);
}

static void memmap_size_without_array_is_refused(struct ktest *t)
{
	KT_ASSERT(t, prepare() == 0, "the 64 MiB map boots");
	KT_EXPECT_EQ(t, init_with(NULL, MEMMAP_BYTES(RAM_END)), -EINVAL);
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

KTEST_SUITE_FLAGS(mm_init_params_host, hugetlb_pools_in_use, KTEST_REBUILDS_MM,
		  KTEST_CASE(misaligned_direct_map_is_refused),
		  KTEST_CASE(prebacked_memmap_is_used_without_mapping),
		  KTEST_CASE(prebacked_memmap_too_small_is_refused),
		  KTEST_CASE(misaligned_prebacked_memmap_is_refused),
		  KTEST_CASE(memmap_size_without_array_is_refused));
