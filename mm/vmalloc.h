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

/**
 * vmalloc() - Allocate memory contiguous in virtual addresses.
 * @size: bytes, rounded up to whole pages.
 *
 * The pages are mapped read-write at consecutive addresses; the contents are undefined.
 *
 * Return: the address; NULL (said why) for size 0, no room left in the range, or no memory;
 * nothing is then kept.
 */
void *vmalloc(size_t size);

/**
 * vzalloc() - vmalloc() with the contents zeroed.
 * @size: as vmalloc()'s.
 *
 * Return: as vmalloc().
 */
void *vzalloc(size_t size);

/**
 * __vmalloc() - vmalloc() with the page allocator's gfp.
 * @size: as vmalloc()'s.
 * @gfp: only __GFP_ZERO, __GFP_NOWARN and __GFP_HIGH (mm/gfp.h) mean something here.
 *
 * Anything else in gfp (a zone, a mobility, __GFP_COMP) is refused. __GFP_NOWARN keeps a failure
 * quiet.
 *
 * Return: as vmalloc(); NULL (reported) for a refused gfp.
 */
void *__vmalloc(size_t size, gfp_t gfp);

/**
 * vfree() - Free what vmalloc() returned.
 * @addr: the address vmalloc() returned; NULL: nothing.
 *
 * Unmaps it (every CPU's TLB flushed), frees its pages and its place. Any other address (not an
 * area's start, a vmap()'d area, freed already) is reported and changes nothing. A page of the
 * area that a migration holds is waited for: the migration ends (moved or put back) before the
 * area goes.
 */
void vfree(const void *addr);

/**
 * vmap() - Map pages of one's own at consecutive addresses.
 * @pages: the caller's pages: any pages, in any order, the same page more than once if wanted.
 * @count: how many entries of pages[] to map.
 * @flags: VM_MAP (or 0).
 *
 * The pages are mapped read-write, with a guard page after them. The area keeps its own copy of
 * the array. The pages stay the caller's: vmap() takes no reference, they never move while
 * mapped, and the caller frees them after vunmap().
 *
 * Return: the address, or NULL (said why) for count 0, a NULL page, flags other than VM_MAP, no
 * room or no memory for the tables.
 */
void *vmap(struct page **pages, unsigned int count, unsigned long flags);

/**
 * vunmap() - Remove a mapping vmap() made.
 * @addr: the address vmap() returned; any other address is reported and ignored.
 */
void vunmap(const void *addr);

/**
 * vmalloc_to_page() - The page mapped at an address of an area.
 * @addr: any byte of a vmalloc() or vmap() area.
 *
 * A page being moved is the old page until the move is over. May be called anywhere.
 *
 * Return: the page; NULL when addr is in no area (a guard page, a gap, outside the range).
 */
struct page *vmalloc_to_page(const void *addr);

/**
 * is_vmalloc_addr() - Is an address inside the vmalloc range (mapped or not)?
 * @addr: any address. May be called anywhere.
 *
 * Return: true when addr is between the range's start and end.
 */
bool is_vmalloc_addr(const void *addr);

/**
 * vmalloc_fault() - For the environment's page-fault handler: wait for a page being moved.
 * @addr: the faulting address, inside the vmalloc range; called with interrupts on.
 *
 * Return: true when addr is a page being moved (a migration marker): it has waited until the
 * move is over, and the faulting access is to be retried. false: no move there, a real fault to
 * report (a guard page, freed memory, a wild pointer).
 */
bool vmalloc_fault(uintptr_t addr);

/**
 * kvmalloc() - kmalloc() when small and it has memory, vmalloc() otherwise.
 * @size: bytes; kvmalloc(0) is kmalloc(0)'s ZERO_SIZE_PTR.
 * @gfp: as __vmalloc() allows.
 *
 * kmalloc() serves up to KMALLOC_MAX_CACHE_SIZE bytes when it has memory; above, or when it
 * fails, vmalloc() (a large buffer from scattered pages needs no large free block).
 *
 * Return: the address, or NULL. Free it with kvfree().
 */
void *kvmalloc(size_t size, gfp_t gfp);

/**
 * kvzalloc() - kvmalloc() with the contents zeroed.
 * @size: as kvmalloc()'s.
 * @gfp: as kvmalloc()'s.
 *
 * Return: as kvmalloc().
 */
void *kvzalloc(size_t size, gfp_t gfp);

/**
 * kvfree() - Free what kvmalloc() or kvzalloc() returned.
 * @addr: the address; it tells the two kinds apart (is_vmalloc_addr()).
 */
void kvfree(const void *addr);

/**
 * vmalloc_nr_pages() - Pages vmalloc() holds now: meminfo's VmallocUsed.
 *
 * vmap()'s pages are the callers' and do not count.
 *
 * Return: that count.
 */
unsigned long vmalloc_nr_pages(void);

/**
 * vmalloc_marker_faults() - Faults on a migration marker since boot.
 *
 * Return: how many accesses waited in vmalloc_fault() for a move.
 */
unsigned long vmalloc_marker_faults(void);

/**
 * vmalloc_set_range() - Make a range the one areas are carved from.
 * @start: its start, page aligned, inside the environment's range.
 * @end: its end, page aligned, inside the environment's range.
 *
 * For an environment that learns its range late or a test that needs a small one.
 *
 * Return: 0; -EBUSY while any area exists; -EINVAL for a range outside mm_vmalloc_start..end.
 */
int vmalloc_set_range(uintptr_t start, uintptr_t end);

/**
 * vmalloc_init() - Forget every area.
 *
 * mm_init() calls it, as a new allocator knows of none. Allocates nothing; the range becomes
 * mm_vmalloc_start..end again.
 */
void vmalloc_init(void);

#endif
