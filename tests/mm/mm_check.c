/*
 * Whole-allocator consistency checks over bitmaps of frames (see tests/mm/mm_check.h).
 */
#include "tests/mm/mm_check.h"

#include <stdio.h>
#include <stdlib.h>

#include "mm/hot_pages.h"
#include "mm/memblock.h"

#define BITS 64UL

static char problem[256];

#define FAIL(...) (snprintf(problem, sizeof(problem), __VA_ARGS__), (const char *)problem)

static unsigned long *bitmap_new(void)
{
	return calloc((max_pfn + BITS - 1) / BITS + 1, sizeof(unsigned long));
}

/*
 * Sets bits [pfn, pfn + n) of set, n a power of two and pfn a multiple of n; false if one was
 * already set, or (when allowed is not NULL) if one is clear in allowed.
 */
static bool set_block(unsigned long *set, const unsigned long *allowed, unsigned long pfn, unsigned long n)
{
	if (n >= BITS) {
		for (unsigned long w = pfn / BITS; w < (pfn + n) / BITS; w++) {
			if (set[w] || (allowed && allowed[w] != ~0UL))
				return false;
			set[w] = ~0UL;
		}
		return true;
	}
	unsigned long w = pfn / BITS, mask = ((1UL << n) - 1) << (pfn % BITS);
	if ((set[w] & mask) || (allowed && (allowed[w] & mask) != mask))
		return false;
	set[w] |= mask;
	return true;
}

void buddy_shape_take(struct buddy_shape *s)
{
	drain_hot_pages();
	for (int z = 0; z < MAX_NR_ZONES; z++)
		for (int o = 0; o < NR_ORDERS; o++)
			s->nr_free[z][o] = zones[z].free_area[o].nr_free;
	s->free_pages = nr_free_pages();
}

bool buddy_shape_equal(const struct buddy_shape *a, const struct buddy_shape *b)
{
	for (int z = 0; z < MAX_NR_ZONES; z++)
		for (int o = 0; o < NR_ORDERS; o++)
			if (a->nr_free[z][o] != b->nr_free[z][o])
				return false;
	return a->free_pages == b->free_pages;
}

/* Is [base, end) inside one usable entry of map and clear of every memblock reservation? */
static bool range_is_free_ram(const struct fw_map *map, phys_addr_t base, phys_addr_t end)
{
	bool in_ram = false;

	for (unsigned int i = 0; i < map->nr && !in_ram; i++) {
		const struct fw_map_entry *e = &map->entry[i];
		in_ram = e->type == FW_USABLE && base >= e->base && end <= e->base + e->size;
	}
	for (unsigned int i = 0; i < memblock.reserved.cnt && in_ram; i++) {
		const struct memblock_region *r = &memblock.reserved.regions[i];
		in_ram = end <= r->base || base >= r->base + r->size;
	}
	return in_ram;
}

/* Checks one free block of zone z, order o (on a hot list if hot); NULL or the problem. */
static const char *check_block(const struct fw_map *map, const struct page *page, int z, int o,
			       unsigned long *bm, bool hot)
{
	unsigned long pfn = page_to_pfn(page), n = 1UL << o;

	if (!pfn_valid(pfn) || pfn + n > max_pfn)
		return FAIL("free block at pfn %#lx order %d lies outside the memmap", pfn, o);
	if (PageBuddy(page) == hot || (!hot && page->private != (unsigned long)o) || PageReserved(page) ||
	    PageCompound(page) || page->_refcount || (page->flags & PAGE_ORDER_MASK))
		return FAIL("free %sblock at pfn %#lx order %d: flags %#x private %lu count %d",
			    hot ? "hot " : "", pfn, o, (unsigned int)page->flags, page->private,
			    (int)page->_refcount);
	if ((pfn & (n - 1)) || pfn_zone(pfn) != (enum zone_type)z || page_zonenum(page) != (unsigned int)z)
		return FAIL("free block at pfn %#lx order %d misaligned or in the wrong zone %d", pfn, o, z);
	if (!range_is_free_ram(map, PFN_PHYS(pfn), PFN_PHYS(pfn + n)))
		return FAIL("free block at pfn %#lx order %d is not usable, unreserved RAM", pfn, o);
	if (bm && !set_block(bm, NULL, pfn, n))
		return FAIL("free block at pfn %#lx order %d overlaps another free block", pfn, o);
	return NULL;
}

/* Walks one free list; adds its pages to *pages. NULL or the problem. */
static const char *check_list(const struct fw_map *map, int z, int o, unsigned long *bm,
			      unsigned long *pages)
{
	const struct free_area *area = &zones[z].free_area[o];
	unsigned long count = 0;

	for (const struct list_head *l = area->free_list.next; l != &area->free_list; l = l->next) {
		const struct page *page = lru_to_page(l);
		const char *p;

		if (l->next->prev != l || ++count > area->nr_free)
			return FAIL("zone %s order %d: broken links or more blocks than nr_free %lu",
				    zones[z].name, o, area->nr_free);
		if ((p = check_block(map, page, z, o, bm, false)))
			return p;
	}
	if (count != area->nr_free || !count != !(zones[z].free_orders & (1u << o)))
		return FAIL("zone %s order %d: %lu blocks listed, nr_free %lu, free_orders %#x",
			    zones[z].name, o, count, area->nr_free, zones[z].free_orders);
	*pages += count << o;
	return NULL;
}

/* Walks one hot list; adds its pages to *pages. NULL or the problem. */
static const char *check_hot_list(const struct fw_map *map, int z, int o, unsigned long *bm,
				  unsigned long *pages)
{
	const struct hot_list *hot = &zones[z].hot[o];
	unsigned long count = 0;

	for (const struct list_head *l = hot->list.next; l != &hot->list; l = l->next) {
		const struct page *page = lru_to_page(l);
		const char *p;

		if (l->next->prev != l || ++count > hot->count)
			return FAIL("zone %s hot list %d: broken links or more than %lu blocks", zones[z].name,
				    o, hot->count);
		if ((p = check_block(map, page, z, o, bm, true)))
			return p;
	}
	if (count != hot->count)
		return FAIL("zone %s hot list %d: %lu blocks listed, count %lu", zones[z].name, o, count,
			    hot->count);
	if (count && !hot_orders)
		return FAIL("zone %s hot list %d: %lu blocks while the hot lists are off", zones[z].name, o,
			    count);
	*pages += count << o;
	return NULL;
}

const char *mm_check_free_lists(const struct fw_map *map, unsigned long *free_bitmap)
{
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		unsigned long pages = 0;
		const char *p;

		for (int o = 0; o < NR_ORDERS; o++)
			if ((p = check_list(map, z, o, free_bitmap, &pages)))
				return p;
		for (int o = 0; o <= HOT_MAX_ORDER; o++)
			if ((p = check_hot_list(map, z, o, free_bitmap, &pages)))
				return p;
		if (pages != zones[z].free_pages)
			return FAIL("zone %s: free lists hold %lu pages, free_pages says %lu", zones[z].name,
				    pages, zones[z].free_pages);
	}
	return NULL;
}

const char *mm_check_reserved(void)
{
	for (unsigned int i = 0; i < memblock.reserved.cnt; i++) {
		const struct memblock_region *r = &memblock.reserved.regions[i];

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

	for (int z = 0; z < MAX_NR_ZONES; z++)
		usable += zones[z].present_pages;
	limit = (usable / MEMMAP_CHUNK_PAGES + 2 * memblock.memory.cnt) * PAGE_SIZE;
	if (memmap_bytes > limit)
		return FAIL("memmap is %lu bytes for %lu usable pages in %u ranges (at most %lu)",
			    memmap_bytes, usable, memblock.memory.cnt, limit);
	return NULL;
}

/* Allocates at order, then each lower order, until nothing is left; links the blocks in *held. */
static const char *exhaust_from(unsigned int order, const unsigned long *free_bm, unsigned long *got,
				struct list_head *held)
{
	for (int o = (int)order; o >= 0; o--) {
		struct page *page;

		while ((page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, (unsigned int)o))) {
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

static unsigned long popcount_bitmap(const unsigned long *bm)
{
	unsigned long n = 0;

	for (unsigned long w = 0; w <= max_pfn / BITS; w++)
		n += (unsigned long)__builtin_popcountl(bm[w]);
	return n;
}

/* One round at order: exhaust, compare with the free frames, free, compare the shape. */
static const char *exhaust_round(const struct fw_map *map, unsigned int order, const unsigned long *free_bm,
				 unsigned long free0, const struct buddy_shape *shape0)
{
	unsigned long *got = bitmap_new(), reports = bad_page_reports;
	struct list_head held = { &held, &held };
	struct buddy_shape shape;
	const char *p = got ? exhaust_from(order, free_bm, got, &held) : FAIL("out of host memory");

	if (!p && nr_free_pages() != 0)
		p = FAIL("order %u: %lu pages still free after exhaustion", order, nr_free_pages());
	if (!p && popcount_bitmap(got) != free0)
		p = FAIL("order %u: %lu frames handed out, %lu were free", order, popcount_bitmap(got), free0);
	free_held(&held);
	free(got);
	buddy_shape_take(&shape);
	if (!p && !buddy_shape_equal(&shape, shape0))
		p = FAIL("order %u: free lists differ from their first shape after freeing everything", order);
	if (!p && bad_page_reports != reports)
		p = FAIL("order %u: %lu bad_page reports", order, bad_page_reports - reports);
	return p ? p : mm_check_free_lists(map, NULL);
}

const char *mm_check_exhaustive(const struct fw_map *map)
{
	unsigned long *free_bm = bitmap_new(), free0 = nr_free_pages();
	struct buddy_shape shape0;
	const char *p;

	buddy_shape_take(&shape0);
	p = free_bm ? mm_check_free_lists(map, free_bm) : FAIL("out of host memory");
	if (!p && popcount_bitmap(free_bm) != free0)
		p = FAIL("free lists hold %lu frames, nr_free_pages() says %lu", popcount_bitmap(free_bm), free0);
	for (unsigned int order = 0; order <= MAX_ORDER && !p; order++)
		p = exhaust_round(map, order, free_bm, free0, &shape0);
	free(free_bm);
	return p;
}
