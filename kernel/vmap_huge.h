/* SPDX-License-Identifier: MIT */
/*
 * 2 MiB compound pages mapped whole into HUGE_MAP_AREA (kernel/paging.h, PML4 entry 406), each
 * with a single 2 MiB page-directory entry, and protection changes on part of such a mapping.
 *
 *   struct page *p = alloc_pages(GFP_KERNEL | __GFP_COMP, HUGE_MAP_ORDER);  // or alloc_huge_page()
 *   char *buf = vmap_huge(p);                      // one PDE with the PS bit: one TLB entry
 *   set_memory_ro((unsigned long)buf + 3 * PAGE_SIZE, 3);   // pages 3..5 read-only
 *   ...
 *   vunmap_huge(buf);
 *   // then free: put_page(p) if PageHead(p) still, else each of the 512 pages on its own
 *
 * The layout of the area: 1 GiB (HUGE_MAP_AREA_SIZE) at 0xffffcb0000000000, cut into 512 slots
 * of 2 MiB, one per mapping, handed out lowest first. All of it hangs from one page-directory
 * pointer table and one page directory, which exist only while at least one mapping does (the
 * last vunmap_huge() frees both and clears the PML4 entry); a mapping split into 4 KiB entries
 * has a page table of its own, freed with it. Every page-table page counts in page_table_pages.
 *
 * set_memory_ro()/set_memory_rw() on a whole mapping find the huge page from the address of any
 * of its sub-pages (the PDE's frame, pfn_to_page(), compound_head()), replace the 2 MiB entry by
 * a page table of 512 4 KiB entries with the same protection, and then change the entries asked
 * for. Like transparent huge pages, the compound page is split with the mapping
 * (split_huge_page(), mm/compound.h): 512 order-0 pages, each with a count of 1 that its owner
 * frees on its own. That needs the caller's reference to be the only one: if anybody else holds
 * one, the call returns -EBUSY and changes nothing (neither the mapping nor the page). A page of
 * the hugetlb pool is the exception: its mapping is split but the page stays whole, because it
 * belongs to the pool, which counts, hands out and takes back whole 2 MiB pages (its destructor
 * returns the unit to the pool's free list); so its references do not matter either. Any other
 * page with an owner that frees it whole (a large kmalloc's, a slab's, a destructor of its own:
 * mm/block_owner.h) is not split: set_memory_ro()/rw() return -EINVAL and change nothing.
 *
 * Every change that takes a right away (read-only, unmapped, a 2 MiB entry replaced) is flushed
 * from every CPU's TLB before the call returns (flush_tlb_kernel_range(), kernel/tlb.h).
 *
 * Any CPU may call these, with interrupts on (the TLB shootdown waits for the other CPUs'
 * interrupts), never from an interrupt handler. The mapping does not hold a reference on the
 * page: the caller keeps its own until after vunmap_huge().
 */
#ifndef KERNEL_VMAP_HUGE_H
#define KERNEL_VMAP_HUGE_H

#include "kernel/paging.h"
#include "mm/page.h"

#define HUGE_MAP_ORDER 9                          /* 2 MiB: what one PDE maps */
#define HUGE_MAP_SIZE (PAGE_SIZE << HUGE_MAP_ORDER)
#define HUGE_MAP_SLOTS (HUGE_MAP_AREA_SIZE / HUGE_MAP_SIZE)

/*
 * Maps the 2 MiB compound page headed by page (order HUGE_MAP_ORDER, from alloc_pages() with
 * __GFP_COMP or from the hugetlb pool) read-write, no-execute, with one 2 MiB entry; returns its
 * address in HUGE_MAP_AREA. NULL (said why) when page is not such a head, when it is mapped in
 * the area already (a second mapping would keep its own rights through set_memory_ro()), or when
 * the area is full or there is no memory for its page tables.
 */
void *vmap_huge(struct page *page);

/*
 * Removes the mapping vmap_huge() returned at addr, split or not, flushes it from every CPU, and
 * frees the page tables it no longer needs; the pages themselves are the caller's to free.
 * Returns 0, or -EINVAL (said why) when addr is not the start of a mapping.
 */
int vunmap_huge(void *addr);

/*
 * Makes the numpages pages at addr read-only (set_memory_ro) or writable again (set_memory_rw).
 * The range must lie inside one mapping of HUGE_MAP_AREA. A whole 2 MiB mapping is split first
 * (see above) unless it already has the protection asked for, in which case nothing changes.
 * Returns 0; -EINVAL for an unaligned address, a range outside one mapping or numpages < 1;
 * -EBUSY when the compound page cannot be split because others hold references, -EINVAL when
 * another owner frees it whole (see above), -ENOMEM when there is no page for the page table: in
 * each case nothing changed.
 */
int set_memory_ro(unsigned long addr, int numpages);
int set_memory_rw(unsigned long addr, int numpages);

/*
 * The page-table entry that maps addr in HUGE_MAP_AREA: the 2 MiB page-directory entry
 * (PTE_HUGE set) while the mapping is whole, its 4 KiB entry once split; 0 when not mapped.
 */
uint64_t huge_map_entry(const void *addr);

/* The struct page of the frame mapped at addr in HUGE_MAP_AREA; NULL when not mapped. */
struct page *huge_map_to_page(const void *addr);

#endif
