/* SPDX-License-Identifier: MIT */
/*
 * mm_init(): firmware map -> memblock -> memmap -> buddy allocator, the same path in the kernel
 * and on the host. See mm/init.h.
 */
#include "mm/init.h"

#include "mm/arch.h"
#include "mm/buddy.h"
#include "mm/compaction.h"
#include "mm/compound_dtor.h"
#include "mm/pcp.h"
#include "mm/hugetlb.h"
#include "mm/memblock.h"
#include "mm/memory_add.h"
#include "mm/mm_picture.h"
#include "mm/mm_stats.h"
#include "mm/node_stat.h"
#include "mm/page_alloc.h"
#include "mm/page_owner.h"
#include "mm/pageblock.h"
#include "mm/poison.h"
#include "mm/shrinker.h"
#include "mm/slab.h"
#include "mm/vmalloc.h"
#include "mm/watermark.h"

struct mm_init_timing mm_init_timing;
uint64_t mm_unused_ram_bytes;

static uint64_t now(const struct mm_init_params *p)
{
	return p->cycles ? p->cycles() : 0;
}

/*
 * The index of the usable entry of map with the most RAM below limit (where the early allocator
 * may allocate), or map->nr when there is none.
 */
static unsigned int largest_usable(const struct fw_map *map, phys_addr_t limit)
{
	unsigned int best = map->nr;
	uint64_t best_size = 0;

	for (unsigned int i = 0; i < map->nr; i++) {
		const struct fw_map_entry *e = &map->entry[i];
		uint64_t size = e->base < limit ? MIN(e->base + e->size, limit) - e->base : 0;

		if (e->type == FW_USABLE && size > best_size) {
			best = i;
			best_size = size;
		}
	}
	return best;
}

/* Adds usable entry e to memblock; RAM it cannot record stays unused and is counted in *nunused. */
static void add_usable(const struct fw_map_entry *e, unsigned int *nunused)
{
	if (memblock_add(e->base, e->size)) {
		mm_unused_ram_bytes += e->size;
		++*nunused;
	}
}

/*
 * Reserves the caller's ranges, then adds the usable RAM of the map. The reservations come first
 * so that a memory list that grows takes its new array from memory that is really free, and the
 * largest usable range goes in first so that there is room for it to grow into however
 * fragmented the rest is. RAM the lists cannot record stays unused and is counted.
 */
/*
 * Reserves the frame the direct map puts at virtual address 0 when the firmware map says it is
 * usable (an identity-mapped kernel, mm_direct_map_offset 0, with RAM at physical 0): a block
 * there would have page_address() NULL, and an object in it would be NULL to kmalloc()'s callers
 * and to kfree(). Before the first memblock allocation, which could take it. -ENOMEM when
 * memblock has no room to record it.
 */
static int reserve_null_frame(const struct fw_map *map)
{
	phys_addr_t null = virt_to_phys(NULL);

	for (unsigned int i = 0; i < map->nr; i++) {
		const struct fw_map_entry *e = &map->entry[i];

		/* Does [null, null + PAGE_SIZE) meet the entry? Differences, which cannot overflow. */
		if (e->type != FW_USABLE || (null - e->base >= e->size && e->base - null >= PAGE_SIZE))
			continue;
		mm_report_null_frame((unsigned long)PFN_DOWN(null));
		return memblock_reserve(null, PAGE_SIZE, "the frame at virtual address 0");
	}
	return 0;
}

static int memblock_from_map(const struct mm_init_params *p)
{
	const struct fw_map *map = p->map;
	unsigned int nunused = 0, first;

	memblock_reset();
	memblock_set_current_limit(p->early_limit ? p->early_limit : UINT64_MAX);
	for (unsigned int i = 0; i < p->nreserve; i++)
		if (memblock_reserve(p->reserve[i].base, p->reserve[i].size, p->reserve[i].what))
			return -ENOMEM;
	for (unsigned int i = 0; i < p->nreleasable; i++)
		if (memblock_reserve(p->releasable[i].base, p->releasable[i].size, p->releasable[i].what))
			return -ENOMEM;
	if (reserve_null_frame(map))
		return -ENOMEM;
	memblock_allow_resize();
	mm_unused_ram_bytes = 0;
	first = largest_usable(map, mm_memblock.current_limit);
	if (first < map->nr)
		add_usable(&map->entry[first], &nunused);
	for (unsigned int i = 0; i < map->nr; i++)
		if (i != first && map->entry[i].type == FW_USABLE)
			add_usable(&map->entry[i], &nunused);
	if (nunused)
		printk("mm: %u usable ranges (%llu KiB of RAM) could not be recorded and stay unused\n",
		       nunused, (unsigned long long)(mm_unused_ram_bytes >> 10));
	return 0;
}

/* Adds memory region [base, end) to the present pages and spans of the zones it covers. */
static void zones_add_present(unsigned long pfn, unsigned long end)
{
	while (pfn < end) {
		unsigned long stop = MIN(end, pfn_zone_end(pfn));
		struct zone *zone = &mm_zones[pfn_zone(pfn)];

		if (!zone->present_pages)
			zone->start_pfn = pfn;
		zone->end_pfn = stop;
		zone->present_pages += stop - pfn;
		pfn = stop;
	}
}

static void zones_from_memblock(void)
{
	zones_reset();
	for (unsigned int i = 0; i < mm_memblock.memory.cnt; i++) {
		const struct memblock_region *r = &mm_memblock.memory.regions[i];
		zones_add_present(PFN_UP(r->base), PFN_DOWN(r->base + r->size));
	}
}

/* memblock_for_each_free() callback: the frames of a free range become free buddy blocks. */
static void hand_off_range(phys_addr_t base, phys_addr_t end, void *unused)
{
	unsigned long pfn = PFN_UP(base), last = PFN_DOWN(end);

	(void)unused;
	for (unsigned long p = pfn; p < last; p++)
		page_flag_clear(pfn_to_page(p), PG_reserved);
	while (pfn < last) {
		/* A free range may cross a node's edge, which need not be aligned: no block does. */
		unsigned int order = buddy_block_order(pfn, MIN(last, pfn_zone_end(pfn)) - pfn);
		struct zone *zone = &mm_zones[pfn_zone(pfn)];

		mm_buddy_add_block(zone, pfn_to_page(pfn), order); /* one CPU at boot: no lock needed */
		zone->managed_pages += 1UL << order;
		pfn += 1UL << order;
	}
}

static void report(const struct fw_map *map)
{
	printk("mm: firmware memory map, sanitized:\n");
	fw_map_print(map);
	show_mem_summary();
	if (mm_nr_node_ids > 1)
		show_node_meminfo();
	show_buddyinfo();
	show_zone_pictures();
	if (mm_page_owner_on)
		printk("page_owner: on, %lu KiB of records for %lu frames\n",
		       (unsigned long)(ALIGN_UP(page_owner_frames() * sizeof(struct page_owner), PAGE_SIZE) >> 10),
		       page_owner_frames());
}

/*
 * The bases mm/ computes addresses from must be page aligned: a frame's direct-map address would
 * otherwise straddle two frames, and the free path's alignment test relies on the memmap's. A
 * caller's pre-backed memmap becomes the memmap's base here (its size is checked by memmap_init()).
 */
static int check_environment(const struct mm_init_params *p)
{
	if (mm_direct_map_offset % PAGE_SIZE) {
		printk("mm: the direct map's base (mm_direct_map_offset) %#lx is not page aligned\n",
		       (unsigned long)mm_direct_map_offset);
		return -EINVAL;
	}
	if (!p->memmap && p->memmap_size) {
		printk("mm: a memmap_size of %zu bytes but no memmap array\n", p->memmap_size);
		return -EINVAL;
	}
	if ((uintptr_t)p->memmap % PAGE_SIZE) {
		printk("mm: the memmap array given to mm_init() at %p is not page aligned\n", p->memmap);
		return -EINVAL;
	}
	if (p->memmap)
		mm_vmemmap_base = (uintptr_t)p->memmap;
	if (mm_vmemmap_base % PAGE_SIZE) {
		printk("mm: the memmap's base %#lx is not page aligned\n", (unsigned long)mm_vmemmap_base);
		return -EINVAL;
	}
	return 0;
}

/* The lock checker's records of the CPUs past its own 64, from memblock (MM_DEBUG builds). */
static int lock_check_cpus_init(unsigned int nr_cpus)
{
	size_t bytes = mm_lock_check_cpu_bytes(nr_cpus);
	phys_addr_t phys;

	if (!bytes)
		return 0;
	phys = memblock_alloc_named(ALIGN_UP(bytes, PAGE_SIZE), PAGE_SIZE, UINT64_MAX, "lock_check CPUs");
	if (!phys) {
		printk("mm: no memory for the lock checker's records of %u CPUs (%zu bytes)\n", nr_cpus, bytes);
		return -ENOMEM;
	}
	mm_lock_check_set_cpus(phys_to_virt(phys), nr_cpus);
	return 0;
}

int mm_init(const struct mm_init_params *p)
{
	const struct memory_add_ranges ranges = { p->reserve, p->releasable, p->offline, p->nreserve,
						  p->nreleasable, p->noffline, p->hotplug_end };
	uint64_t t0, t1;
	int err;

	mm_nr_poisoned_pages = 0;
	mm_alloc_gate.word = 0; /* every allocation slow until page_owner is known, below */
	mm_lock_check_set_cpus(NULL, 0); /* a previous build's records are in memory about to be reused */
	shrinker_reset(); /* those of a previous build are gone; slab_init() registers the slab's */
	/* The destructors compound pages may carry; the first is the default. */
	if (register_compound_dtor(free_compound_page, "free_compound_page") ||
	    register_compound_dtor(free_huge_page, "free_huge_page"))
		return -EINVAL;
	if ((p->zone_dma_end | p->zone_dma32_end) % (PAGE_SIZE << MAX_ORDER) || p->zone_dma_end > p->zone_dma32_end) {
		printk("mm: zone limits %#llx and %#llx are not ordered multiples of %lu KiB\n",
		       (unsigned long long)p->zone_dma_end, (unsigned long long)p->zone_dma32_end,
		       (PAGE_SIZE << MAX_ORDER) >> 10);
		return -EINVAL;
	}
	err = check_environment(p);
	if (err)
		return err;
	mm_zone_dma_end_pfn = PFN_DOWN(p->zone_dma_end);
	mm_zone_dma32_end_pfn = PFN_DOWN(p->zone_dma32_end);
	fw_map_sanitize(p->map);
	if (!fw_map_usable_bytes(p->map)) {
		printk("mm: the firmware memory map has no usable RAM\n");
		return -ENOMEM;
	}
	err = memblock_from_map(p);
	if (err) {
		printk("mm: cannot record the ranges in use; refusing to hand out any memory\n");
		return err;
	}
	if (p->before_memmap && (err = p->before_memmap()))
		return err;
	memblock_set_current_limit(UINT64_MAX);
	mm_numa_setup(p->numa, p->nr_cpus ? p->nr_cpus : 1);
	zones_from_memblock();
	err = mm_pcp_init(p->nr_cpus);
	if (!err)
		err = slab_cpu_init(p->nr_cpus);
	if (!err)
		err = lock_check_cpus_init(p->nr_cpus);
	if (!err)
		err = pageblock_init(PFN_DOWN(mm_memory_add_limit(&ranges)));
	if (err)
		return err;
	t0 = now(p);
	err = memmap_init(p->memmap ? p->memmap_size : 0, PFN_DOWN(mm_memory_add_limit(&ranges)), p->run_parallel);
	if (err)
		return err;
	t1 = now(p);
	/* Without its records, it stays off; with them, they cover memory added later too. */
	page_owner_init(p->page_owner ? MAX(mm_max_pfn, mm_memmap_limit_pfn) : 0);
	alloc_slow_reasons_add(mm_page_owner_on); /* opens the fast path unless page_owner is on: mm/poison.h */
	mm_memory_add_boot(&ranges);
	memblock_for_each_free(hand_off_range, NULL);
	if (p->picture) /* while memblock still knows who reserved what */
		show_memory_picture(p->map);
	memblock_retire();
	mm_pcp_set_limits();
	setup_zone_watermarks();
	page_alloc_init_zones();
	compaction_init();
	slab_init(); /* allocates nothing: the boot report's figures are the page allocator's */
	vmalloc_init(); /* nor this: no area yet */
	mm_init_timing = (struct mm_init_timing){ t1 - t0, now(p) - t1, mm_memmap_bytes / sizeof(struct page) };
	if (!p->quiet)
		report(p->map);
	return 0;
}
