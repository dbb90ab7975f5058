/* SPDX-License-Identifier: MIT */
/*
 * mm_init(): the one path from the firmware map to a working page allocator, taken by the kernel
 * at boot and by the host harness (tests, map replay, fuzzer, benchmark) alike:
 *
 *   sanitize the firmware map -> memblock (usable RAM; reserve the caller's
 *   ranges) -> caller's hook (the kernel maps RAM into the direct map there) -> zones -> memmap
 *   -> every free memblock range to the buddy allocator -> memblock retired -> boot report.
 */
#ifndef MM_INIT_H
#define MM_INIT_H

#include "mm/fw_map.h"
#include "mm/memblock.h" /* struct mm_reservation */
#include "mm/memmap.h" /* MEMMAP_BYTES(), for mm_init_params.memmap */
#include "mm/node.h"   /* struct mm_numa_layout */


struct mm_init_params {
	struct fw_map *map;                  /* the firmware map; sanitized in place */
	/* Ranges in use or never to be trusted (a PC's first 1 MiB): reserved before anything else. */
	const struct mm_reservation *reserve;
	unsigned int nreserve;
	/*
	 * Optional: ranges reserved like those, that the caller will give back once done with them
	 * (boot modules): mm_free_reserved_range() (mm/memory_add.h) accepts their frames, and no
	 * others. Each must be usable RAM and overlap no other reservation, or it stays reserved for
	 * good (reported); at most MM_MAX_RELEASABLE.
	 */
	const struct mm_reservation *releasable;
	unsigned int nreleasable;
	/*
	 * The ends of ZONE_DMA and ZONE_DMA32 (mm/zone.h), multiples of the largest block
	 * (PAGE_SIZE << MAX_ORDER), dma_end <= dma32_end; a zone whose range is empty stays empty.
	 */
	phys_addr_t zone_dma_end, zone_dma32_end;
	/*
	 * Optional, called once memblock holds the map and the reservations, before anything is
	 * allocated from it: the kernel builds its direct map here (page tables from
	 * memblock_alloc_range()) and reserves 1 GiB pages for hugetlb. Non-zero stops mm_init().
	 */
	int (*before_memmap)(void);
	/*
	 * Optional: the early allocator stays below this until before_memmap() returns (the kernel
	 * passes 4 GiB, all its boot page tables map). 0: no limit.
	 */
	phys_addr_t early_limit;
	/* CPUs that will call mm/: arch_cpu_id() stays below this (mm/arch.h). 0 means 1. */
	unsigned int nr_cpus;
	/*
	 * Optional: the NUMA nodes (mm/node.h): which memory and which CPU belongs to which node,
	 * and their distances. Each node gets its own zones, per-CPU lists and memmap (in its own
	 * memory). NULL: one node. A layout mm/ cannot use is reported, and gives one node.
	 */
	const struct mm_numa_layout *numa;
	bool quiet;                          /* no boot report (the fuzzer) */
	/* Print the "mm: picture" lines of the address space (mm/mm_picture.h) after the hand-off. */
	bool picture;
	/*
	 * Record who allocated each block (mm/page_owner.h): 24 bytes per frame up to the highest
	 * usable one, from the early allocator. Off when there is not that much memory (reported).
	 */
	bool page_owner;
	/* Optional: a cycle counter (rdtsc), to time building the memmap and the hand-off. */
	uint64_t (*cycles)(void);
	/*
	 * Optional, for an environment without an early page-table mapper: a memmap array it has
	 * already backed, memmap_size bytes at memmap, page aligned, at least MEMMAP_BYTES(end of
	 * the highest usable RAM) (mm/memmap.h). mm_init() sets mm_vmemmap_base to it and never
	 * calls arch_map_memmap(); a wrong size or alignment is refused with a message. If it lies
	 * in RAM the map describes, reserve it. NULL: mm/ backs the region at mm_vmemmap_base.
	 */
	void *memmap;
	size_t memmap_size;
	/*
	 * Optional: memory may be added after boot (mm_add_memory(), mm/memory_add.h) up to this
	 * physical address. The map of backed memmap chunks, the pageblock arrays and the page_owner
	 * records are sized for it at boot (they cannot grow): a few bytes per MiB. 0: only into holes
	 * below the end of usable RAM. With a memmap array, the array must reach it too.
	 */
	phys_addr_t hotplug_end;
	/*
	 * Optional: RAM the caller kept out of the map (mem= on a kernel's command line) so as to add
	 * it later with mm_add_memory(): mm/ lists it for the caller (mm_offline_ram()), at most
	 * MM_MAX_OFFLINE ranges, and sizes its structures up to its end as for hotplug_end.
	 */
	const struct mm_reservation *offline;
	unsigned int noffline;
	/*
	 * Optional: runs work split in parts on several CPUs at once and returns when all of it is
	 * done (mm_run_parallel_fn, mm/memmap.h); mm_init() gives it the initialization of the
	 * struct pages, split by ranges of the memmap, the most of its time on a large machine. It
	 * must not call mm/ itself, nor need memory from it. The memmap comes out the same as with
	 * NULL: the calling CPU does all of it.
	 */
	mm_run_parallel_fn *run_parallel;
};

/* What the last mm_init() measured with params->cycles (zero without it). */
struct mm_init_timing {
	uint64_t memmap_cycles;  /* memmap_init(): backing, mapping, initializing struct pages */
	uint64_t handoff_cycles; /* free memblock ranges to the buddy allocator */
	unsigned long memmap_pages; /* struct pages initialized */
};
extern struct mm_init_timing mm_init_timing;

/*
 * Bytes of usable RAM the last mm_init() left unused because the early allocator could not record
 * them (no memory to grow its lists); reported at boot. Zero on every sane machine.
 */
extern uint64_t mm_unused_ram_bytes;

/**
 * mm_init() - Build the allocator: the whole path above.
 * @params: the firmware map, the reservations, the zone limits and the optional hooks above.
 *
 * Return: 0, or a negative errno (reported) when the map has no usable RAM, the memmap cannot be
 * built, or the environment is not what mm/arch.h asks (the direct map's base,
 * mm_direct_map_offset, and the memmap's base must be page aligned); the allocator is then
 * unusable.
 */
int mm_init(const struct mm_init_params *params);

#endif
