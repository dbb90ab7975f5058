/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of the firmware map sanitizer, one case per rule: sorting, merging, overlaps
 * (non-usable wins), zero-length entries, overflow, page trimming, the physical address limit,
 * idempotence, and the map's storage. (Translating e820 and EFI types: tests/ktest/boot_memmap.c.)
 */
#include "tests/ktest/ktest.h"
#include "mm/fw_map.h"

#define MAP_ENTRIES 256

static struct fw_map map;
static uint64_t map_storage[FW_MAP_STORAGE_BYTES(MAP_ENTRIES) / 8]; /* too large for a kernel stack */

/* Empties the map (storage for MAP_ENTRIES entries). */
static void map_reset(void)
{
	fw_map_init(&map, map_storage, sizeof(map_storage));
}

struct want {
	phys_addr_t base, end; /* end exclusive */
	enum fw_type type;
};

/* Expects map to hold exactly the n entries of want. */
static void expect_map(struct ktest *t, const struct want *want, unsigned int n)
{
	KT_EXPECT(t, map.nr == n, "%u entries, expected %u", map.nr, n);
	for (unsigned int i = 0; i < n && i < map.nr; i++) {
		const struct fw_map_entry *e = &map.entry[i];
		KT_EXPECT(t, e->base == want[i].base && e->base + e->size == want[i].end && e->type == want[i].type,
			  "entry %u: [%#llx-%#llx) %s, expected [%#llx-%#llx) %s", i,
			  (unsigned long long)e->base, (unsigned long long)(e->base + e->size),
			  fw_type_name(e->type), (unsigned long long)want[i].base,
			  (unsigned long long)want[i].end, fw_type_name(want[i].type));
	}
}

static void add(phys_addr_t base, uint64_t size, enum fw_type type)
{
	fw_map_add_range(&map, base, size, type);
}

static void entries_are_sorted(struct ktest *t)
{
	static const struct want want[] = {
		{ 0x0, 0x9f000, FW_USABLE }, { 0x100000, 0x200000, FW_USABLE }, { 0x300000, 0x400000, FW_ACPI },
	};

	map_reset();
	add(0x300000, 0x100000, FW_ACPI);
	add(0x100000, 0x100000, FW_USABLE);
	add(0x0, 0x9f000, FW_USABLE);
	fw_map_sanitize(&map);
	expect_map(t, want, 3);
}

static void neighbours_of_the_same_type_merge(struct ktest *t)
{
	static const struct want want[] = {
		{ 0x100000, 0x400000, FW_USABLE }, { 0x400000, 0x600000, FW_RESERVED },
	};

	map_reset();
	add(0x100000, 0x100000, FW_USABLE);
	add(0x200000, 0x200000, FW_USABLE);
	add(0x400000, 0x100000, FW_RESERVED);
	add(0x500000, 0x100000, FW_RESERVED);
	add(0x150000, 0x10000, FW_USABLE); /* a duplicate inside */
	fw_map_sanitize(&map);
	expect_map(t, want, 2);
}

static void non_usable_types_win_overlaps(struct ktest *t)
{
	static const struct want want[] = {
		{ 0x100000, 0x200000, FW_USABLE }, { 0x200000, 0x300000, FW_RESERVED },
		{ 0x300000, 0x400000, FW_USABLE }, { 0x400000, 0x401000, FW_NVS },
		{ 0x401000, 0x500000, FW_USABLE }, { 0x500000, 0x600000, FW_ACPI },
		{ 0x600000, 0x700000, FW_UNUSABLE },
	};

	map_reset();
	add(0x100000, 0x500000, FW_USABLE);
	add(0x200000, 0x100000, FW_RESERVED);
	add(0x400000, 0x1000, FW_NVS);
	add(0x500000, 0x100000, FW_ACPI);       /* usable's tail overlapped: ACPI wins */
	add(0x600000, 0x100000, FW_UNUSABLE);
	add(0x600000, 0x80000, FW_USABLE);       /* a usable entry inside unusable memory */
	fw_map_sanitize(&map);
	expect_map(t, want, 7);
}

static void zero_length_entries_are_dropped(struct ktest *t)
{
	static const struct want want[] = { { 0x100000, 0x200000, FW_USABLE } };

	map_reset();
	add(0x50000, 0, FW_USABLE);
	add(0x100000, 0x100000, FW_USABLE);
	add(0x180000, 0, FW_RESERVED); /* would split the usable entry if it counted */
	fw_map_sanitize(&map);
	expect_map(t, want, 1);
}

static void overflowing_entry_is_clipped(struct ktest *t)
{
	static const struct want want[] = {
		{ 0x100000, 0x200000, FW_USABLE }, { 0xfffffffffff00000ULL, UINT64_MAX, FW_RESERVED },
	};

	map_reset();
	add(0x100000, 0x100000, FW_USABLE);
	add(0xfffffffffff00000ULL, 0x200000, FW_RESERVED); /* base + size wraps past 2^64 */
	add(0xffffffffffff0000ULL, UINT64_MAX, FW_USABLE);  /* wraps, and is above the limit */
	fw_map_sanitize(&map);
	expect_map(t, want, 2);
}

static void usable_ranges_are_trimmed_to_whole_pages(struct ktest *t)
{
	static const struct want want[] = {
		{ 0x0, 0x9f000, FW_USABLE }, { 0x9fc00, 0xa0000, FW_RESERVED },
		{ 0x40001000, 0x40012000, FW_USABLE },
	};

	map_reset();
	add(0x0, 0x9fc00, FW_USABLE);          /* QEMU's: ends inside a page */
	add(0x9fc00, 0x400, FW_RESERVED);
	add(0x40000200, 0x12000, FW_USABLE);   /* starts and ends inside pages */
	add(0x50000100, 0x800, FW_USABLE);     /* no whole page: dropped */
	fw_map_sanitize(&map);
	expect_map(t, want, 3);
}

static void ram_above_the_physical_limit_is_ignored(struct ktest *t)
{
	static const struct want want[] = {
		{ 0x100000, 0x200000, FW_USABLE }, { MAX_PHYS_ADDR - 0x100000, MAX_PHYS_ADDR, FW_USABLE },
		{ MAX_PHYS_ADDR + 0x100000, MAX_PHYS_ADDR + 0x200000, FW_RESERVED },
	};

	map_reset();
	add(0x100000, 0x100000, FW_USABLE);
	add(MAX_PHYS_ADDR - 0x100000, 0x200000, FW_USABLE);  /* straddles: cut at the limit */
	add(MAX_PHYS_ADDR + 0x100000, 0x100000, FW_RESERVED); /* not RAM: kept for the record */
	add(MAX_PHYS_ADDR * 2, 0x100000, FW_USABLE);          /* wholly above: dropped */
	fw_map_sanitize(&map);
	expect_map(t, want, 3);
}

static void sanitizing_twice_changes_nothing(struct ktest *t)
{
	struct want want[8];
	unsigned int n;

	map_reset();
	add(0x100200, 0x500000, FW_USABLE);
	add(0x200000, 0x100000, FW_NVS);
	add(0x0, 0x9fc00, FW_USABLE);
	add(0x50000, 0x1000, FW_RESERVED);
	fw_map_sanitize(&map);
	n = map.nr;
	for (unsigned int i = 0; i < n && i < 8; i++)
		want[i] = (struct want){ map.entry[i].base, map.entry[i].base + map.entry[i].size, map.entry[i].type };
	fw_map_sanitize(&map);
	expect_map(t, want, n);
}

static void full_map_refuses_more_entries(struct ktest *t)
{
	map_reset();
	KT_EXPECT_EQ(t, map.cap, MAP_ENTRIES);
	for (unsigned int i = 0; i < MAP_ENTRIES; i++)
		KT_EXPECT(t, fw_map_add_range(&map, (phys_addr_t)i << 21, 0x1000, (i & 1) ? FW_USABLE : FW_RESERVED) == 0,
			  "entry %u refused", i);
	KT_EXPECT_EQ(t, fw_map_add_range(&map, 1ULL << 40, 0x1000, FW_USABLE), -ENOMEM);
	fw_map_sanitize(&map);
	KT_EXPECT_EQ(t, map.nr, MAP_ENTRIES);
	KT_EXPECT_EQ(t, fw_map_usable_bytes(&map), (MAP_ENTRIES / 2) * 0x1000);
}

/* Storage for n entries takes n, whatever n is up to the hard limit; less storage, fewer. */
static void storage_sets_the_capacity(struct ktest *t)
{
	struct fw_map m;

	KT_EXPECT_EQ(t, fw_map_init(&m, map_storage, FW_MAP_STORAGE_BYTES(3)), 0);
	KT_EXPECT_EQ(t, m.cap, 3);
	KT_EXPECT_EQ(t, fw_map_init(&m, map_storage, FW_MAP_STORAGE_BYTES(1) - 1), -EINVAL);
	KT_EXPECT_EQ(t, fw_map_init(&m, map_storage, FW_MAP_STORAGE_BYTES(FW_MAP_MAX_ENTRIES + 1)), 0);
	KT_EXPECT_EQ(t, m.cap, FW_MAP_MAX_ENTRIES);
}

/*
 * Every entry splits the usable one in two: the sanitized map holds 2n - 1 entries, and
 * sanitizing that again (4n - 2 boundaries) still fits the storage.
 */
static void worst_case_splits_fit_and_resanitize(struct ktest *t)
{
	map_reset();
	add(0x100000, (phys_addr_t)MAP_ENTRIES << 24, FW_USABLE);
	for (unsigned int i = 1; i < MAP_ENTRIES; i++)
		add(0x100000 + ((phys_addr_t)i << 24), 0x1000, FW_RESERVED);
	fw_map_sanitize(&map);
	KT_EXPECT_EQ(t, map.nr, 2 * MAP_ENTRIES - 1);
	fw_map_sanitize(&map);
	KT_EXPECT_EQ(t, map.nr, 2 * MAP_ENTRIES - 1);
	KT_EXPECT_EQ(t, map.entry[2 * MAP_ENTRIES - 3].type, FW_RESERVED);
	KT_EXPECT_EQ(t, fw_map_usable_bytes(&map), ((phys_addr_t)MAP_ENTRIES << 24) - (MAP_ENTRIES - 1) * 0x1000);
}

KTEST_SUITE(mm_fw_map,
	    KTEST_CASE(entries_are_sorted),
	    KTEST_CASE(neighbours_of_the_same_type_merge),
	    KTEST_CASE(non_usable_types_win_overlaps),
	    KTEST_CASE(zero_length_entries_are_dropped),
	    KTEST_CASE(overflowing_entry_is_clipped),
	    KTEST_CASE(usable_ranges_are_trimmed_to_whole_pages),
	    KTEST_CASE(ram_above_the_physical_limit_is_ignored),
	    KTEST_CASE(sanitizing_twice_changes_nothing),
	    KTEST_CASE(full_map_refuses_more_entries),
	    KTEST_CASE(storage_sets_the_capacity),
	    KTEST_CASE(worst_case_splits_fit_and_resanitize));
