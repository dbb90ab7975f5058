/* SPDX-License-Identifier: MIT */
/*
 * vmalloc: memory that is contiguous in virtual addresses only. Its pages are allocated one at a
 * time (order 0, GFP_HIGHUSER_MOVABLE), so a large buffer needs no large free block, and mapped
 * one after the other in a virtual range the environment gives (mm_vmalloc_start..end, mm/arch.h).
 *
 *   char *buf = vmalloc(3 << 20);            // 768 pages, mapped at consecutive addresses
 *   struct page *p = vmalloc_to_page(buf + 5000);   // the page behind the second 4 KiB
 *   vfree(buf);
 *   void *t = kvmalloc(n, GFP_KERNEL);       // kmalloc when small, vmalloc otherwise
 *   kvfree(t);
 *
 * Areas. Each vmalloc() or vmap() is an area of whole pages followed by one guard page that is
 * never mapped, so running off the end of an area faults instead of writing the next one. The
 * areas are kept in a balanced search tree (a treap) by address, each node also holding the free
 * gap below it and the largest gap of its subtree: finding the area of an address, and the
 * lowest gap that fits a new area, take O(log n) steps for n areas. The descriptor of an area
 * (with its page array) comes from kmalloc, so it is never movable.
 *
 * Movable. vmalloc()'s pages may be moved by migration (mm/migrate.h) while their area is in use:
 * the owner's operations replace the page's mapping by a migration marker (not present, flushed
 * from every CPU's TLB), the contents are copied, and the new page is mapped at the same address.
 * A CPU that touches the page meanwhile faults; the environment's page-fault handler calls
 * vmalloc_fault(), which waits until the move is over, and the access is retried: no write is
 * lost. The waiting CPU must be able to take interrupts (the move makes a TLB shootdown), so:
 * touch vmalloc()'d memory with interrupts on, never in an interrupt handler; memory that must be
 * touched there comes from kmalloc() or vmap() of pages of one's own, which never move.
 *
 * Locking: one lock (vmalloc_lock, mm/lock_check.h: taken alone) guards the tree and every area's
 * page array and state. It is never held across a call of the environment's mapping hooks or of
 * the page allocator, so those may take their own locks and wait for other CPUs.
 *
 * vmalloc_to_page() and is_vmalloc_addr() may be called anywhere. Every other call is made with
 * interrupts on, outside interrupt handlers: unmapping waits for every CPU's TLB flush, and
 * vmalloc_fault() waits for a move that does.
 */
#ifndef MM_VMALLOC_H
#define MM_VMALLOC_H

#include "mm/gfp.h"
#include "mm/page.h"

/* vmap()'s flags: VM_MAP (the only one, Linux's name for a plain mapping of given pages). */
#define VM_MAP 0x4ul

/*
 * Allocates size bytes (rounded up to whole pages), mapped read-write at consecutive addresses;
 * the contents are undefined. NULL (said why) for size 0, no room left in the range, or no
 * memory; nothing is then kept.
 */
void *vmalloc(size_t size);

/* As vmalloc(), the contents zeroed. */
void *vzalloc(size_t size);

/*
 * As vmalloc(), with the page allocator's gfp: only __GFP_ZERO, __GFP_NOWARN and __GFP_HIGH
 * (mm/gfp.h) mean something here; anything else (a zone, a mobility, __GFP_COMP) is refused
 * (NULL, reported). __GFP_NOWARN keeps a failure quiet.
 */
void *__vmalloc(size_t size, gfp_t gfp);

/*
 * Frees what vmalloc() returned: unmaps it (every CPU's TLB flushed), frees its pages and its
 * place. NULL: nothing. Any other address (not an area's start, a vmap()'d area, freed already)
 * is reported and changes nothing. A page of the area that a migration holds is waited for: the
 * migration ends (moved or put back) before the area goes.
 */
void vfree(const void *addr);

/*
 * Maps the count pages of pages[] (the caller's: any pages, in any order, the same page more than
 * once if wanted) read-write at consecutive addresses, with a guard page after them; flags is
 * VM_MAP (or 0). The area keeps its own copy of the array. Returns the address, or NULL (said
 * why) for count 0, a NULL page, flags other than VM_MAP, no room or no memory for the tables.
 * The pages stay the caller's: vmap() takes no reference, they never move while mapped, and the
 * caller frees them after vunmap().
 */
void *vmap(struct page **pages, unsigned int count, unsigned long flags);

/* Removes the mapping vmap() returned at addr; any other address is reported and ignored. */
void vunmap(const void *addr);

/*
 * The page mapped at addr (any byte of an area); NULL when addr is in no area (a guard page, a
 * gap, outside the range). A page being moved is the old page until the move is over.
 */
struct page *vmalloc_to_page(const void *addr);

/* Is addr inside the vmalloc range (mapped or not)? */
bool is_vmalloc_addr(const void *addr);

/*
 * For the environment's page-fault handler, on a fault at addr inside the vmalloc range, with
 * interrupts on: true when addr is a page being moved (a migration marker): it has waited until
 * the move is over, and the faulting access is to be retried. false: no move there, a real fault
 * to report (a guard page, freed memory, a wild pointer).
 */
bool vmalloc_fault(uintptr_t addr);

/*
 * kmalloc() for up to KMALLOC_MAX_CACHE_SIZE bytes when it has memory, vmalloc() otherwise (a
 * large buffer from scattered pages needs no large free block). gfp as __vmalloc() allows;
 * kvmalloc(0) is kmalloc(0)'s ZERO_SIZE_PTR. kvzalloc() zeroes. Free with kvfree(), which tells the
 * two apart by the address (is_vmalloc_addr()).
 */
void *kvmalloc(size_t size, gfp_t gfp);
void *kvzalloc(size_t size, gfp_t gfp);
void kvfree(const void *addr);

/* Pages vmalloc() holds now (not vmap()'s, which are the callers'): meminfo's VmallocUsed. */
unsigned long vmalloc_nr_pages(void);

/* Faults on a migration marker since boot: accesses that waited in vmalloc_fault() for a move. */
unsigned long vmalloc_marker_faults(void);

/*
 * Makes [start, end) (page aligned, inside the environment's range) the range areas are carved
 * from, for an environment that learns its range late or a test that needs a small one. Returns
 * 0; -EBUSY while any area exists; -EINVAL for a range outside mm_vmalloc_start..end.
 */
int vmalloc_set_range(uintptr_t start, uintptr_t end);

/*
 * Forgets every area: mm_init() calls it, as a new allocator knows of none. Allocates nothing;
 * the range becomes mm_vmalloc_start..end again.
 */
void vmalloc_init(void);

#endif
