/* SPDX-License-Identifier: MIT */
/*
 * Memory after boot: reserved ranges given back, RAM added. See mm/memory_add.h.
 */
#include "mm/memory_add.h"

#include "mm/arch.h"
#include "mm/buddy.h"
#include "mm/list.h"
#include "mm/memblock.h"
#include "mm/page_alloc.h"
#include "mm/pageblock.h"
#include "mm/watermark.h"

/* Serializes both calls: the checks and the changes of one never interleave with the other's. */
static DEFINE_MM_SPINLOCK(memory_add_lock, "memory_add_lock");

/* The releasable reservations of the last mm_init() (byte ranges). */
struct byte_range {
	phys_addr_t base, end;
};
static struct byte_range releasable[MM_MAX_RELEASABLE];
static unsigned int nr_releasable;
/* The offline RAM of the last mm_init() (mm_init_params.offline). */
static struct byte_range offline[MM_MAX_OFFLINE];
static unsigned int nr_offline;

/* Does [base, end) overlap one of the n reservations in r, other than skip? */
static bool overlaps(phys_addr_t base, phys_addr_t end, const struct mm_reservation *r, unsigned int n,
		     const struct mm_reservation *skip)
{
	for (unsigned int i = 0; i < n; i++)
		if (&r[i] != skip && r[i].size && r[i].base < end && base < r[i].base + r[i].size)
			return true;
	return false;
}

/* Why releasable range r cannot be given back later, or NULL when it can. */
static const char *not_releasable(const struct memory_add_ranges *p, const struct mm_reservation *r)
{
	phys_addr_t end = r->base + r->size;

	if (nr_releasable == MM_MAX_RELEASABLE)
		return "too many releasable ranges";
	if (!memblock_is_memory(r->base, end))
		return "not all usable RAM";
	if (overlaps(r->base, end, p->reserve, p->nreserve, NULL) ||
	    overlaps(r->base, end, p->releasable, p->nreleasable, r))
		return "overlaps another reservation";
	return NULL;
}

/* Remembers p's offline ranges (those beyond MM_MAX_OFFLINE: reported, not listed). */
static void record_offline(const struct memory_add_ranges *p)
{
	nr_offline = 0;
	for (unsigned int i = 0; i < p->noffline; i++) {
		if (nr_offline == MM_MAX_OFFLINE) {
			printk("mm: offline RAM [mem %#llx+%#llx] not listed: more than %u ranges\n",
			       (unsigned long long)p->offline[i].base, (unsigned long long)p->offline[i].size,
			       MM_MAX_OFFLINE);
			continue;
		}
		offline[nr_offline].base = p->offline[i].base;
		offline[nr_offline++].end = p->offline[i].base + p->offline[i].size;
	}
}

phys_addr_t mm_memory_add_limit(const struct memory_add_ranges *p)
{
	phys_addr_t limit = p->hotplug_end;

	for (unsigned int i = 0; i < p->noffline; i++)
		limit = MAX(limit, p->offline[i].base + p->offline[i].size);
	return limit;
}

bool mm_releasable_range(unsigned int i, phys_addr_t *start, phys_addr_t *end)
{
	if (i >= nr_releasable)
		return false;
	*start = releasable[i].base;
	*end = releasable[i].end;
	return true;
}

bool mm_offline_ram(unsigned int i, phys_addr_t *start, phys_addr_t *end)
{
	if (i >= nr_offline)
		return false;
	*start = offline[i].base;
	*end = offline[i].end;
	return true;
}

void mm_memory_add_boot(const struct memory_add_ranges *p)
{
	record_offline(p);
	nr_releasable = 0;
	for (unsigned int i = 0; i < p->nreleasable; i++) {
		const struct mm_reservation *r = &p->releasable[i];
		const char *why = r->size ? not_releasable(p, r) : "empty";

		if (why) {
			printk("mm: %s [mem %#llx+%#llx] stays reserved for good: %s\n", r->what,
			       (unsigned long long)r->base, (unsigned long long)r->size, why);
			continue;
		}
		releasable[nr_releasable].base = r->base;
		releasable[nr_releasable++].end = r->base + r->size;
	}
}

unsigned long mm_hotplug_end_pfn(void)
{
	return mm_memmap_limit_pfn;
}

/* ---- what both calls share ------------------------------------------------------------------ */

/* Are all the memmap chunks of frames [pfn, end) backed? */
static bool chunks_backed(unsigned long pfn, unsigned long end)
{
	for (unsigned long c = pfn >> MEMMAP_CHUNK_SHIFT; c <= (end - 1) >> MEMMAP_CHUNK_SHIFT; c++)
		if (!memmap_chunk_backed(c))
			return false;
	return true;
}

/*
 * Frames [pfn, end), reserved and all in one zone, become free blocks there, merging with their
 * free neighbours; the zone's managed pages count them.
 */
static void free_zone_range(unsigned long pfn, unsigned long end)
{
	struct zone *zone = &mm_zones[pfn_zone(pfn)];

	while (pfn < end) {
		unsigned int order = buddy_block_order(pfn, end - pfn);
		unsigned long flags = zone_lock(zone);

		/* Under the lock: no scanner sees a frame neither reserved nor on a free list. */
		for (unsigned long p = pfn; p < pfn + (1UL << order); p++)
			page_flag_clear(pfn_to_page(p), PG_reserved);
		mm_buddy_give(pfn_to_page(pfn), order);
		__atomic_store_n(&zone->managed_pages, zone->managed_pages + (1UL << order), __ATOMIC_RELAXED);
		zone_unlock(zone, flags);
		pfn += 1UL << order;
	}
}

void mm_report_null_frame(unsigned long pfn)
{
	printk("mm: frame %#lx is at virtual address 0 in the direct map: kept out (its address would be NULL)\n", pfn);
}

/*
 * Frames [pfn, end) become free blocks, zone by zone; then the watermarks follow the managed
 * pages, and a zone that had none is where allocations may start.
 */
static unsigned long free_range(unsigned long pfn, unsigned long end)
{
	unsigned long null_pfn = PFN_DOWN(virt_to_phys(NULL)), n = end - pfn;

	while (pfn < end) {
		unsigned long stop = MIN(end, pfn_zone_end(pfn));

		/* The frame at virtual address 0 stays reserved, as mm_init() keeps it (mm/init.c). */
		if (pfn <= null_pfn && null_pfn < stop) {
			mm_report_null_frame(null_pfn);
			free_zone_range(pfn, null_pfn);
			free_zone_range(null_pfn + 1, stop);
			n--;
		} else {
			free_zone_range(pfn, stop);
		}
		pfn = stop;
	}
	setup_zone_watermarks();
	page_alloc_init_zones();
	return n;
}

/* ---- giving back what was reserved at boot --------------------------------------------------- */

/* Is [base, end) inside one releasable reservation? */
static bool is_releasable(phys_addr_t base, phys_addr_t end)
{
	for (unsigned int i = 0; i < nr_releasable; i++)
		if (releasable[i].base <= base && end <= releasable[i].end)
			return true;
	return false;
}

/* The first frame of [pfn, end) the buddy allocator manages already (not PG_reserved), or end. */
static unsigned long first_managed(unsigned long pfn, unsigned long end)
{
	while (pfn < end && PageReserved(pfn_to_page(pfn)) && !PageBuddy(pfn_to_page(pfn)))
		pfn++;
	return pfn;
}

/* Why [start, end) cannot be given back (reported), or 0 when it can. */
static int check_reserved_range(phys_addr_t start, phys_addr_t end, const char *why)
{
	unsigned long pfn = PFN_DOWN(start), last = PFN_DOWN(end), managed;
	const char *owner;

	if ((start | end) % PAGE_SIZE || end <= start) {
		printk("mm: cannot give back %s [mem %#llx-%#llx): not a page-aligned, non-empty range\n", why,
		       (unsigned long long)start, (unsigned long long)end);
		return -EINVAL;
	}
	if (last > mm_memmap_end_pfn || !chunks_backed(pfn, last)) {
		printk("mm: cannot give back %s [mem %#llx-%#llx): beyond the memmap (frames without struct pages)\n",
		       why, (unsigned long long)start, (unsigned long long)end);
		return -ERANGE;
	}
	managed = first_managed(pfn, last);
	if (managed < last) {
		printk("mm: cannot give back %s [mem %#llx-%#llx): frame %#lx is managed already (free or in use)\n",
		       why, (unsigned long long)start, (unsigned long long)end, managed);
		return -EINVAL;
	}
	if (!is_releasable(start, end)) {
		owner = memblock_reserved_by(start, end);
		printk("mm: cannot give back %s [mem %#llx-%#llx): not in a releasable reservation (%s%s)\n", why,
		       (unsigned long long)start, (unsigned long long)end, owner ? "reserved for " : "",
		       owner ? owner : "not RAM mm/ was given");
		return -EPERM;
	}
	return 0;
}

unsigned long mm_free_reserved_range(phys_addr_t start, phys_addr_t end, const char *why)
{
	unsigned long flags = mm_spin_lock_irqsave(&memory_add_lock), n = 0;

	if (!check_reserved_range(start, end, why)) {
		n = free_range(PFN_DOWN(start), PFN_DOWN(end));
	}
	mm_spin_unlock_irqrestore(&memory_add_lock, flags);
	return n;
}

/* ---- adding RAM ------------------------------------------------------------------------------ */

/* Why [start, start + size) cannot be added (reported), or 0 when it can. */
static int check_new_range(phys_addr_t start, phys_addr_t size)
{
	phys_addr_t end = start + size;
	const char *bad = !size ? "its size is 0" : end < start ? "it wraps around the address space"
			: (start | size) % MM_ADD_MEMORY_ALIGN ? "start and size are not multiples of a memmap chunk (512 KiB)"
			: NULL;

	_Static_assert(MM_ADD_MEMORY_ALIGN == 512 << 10, "the message says 512 KiB");
	if (bad) {
		printk("mm: cannot add [mem %#llx+%#llx]: %s\n", (unsigned long long)start, (unsigned long long)size, bad);
		return -EINVAL;
	}
	if (PFN_DOWN(end) > mm_memmap_limit_pfn) {
		printk("mm: cannot add [mem %#llx-%#llx]: beyond %#llx, the limit the boot sized mm/'s "
		       "structures for (mm_init_params.hotplug_end)\n", (unsigned long long)start,
		       (unsigned long long)(end - 1), (unsigned long long)PFN_PHYS(mm_memmap_limit_pfn));
		return -ERANGE;
	}
	for (unsigned long c = PFN_DOWN(start) >> MEMMAP_CHUNK_SHIFT; c < PFN_DOWN(end) >> MEMMAP_CHUNK_SHIFT; c++)
		if (memmap_chunk_backed(c)) {
			printk("mm: cannot add [mem %#llx-%#llx]: frames %#lx-%#lx have struct pages already "
			       "(RAM mm/ describes)\n", (unsigned long long)start, (unsigned long long)(end - 1),
			       c << MEMMAP_CHUNK_SHIFT, ((c + 1) << MEMMAP_CHUNK_SHIFT) - 1);
			return -EINVAL;
		}
	if (pfn_zone(PFN_DOWN(start)) != pfn_zone(PFN_DOWN(end) - 1)) {
		printk("mm: cannot add [mem %#llx-%#llx]: it crosses a zone boundary; add each zone's part\n",
		       (unsigned long long)start, (unsigned long long)(end - 1));
		return -EINVAL;
	}
	return 0;
}

/* The page whose lru is entry. */
static struct page *lru_page(struct list_head *entry)
{
	return (struct page *)((char *)entry - offsetof(struct page, lru));
}

/* Frees the pages on list (taken for struct pages that were not needed). */
static void free_page_list(struct list_head *list)
{
	while (!list_empty(list)) {
		struct page *page = lru_page(list->next);

		list_del(&page->lru);
		__free_pages(page, 0);
	}
}

/* Takes a page for each of the n chunks' struct pages onto list, or none (-ENOMEM, reported). */
static int take_memmap_pages(unsigned long n, struct list_head *list)
{
	for (unsigned long i = 0; i < n; i++) {
		struct page *page = alloc_pages(GFP_KERNEL | __GFP_NORECLAIM | __GFP_NOWARN, 0);

		if (!page) {
			free_page_list(list);
			printk("mm: cannot add memory: no free page for its struct pages (%lu needed)\n", n);
			return -ENOMEM;
		}
		list_add(&page->lru, list);
	}
	return 0;
}

/* Backs chunks [c, end) with the pages on list (one each); what is left on list is not needed. */
static int back_chunks(unsigned long c, unsigned long end, struct list_head *list)
{
	for (; c < end; c++) {
		struct page *page = list_empty(list) ? NULL : lru_page(list->next);
		int err;

		if (page)
			list_del(&page->lru);
		err = memmap_add_chunk(c, page ? PFN_PHYS(page_to_pfn(page)) : 0);
		if (err) {
			if (page)
				__free_pages(page, 0);
			printk("mm: frames from %#lx stay offline: their struct pages could not be mapped\n",
			       c << MEMMAP_CHUNK_SHIFT);
			return err;
		}
	}
	return 0;
}

/* The zone of [pfn, end) spans it and counts it present; its pageblock arrays cover it. */
static void zone_grow(struct zone *zone, unsigned long pfn, unsigned long end)
{
	if (!zone->present_pages || pfn < zone->start_pfn)
		__atomic_store_n(&zone->start_pfn, pfn, __ATOMIC_RELAXED);
	if (end > zone->end_pfn)
		__atomic_store_n(&zone->end_pfn, end, __ATOMIC_RELAXED);
	__atomic_store_n(&zone->present_pages, zone->present_pages + (end - pfn), __ATOMIC_RELAXED);
}

/* Adds [pfn, end), checked, while memory_add_lock is held. */
static int add_range(unsigned long pfn, unsigned long end)
{
	struct zone *zone = &mm_zones[pfn_zone(pfn)];
	unsigned long c = pfn >> MEMMAP_CHUNK_SHIFT, c_end = end >> MEMMAP_CHUNK_SHIFT;
	struct list_head pages = { &pages, &pages };
	int err = memmap_prebacked_array() ? 0 : take_memmap_pages(c_end - c, &pages);

	if (err)
		return err;
	err = pageblock_grow_zone(zone, pfn, end);
	if (err) {
		free_page_list(&pages);
		printk("mm: cannot add frames %#lx-%#lx: zone %s's pageblock arrays have no room for them "
		       "(a zone with memory cannot grow below its first pageblock)\n", pfn, end - 1, zone->name);
		return err;
	}
	err = back_chunks(c, c_end, &pages);
	free_page_list(&pages);
	if (err)
		return err;
	zone_grow(zone, pfn, end);
	if (end > mm_max_pfn)
		__atomic_store_n(&mm_max_pfn, end, __ATOMIC_RELAXED);
	free_range(pfn, end);
	return 0;
}

int mm_add_memory(phys_addr_t start, phys_addr_t size)
{
	unsigned long flags = mm_spin_lock_irqsave(&memory_add_lock);
	int err = check_new_range(start, size);

	if (!err)
		err = add_range(PFN_DOWN(start), PFN_DOWN(start + size));
	mm_spin_unlock_irqrestore(&memory_add_lock, flags);
	return err;
}
