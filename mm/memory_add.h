/* SPDX-License-Identifier: MIT */
/*
 * Memory after boot: giving back ranges reserved at boot once they are done with (boot modules,
 * in the manner of Linux's free_reserved_area()), and adding a range of RAM mm_init() never saw
 * (hot-add in Linux's sense, without firmware events): its struct pages, the zones' spans, the
 * pageblock arrays and the counters grow, and its frames go to the buddy allocator.
 *
 * Both refuse, with a message and changing nothing, anything that would hand out a frame twice or
 * a frame in use: unaligned or empty ranges, frames the buddy allocator already manages, frames
 * the caller did not mark releasable at boot (the kernel image, the memmap, page_owner's records,
 * firmware ranges), and ranges the structures sized at boot cannot describe.
 * One lock serializes them; either may run on any CPU while the others allocate and free.
 */
#ifndef MM_MEMORY_ADD_H
#define MM_MEMORY_ADD_H

#include "mm/memblock.h"
#include "mm/memmap.h"

/* mm_init()'s ranges for memory after boot (struct mm_init_params, mm/init.h). */
struct memory_add_ranges {
	const struct mm_reservation *reserve, *releasable, *offline;
	unsigned int nreserve, nreleasable, noffline;
	phys_addr_t hotplug_end;
};

/**
 * mm_memory_add_boot() - Boot: remember the ranges the caller will give back, and its offline RAM.
 * @r: mm_init()'s ranges (releasable and offline, and reserve to check them against).
 *
 * Called by mm_init() while memblock lives. A releasable range that is not all usable RAM, or
 * that overlaps another reservation, stays reserved for good (reported); so do those beyond the
 * first MM_MAX_RELEASABLE.
 */
void mm_memory_add_boot(const struct memory_add_ranges *r);

/* Releasable reservations mm/ remembers at most. */
#define MM_MAX_RELEASABLE 32
/* Offline RAM ranges (mm_init_params.offline) mm/ remembers at most. */
#define MM_MAX_OFFLINE 16

/**
 * mm_memory_add_limit() - Boot: the physical address memory may be added up to.
 * @r: mm_init()'s ranges.
 *
 * Return: the larger of r->hotplug_end and the end of the offline ranges (0: none).
 */
phys_addr_t mm_memory_add_limit(const struct memory_add_ranges *r);

/**
 * mm_releasable_range() - A range mm_init() was given as releasable.
 * @i: its number, from 0.
 * @start: set to its first byte.
 * @end: set to one past its last byte.
 *
 * Return: false when there are not that many (the ones refused at boot are not counted).
 */
bool mm_releasable_range(unsigned int i, phys_addr_t *start, phys_addr_t *end);

/**
 * mm_offline_ram() - A range of RAM the caller kept out at boot to add later.
 * @i: its number, from 0.
 * @start: set to its first byte.
 * @end: set to one past its last byte.
 *
 * Return: false when there are not that many. A range stays listed once added.
 */
bool mm_offline_ram(unsigned int i, phys_addr_t *start, phys_addr_t *end);

/**
 * mm_free_reserved_range() - Give frames reserved at boot to the buddy allocator.
 * @start: the first byte, page aligned.
 * @end: one past the last byte, page aligned, above @start.
 * @why: what the range held, for the messages ("initrd", "ACPI reclaimable").
 *
 * Every frame must have a struct page, be reserved (PG_reserved: never handed to the buddy
 * allocator, nor given back before) and lie in one range mm_init() was given as releasable
 * (mm_init_params.releasable). The frames then become free blocks in their zones, and each zone's
 * managed pages, the watermarks, show_mem/meminfo and the memory picture count them. The caller
 * must not touch the range afterwards.
 *
 * Return: the frames given back (all but the one the direct map puts at virtual address 0, if
 * the range holds it: that one stays reserved, reported); 0 when the range is refused (reported,
 * nothing changed).
 */
unsigned long mm_free_reserved_range(phys_addr_t start, phys_addr_t end, const char *why);

/* The alignment mm_add_memory() asks of a range's start and size: one memmap chunk (512 KiB). */
#define MM_ADD_MEMORY_ALIGN ((phys_addr_t)MEMMAP_CHUNK_PAGES << PAGE_SHIFT)

/**
 * mm_add_memory() - Add a range of RAM mm_init() did not take (hot-add).
 * @start: the first byte, a multiple of MM_ADD_MEMORY_ALIGN.
 * @size: the bytes, a non-zero multiple of MM_ADD_MEMORY_ALIGN.
 *
 * The range must be RAM that nothing uses, reachable in the direct map (the caller maps it
 * first), within one zone, below mm_init_params.hotplug_end, and hold no frame mm/ already
 * describes (no memmap chunk of it backed). Backs its memmap chunks with pages from the buddy
 * allocator (arch_map_memmap(), as at boot) unless the caller's memmap array covers them,
 * initializes its struct pages, grows mm_max_pfn, the zone's span and present pages and its
 * pageblock arrays, then frees every frame to the buddy lists (managed pages, watermarks,
 * show_mem and the picture follow). A zone that had memory at boot cannot grow below its first
 * pageblock.
 *
 * Return: 0; -EINVAL (reported) for an empty, wrapping, unaligned or overlapping range or one
 * across a zone boundary; -ERANGE (reported) beyond hotplug_end or the zone's pageblock arrays;
 * -ENOMEM (reported) when no page is free for the struct pages (nothing changed) or mapping them
 * fails (the chunks backed so far stay reserved).
 */
int mm_add_memory(phys_addr_t start, phys_addr_t size);

/**
 * mm_hotplug_end_pfn() - One past the last frame mm_add_memory() can ever add.
 *
 * Return: the frame number (mm_init_params.hotplug_end, or the end of the memmap built at boot).
 */
unsigned long mm_hotplug_end_pfn(void);

/*
 * Says that frame pfn, which the direct map puts at virtual address 0, is kept out of the buddy
 * allocator (its page_address() would be NULL): mm_init() and mm_free_reserved_range() both
 * keep it.
 */
void mm_report_null_frame(unsigned long pfn);

#endif
