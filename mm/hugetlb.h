/* SPDX-License-Identifier: MIT */
/*
 * A hugetlb-style pool of huge pages: 2 MiB (order 9) pages taken from the buddy allocator, and
 * 1 GiB gigantic pages (order 18, above the buddy's MAX_ORDER) reserved from the early allocator
 * at boot. After boot either pool grows from ranges emptied of their movable pages too
 * (mm/contig_alloc.h): a 2 MiB page when no free block of that size is left, a 1 GiB page always. Every pool page is a compound page whose head carries PG_hugetlb and whose destructor
 * is free_huge_page(), so put_page() on any of its sub-pages gives it back to the pool.
 *
 * The counters mean what Linux's /proc/meminfo says they mean:
 *   total    (HugePages_Total) pages the pool owns, free or handed out, surplus included;
 *   free     (HugePages_Free)  pages in the pool not handed out;
 *   reserved (HugePages_Rsvd)  pages promised to reservations but not yet handed out; a
 *            reservation guarantees the allocation, so only free - reserved pages are available
 *            to unreserved allocations;
 *   surplus  (HugePages_Surp)  pages above the persistent size set by hugetlb_set_pool_size(),
 *            taken from the buddy allocator under the overcommit limit; they go back to the buddy
 *            allocator as soon as they are freed.
 * Invariants, checked by hugetlb_check() after every operation in the tests: reserved <= free <=
 * total, surplus <= total, free + handed out == total, and the free list holds exactly free pages.
 */
#ifndef MM_HUGETLB_H
#define MM_HUGETLB_H

#include "mm/page.h"

#define HPAGE_ORDER 9                                  /* 2 MiB */
#define HPAGE_SIZE (PAGE_SIZE << HPAGE_ORDER)
#define GIGANTIC_ORDER 18                              /* 1 GiB */
#define GIGANTIC_SIZE (PAGE_SIZE << GIGANTIC_ORDER)
#define HUGETLB_MAX_GIGANTIC 64                        /* most 1 GiB pages reserved at boot */

/* A snapshot of one pool's counters (see the top of this file for their meanings). */
struct hugetlb_counters {
	unsigned int order;
	unsigned long total, free, reserved, surplus;
	unsigned long in_use;     /* handed out: total - free */
	unsigned long overcommit; /* most surplus pages allowed */
	unsigned long requested;  /* what hugetlb_request() asked for (hugepages=N at boot) */
};

/* True when there is a pool of huge pages of this order (HPAGE_ORDER, GIGANTIC_ORDER). */
bool hugetlb_has_order(unsigned int order);

/*
 * Boot, before hugetlb_reserve_gigantic_early(): asks for count pages in the pool of the given
 * order at boot (the kernel's command line parser calls it for hugepages=N), replacing an earlier
 * request for that pool. The gigantic pool takes at most HUGETLB_MAX_GIGANTIC pages. Returns the
 * count recorded, which is less than count when it was clamped. Panics when no pool has that order.
 */
unsigned long hugetlb_request(unsigned int order, unsigned long count);

/*
 * Boot, before the early allocator hands its memory to the buddy allocator: reserves the 1 GiB
 * pages hugetlb_request() asked for, 1 GiB aligned. Returns the number reserved.
 */
unsigned long hugetlb_reserve_gigantic_early(void);

/*
 * Boot, once the memmap and the buddy allocator are up: turns the gigantic reservations into
 * compound pages in their pool, and fills the 2 MiB pool to the request. Returns 0, or -ENOMEM
 * (reported) when fewer pages than asked could be had.
 */
int hugetlb_init(void);

/*
 * Sets the persistent size of the pool of the given order (HPAGE_ORDER, GIGANTIC_ORDER) to n
 * pages, at boot or after. Growing converts surplus pages first, then takes new pages: a 2 MiB
 * one from the buddy allocator, or when it has no free block that large, from a 2 MiB range
 * emptied by migrating its movable pages out; a 1 GiB one from a 1 GiB aligned range emptied so
 * (alloc_contig_pages()). Growth may migrate pages: call it with no lock held (with interrupts
 * off or in an interrupt handler, as at early boot, only free 2 MiB blocks are taken). Shrinking releases free pages not needed by reservations to the
 * buddy allocator and turns pages still handed out into surplus (they go back when freed). After
 * boot, pages added count in the vmstat counter htlb_pool_grown, a growth that stops short in
 * htlb_pool_grow_fail. Returns 0; -ENOMEM if the pool could not grow to n (it keeps what it got);
 * -EINVAL (reported) when no pool has that order.
 */
int hugetlb_set_pool_size_order(unsigned int order, unsigned long n);

/* hugetlb_set_pool_size_order() for the 2 MiB pool. */
int hugetlb_set_pool_size(unsigned long n);

/* Sets how many surplus 2 MiB pages may be taken from the buddy allocator. */
void hugetlb_set_overcommit(unsigned long n);

/*
 * A 2 MiB huge page (its head, count 1) from the pool's unreserved free pages, or a surplus page
 * from the buddy allocator when those are gone and the overcommit limit allows; NULL otherwise.
 */
struct page *alloc_huge_page(void);

/* A 2 MiB huge page that consumes one reservation; NULL (reported) when nothing is reserved. */
struct page *alloc_huge_page_reserved(void);

/*
 * Reserves n 2 MiB pages for later alloc_huge_page_reserved() calls, adding surplus pages to the
 * pool if the free ones do not suffice. Returns 0, or -ENOMEM (nothing reserved).
 */
int hugetlb_reserve_pages(unsigned long n);

/* Gives back n unused reservations (reported if more than are held); frees unneeded surplus. */
void hugetlb_unreserve_pages(unsigned long n);

/* A 1 GiB page (its head, count 1) from the gigantic pool, or NULL when it is empty. */
struct page *alloc_gigantic_page(void);

/*
 * The huge-page destructor, run by destroy_compound_page() when a pool page's count drops to
 * zero: a surplus page goes back to the buddy allocator (surplus and total drop), any other
 * returns to the free list (free rises).
 */
void free_huge_page(struct page *head);

/* The counters of the pool of the given order (HPAGE_ORDER or GIGANTIC_ORDER). */
struct hugetlb_counters hugetlb_counters(unsigned int order);

/*
 * Checks every invariant of both pools (see the top of this file) and every free page's marks.
 * Returns NULL when they hold, otherwise a description of the first one broken.
 */
const char *hugetlb_check(void);

/*
 * Writes the /proc/meminfo lines of the 2 MiB pool (HugePages_Total: ... Hugepagesize:) and the
 * Hugetlb: total of both pools into buf. Returns the length, as snprintf does.
 */
int hugetlb_meminfo(char *buf, size_t size);

/* Prints hugetlb_meminfo() and a summary of the gigantic pool to the console. */
void hugetlb_report(void);

#endif
