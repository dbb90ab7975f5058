/*
 * memblock: the early boot allocator, used before the buddy allocator exists.
 *
 * Two sorted lists of disjoint physical ranges: memory (usable RAM from the firmware map) and
 * reserved (the first 1 MiB, the kernel image, boot information, the memmap, early page tables
 * ...). Free memory is memory minus reserved. Allocations are taken from the top down and simply
 * become reserved ranges. Once the buddy allocator has taken every free range (hand-off),
 * memblock_retire() ends its life: any later call is a bug and panics.
 */
#ifndef MM_MEMBLOCK_H
#define MM_MEMBLOCK_H

#include "mm/types.h"

/* Each list holds at most this many ranges (touching ranges are merged). */
#define MEMBLOCK_MAX_REGIONS 128

struct memblock_region {
	phys_addr_t base;
	phys_addr_t size;
	const char *what; /* reserved list: who reserved it first (for the boot report) */
};

struct memblock_type {
	const char *name;
	unsigned int cnt;
	struct memblock_region regions[MEMBLOCK_MAX_REGIONS];
};

struct memblock {
	struct memblock_type memory;
	struct memblock_type reserved;
	bool retired;
};

/* The one early allocator. Tests may save a copy and restore it. */
extern struct memblock memblock;

/* Empties both lists and revives a retired allocator (start of mm_init(), tests). */
void memblock_reset(void);

/*
 * Adds [base, base + size) to memory. Returns 0, or -ENOMEM (reported, range ignored) when the
 * list is full.
 */
int memblock_add(phys_addr_t base, phys_addr_t size);

/*
 * Marks [base, base + size) reserved; what names the user in reports. Panics when the list is
 * full, since the range would otherwise be handed out while in use.
 */
void memblock_reserve(phys_addr_t base, phys_addr_t size, const char *what);

/*
 * Allocates size bytes aligned to align (a power of two), as high as possible, and reserves them.
 * Returns the physical address, or 0 when no free range fits. The memory is not cleared.
 */
phys_addr_t memblock_alloc(phys_addr_t size, phys_addr_t align);

/* Like memblock_alloc(), but the whole block lies below max_addr (e.g. 4 GiB for early page tables). */
phys_addr_t memblock_alloc_range(phys_addr_t size, phys_addr_t align, phys_addr_t max_addr);

/* Calls fn(base, end, arg) for every free range (memory minus reserved) in address order. */
void memblock_for_each_free(void (*fn)(phys_addr_t base, phys_addr_t end, void *arg), void *arg);

/* Bytes of memory, and of free memory (memory minus reserved). */
phys_addr_t memblock_memory_bytes(void);
phys_addr_t memblock_free_bytes(void);

/* Prints both lists ("memblock: reserved [mem 0x...-0x...] kernel image"). */
void memblock_print(void);

/* Ends the early allocator's life: any later call panics. */
void memblock_retire(void);

#endif
