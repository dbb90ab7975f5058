/* SPDX-License-Identifier: MIT */
/*
 * Whole-allocator consistency checks over bitmaps of frames (see tests/mm/mm_check.h).
 */
#include "tests/mm/mm_check.h"

#include <stdio.h>
#include <stdlib.h>

#include "kernel/boot_memmap.h"
#include "mm/bad_page.h"
#include "mm/pcp.h"
#include "mm/memblock.h"
#include "mm/pageblock.h"
#include "tests/ktest/mm_shape.h"

static char problem[256];

#define FAIL(...) (snprintf(problem, sizeof(problem), __VA_ARGS__), (const char *)problem)

/*
 * A set of frames of present RAM: one bit per frame of each memblock memory range, the ranges
 * packed one after the other, so that its size and the time to scan it follow the RAM, not the
 * highest address.
 */
struct frame_set {
	unsigned int nr;          /* memory ranges */
	unsigned long *first;     /* first bit of each range */
	unsigned long nbits;
	uint8_t *bits;
};

static void frame_set_free(struct frame_set *set)
{
	if (set) {
		free(set->first);
		free(set->bits);
		free(set);
	}
}

static struct frame_set *frame_set_new(void)
{
	struct frame_set *set = calloc(1, sizeof(*set));
	unsigned long bit = 0;

	if (!set || !(set->first = calloc(mm_memblock.memory.cnt + 1, sizeof(*set->first)))) {
		frame_set_free(set);
		return NULL;
	}
	set->nr = mm_memblock.memory.cnt;
	for (unsigned int i = 0; i < set->nr; i++) {
		const struct memblock_region *r = &mm_memblock.memory.regions[i];

		set->first[i] = bit;
		bit += PFN_DOWN(r->base + r->size) - PFN_UP(r->base);
	}
	set->nbits = bit;
	if (!(set->bits = calloc(bit / 8 + 1, 1))) {
		frame_set_free(set);
		return NULL;
	}
	return set;
}

/* The bit of pfn, or -1 when pfn is not in a memory range. */
static long frame_bit(const struct frame_set *set, unsigned long pfn)
{
	unsigned int lo = 0, hi = set->nr;

	while (lo < hi) { /* the first range that ends above pfn */
		unsigned int mid = lo + (hi - lo) / 2;
		const struct memblock_region *r = &mm_memblock.memory.regions[mid];

		if (PFN_DOWN(r->base + r->size) <= pfn)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == set->nr || pfn < PFN_UP(mm_memblock.memory.regions[lo].base))
		return -1;
	return (long)(set->first[lo] + pfn - PFN_UP(mm_memblock.memory.regions[lo].base));
}

static bool bit_test(const uint8_t *bits, unsigned long b) { return bits[b / 8] >> (b % 8) & 1; }

/*
 * Adds frames [pfn, pfn + n) to set; false if one is not present RAM or already in set, or (when
 * allowed is not NULL) not in allowed.
 */
static bool set_block(struct frame_set *set, const struct frame_set *allowed, unsigned long pfn,
		      unsigned long n)
{
	long b = frame_bit(set, pfn), last = frame_bit(set, pfn + n - 1);

	if (b < 0 || last != b + (long)n - 1)
		return false;
	for (long i = b; i <= last; i++)
		if (bit_test(set->bits, (unsigned long)i) || (allowed && !bit_test(allowed->bits, (unsigned long)i)))
			return false;
	for (long i = b; i <= last; i++)
		set->bits[i / 8] |= (uint8_t)(1u << (i % 8));
	return true;
}

static unsigned long frame_set_count(const struct frame_set *set)
{
	unsigned long n = 0;

	for (unsigned long i = 0; i < set->nbits / 8 + 1; i++)
		n += (unsigned long)__builtin_popcount(set->bits[i]);
	return n;
}

/* Index of the first of the n sorted ranges (base, size at stride) that ends above addr. */
#define FIRST_ENDING_ABOVE(array, n, addr)                                          \
	({                                                                          \
		unsigned int lo_ = 0, hi_ = (n);                                    \
		while (lo_ < hi_) {                                                 \
			unsigned int mid_ = lo_ + (hi_ - lo_) / 2;                  \
			if ((array)[mid_].base + (array)[mid_].size <= (addr))      \
				lo_ = mid_ + 1;                                     \
			else                                                        \
				hi_ = mid_;                                         \
		}                                                                   \
		lo_;                                                                \
	})

/*
 * Is [base, end) inside one usable entry of map and clear of every memblock reservation? Both
 * lists are sorted: binary searches, so a map of thousands of entries costs no more per block.
 */
static bool range_is_free_ram(const struct fw_map *map, phys_addr_t base, phys_addr_t end)
{
	unsigned int i = FIRST_ENDING_ABOVE(map->entry, map->nr, base);
	unsigned int k = FIRST_ENDING_ABOVE(mm_memblock.reserved.regions, mm_memblock.reserved.cnt, base);
	const struct fw_map_entry *e = &map->entry[i];

	if (i == map->nr || e->type != FW_USABLE || base < e->base || end > e->base + e->size)
		return false;
	return k == mm_memblock.reserved.cnt || mm_memblock.reserved.regions[k].base >= end;
}

/* Checks one free block of zone z, order o (on a pcp list if on_pcp); NULL or the problem. */
static const char *check_block(const struct fw_map *map, const struct page *page, int z, int o,
			       struct frame_set *bm, bool on_pcp)
{
	unsigned long pfn = page_to_pfn(page), n = 1UL << o;

	if (!pfn_valid(pfn) || pfn + n > mm_max_pfn)
		return FAIL("free block at pfn %#lx order %d lies outside the memmap", pfn, o);
	/* A block on a per-CPU list keeps its order in its flags, a buddy block has none there. */
	if (PageBuddy(page) == on_pcp || (!on_pcp && page->private != (unsigned long)o) || PageReserved(page) ||
	    PageCompound(page) || page->_refcount || alloc_order_of(page) != (on_pcp ? (unsigned int)o : 0))
		return FAIL("free %sblock at pfn %#lx order %d: flags %#x private %lu count %d",
			    on_pcp ? "pcp " : "", pfn, o, (unsigned int)page->flags, page->private,
			    (int)page->_refcount);
	if ((pfn & (n - 1)) || pfn_zone(pfn) != (unsigned int)z || page_zonenum(page) != (unsigned int)z)
		return FAIL("free block at pfn %#lx order %d misaligned or in the wrong zone %d", pfn, o, z);
	/* Its last frame too: a zone's edge at a node's boundary need not be aligned. */
	if (pfn_zone(pfn + n - 1) != (unsigned int)z || page_zonenum(page + n - 1) != (unsigned int)z)
		return FAIL("free block at pfn %#lx order %d crosses out of zone %d (node %u)", pfn, o, z,
			    (unsigned int)z / MAX_NR_ZONES);
	if (map && !range_is_free_ram(map, PFN_PHYS(pfn), PFN_PHYS(pfn + n)))
		return FAIL("free block at pfn %#lx order %d is not usable, unreserved RAM", pfn, o);
	if (bm && !set_block(bm, NULL, pfn, n))
		return FAIL("free block at pfn %#lx order %d overlaps another free block", pfn, o);
	return NULL;
}

/*
 * Walks zone z's free list of order o and type mt; adds its blocks to *count. Every block must be
 * in a pageblock of type mt (and, a pageblock or more, all its pageblocks). NULL or the problem.
 */
static const char *check_type_list(const struct fw_map *map, int z, int o, unsigned int mt, struct frame_set *bm,
				   unsigned long *count)
{
	const struct free_area *area = &mm_zones[z].free_area[o];
	const struct list_head *head = &area->free_list[mt];
	unsigned long listed = 0;

	for (const struct list_head *l = head->next; l != head; l = l->next) {
		const struct page *page = lru_to_page(l);
		const char *p;

		if (l->next->prev != l || ++*count > area->nr_free)
			return FAIL("zone %s order %d: broken links or more blocks than nr_free %lu",
				    mm_zones[z].name, o, area->nr_free);
		if ((p = check_block(map, page, z, o, bm, false)))
			return p;
		for (unsigned long i = 0; i < (1UL << o); i += PAGEBLOCK_NR_PAGES)
			if (get_pageblock_migratetype(page + i) != mt)
				return FAIL("free block at pfn %#lx order %d on the %s list: pageblock at pfn %#lx is %s",
					    page_to_pfn(page), o, migratetype_name(mt), page_to_pfn(page + i),
					    migratetype_name(get_pageblock_migratetype(page + i)));
		listed++;
	}
	if (!listed != !(mm_zones[z].free_orders[mt] & (1u << o)))
		return FAIL("zone %s order %d type %s: %lu blocks listed, free_orders %#x", mm_zones[z].name, o,
			    migratetype_name(mt), listed, mm_zones[z].free_orders[mt]);
	return NULL;
}

/* Walks the free lists of one order; adds their pages to *pages. NULL or the problem. */
static const char *check_list(const struct fw_map *map, int z, int o, struct frame_set *bm,
			      unsigned long *pages)
{
	const struct free_area *area = &mm_zones[z].free_area[o];
	unsigned long count = 0;
	const char *p;

	for (unsigned int mt = 0; mt < MIGRATE_TYPES; mt++)
		if ((p = check_type_list(map, z, o, mt, bm, &count)))
			return p;
	if (count != area->nr_free)
		return FAIL("zone %s order %d: %lu blocks listed, nr_free %lu", mm_zones[z].name, o, count,
			    area->nr_free);
	*pages += count << o;
	return NULL;
}

/*
 * Walks one CPU's list of zone z, slot o (mm/zone.h), type mt (whose blocks carry mt as their list
 * type); adds its blocks to *count. NULL or the problem.
 */
static const char *check_pcp_type_list(const struct fw_map *map, unsigned int cpu, int z, int o, unsigned int mt,
				       struct frame_set *bm, unsigned long *count)
{
	const struct per_cpu_pages *pcp = cpu_pcp(cpu, (unsigned int)z);
	const struct list_head *cold;
	int order = (int)pcp_slot_order((unsigned int)o);
	bool in_cold;

	if (mt == MIGRATE_PCPTYPES) { /* a gfp of both mobility bits finds the lists of no zone (mm/pcp.h) */
		for (unsigned int t = 0; t < MIGRATE_PCPTYPES; t++)
			if (cpu_pcp(cpu, PCP_NO_ZONE)->types[t].hot[o])
				return FAIL("CPU %u pcp list %d: the lists of no zone hold a block", cpu, o);
		return NULL;
	}
	cold = &pcp->lists[o][mt];
	in_cold = !pcp->types[mt].hot[o];
	for (const struct list_head *l = pcp_list_next(pcp, (unsigned int)o, mt, NULL); l;
	     l = pcp_list_next(pcp, (unsigned int)o, mt, l)) {
		const struct page *page = lru_to_page(l);
		const char *p;

		in_cold = in_cold || l == cold->next; /* the hot part's blocks have no links back */
		if ((in_cold && l->next->prev != l) || ++*count > pcp_count(pcp, o))
			return FAIL("zone %s CPU %u pcp list %d: broken links or more than %u blocks",
				    mm_zones[z].name, cpu, o, pcp_count(pcp, o));
		if ((p = check_block(map, page, z, order, bm, true)))
			return p;
		if (mt >= MIGRATE_PCPTYPES || page_pcptype(page) != mt)
			return FAIL("zone %s CPU %u pcp list %d %s: a block at pfn %#lx marked type %u",
				    mm_zones[z].name, cpu, o, migratetype_name(mt), page_to_pfn(page), page_pcptype(page));
	}
	return NULL;
}

/* Walks one CPU's lists of zone z, slot o (mm/zone.h); adds their pages to *pages. NULL or the problem. */
static const char *check_pcp_list(const struct fw_map *map, unsigned int cpu, int z, int o,
				  struct frame_set *bm, unsigned long *pages)
{
	const struct per_cpu_pages *pcp = cpu_pcp(cpu, (unsigned int)z);
	unsigned long count = 0;
	const char *p;

	for (unsigned int mt = 0; mt < MIGRATE_TYPES; mt++)
		if ((p = check_pcp_type_list(map, cpu, z, o, mt, bm, &count)))
			return p;
	if (count != pcp_count(pcp, o))
		return FAIL("zone %s CPU %u pcp list %d: %lu blocks listed, count %u", mm_zones[z].name, cpu, o,
			    count, pcp_count(pcp, o));
	if (count && (!mm_pcp_lists_on || !pcp->high[o]))
		return FAIL("zone %s CPU %u pcp list %d: %lu blocks while the pcp lists are off", mm_zones[z].name,
			    cpu, o, count);
	if (count > pcp->high[o])
		return FAIL("zone %s CPU %u pcp list %d: %lu blocks, over its high %u", mm_zones[z].name, cpu, o,
			    count, pcp->high[o]);
	*pages += count << pcp_slot_order((unsigned int)o);
	return NULL;
}

/*
 * Walks zone z's hand-off lists of whole pageblocks (struct zone: blocks as on a per-CPU list,
 * their type the list's); adds their pages to *pages. NULL or the problem.
 */
static const char *check_handoff_lists(const struct fw_map *map, int z, struct frame_set *bm, unsigned long *pages)
{
	const struct zone *zone = &mm_zones[z];
	unsigned long listed = 0;

	for (unsigned int mt = 0; mt < MIGRATE_PCPTYPES; mt++) {
		const struct list_head *head = &zone->pcp_handoff[mt];
		unsigned long count = 0;
		const char *p;

		for (const struct list_head *l = head->next; l != head; l = l->next) {
			const struct page *page = lru_to_page(l);

			if (l->next->prev != l || ++count > zone->pcp_handoff_count[mt])
				return FAIL("zone %s hand-off list %s: broken links or more than %u blocks", zone->name,
					    migratetype_name(mt), zone->pcp_handoff_count[mt]);
			if ((p = check_block(map, page, z, PAGEBLOCK_ORDER, bm, true)))
				return p;
			if (page_pcptype(page) != mt)
				return FAIL("zone %s hand-off list %s: a block at pfn %#lx marked type %u", zone->name,
					    migratetype_name(mt), page_to_pfn(page), page_pcptype(page));
		}
		if (count != zone->pcp_handoff_count[mt])
			return FAIL("zone %s hand-off list %s: %lu blocks listed, count %u", zone->name,
				    migratetype_name(mt), count, zone->pcp_handoff_count[mt]);
		listed += count << PAGEBLOCK_ORDER;
	}
	if (listed != zone->pcp_handoff_pages)
		return FAIL("zone %s hand-off lists: %lu pages listed, pcp_handoff_pages %lu", zone->name, listed,
			    zone->pcp_handoff_pages);
	*pages += listed;
	return NULL;
}

/* The free lists' check, adding each free frame to free_set (if not NULL). */
static const char *check_free_lists(const struct fw_map *map, struct frame_set *free_set)
{
	for (int z = 0; z < (int)mm_nr_zone_ids; z++) {
		unsigned long pages = 0;
		const char *p;

		for (int o = 0; o < NR_ORDERS; o++)
			if ((p = check_list(map, z, o, free_set, &pages)))
				return p;
		if (pages != mm_zones[z].buddy_free_pages)
			return FAIL("zone %s: buddy lists hold %lu pages, buddy_free_pages says %lu",
				    mm_zones[z].name, pages, mm_zones[z].buddy_free_pages);
		for (unsigned int cpu = 0; cpu < mm_pcp_nr_cpus; cpu++)
			for (int o = 0; o < PCP_NR_SLOTS; o++)
				if ((p = check_pcp_list(map, cpu, z, o, free_set, &pages)))
					return p;
		if ((p = check_handoff_lists(map, z, free_set, &pages)))
			return p;
		if (pages != zone_free_pages(&mm_zones[z]))
			return FAIL("zone %s: free lists hold %lu pages, zone_free_pages() says %lu",
				    mm_zones[z].name, pages, zone_free_pages(&mm_zones[z]));
	}
	return NULL;
}

const char *mm_check_free_lists(const struct fw_map *map)
{
	return check_free_lists(map, NULL);
}

const char *mm_check_raw_map(const struct boot_memmap *raw)
{
	struct frame_set *free_set = frame_set_new();
	const char *p = free_set ? check_free_lists(NULL, free_set) : FAIL("out of host memory");
	struct fw_map_entry e;

	for (uint32_t i = 0; i < raw->count && !p; i++) {
		boot_memmap_entry(raw, i, &e);
		if (e.type == FW_USABLE || !e.size)
			continue;
		phys_addr_t end = e.base + e.size < e.base ? UINT64_MAX : e.base + e.size;
		unsigned int k = FIRST_ENDING_ABOVE(mm_memblock.memory.regions, mm_memblock.memory.cnt, e.base);

		for (; k < mm_memblock.memory.cnt && mm_memblock.memory.regions[k].base < end && !p; k++) {
			const struct memblock_region *r = &mm_memblock.memory.regions[k];
			unsigned long pfn = PFN_DOWN(MAX(e.base, r->base)), last = PFN_UP(MIN(end, r->base + r->size));

			for (; pfn < last && !p; pfn++) {
				long b = frame_bit(free_set, pfn);
				if (b >= 0 && bit_test(free_set->bits, (unsigned long)b))
					p = FAIL("free frame pfn %#lx lies in firmware entry %u [mem %#llx+%#llx] %s", pfn, i,
						 (unsigned long long)e.base, (unsigned long long)e.size, fw_type_name(e.type));
			}
		}
	}
	frame_set_free(free_set);
	return p;
}

const char *mm_check_reserved(void)
{
	for (unsigned int i = 0; i < mm_memblock.reserved.cnt; i++) {
		const struct memblock_region *r = &mm_memblock.reserved.regions[i];

		for (unsigned long pfn = PFN_DOWN(r->base); pfn < PFN_UP(r->base + r->size); pfn++)
			if (pfn_valid(pfn) && !PageReserved(pfn_to_page(pfn)) && !PageHugeTLB(pfn_to_page(pfn)))
				return FAIL("pfn %#lx is reserved (%s) but not PG_reserved", pfn,
					    r->what ? r->what : "?");
	}
	return NULL;
}

const char *mm_check_memmap_size(void)
{
	unsigned long usable = 0, limit;

	for (int z = 0; z < (int)mm_nr_zone_ids; z++)
		usable += mm_zones[z].present_pages;
	limit = (usable / MEMMAP_CHUNK_PAGES + 2 * mm_memblock.memory.cnt) * PAGE_SIZE;
	if (mm_memmap_bytes > limit)
		return FAIL("memmap is %lu bytes for %lu usable pages in %u ranges (at most %lu)",
			    mm_memmap_bytes, usable, mm_memblock.memory.cnt, limit);
	return NULL;
}

/* Allocates at order, then each lower order, until nothing is left; links the blocks in *held. */
static const char *exhaust_from(unsigned int order, const struct frame_set *free_bm,
				struct frame_set *got, struct list_head *held)
{
	for (int o = (int)order; o >= 0; o--) {
		struct page *page;

		while ((page = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, (unsigned int)o))) { /* every free frame */
			unsigned long pfn = page_to_pfn(page);

			if (!set_block(got, free_bm, pfn, 1UL << o))
				return FAIL("order %d block at pfn %#lx was not free or was handed out twice", o, pfn);
			page->private = (unsigned long)o;
			page->lru.next = held->next;
			held->next = &page->lru;
		}
	}
	return NULL;
}

static void free_held(struct list_head *held)
{
	for (struct list_head *l = held->next, *next; l != held; l = next) {
		struct page *page = lru_to_page(l);

		next = l->next;
		__free_pages(page, (unsigned int)page->private);
	}
	held->next = held;
}

/* One round at order: exhaust, compare with the free frames, free, compare the shape. */
static const char *exhaust_round(const struct fw_map *map, unsigned int order,
				 const struct frame_set *free_bm, unsigned long free0,
				 const struct mm_shape *shape0)
{
	struct frame_set *got = frame_set_new();
	unsigned long reports = mm_bad_page_reports;
	struct list_head held = { &held, &held };
	struct mm_shape shape;
	int z, o;
	const char *p = got ? exhaust_from(order, free_bm, got, &held) : FAIL("out of host memory");

	if (!p && nr_free_pages() != 0)
		p = FAIL("order %u: %lu pages still free after exhaustion", order, nr_free_pages());
	if (!p && frame_set_count(got) != free0)
		p = FAIL("order %u: %lu frames handed out, %lu were free", order, frame_set_count(got), free0);
	free_held(&held);
	frame_set_free(got);
	mm_shape_take(&shape);
	if (!p && !mm_shape_equal(&shape, shape0, &z, &o))
		p = o < NR_ORDERS ?
			FAIL("order %u: after freeing everything, zone %s has %lu free blocks of order %d, %lu at first",
			     order, mm_zones[z].name, shape.nr_free[z][o], o, shape0->nr_free[z][o]) :
			FAIL("order %u: after freeing everything, %lu pages are free, %lu at first", order,
			     shape.free_pages, shape0->free_pages);
	if (!p && mm_bad_page_reports != reports)
		p = FAIL("order %u: %lu bad_page reports", order, mm_bad_page_reports - reports);
	return p ? p : mm_check_free_lists(map);
}

const char *mm_check_exhaustive(const struct fw_map *map)
{
	struct frame_set *free_bm;
	unsigned long free0;
	struct mm_shape shape0;
	const char *p;

	mm_shape_take(&shape0);
	free0 = nr_free_pages();
	free_bm = frame_set_new();
	p = free_bm ? check_free_lists(map, free_bm) : FAIL("out of host memory");
	if (!p && frame_set_count(free_bm) != free0)
		p = FAIL("free lists hold %lu frames, nr_free_pages() says %lu", frame_set_count(free_bm), free0);
	for (unsigned int order = 0; order <= MAX_ORDER && !p; order++)
		p = exhaust_round(map, order, free_bm, free0, &shape0);
	frame_set_free(free_bm);
	return p;
}
