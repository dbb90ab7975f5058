/* SPDX-License-Identifier: MIT */
/* The memory picture: lines for a drawing tool, and a text line per zone. See mm/mm_picture.h. */
#include "mm/mm_picture.h"

#include "mm/arch.h"
#include "mm/memblock.h"
#include "mm/memmap.h"
#include "mm/node.h"
#include "mm/pageblock.h"

/* What a stretch of frames is, ranked: a text slice shows the highest rank it holds any of. */
enum { RANK_HOLE, RANK_RESERVED, RANK_ALLOCATED, RANK_FREE /* + order */ };

/*
 * The frames from pfn on (below end) that are one thing: a hole up to the next memmap chunk, a
 * reserved frame, a free block, an allocated block. Returns how many, the rank in *rank. Walked
 * from a zone's first frame, pfn is always the first frame of a block, so a block's order is on
 * the page read. A block on a per-CPU list (count 0, its order in its flags) counts as free.
 */
static unsigned long classify(unsigned long pfn, unsigned long end, int *rank)
{
	const struct page *page;
	unsigned int order = 0;

	if (!pfn_valid(pfn)) {
		*rank = RANK_HOLE;
		return MIN(ALIGN_UP(pfn + 1, MEMMAP_CHUNK_PAGES), end) - pfn;
	}
	page = pfn_to_page(pfn);
	if (PageReserved(page)) {
		*rank = RANK_RESERVED;
	} else if (PageBuddy(page)) {
		order = (unsigned int)page->private;
		*rank = RANK_FREE + (int)order;
	} else if (PageCompound(page)) {
		order = PageHead(page) ? compound_order(page) : 0;
		*rank = RANK_ALLOCATED;
	} else {
		order = alloc_order_of(page);
		*rank = page_ref(page) ? RANK_ALLOCATED : RANK_FREE + (int)order;
	}
	/* A gigantic page's order is above MAX_ORDER; 30 only keeps a corrupt order from overflowing. */
	return MIN(1UL << MIN(order, 30u), end - pfn);
}

typedef void walk_fn(unsigned long pfn, unsigned long n, int rank, void *arg);

/* Calls fn for each stretch of zone's span, lowest first. */
static void walk_zone(const struct zone *zone, walk_fn *fn, void *arg)
{
	int rank;

	for (unsigned long pfn = zone->start_pfn, n; pfn < zone->end_pfn; pfn += n) {
		n = classify(pfn, zone->end_pfn, &rank);
		fn(pfn, n, rank, arg);
	}
}

/* ---- the text picture ----------------------------------------------------------------------- */

struct slices {
	unsigned long start, span;
	signed char rank[ZONE_PICTURE_COLS];
};

static unsigned long slice_of(const struct slices *s, unsigned long pfn)
{
	return (pfn - s->start) * ZONE_PICTURE_COLS / s->span;
}

static void mark_slices(unsigned long pfn, unsigned long n, int rank, void *arg)
{
	struct slices *s = arg;

	for (unsigned long i = slice_of(s, pfn); i <= slice_of(s, pfn + n - 1); i++)
		if (rank > s->rank[i])
			s->rank[i] = (signed char)rank;
}

static char rank_char(int rank)
{
	static const char fixed[] = { '.', 'R', '#' };

	if (rank < RANK_FREE)
		return rank < 0 ? '.' : fixed[rank];
	return rank - RANK_FREE < 10 ? (char)('0' + rank - RANK_FREE) : (char)('A' + rank - RANK_FREE - 10);
}

/* A zone's name for the text picture: "DMA32", or "N1 DMA32" when there is more than one node. */
static void zone_label(const struct zone *zone, char *buf, size_t size)
{
	if (mm_nr_node_ids > 1)
		snprintf(buf, size, "N%u %s", zone_to_nid(zone), zone->name);
	else
		snprintf(buf, size, "%s", zone->name);
}

/* The width the text lines pad a zone's label to: the longest name, with its node when there are several. */
static int zone_label_cols(void)
{
	return mm_nr_node_ids > 1 ? 9 : 6;
}

int zone_picture_line(const struct zone *zone, char *buf, size_t size)
{
	struct slices s = { zone->start_pfn, zone->end_pfn - zone->start_pfn, { 0 } };
	char bar[ZONE_PICTURE_COLS + 1], label[16];

	zone_label(zone, label, sizeof(label));
	if (!zone->present_pages)
		return snprintf(buf, size, "%-*s empty", zone_label_cols(), label);
	for (int i = 0; i < ZONE_PICTURE_COLS; i++)
		s.rank[i] = -1; /* a slice narrower than a frame (a zone of fewer frames) */
	walk_zone(zone, mark_slices, &s);
	for (int i = 0; i < ZONE_PICTURE_COLS; i++)
		bar[i] = rank_char(s.rank[i]);
	bar[ZONE_PICTURE_COLS] = '\0';
	return snprintf(buf, size, "%-*s |%s|", zone_label_cols(), label, bar);
}

/* A slice's pageblock type character: the least movable type it holds any of (it spoils 2 MiB the most). */
static const char type_char[MIGRATE_TYPES] = { 'U', 'M', 'R', 'I' };
static const uint8_t type_rank[MIGRATE_TYPES] = { 3, 0, 2, 1 };

/* The least movable type of the pageblocks that frames [first, last] of zone touch. */
static unsigned int slice_type(const struct zone *zone, unsigned long first, unsigned long last)
{
	unsigned int worst = MIGRATE_MOVABLE;

	for (unsigned long pfn = ALIGN_DOWN(first, PAGEBLOCK_NR_PAGES); pfn <= last; pfn += PAGEBLOCK_NR_PAGES) {
		unsigned int mt = pfn_migratetype(zone, MAX(pfn, first));

		if (mt < MIGRATE_TYPES && type_rank[mt] > type_rank[worst])
			worst = mt;
	}
	return worst;
}

int zone_pageblock_line(const struct zone *zone, char *buf, size_t size)
{
	unsigned long span = zone->end_pfn - zone->start_pfn;
	char bar[ZONE_PICTURE_COLS + 1], label[16];

	zone_label(zone, label, sizeof(label));
	if (!zone->present_pages)
		return snprintf(buf, size, "%-*s empty", zone_label_cols(), label);
	for (unsigned long i = 0; i < ZONE_PICTURE_COLS; i++) {
		unsigned long first = zone->start_pfn + span * i / ZONE_PICTURE_COLS;
		unsigned long end = zone->start_pfn + span * (i + 1) / ZONE_PICTURE_COLS;

		bar[i] = type_char[slice_type(zone, first, MAX(end, first + 1) - 1)];
	}
	bar[ZONE_PICTURE_COLS] = '\0';
	return snprintf(buf, size, "%-*s |%s|", zone_label_cols(), "", bar);
}

void show_zone_pictures(void)
{
	char line[ZONE_PICTURE_COLS + 16];

	printk("mm: zone pictures, %d slices each: %s\n", ZONE_PICTURE_COLS, ZONE_PICTURE_LEGEND);
	printk("mm: below each, pageblock types: %s\n", ZONE_PAGEBLOCK_LEGEND);
	for (int z = 0; z < (int)mm_nr_zone_ids; z++) {
		if (!mm_zones[z].present_pages)
			continue;
		zone_picture_line(&mm_zones[z], line, sizeof(line));
		printk("%s\n", line);
		zone_pageblock_line(&mm_zones[z], line, sizeof(line));
		printk("%s\n", line);
	}
}

/* ---- the lines for a tool ------------------------------------------------------------------- */

static void print_range(const char *kind, phys_addr_t base, phys_addr_t end, const char *what)
{
	printk("mm: %s 0x%llx 0x%llx%s%s\n", kind, (unsigned long long)base, (unsigned long long)end,
	       what ? " " : "", what ? what : "");
}

/* A run of adjacent free blocks of one order, printed when the next stretch does not extend it. */
struct free_run {
	unsigned long start, end;
	int rank;
};

static void flush_run(struct free_run *r)
{
	if (r->end > r->start)
		printk("mm: free 0x%llx 0x%llx order %d\n", (unsigned long long)PFN_PHYS(r->start),
		       (unsigned long long)PFN_PHYS(r->end), r->rank - RANK_FREE);
	r->start = r->end = 0;
}

static void add_to_run(unsigned long pfn, unsigned long n, int rank, void *arg)
{
	struct free_run *r = arg;

	if (r->end == pfn && r->rank == rank && r->end > r->start) {
		r->end += n;
		return;
	}
	flush_run(r);
	if (rank >= RANK_FREE)
		*r = (struct free_run){ pfn, pfn + n, rank };
}

/*
 * The "mm: pageblock" lines of zone: runs of pageblocks of one type, clipped to the zone's span
 * (a zone that starts or ends inside a pageblock shows only its part of it).
 */
static void print_pageblock_runs(const struct zone *zone)
{
	unsigned long start = zone->start_pfn;
	unsigned int type = pfn_migratetype(zone, start);

	for (unsigned long pfn = start; pfn < zone->end_pfn;) {
		unsigned long next = MIN(ALIGN_DOWN(pfn, PAGEBLOCK_NR_PAGES) + PAGEBLOCK_NR_PAGES, zone->end_pfn);
		unsigned int next_type = next < zone->end_pfn ? pfn_migratetype(zone, next) : MIGRATE_TYPES;

		if (next_type != type) {
			print_range("pageblock", PFN_PHYS(start), PFN_PHYS(next), migratetype_name(type));
			start = next;
			type = next_type;
		}
		pfn = next;
	}
}

/* A zone's "mm: zone" line: its name, then " node N" when there is more than one node. */
static void print_zone(const struct zone *zone)
{
	char what[32];

	if (mm_nr_node_ids > 1)
		snprintf(what, sizeof(what), "%s node %u", zone->name, zone_to_nid(zone));
	else
		snprintf(what, sizeof(what), "%s", zone->name);
	print_range("zone", PFN_PHYS(zone->start_pfn), PFN_PHYS(zone->end_pfn), what);
}

void show_memory_picture(const struct fw_map *map)
{
	phys_addr_t cursor = 0;

	printk("mm: picture begin\n");
	for (unsigned int i = 0; i < map->nr; i++) {
		const struct fw_map_entry *e = &map->entry[i];

		if (e->base > cursor)
			print_range("hole", cursor, e->base, NULL);
		print_range("map", e->base, e->base + e->size, fw_type_name(e->type));
		cursor = e->base + e->size;
	}
	for (unsigned int i = 0; i < mm_memblock.reserved.cnt; i++) {
		const struct memblock_region *r = &mm_memblock.reserved.regions[i];

		print_range("reserved", r->base, r->base + r->size, r->what ? r->what : "?");
	}
	for (int z = 0; z < (int)mm_nr_zone_ids; z++) {
		struct free_run run = { 0, 0, 0 };

		if (!mm_zones[z].present_pages)
			continue;
		print_zone(&mm_zones[z]);
		walk_zone(&mm_zones[z], add_to_run, &run);
		flush_run(&run);
		print_pageblock_runs(&mm_zones[z]);
	}
	printk("mm: picture end\n");
}
