/* SPDX-License-Identifier: MIT */
/* x86-64 four-level page tables: the kernel's mappings after boot. */
#ifndef KERNEL_PAGING_H
#define KERNEL_PAGING_H

#include "mm/types.h"

/*
 * Where paging gets a zeroed 4 KiB page for a new table: the caller (kernel/mm_setup.c) sets it
 * to the early allocator, and later to the buddy allocator. Returns a physical address, 0 if none.
 */
extern phys_addr_t (*page_table_alloc)(void);

/*
 * Switches to the higher-half GDT address and drops the boot identity map, so that a NULL or
 * low-address access faults instead of reading physical memory.
 */
void paging_drop_identity_map(void);

/*
 * Maps [va, va + size) to [pa, pa + size), read-write, no-execute, with the largest pages that fit
 * (1 GiB where the CPU has them, 2 MiB, else 4 KiB). Parts already mapped by a huge page of the
 * direct map are left as they are. Returns 0, or -ENOMEM when a table cannot be allocated.
 */
int map_range(uintptr_t va, phys_addr_t pa, uint64_t size);

/*
 * Maps the device registers at physical [pa, pa + size) uncached (PCD and PWT set, 4 KiB pages)
 * at the next free place of MMIO_AREA; returns the virtual address of pa, NULL when out of room
 * or of page tables. Boot CPU, at boot.
 */
void *map_mmio(phys_addr_t pa, uint64_t size);

/* Maps the pages covering physical [base, base + size) into the direct map; as map_range(). */
int direct_map_range(phys_addr_t base, uint64_t size);

/*
 * The kernel's virtual areas besides the direct map (PML4 entry 273), the memmap (entry 468) and
 * the kernel image (entry 511): each CPU's stack with an unmapped guard below it (kernel/smp.c),
 * device registers (map_mmio()), 2 MiB compound pages mapped whole (kernel/vmap_huge.h), and
 * vmalloc's range (mm/vmalloc.h; its page tables: kernel/vmalloc_arch.c).
 */
#define KSTACK_AREA     0xffffc90000000000UL /* PML4 entry 402 */
#define MMIO_AREA       0xffffca0000000000UL /* PML4 entry 404 */
#define MMIO_AREA_SIZE  (1UL << 30)
#define HUGE_MAP_AREA   0xffffcb0000000000UL /* PML4 entry 406 */
#define HUGE_MAP_AREA_SIZE (1UL << 30)       /* 512 mappings of 2 MiB, under one page directory */
#define VMALLOC_AREA    0xffffcc0000000000UL /* PML4 entry 408 */
#define VMALLOC_AREA_SIZE (1UL << 39)        /* the whole entry: 512 GiB */

/* Page-table entry bits (the same at every level; PTE_HUGE only in a PDPT or PD entry). */
#define PTE_PRESENT (1ULL << 0)
#define PTE_WRITE   (1ULL << 1)
#define PTE_PWT     (1ULL << 3)
#define PTE_PCD     (1ULL << 4)
#define PTE_HUGE    (1ULL << 7)
#define PTE_NX      (1ULL << 63)
#define PTE_ADDR    0x000ffffffffff000ULL
#define PTE_TABLE   (PTE_PRESENT | PTE_WRITE) /* an entry that points to a table: its leaves decide */

/* Each level's entries map 2^shift bytes: 512 GiB, 1 GiB, 2 MiB and PAGE_SHIFT (4 KiB). */
#define PML4_SHIFT 39
#define PDPT_SHIFT 30
#define PD_SHIFT   21

/* Where the kernel image is linked: -2 GiB (boot/entry.asm and linker.ld say it in their own syntax). */
#define KERNEL_VMA 0xffffffff80000000UL

/*
 * The index of va's entry in a table whose entries each map 2^shift bytes (PML4_SHIFT down to
 * PAGE_SHIFT).
 */
static inline unsigned int pt_index(uintptr_t va, unsigned int shift) { return (va >> shift) & 511; }

/* The PML4 this CPU runs on, through the direct map: every CPU runs on the kernel's one set. */
uint64_t *kernel_pml4(void);

/*
 * A zeroed page-table page from page_table_alloc, counted in page_table_pages; its physical
 * address, 0 when there is none.
 */
phys_addr_t page_table_new(void);

/*
 * Gives back a page-table page page_table_new() returned after boot (one from the buddy
 * allocator) and uncounts it. The caller has unhooked it and flushed every CPU's TLB first.
 */
void page_table_free(phys_addr_t table);

/*
 * Page-table pages in use beyond the boot tables (reported with the memory summary): allocated
 * since boot, less those page_table_free() gave back.
 */
extern unsigned long page_table_pages;

#endif
