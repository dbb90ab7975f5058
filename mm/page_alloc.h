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

/*
 * A block of 2^order frames, its first page with a reference count of 1 (a compound page when
 * gfp has __GFP_COMP and order >= 1). Tries ZONE_NORMAL, then ZONE_DMA32, then ZONE_DMA, starting
 * at the highest zone gfp allows; in each, this CPU's list, then the buddy lists down to the
 * zone's min watermark (to 0 with __GFP_HIGH, mm/watermark.h). Before failing it drains every
 * CPU's lists and tries once more. Then, unless gfp has __GFP_NORECLAIM (which a caller holding
 * an mm lock must pass), it compacts for a costly order (PAGE_ALLOC_COSTLY_ORDER or more: see
 * set_alloc_compact_fn() below) and tries once more, then runs the shrinkers (mm/shrinker.h),
 * drains the lists again and makes a last try. Returns NULL when no zone has such a block it may
 * take (with a warning unless __GFP_NOWARN) or when order > MAX_ORDER or gfp has unknown bits
 * (always reported).
 */
struct page *alloc_pages(gfp_t gfp, unsigned int order);

/*
 * Drops the caller's reference to the block of 2^order frames at page and frees it. The caller
 * must hold the only reference (count 1) on the block's first page and pass the order it was
 * allocated at; a compound page's order is checked by free_compound_prepare(). A block another
 * owner gives back itself (a slab's, a hugetlb pool page, a compound page with a destructor other
 * than the default, such as a large kmalloc's: mm/block_owner.h) is refused. Anything else is
 * reported by bad_page() and nothing is freed.
 */
void __free_pages(struct page *page, unsigned int order);

/* alloc_pages() returning the block's direct-map address, 0 on failure. */
unsigned long __get_free_pages(gfp_t gfp, unsigned int order);

/* __free_pages() by address (as returned by __get_free_pages()); addr 0 is ignored. */
void free_pages(unsigned long addr, unsigned int order);

#define alloc_page(gfp) alloc_pages(gfp, 0)
#define __free_page(page) __free_pages(page, 0)

/*
 * References: a compound page counts them on its head, and get_page()/put_page() on any of its
 * sub-pages act on the head's count. A plain block (order >= 1 without __GFP_COMP) counts them on
 * its first page only; its other pages keep a count of 0, so get_page()/put_page() on one of them
 * is reported like a call on a free page (Linux would count on each page; here only a compound
 * page lets callers hold a block by any of its pages).
 */

/* Takes a reference: on the head when page is part of a compound page. Reported on a free page. */
void get_page(struct page *page);

/*
 * Drops a reference (on the head for a compound page). At zero: a compound page's destructor
 * runs, a plain block is freed whole, at the order it was allocated at. Reported when the count
 * is already zero.
 *
 * A slab's pages (any order, through the head or a tail) are the slab's to free: a
 * get_page()/put_page() pair on one is allowed, but a put_page() that would drop the last
 * reference is reported and changes nothing (the count stays 1; the slab frees the pages when
 * its last object goes). A large kmalloc's page or a pool page is freed by its last put_page()
 * as by its owner: the destructor (kmalloc's, the pool's) runs.
 */
void put_page(struct page *page);

/*
 * The same on a folio (mm/folio.h): its count is its own, with no head to look up. Reported, and
 * nothing changes, when folio is a tail page (page_folio() gives a tail's folio), not allocated,
 * or a slab's whose last reference folio_put() would drop (as put_page()).
 * At zero, folio_put() runs a large folio's destructor; a folio of order 0 that is the first page
 * of a plain block frees the whole block, as put_page() does.
 */
void folio_get(struct folio *folio);
void folio_put(struct folio *folio);

/*
 * Called by put_page() when a compound head's count reached zero: runs the unit's destructor once
 * (a registered one, mm/compound_dtor.h). A missing or unknown destructor, or a slab's page, is
 * reported and the pages are left as they are (leaked, not corrupted).
 */
void destroy_compound_page(struct page *head);

/*
 * The default destructor: checks the unit once (a damaged one, or a slab's, is reported and left
 * alone), clears its metadata and gives the block back whole.
 */
void free_compound_page(struct page *head);

/*
 * Free frames in zone: in its buddy lists and on every CPU's lists, each count read atomically.
 * Exact when no CPU is allocating or freeing; never negative or torn while one is.
 */
unsigned long zone_free_pages(const struct zone *zone);

/* Free frames in all zones (per-CPU lists included), as zone_free_pages() counts them. */
unsigned long nr_free_pages(void);

/*
 * Boot, once top_zone is known and page_owner set up (mm_init()): where each gfp's allocations
 * start, and whether frees may take the fast path (not while page_owner keeps records).
 */
void page_alloc_init_zones(void);

/* Allocations of this order and above are costly: before one fails, the slow path compacts. */
#define PAGE_ALLOC_COSTLY_ORDER 3

/*
 * How the slow path makes room for a costly allocation it is about to fail (mm/compaction.h, a
 * layer above, registers it: this pointer is how the slow path calls up). fn(zone, order) moves
 * movable blocks until zone has a free block of order; it returns 1 when there is one, 0 when it
 * compacted without making one, -1 when it did not try (deferred, too little free memory).
 * The slow path calls it only for an allocation without __GFP_HIGH, with interrupts on and
 * outside interrupt handlers (migration's owner operations need that), zone by zone as it
 * allocates, and tries once more after the first zone that has a block; it counts compact_stall
 * when fn compacted, then compact_success or compact_fail by that try (mm/vmstat.h). NULL: none.
 */
typedef int alloc_compact_fn(struct zone *zone, unsigned int order);
void set_alloc_compact_fn(alloc_compact_fn *fn);

/*
 * mm/'s own (compaction's migration targets): makes the block of 2^order frames at page, which
 * the caller took off the buddy lists, an allocated block as alloc_pages(gfp, order) returns it.
 */
void prep_new_block(struct page *page, unsigned int order, gfp_t gfp);

/*
 * Sets aside the pageblock (mm/pageblock.h) holding frame pfn: its type becomes MIGRATE_ISOLATE,
 * its free blocks move to the isolate lists, and no allocation takes them, not even as a
 * fallback, until unisolate_pageblock() gives it type mt (unmovable, movable or reclaimable) and
 * its free blocks back. Blocks that are on a CPU's list, or are freed there later, reach the
 * isolate lists when the lists are drained (drain_pcp_lists()). Each returns 0, or -EINVAL
 * (reported) for a frame no zone manages, a pageblock that is not isolated, or no such type.
 */
int isolate_pageblock(unsigned long pfn);
int unisolate_pageblock(unsigned long pfn, unsigned int mt);

/*
 * Called with true when a range of pageblocks is being isolated (mm/page_isolation.h) and with
 * false when it is given back. Meanwhile every free of an order the per-CPU lists hold takes the
 * slow path, which reads the block's pageblock type and sends a block of an isolated pageblock to
 * the isolate lists: the fast path goes by the type in the block's flags and would put it on a
 * per-CPU list, where any allocation could take it again.
 */
void page_alloc_isolating(bool begin);

#endif
