/* SPDX-License-Identifier: MIT */
/*
 * The page allocator: blocks of 2^order physically contiguous frames (order 0..MAX_ORDER), in
 * Linux's vocabulary. Every call may be made on any CPU at once and from interrupt handlers: the
 * locks are taken with interrupts off (mm/README.md, "Locking"), and nothing here sleeps.
 *
 *   struct page *p = alloc_pages(GFP_KERNEL | __GFP_ZERO, 2);   // 16 KiB, zeroed
 *   memcpy(page_address(p), data, len);
 *   __free_pages(p, 2);
 *
 * Misuse of the free calls (double free, wrong order, reserved page ...) is reported by
 * bad_page() (mm/bad_page.h) and the block is left alone: it never reaches a free list and no
 * counter changes. The per-CPU lists' switches are in mm/pcp.h, poisoning in mm/poison.h,
 * buddyinfo and the memory summary in mm/mm_stats.h.
 */
#ifndef MM_PAGE_ALLOC_H
#define MM_PAGE_ALLOC_H

#include "mm/folio.h"
#include "mm/gfp.h"
#include "mm/memmap.h"
#include "mm/page.h"
#include "mm/zone.h"

/**
 * alloc_pages() - Allocate a block of 2^order physically contiguous frames.
 * @gfp: where from and how (mm/gfp.h): zone modifiers, __GFP_ZERO, __GFP_COMP, __GFP_HIGH ...
 * @order: the block is 2^order frames, 0..MAX_ORDER.
 *
 * The block's first page has a reference count of 1 (a compound page when gfp has __GFP_COMP and
 * order >= 1). Prefers the calling CPU's node (numa_node_id(), mm/node.h): alloc_pages_node()
 * with NUMA_NO_NODE. Tries ZONE_NORMAL, then ZONE_DMA32, then ZONE_DMA, starting at the highest zone
 * gfp allows; in each, this CPU's list, then the buddy lists down to the zone's min watermark (to
 * 0 with __GFP_HIGH, mm/watermark.h). Before failing it drains every CPU's lists and tries once
 * more. Then, unless gfp has __GFP_NORECLAIM (which a caller holding an mm lock must pass), it
 * compacts for a costly order (PAGE_ALLOC_COSTLY_ORDER or more: see set_alloc_compact_fn()
 * below) and tries once more, then runs the shrinkers (mm/shrinker.h), drains the lists again
 * and makes a last try.
 *
 * Return: the block's first page; NULL when no zone has such a block it may take (with a warning
 * unless __GFP_NOWARN) or when order > MAX_ORDER or gfp has unknown bits (always reported).
 */
struct page *alloc_pages(gfp_t gfp, unsigned int order);

/**
 * alloc_pages_node() - alloc_pages() preferring a node.
 * @nid: the node (mm/node.h), or NUMA_NO_NODE for the calling CPU's.
 * @gfp: as alloc_pages()'s; __GFP_THISNODE: nid's memory only.
 * @order: as alloc_pages()'s.
 *
 * Tries the nodes nearest first (the layout's distances; ties by node number), nid first: in
 * each, its zones from the highest gfp allows down, as alloc_pages() tries zones. With
 * __GFP_THISNODE only nid's zones (a node without memory: always NULL). Each allocation counts as
 * a hit, or a miss and foreign, against nid's first zone (mm/node.h).
 *
 * Return: as alloc_pages(); NULL (reported) for a node that does not exist.
 */
struct page *alloc_pages_node(int nid, gfp_t gfp, unsigned int order);

/**
 * alloc_pages_interleave() - alloc_pages() spreading blocks over the nodes in turn.
 * @gfp: as alloc_pages()'s.
 * @order: as alloc_pages()'s.
 *
 * Linux's interleave policy for one caller: each call prefers the next node with memory after
 * the one the previous call chose (one counter for all CPUs), as alloc_pages_node() without
 * __GFP_THISNODE (it falls back when that node is out of memory), and counts interleave_hit on
 * the node when the block came from it.
 *
 * Return: as alloc_pages().
 */
struct page *alloc_pages_interleave(gfp_t gfp, unsigned int order);

/**
 * set_cpu_numa_node() - Say which node a CPU is on.
 * @cpu: the CPU (below mm_init_params.nr_cpus).
 * @nid: its node.
 *
 * For an environment that learns only when a CPU comes up which one it is (mm_init() took the
 * layout's guess): the CPU's allocations then prefer nid. Call it before the CPU allocates.
 *
 * Return: 0, or -EINVAL (reported) for a CPU or node that does not exist.
 */
int set_cpu_numa_node(unsigned int cpu, unsigned int nid);

/**
 * __free_pages() - Drop the caller's reference to a block and free it.
 * @page: the block's first page, as alloc_pages() returned it.
 * @order: the order the block was allocated at.
 *
 * The caller must hold the only reference (count 1) on the block's first page and pass the order
 * it was allocated at; a compound page's order is checked by free_compound_prepare(). A block
 * another owner gives back itself (a slab's, a hugetlb pool page, a compound page with a
 * destructor other than the default, such as a large kmalloc's: mm/block_owner.h) is refused.
 * Anything else is reported by bad_page() and nothing is freed.
 */
void __free_pages(struct page *page, unsigned int order);

/**
 * __get_free_pages() - alloc_pages() returning the block's direct-map address.
 * @gfp: as alloc_pages()'s.
 * @order: as alloc_pages()'s.
 *
 * Return: the address of the block's first byte, or 0 on failure.
 */
unsigned long __get_free_pages(gfp_t gfp, unsigned int order);

/**
 * free_pages() - __free_pages() by address.
 * @addr: the address __get_free_pages() returned; 0 is ignored.
 * @order: the order it was allocated at.
 *
 * An address that is not page aligned or not RAM's is reported and ignored; one that is not the
 * start of an allocated block of that order (an inner page, a wrong order, a free block) is
 * reported by bad_page() as __free_pages() reports it; nothing is freed.
 */
void free_pages(unsigned long addr, unsigned int order);

/**
 * alloc_page() - alloc_pages() of one frame.
 * @gfp: as alloc_pages()'s.
 *
 * Return: the page, or NULL.
 */
#define alloc_page(gfp) alloc_pages(gfp, 0)

/**
 * __free_page() - __free_pages() of one frame.
 * @page: the page alloc_page() returned.
 */
#define __free_page(page) __free_pages(page, 0)

/**
 * __get_free_page() - __get_free_pages() of one frame.
 * @gfp: as alloc_pages()'s.
 *
 * Return: the page's direct-map address, or 0.
 */
#define __get_free_page(gfp) __get_free_pages(gfp, 0)

/**
 * get_zeroed_page() - One frame filled with zeroes, by address.
 * @gfp: as alloc_pages()'s (__GFP_ZERO is added).
 *
 * Return: the page's direct-map address, or 0.
 */
#define get_zeroed_page(gfp) __get_free_pages((gfp) | __GFP_ZERO, 0)

/**
 * free_page() - free_pages() of one frame.
 * @addr: the address __get_free_page() or get_zeroed_page() returned; 0 is ignored.
 */
#define free_page(addr) free_pages(addr, 0)

/**
 * split_page() - Make a plain block's frames independent pages.
 * @page: the first page of a block alloc_pages() returned without __GFP_COMP.
 * @order: the order it was allocated at.
 *
 * Each of the 2^order frames becomes an allocated page of order 0 with its own reference count
 * of 1, freed one by one with __free_page() (or put_page()). Refused and reported by bad_page(),
 * nothing changed, for anything __free_pages(page, order) would refuse, and for a compound page
 * (split_huge_page(), mm/compound.h, splits those).
 *
 * Return: 0, or -EINVAL (reported).
 */
int split_page(struct page *page, unsigned int order);

/**
 * alloc_pages_exact() - Whole pages for size bytes, physically contiguous, nothing more held.
 * @size: bytes, 1..PAGE_SIZE << MAX_ORDER; rounded up to whole pages.
 * @gfp: as alloc_pages()'s, without __GFP_COMP.
 *
 * Allocates the smallest block that holds the pages, splits it (split_page()) and gives the
 * pages beyond size back to the allocator at once, so 12 KiB holds 3 pages, not 4. Each page
 * kept is an order-0 page with its own count. Free with free_pages_exact().
 *
 * Return: the direct-map address of the first page; NULL when no block can be had, or
 * (reported) for size 0, size above PAGE_SIZE << MAX_ORDER or gfp with __GFP_COMP.
 */
void *alloc_pages_exact(size_t size, gfp_t gfp);

/**
 * free_pages_exact() - Free what alloc_pages_exact() returned.
 * @virt: the address alloc_pages_exact() returned; NULL is ignored.
 * @size: the size it was asked for.
 *
 * Every page is checked before any is freed: an address that is not page aligned RAM, or a page
 * in the range that is not an allocated order-0 page with one reference (freed already, part of
 * a larger block, held twice), is reported and nothing is freed.
 */
void free_pages_exact(void *virt, size_t size);

/*
 * References: a compound page counts them on its head, and get_page()/put_page() on any of its
 * sub-pages act on the head's count. A plain block (order >= 1 without __GFP_COMP) counts them on
 * its first page only; its other pages keep a count of 0, so get_page()/put_page() on one of them
 * is reported like a call on a free page (Linux would count on each page; here only a compound
 * page lets callers hold a block by any of its pages).
 */

/**
 * get_page() - Take a reference on a page.
 * @page: an allocated page; for a compound page, the reference is taken on the head.
 *
 * Reported on a free page.
 */
void get_page(struct page *page);

/**
 * put_page() - Drop a reference (on the head for a compound page).
 * @page: an allocated page, or any page of a compound page.
 *
 * At zero: a compound page's destructor runs, a plain block is freed whole, at the order it was
 * allocated at. Reported when the count is already zero.
 *
 * A slab's pages (any order, through the head or a tail) are the slab's to free: a
 * get_page()/put_page() pair on one is allowed, but a put_page() that would drop the last
 * reference is reported and changes nothing (the count stays 1; the slab frees the pages when
 * its last object goes). A large kmalloc's page or a pool page is freed by its last put_page()
 * as by its owner: the destructor (kmalloc's, the pool's) runs.
 */
void put_page(struct page *page);

/**
 * folio_get() - get_page() on a folio (mm/folio.h).
 * @folio: an allocated folio; its count is its own, with no head to look up.
 *
 * Reported, and nothing changes, when folio is a tail page (page_folio() gives a tail's folio)
 * or not allocated.
 */
void folio_get(struct folio *folio);

/**
 * folio_put() - put_page() on a folio (mm/folio.h).
 * @folio: an allocated folio.
 *
 * At zero, runs a large folio's destructor; a folio of order 0 that is the first page of a plain
 * block frees the whole block, as put_page() does. Reported, and nothing changes, when folio is a
 * tail page, not allocated, or a slab's whose last reference it would drop (as put_page()).
 */
void folio_put(struct folio *folio);

/**
 * destroy_compound_page() - Run a compound page's destructor once its count reached zero.
 * @head: the compound head, count zero (put_page() calls this).
 *
 * Runs the unit's registered destructor once (mm/compound_dtor.h). A missing or unknown
 * destructor, or a slab's page, is reported and the pages are left as they are (leaked, not
 * corrupted).
 */
void destroy_compound_page(struct page *head);

/**
 * free_compound_page() - The default destructor: give a compound page back whole.
 * @head: the compound head, count zero.
 *
 * Checks the unit once (a damaged one, or a slab's, is reported and left alone), clears its
 * metadata and gives the block back whole.
 */
void free_compound_page(struct page *head);

/**
 * zone_free_pages() - Free frames in a zone.
 * @zone: the zone.
 *
 * Counts its buddy lists and every CPU's lists, each count read atomically.
 *
 * Return: the count; exact when no CPU is allocating or freeing, never negative or torn while one
 * is. Blocks moving between the lists while the counts are read may be missed, or counted twice
 * when the buddy lists' count moves more than four times meanwhile (each move makes it read
 * again). It can exceed the zone's managed pages: gigantic pages reserved at boot and given back
 * later are free but were never managed.
 */
unsigned long zone_free_pages(const struct zone *zone);

/**
 * nr_free_pages() - Free frames in all zones (per-CPU lists included).
 *
 * Return: the sum of zone_free_pages() over the zones, with the same guarantees.
 */
unsigned long nr_free_pages(void);

/**
 * page_alloc_init_zones() - Boot: where each gfp's allocations start.
 *
 * Called by mm_init() once the zones have their managed pages and page_owner is set up, and again
 * when memory is added: sets mm_top_zone from the zones' managed pages, where each gfp's
 * allocations start, and whether frees may take the fast path (not while page_owner keeps records).
 */
void page_alloc_init_zones(void);

/* Allocations of this order and above are costly: before one fails, the slow path compacts. */
#define PAGE_ALLOC_COSTLY_ORDER 3

/*
 * How the slow path makes room for a costly allocation it is about to fail: fn(zone, order) moves
 * movable blocks until zone has a free block of order; it returns 1 when there is one, 0 when it
 * compacted without making one, -1 when it did not try (deferred, too little free memory).
 */
typedef int alloc_compact_fn(struct zone *zone, unsigned int order);

/**
 * set_alloc_compact_fn() - Register how the slow path compacts.
 * @fn: the compaction function (alloc_compact_fn above), or NULL for none.
 *
 * mm/compaction.h, a layer above, registers it: this pointer is how the slow path calls up. The
 * slow path calls it only for an allocation without __GFP_HIGH, with interrupts on and outside
 * interrupt handlers (migration's owner operations need that), zone by zone as it allocates, and
 * tries once more after the first zone that has a block; it counts compact_stall when fn
 * compacted, then compact_success or compact_fail by that try (mm/vmstat.h).
 */
void set_alloc_compact_fn(alloc_compact_fn *fn);

/**
 * prep_new_block() - Make a block taken off the buddy lists an allocated block.
 * @page: the block's first page, which the caller took off the buddy lists.
 * @order: its order.
 * @gfp: as alloc_pages(gfp, order) would have been asked.
 *
 * mm/'s own (compaction's migration targets): the block becomes as alloc_pages(gfp, order)
 * returns it.
 */
void prep_new_block(struct page *page, unsigned int order, gfp_t gfp);

/**
 * isolate_pageblock() - Set aside the pageblock holding a frame.
 * @pfn: any frame of the pageblock (mm/pageblock.h).
 *
 * Its type becomes MIGRATE_ISOLATE, its free blocks move to the isolate lists, and no allocation
 * takes them, not even as a fallback, until unisolate_pageblock() gives it a type and its free
 * blocks back. Blocks that are on a CPU's list, or are freed there later, reach the isolate lists
 * when the lists are drained (drain_pcp_lists()).
 *
 * Return: 0, or -EINVAL (reported) for a frame no zone manages.
 */
int isolate_pageblock(unsigned long pfn);

/**
 * unisolate_pageblock() - Give an isolated pageblock a type and its free blocks back.
 * @pfn: any frame of the pageblock.
 * @mt: its new type: unmovable, movable or reclaimable.
 *
 * Return: 0, or -EINVAL (reported) for a frame no zone manages, a pageblock that is not
 * isolated, or no such type.
 */
int unisolate_pageblock(unsigned long pfn, unsigned int mt);

/**
 * page_alloc_isolating() - Say that a range of pageblocks is being isolated, or given back.
 * @begin: true when a range is being isolated (mm/page_isolation.h), false when it is given back.
 *
 * Meanwhile every free of an order the per-CPU lists hold takes the slow path, which reads the
 * block's pageblock type and sends a block of an isolated pageblock to the isolate lists: the
 * fast path goes by the type in the block's flags and would put it on a per-CPU list, where any
 * allocation could take it again.
 */
void page_alloc_isolating(bool begin);

#endif
