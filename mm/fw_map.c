/* SPDX-License-Identifier: MIT */
/*
 * The firmware memory map: adding entries, sanitizing them into sorted, disjoint, page-trimmed
 * ranges, and printing them the way Linux does.
 */
#include "mm/fw_map.h"

#include "mm/arch.h"

#define NR_FW_TYPES 8

int fw_map_init(struct fw_map *map, void *storage, size_t bytes)
{
	size_t cap = MIN(bytes / FW_MAP_BYTES_PER_ENTRY, (size_t)FW_MAP_MAX_ENTRIES);

	map->entry = storage;
	map->points = (struct fw_map_point *)(map->entry + 2 * cap);
	map->nr = 0;
	map->cap = (unsigned int)cap;
	if (!cap) {
		printk("fw_map: %zu bytes of storage hold no entry (%zu bytes each)\n", bytes,
		       FW_MAP_BYTES_PER_ENTRY);
		return -EINVAL;
	}
	return 0;
}

int fw_map_add_range(struct fw_map *map, phys_addr_t base, uint64_t size, enum fw_type type)
{
	if (map->nr >= map->cap) {
		printk("fw_map: more than the %u entries this map was sized for; cannot add [mem %#llx+%#llx]\n",
		       map->cap, (unsigned long long)base, (unsigned long long)size);
		return -ENOMEM;
	}
	map->entry[map->nr++] = (struct fw_map_entry){ base, size, type };
	return 0;
}

const char *fw_type_name(enum fw_type type)
{
	switch (type) {
	case FW_USABLE: return "usable";
	case FW_RESERVED: return "reserved";
	case FW_ACPI: return "ACPI data";
	case FW_NVS: return "ACPI NVS";
	case FW_UNUSABLE: return "unusable";
	case FW_PERSISTENT: return "persistent (type 7)";
	}
	return "reserved";
}

/* ---- sanitizing ---------------------------------------------------------------------------- */

/* The sweep below walks the entries' boundaries (map->points) in address order. */

/* Exclusive end of e; an entry that would wrap past 2^64 is clipped (and reported). */
static phys_addr_t entry_end(const struct fw_map_entry *e)
{
	if (e->base + e->size >= e->base)
		return e->base + e->size;
	printk("fw_map: [mem 0x%016llx+%#llx] %s wraps past 2^64; clipped\n",
	       (unsigned long long)e->base, (unsigned long long)e->size, fw_type_name(e->type));
	return UINT64_MAX;
}

/* Fills map->points with the start and end of every non-empty entry; returns how many. */
static unsigned int collect_points(struct fw_map *map)
{
	struct fw_map_point *points = map->points;
	unsigned int n = 0;

	for (unsigned int i = 0; i < map->nr; i++) {
		const struct fw_map_entry *e = &map->entry[i];
		phys_addr_t end;

		if (e->size == 0)
			continue;
		end = entry_end(e);
		if (end == e->base)
			continue;
		points[n++] = (struct fw_map_point){ e->base, e->type, 1 };
		points[n++] = (struct fw_map_point){ end, e->type, 0 };
	}
	return n;
}

/* Moves points[i] down the max-heap of the first n points until both children are smaller. */
static void sift_down(struct fw_map_point *points, unsigned int i, unsigned int n)
{
	for (unsigned int child; (child = 2 * i + 1) < n; i = child) {
		if (child + 1 < n && points[child + 1].addr > points[child].addr)
			child++;
		if (points[i].addr >= points[child].addr)
			return;
		struct fw_map_point t = points[i];
		points[i] = points[child];
		points[child] = t;
	}
}

/* Heapsort by address: O(n log n) for the largest maps, in place, no recursion. */
static void sort_points(struct fw_map_point *points, unsigned int n)
{
	for (unsigned int i = n / 2; i-- > 0;)
		sift_down(points, i, n);
	for (unsigned int end = n; end > 1; end--) {
		struct fw_map_point t = points[0];
		points[0] = points[end - 1];
		points[end - 1] = t;
		sift_down(points, 0, end - 1);
	}
}

/* The winning type among the entries covering an address: the largest number, 0 when none. */
static enum fw_type winning_type(const unsigned int active[NR_FW_TYPES])
{
	for (int t = NR_FW_TYPES - 1; t > 0; t--)
		if (active[t])
			return (enum fw_type)t;
	return 0;
}

/*
 * Appends [base, end) of type to out[], merging it with the previous entry when they touch.
 * n boundaries make at most n - 1 intervals, so out (room for 2 * cap) never overflows.
 */
static void emit(struct fw_map_entry *out, unsigned int *nout, phys_addr_t base, phys_addr_t end,
		 enum fw_type type)
{
	struct fw_map_entry *last = *nout ? &out[*nout - 1] : NULL;

	if (last && last->type == type && last->base + last->size == base) {
		last->size += end - base;
		return;
	}
	out[(*nout)++] = (struct fw_map_entry){ base, end - base, type };
}

/*
 * Sweeps the sorted boundaries into map->entry (the entries themselves are no longer needed);
 * between two boundaries the winning type covers the interval. Returns the entries written.
 */
static unsigned int sweep(struct fw_map *map, unsigned int npoints)
{
	const struct fw_map_point *points = map->points;
	unsigned int active[NR_FW_TYPES] = { 0 };
	unsigned int nout = 0;

	for (unsigned int i = 0; i < npoints; i++) {
		enum fw_type type = winning_type(active);

		if (i > 0 && type && points[i].addr > points[i - 1].addr)
			emit(map->entry, &nout, points[i - 1].addr, points[i].addr, type);
		if (points[i].start)
			active[points[i].type]++;
		else
			active[points[i].type]--;
	}
	return nout;
}

/* Drops or cuts usable RAM at or above MAX_PHYS_ADDR; returns false if e is dropped. */
static bool clip_to_phys_limit(struct fw_map_entry *e)
{
	phys_addr_t end = e->base + e->size;

	if (e->type != FW_USABLE || end <= MAX_PHYS_ADDR)
		return true;
	phys_addr_t from = MAX(e->base, MAX_PHYS_ADDR);
	printk("fw_map: ignoring RAM [mem 0x%016llx-0x%016llx] above the %d-bit physical address limit\n",
	       (unsigned long long)from, (unsigned long long)end - 1, MAX_PHYS_BITS);
	if (e->base >= MAX_PHYS_ADDR)
		return false;
	e->size = MAX_PHYS_ADDR - e->base;
	return true;
}

/* Shrinks a usable entry to the whole pages inside it; returns false if none is left. */
static bool trim_to_pages(struct fw_map_entry *e)
{
	phys_addr_t base = ALIGN_UP(e->base, PAGE_SIZE), end = ALIGN_DOWN(e->base + e->size, PAGE_SIZE);

	if (e->type != FW_USABLE || (base == e->base && end == e->base + e->size))
		return true;
	if (end <= base) {
		printk("fw_map: dropping usable [mem 0x%016llx-0x%016llx]: no whole page in it\n",
		       (unsigned long long)e->base, (unsigned long long)(e->base + e->size - 1));
		return false;
	}
	e->base = base;
	e->size = end - base;
	return true;
}

void fw_map_sanitize(struct fw_map *map)
{
	unsigned int npoints = collect_points(map), nout;

	sort_points(map->points, npoints);
	nout = sweep(map, npoints);
	map->nr = 0;
	for (unsigned int i = 0; i < nout; i++) {
		struct fw_map_entry e = map->entry[i];

		if (clip_to_phys_limit(&e) && trim_to_pages(&e))
			map->entry[map->nr++] = e;
	}
}

/* ---- printing and queries ----------------------------------------------------------------- */

void fw_map_print(const struct fw_map *map)
{
	for (unsigned int i = 0; i < map->nr; i++) {
		const struct fw_map_entry *e = &map->entry[i];
		printk("BIOS-e820: [mem 0x%016llx-0x%016llx] %s\n", (unsigned long long)e->base,
		       (unsigned long long)(e->base + e->size - 1), fw_type_name(e->type));
	}
}

uint64_t fw_map_usable_bytes(const struct fw_map *map)
{
	uint64_t sum = 0;

	for (unsigned int i = 0; i < map->nr; i++)
		if (map->entry[i].type == FW_USABLE)
			sum += map->entry[i].size;
	return sum;
}

phys_addr_t fw_map_usable_end(const struct fw_map *map)
{
	phys_addr_t end = 0;

	for (unsigned int i = 0; i < map->nr; i++)
		if (map->entry[i].type == FW_USABLE)
			end = MAX(end, map->entry[i].base + map->entry[i].size);
	return end;
}
