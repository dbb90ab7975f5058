/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the kernel's map conversion (kernel/boot_memmap.c) and the sanitizer
 * (mm/fw_map.c): arbitrary e820 entries or EFI descriptors (any stride), ranges in use and a
 * reach limit go through the kernel's own path, and the result must fail closed:
 *   - the map's storage lies in RAM the raw map proves free: whole pages inside one usable entry,
 *     above the first 1 MiB, below the limit, touching no non-usable entry and no range in use;
 *     and when some usable entry is free of obstacles and large enough, a place is found;
 *   - the sanitized map is sorted and disjoint, its usable entries whole pages below
 *     MAX_PHYS_ADDR, overlapping no non-usable entry of the raw map, and every whole page that
 *     only usable entries cover is usable; sanitizing again changes nothing.
 *
 * Input: byte 0: bit 0 EFI (else e820), bits 1-2 extra stride in 8-byte units, bits 3-4 ranges
 * in use (0-3), bits 5-7 the limit (none, 1, 4, 16 GiB ...); each range in use: 6 bytes (base
 * page 4, pages 2); then entries of 13 bytes: base (6), length (4), type (1), attributes (1),
 * scale (1: shifts base and length left by its low 5 bits).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/boot_memmap.h"
#include "tests/fuzz/fuzz_util.h"

#define MAX_ENTRIES 600
#define ENTRY_BYTES 13

static void check(bool ok, const char *what, unsigned long long a, unsigned long long b)
{
	if (!ok) {
		fprintf(stderr, "fuzz_memmap: %s (%#llx, %#llx)\n", what, a, b);
		abort();
	}
}


static phys_addr_t end_of(phys_addr_t base, uint64_t size)
{
	return base + size < base ? UINT64_MAX : base + size;
}

static bool overlaps(phys_addr_t a, phys_addr_t a_end, phys_addr_t b, phys_addr_t b_end)
{
	return a < b_end && b < a_end;
}

/* Anything but usable RAM of raw, a range in use, or the first 1 MiB touches [lo, hi)? */
static bool obstacle(const struct boot_memmap *raw, const struct mm_reservation *avoid, unsigned int navoid,
		     phys_addr_t lo, phys_addr_t hi)
{
	struct fw_map_entry e;

	if (lo < PC_LOW_RESERVE)
		return true;
	for (uint32_t i = 0; i < raw->count; i++) {
		boot_memmap_entry(raw, i, &e);
		if (e.type != FW_USABLE && e.size && overlaps(lo, hi, e.base, end_of(e.base, e.size)))
			return true;
	}
	for (unsigned int i = 0; i < navoid; i++)
		if (avoid[i].size && overlaps(lo, hi, avoid[i].base, end_of(avoid[i].base, avoid[i].size)))
			return true;
	return false;
}

static void check_room(const struct boot_memmap *raw, const struct mm_reservation *avoid, unsigned int navoid,
		       phys_addr_t limit, uint64_t bytes, phys_addr_t room)
{
	struct fw_map_entry e;
	bool inside = false;

	for (uint32_t i = 0; i < raw->count; i++) {
		boot_memmap_entry(raw, i, &e);
		phys_addr_t lo = ALIGN_UP(MAX(e.base, (phys_addr_t)PC_LOW_RESERVE), PAGE_SIZE);
		phys_addr_t hi = ALIGN_DOWN(MIN(end_of(e.base, e.size), limit), PAGE_SIZE);

		if (e.type != FW_USABLE)
			continue;
		inside |= room && room >= e.base && end_of(room, bytes) <= end_of(e.base, e.size);
		/* An obstacle-free usable entry large enough: a place must be found, at least as high. */
		if (hi > lo && hi - lo >= bytes && !obstacle(raw, avoid, navoid, lo, hi))
			check(room && room >= hi - bytes, "a free usable entry large enough was missed", lo, hi);
	}
	if (!room)
		return;
	check(!(room & (PAGE_SIZE - 1)) && room >= PC_LOW_RESERVE, "storage misplaced", room, bytes);
	check(end_of(room, bytes) <= limit, "storage above the limit", room, limit);
	check(inside, "storage not inside one usable entry", room, bytes);
	check(!obstacle(raw, avoid, navoid, room, room + bytes), "storage touches something in use", room, bytes);
}

/* Is [lo, hi) inside a usable entry of the sanitized map? */
static bool usable_in(const struct fw_map *map, phys_addr_t lo, phys_addr_t hi)
{
	for (unsigned int i = 0; i < map->nr; i++)
		if (map->entry[i].type == FW_USABLE && lo >= map->entry[i].base &&
		    hi <= map->entry[i].base + map->entry[i].size)
			return true;
	return false;
}

static void check_sanitized(const struct boot_memmap *raw, const struct fw_map *map)
{
	struct fw_map_entry e;

	for (unsigned int i = 0; i < map->nr; i++) {
		const struct fw_map_entry *x = &map->entry[i];

		check(x->size && x->base + x->size > x->base, "empty or wrapping entry", x->base, x->size);
		check(!i || map->entry[i - 1].base + map->entry[i - 1].size <= x->base, "unsorted or overlapping",
		      i ? map->entry[i - 1].base : 0, x->base);
		if (x->type == FW_USABLE)
			check(!(x->base & (PAGE_SIZE - 1)) && !(x->size & (PAGE_SIZE - 1)) &&
			      x->base + x->size <= MAX_PHYS_ADDR, "usable entry not whole pages below the limit",
			      x->base, x->size);
	}
	for (uint32_t i = 0; i < raw->count; i++) {
		boot_memmap_entry(raw, i, &e);
		phys_addr_t end = end_of(e.base, e.size);

		if (!e.size)
			continue;
		if (e.type != FW_USABLE) {
			for (unsigned int k = 0; k < map->nr; k++)
				check(map->entry[k].type != FW_USABLE ||
				      !overlaps(e.base, end, map->entry[k].base, map->entry[k].base + map->entry[k].size),
				      "usable RAM over a non-usable firmware entry", e.base, map->entry[k].base);
			continue;
		}
		/* The first and last whole pages of a usable entry, when nothing else covers them. */
		phys_addr_t first = ALIGN_UP(e.base, PAGE_SIZE), last = ALIGN_DOWN(end, PAGE_SIZE);
		if (last <= first || last > MAX_PHYS_ADDR || first < PC_LOW_RESERVE)
			continue;
		if (!obstacle(raw, NULL, 0, first, first + PAGE_SIZE))
			check(usable_in(map, first, first + PAGE_SIZE), "usable page lost", first, e.size);
		if (!obstacle(raw, NULL, 0, last - PAGE_SIZE, last))
			check(usable_in(map, last - PAGE_SIZE, last), "usable page lost", last - PAGE_SIZE, e.size);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const phys_addr_t limits[8] = { UINT64_MAX, 1ULL << 30, 4ULL << 30, 16ULL << 30, 2ULL << 20,
					       64ULL << 20, 1ULL << 40, MAX_PHYS_ADDR };
	struct mm_reservation avoid[3];
	struct boot_memmap raw;
	struct fw_map map;
	unsigned int navoid, stride;
	size_t used = 1;
	uint8_t *entries;

	if (size < 1)
		return 0;
	stride = (data[0] & 1 ? sizeof(struct efi_memory_descriptor) : sizeof(struct mb2_mmap_entry)) +
		 8 * ((data[0] >> 1) & 3);
	navoid = (data[0] >> 3) & 3;
	for (unsigned int i = 0; i < navoid; i++, used += 6)
		avoid[i] = (struct mm_reservation){ used + 6 <= size ? fuzz_le(data + used, 4) << PAGE_SHIFT : 0,
						    used + 6 <= size ? fuzz_le(data + used + 4, 2) << PAGE_SHIFT : 0, "in use" };
	size_t n = used < size ? MIN((size - used) / ENTRY_BYTES, (size_t)MAX_ENTRIES) : 0;
	if (!n)
		return 0; /* the kernel never gets here without a map */
	entries = calloc(n, stride);
	for (size_t i = 0; i < n; i++) {
		const uint8_t *p = data + used + i * ENTRY_BYTES;
		unsigned int scale = p[12] & 31;
		uint64_t base = fuzz_le(p, 6) << scale, len = fuzz_le(p + 6, 4) << scale;
		uint8_t *d = entries + i * stride;

		if (data[0] & 1)
			*(struct efi_memory_descriptor *)d = (struct efi_memory_descriptor){
				.type = p[10] % 16, .phys_start = base, .num_pages = len >> PAGE_SHIFT,
				.attribute = (uint64_t)(p[11] & 0x80) << 56 };
		else
			*(struct mb2_mmap_entry *)d = (struct mb2_mmap_entry){ base, len, p[10] % 9, 0 };
	}
	raw = (struct boot_memmap){ data[0] & 1 ? BOOT_MEMMAP_EFI : BOOT_MEMMAP_E820, entries, (uint32_t)n, stride };

	phys_addr_t limit = limits[data[0] >> 5];
	size_t bytes = boot_memmap_storage_bytes(&raw);
	phys_addr_t room = boot_memmap_find_room(&raw, avoid, navoid, bytes, limit);
	check_room(&raw, avoid, navoid, limit, bytes, room);

	void *storage = malloc(bytes), *first = malloc(bytes);
	unsigned int nr;
	check(boot_memmap_fill(&raw, &map, storage, bytes) == 0, "fill failed", n, bytes);
	fw_map_sanitize(&map);
	check_sanitized(&raw, &map);
	nr = map.nr; /* up to 2n - 1 entries: sanitizing again must fit and change nothing */
	memcpy(first, map.entry, nr * sizeof(map.entry[0]));
	fw_map_sanitize(&map);
	check(map.nr == nr && !memcmp(first, map.entry, nr * sizeof(map.entry[0])), "sanitizing twice changed the map",
	      nr, map.nr);
	free(storage);
	free(first);
	free(entries);
	return 0;
}
