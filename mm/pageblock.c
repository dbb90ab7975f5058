/* SPDX-License-Identifier: MIT */
/*
 * Pageblock types: their side arrays and the pagetypeinfo report. The fallback between types is
 * the buddy allocator's (mm/buddy.c); isolating a pageblock is page_alloc.c's.
 */
#include "mm/pageblock.h"

#include "mm/arch.h"
#include "mm/memblock.h"

/*
 * Each zone's arrays have room for the pageblocks [cap_first, cap_first + cap_nr): its span at
 * boot, and from the zone's lowest frame up to the limit memory may be added to later (mm_init()'s
 * hotplug_end). The zone's pageblock_type and pageblock_use point into them at first_pageblock.
 */
static unsigned long cap_first[MAX_NR_ZONE_IDS], cap_nr[MAX_NR_ZONE_IDS];
static uint8_t *cap_types[MAX_NR_ZONE_IDS];
static struct pageblock_use *cap_use[MAX_NR_ZONE_IDS];

/* Sets zone's pageblock numbers: the first, and how many its span touches. */
static void zone_pageblock_span(struct zone *zone)
{
	zone->first_pageblock = zone->start_pfn >> PAGEBLOCK_ORDER;
	zone->nr_pageblocks = zone->present_pages
				      ? ((zone->end_pfn - 1) >> PAGEBLOCK_ORDER) - zone->first_pageblock + 1
				      : 0;
}

/* The lowest frame of zone type t by address (mm/zone.h). */
static unsigned long zone_floor_pfn(int t)
{
	return t == ZONE_DMA ? 0 : t == ZONE_DMA32 ? ZONE_DMA_END_PFN : ZONE_DMA32_END_PFN;
}

/*
 * Room for zone z's pageblocks: its span, and what it may gain below limit_pfn. With more than one
 * node, only its span: memory added later into a node's zone is refused (pageblock_grow_zone()).
 */
static void zone_capacity(int z, unsigned long limit_pfn)
{
	const struct zone *zone = &mm_zones[z];
	int t = (int)zone_idx(zone);
	unsigned long lo = zone_floor_pfn(t), hi = MIN(limit_pfn, t == ZONE_NORMAL ? ~0UL : zone_floor_pfn(t + 1));
	unsigned long first = zone->first_pageblock, end = first + zone->nr_pageblocks;

	if (lo < hi && mm_nr_node_ids == 1) { /* a zone with memory keeps its first pageblock (pageblock_grow_zone()) */
		first = zone->nr_pageblocks ? first : lo >> PAGEBLOCK_ORDER;
		end = MAX(end, ((hi - 1) >> PAGEBLOCK_ORDER) + 1);
	}
	cap_first[z] = first;
	cap_nr[z] = end - first;
}

/* Points zone z's arrays at its first pageblock inside the room allocated for it. */
static void zone_point_arrays(int z)
{
	struct zone *zone = &mm_zones[z];
	unsigned long off = zone->first_pageblock - cap_first[z];

	zone->pageblock_use = zone->nr_pageblocks ? cap_use[z] + off : NULL;
	zone->pageblock_type = zone->nr_pageblocks ? cap_types[z] + off : NULL;
}

/*
 * One allocation for every zone's arrays (a page or a few: five bytes per 2 MiB): the pageblocks'
 * use (no free frames, which the hand-off adds, and no CPU's), then the types.
 */
int pageblock_init(unsigned long limit_pfn)
{
	unsigned long n = 0, bytes;
	phys_addr_t phys;
	uint8_t *types;
	struct pageblock_use *use;

	for (int z = 0; z < (int)mm_nr_zone_ids; z++) {
		zone_pageblock_span(&mm_zones[z]);
		zone_capacity(z, limit_pfn);
		n += cap_nr[z];
	}
	bytes = n * (sizeof(*use) + sizeof(*types));
	phys = memblock_alloc_named(ALIGN_UP(bytes, PAGE_SIZE), PAGE_SIZE, UINT64_MAX, "pageblock types");
	if (!phys) {
		printk("mm: no memory for the types of %lu pageblocks\n", n);
		return -ENOMEM;
	}
	use = phys_to_virt(phys); /* first: page aligned, so the counts are aligned */
	memset(use, 0, n * sizeof(*use));
	types = (uint8_t *)(use + n);
	memset(types, MIGRATE_MOVABLE, n);
	for (int z = 0; z < (int)mm_nr_zone_ids; z++) {
		cap_use[z] = use;
		cap_types[z] = types;
		zone_point_arrays(z);
		use += cap_nr[z];
		types += cap_nr[z];
	}
	return 0;
}

int pageblock_grow_zone(struct zone *zone, unsigned long start_pfn, unsigned long end_pfn)
{
	int z = (int)(zone - mm_zones);
	unsigned long first = start_pfn >> PAGEBLOCK_ORDER, last = (end_pfn - 1) >> PAGEBLOCK_ORDER;

	if (zone->nr_pageblocks)
		first = MIN(first, zone->first_pageblock);
	if (zone->nr_pageblocks && first != zone->first_pageblock)
		return -ERANGE; /* the index of every pageblock in use would move */
	if (first < cap_first[z] || last >= cap_first[z] + cap_nr[z])
		return -ERANGE;
	if (!zone->nr_pageblocks) {
		zone->first_pageblock = first;
		zone->nr_pageblocks = last - first + 1;
		zone_point_arrays(z);
		return 0;
	}
	zone->nr_pageblocks = MAX(zone->nr_pageblocks, last - first + 1);
	return 0;
}

const char *migratetype_name(unsigned int mt)
{
	static const char *const names[MIGRATE_TYPES] = { "Unmovable", "Movable", "Reclaimable", "Isolate" };

	return mt < MIGRATE_TYPES ? names[mt] : "?";
}

unsigned long zone_pageblocks_of_type(struct zone *zone, unsigned int mt)
{
	unsigned long n = 0;

	for (unsigned long i = 0; i < zone->nr_pageblocks; i++)
		n += __atomic_load_n(&zone->pageblock_type[i], __ATOMIC_RELAXED) == mt;
	return n;
}

/* The blocks of order on zone's list of type mt (the zone's lock held). */
static unsigned long list_blocks(const struct zone *zone, unsigned int order, unsigned int mt)
{
	const struct list_head *head = &zone->free_area[order].free_list[mt];
	unsigned long n = 0;

	for (const struct list_head *l = head->next; l != head; l = l->next)
		n++;
	return n;
}

/* snprintf() at offset len of buf, which may already be full. */
#define APPEND(buf, size, len, ...) \
	((len) += snprintf((buf) + MIN((size_t)(len), (size)), (size) - MIN((size_t)(len), (size)), __VA_ARGS__))

int pagetypeinfo_free_line(struct zone *zone, unsigned int mt, char *buf, size_t size)
{
	int len = snprintf(buf, size, "Node %u, zone %8s, type %12s", zone_to_nid(zone), zone->name, migratetype_name(mt));
	unsigned long flags = zone_lock(zone);

	for (unsigned int o = 0; o < NR_ORDERS; o++)
		APPEND(buf, size, len, " %6lu", list_blocks(zone, o, mt));
	zone_unlock(zone, flags);
	return len;
}

int pagetypeinfo_blocks_line(struct zone *zone, char *buf, size_t size)
{
	int len = snprintf(buf, size, "Node %u, zone %8s", zone_to_nid(zone), zone->name);

	for (unsigned int mt = 0; mt < MIGRATE_TYPES; mt++)
		APPEND(buf, size, len, " %12lu", zone_pageblocks_of_type(zone, mt));
	return len;
}

void show_pagetypeinfo(void)
{
	char line[200];
	int len = 0;

	printk("Page block order: %d\nPages per block:  %lu\n\n", PAGEBLOCK_ORDER, PAGEBLOCK_NR_PAGES);
	printk("Free pages count per migrate type at order       0      1      2      3      4      5      6"
	       "      7      8      9     10\n");
	for (int z = 0; z < (int)mm_nr_zone_ids; z++)
		for (unsigned int mt = 0; mt < MIGRATE_TYPES && mm_zones[z].present_pages; mt++) {
			pagetypeinfo_free_line(&mm_zones[z], mt, line, sizeof(line));
			printk("%s\n", line);
		}
	for (unsigned int mt = 0; mt < MIGRATE_TYPES; mt++)
		APPEND(line, sizeof(line), len, " %12s", migratetype_name(mt));
	printk("\nNumber of blocks type     %s\n", line);
	for (int z = 0; z < (int)mm_nr_zone_ids; z++)
		if (mm_zones[z].present_pages) {
			pagetypeinfo_blocks_line(&mm_zones[z], line, sizeof(line));
			printk("%s\n", line);
		}
	for (int z = 0; z < (int)mm_nr_zone_ids; z++)
		if (mm_zones[z].present_pages)
			printk("alloc_fallbacks_%s %lu\npageblock_claims_%s %lu\n", mm_zones[z].name,
			       __atomic_load_n(&mm_zones[z].alloc_fallbacks, __ATOMIC_RELAXED), mm_zones[z].name,
			       __atomic_load_n(&mm_zones[z].pageblock_claims, __ATOMIC_RELAXED));
}
