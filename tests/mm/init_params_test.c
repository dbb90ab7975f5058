/* SPDX-License-Identifier: MIT */
/*
 * Host tests of what mm_init() checks in its environment and parameters before it trusts them:
 * a direct map whose base is not page aligned is refused; a memmap array the caller backed
 * itself (mm_init_params.memmap) is used in place of the mapped region, and one too small or
 * not page aligned is refused; a usable frame the direct map puts at virtual address 0 is kept
 * out. Each case runs mm_init() on a 32 MiB map of its own inside the
 * simulated memory of a 64 MiB one, then puts the default map back.
 */
#include <stdlib.h>
#include <sys/mman.h>

#include "tests/ktest/ktest.h"
#include "mm/init.h"
#include "mm/memmap.h"
#include "mm/memory_add.h"
#include "mm/page_alloc.h"
#include "mm/poison.h"
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

/*
 * Frames [NULL_PHYS, NULL_PHYS + LOW_RAM) of the simulated memory, at virtual [0, LOW_RAM): the direct map puts frame NULL_PHYS at virtual address 0, as an
 * identity-mapped kernel with RAM at physical 0 does. The host maps nothing below
 * vm.mmap_min_addr, so the map reserves the frames after it up to LOW_GAP, and mm_init() alone
 * must keep that frame out.
 */
#define NULL_PHYS (16 * MiB)
#define LOW_RAM (8 * MiB)
#define LOW_GAP (64 << 10)

static struct page *held_low[LOW_RAM / PAGE_SIZE];

/* Allocates every frame it can, as GFP_ATOMIC may; none may be at NULL. Frees them. */
static void no_block_at_null(struct ktest *t)
{
	unsigned int n = 0, at_null = 0;

	while (n < LOW_RAM / PAGE_SIZE && (held_low[n] = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 0)))
		at_null += page_address(held_low[n++]) == NULL;
	KT_EXPECT(t, n > 0, "no frame could be allocated");
	KT_EXPECT_EQ(t, at_null, 0u);
	while (n)
		__free_pages(held_low[--n], 0);
}

/*
 * Boots mm/ on the map above, with RAM from three frames below NULL_PHYS, those three and the
 * frame at NULL a releasable reservation (boot code given back later, as mm_free_reserved_range()
 * does); gives them back when give_back says so. The three are at the top of the virtual address
 * space, which the host cannot map: mm/ touches a free frame's memory only to poison it, which
 * is off while they are free, and this test allocates them without zeroing.
 */
static void boot_at_null(struct ktest *t, bool give_back)
{
	static const struct mm_reservation boot_code = { NULL_PHYS - 3 * PAGE_SIZE, 4 * PAGE_SIZE, "boot code" };
	struct mm_init_params params = { .map = &map, .releasable = &boot_code, .nreleasable = 1, .quiet = true };
	uintptr_t offset = mm_direct_map_offset;
	bool poison;
	void *low;
	int err;

	KT_ASSERT(t, prepare() == 0, "the 64 MiB map boots");
	host_fw_map_init(&map, 4);
	KT_ASSERT(t, fw_map_add_range(&map, NULL_PHYS - 3 * PAGE_SIZE, LOW_RAM + 3 * PAGE_SIZE, FW_USABLE) == 0, "the map takes the RAM");
	KT_ASSERT(t, fw_map_add_range(&map, NULL_PHYS + PAGE_SIZE, LOW_GAP - PAGE_SIZE, FW_RESERVED) == 0,
		  "the map takes the gap");
	low = mmap((void *)LOW_GAP, LOW_RAM - LOW_GAP, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED_NOREPLACE,
		   host_phys_fd(), NULL_PHYS + LOW_GAP);
	KT_ASSERT(t, low == (void *)LOW_GAP, "the simulated memory mapped at 64 KiB");
	mm_direct_map_offset = (uintptr_t)0 - NULL_PHYS;
	err = mm_init(&params);
	KT_EXPECT_EQ(t, err, 0);
	poison = set_page_poisoning(false);
	if (!err && give_back)
		KT_EXPECT_EQ(t, mm_free_reserved_range(boot_code.base, boot_code.base + boot_code.size, "boot code"), 3ul);
	if (!err) {
		KT_EXPECT(t, PageReserved(pfn_to_page(PFN_DOWN(NULL_PHYS))), "the frame at virtual 0 is not reserved");
		KT_EXPECT(t, give_back == !PageReserved(pfn_to_page(PFN_DOWN(NULL_PHYS) - 1)),
			  "the reservation's last frame is %s", give_back ? "still reserved" : "given back");
		no_block_at_null(t);
	}
	mm_direct_map_offset = offset;
	set_page_poisoning(poison);
	munmap(low, LOW_RAM - LOW_GAP);
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

static void null_frame_is_kept_out(struct ktest *t) { boot_at_null(t, false); }

/* Giving back a boot reservation that holds it frees the others. */
static void null_frame_stays_out_when_its_reservation_is_given_back(struct ktest *t) { boot_at_null(t, true); }

KTEST_SUITE_FLAGS(mm_init_params_host, hugetlb_pools_in_use, KTEST_REBUILDS_MM,
		  KTEST_CASE(misaligned_direct_map_is_refused),
		  KTEST_CASE(prebacked_memmap_is_used_without_mapping),
		  KTEST_CASE(prebacked_memmap_too_small_is_refused),
		  KTEST_CASE(misaligned_prebacked_memmap_is_refused),
		  KTEST_CASE(memmap_size_without_array_is_refused),
		  KTEST_CASE(null_frame_is_kept_out),
		  KTEST_CASE(null_frame_stays_out_when_its_reservation_is_given_back));
