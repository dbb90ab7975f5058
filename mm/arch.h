/*
 * Everything mm/ needs from the environment it runs in: the kernel (kernel/mm_arch.c) and the
 * host test harness (tests/mm/host_arch.c) each provide these. Nothing else in mm/ knows about
 * x86, page tables, or the boot loader.
 */
#ifndef MM_ARCH_H
#define MM_ARCH_H

#include "mm/types.h"

/* The direct map: physical address p is reachable at virtual address p + mm_direct_map_offset. */
extern uintptr_t mm_direct_map_offset;

/* Virtual address of the memmap: struct page of pfn N is at mm_vmemmap_base + N * sizeof(struct page). */
extern uintptr_t mm_vmemmap_base;

/*
 * Makes [virt, virt + size) of the memmap region refer to [phys, phys + size). Both are page
 * aligned; phys was allocated by mm/ from the early allocator. Returns 0, or -ENOMEM when the
 * environment cannot allocate its own page tables.
 */
int arch_map_memmap(uintptr_t virt, phys_addr_t phys, size_t size);

/* Stops everything after printing the message (kernel: halt; host: abort). */
void panic(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

static inline void *phys_to_virt(phys_addr_t p) { return (void *)(uintptr_t)(p + mm_direct_map_offset); }
static inline phys_addr_t virt_to_phys(const void *v) { return (uintptr_t)v - mm_direct_map_offset; }

#endif
