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

/**
 * hugetlb_has_order() - Is there a pool of huge pages of an order?
 * @order: HPAGE_ORDER, GIGANTIC_ORDER or anything else.
 *
 * Return: true when there is a pool of huge pages of this order.
 */
bool hugetlb_has_order(unsigned int order);

/**
 * hugetlb_request() - Boot: ask for pages in a pool.
 * @order: the pool's order, HPAGE_ORDER or GIGANTIC_ORDER.
 * @count: how many pages it should hold at boot.
 *
 * Called before hugetlb_reserve_gigantic_early() (the kernel's command line parser calls it for
 * hugepages=N), replacing an earlier request for that pool. The gigantic pool takes at most
 * HUGETLB_MAX_GIGANTIC pages. Panics when no pool has that order.
 *
 * Return: the count recorded, which is less than count when it was clamped.
 */
unsigned long hugetlb_request(unsigned int order, unsigned long count);

/**
 * hugetlb_reserve_gigantic_early() - Boot: reserve the 1 GiB pages hugetlb_request() asked for.
 *
 * Called before the early allocator hands its memory to the buddy allocator (from mm_init()'s
 * before_memmap() hook); the pages are 1 GiB aligned.
 *
 * Return: the number reserved.
 */
unsigned long hugetlb_reserve_gigantic_early(void);

/**
 * hugetlb_init() - Boot: fill the pools.
 *
 * Called once the memmap and the buddy allocator are up: turns the gigantic reservations into
 * compound pages in their pool, and fills the 2 MiB pool to the request.
 *
 * Return: 0, or -ENOMEM (reported) when fewer pages than asked could be had.
 */
int hugetlb_init(void);

/**
 * hugetlb_set_pool_size_order() - Set the persistent size of a pool, at boot or after.
 * @order: the pool's order, HPAGE_ORDER or GIGANTIC_ORDER.
 * @n: the pages it should hold.
 *
 * Growing converts surplus pages first, then takes new pages: a 2 MiB one from the buddy
 * allocator, or when it has no free block that large, from a 2 MiB range emptied by migrating its
 * movable pages out; a 1 GiB one from a 1 GiB aligned range emptied so (alloc_contig_pages()).
 * Growth may migrate pages: call it with no lock held (with interrupts off or in an interrupt
 * handler, as at early boot, only free 2 MiB blocks are taken). Shrinking releases free pages not
 * needed by reservations to the buddy allocator and turns pages still handed out into surplus
 * (they go back when freed). After boot, pages added count in the vmstat counter
 * htlb_pool_grown, a growth that stops short in htlb_pool_grow_fail.
 *
 * Return: 0; -ENOMEM if the pool could not grow to n (it keeps what it got); -EINVAL (reported)
 * when no pool has that order.
 */
int hugetlb_set_pool_size_order(unsigned int order, unsigned long n);

/**
 * hugetlb_set_pool_size() - hugetlb_set_pool_size_order() for the 2 MiB pool.
 * @n: the pages it should hold.
 *
 * Return: as hugetlb_set_pool_size_order().
 */
int hugetlb_set_pool_size(unsigned long n);

/**
 * hugetlb_set_overcommit() - Set how many surplus 2 MiB pages may be taken from the buddy allocator.
 * @n: the most surplus pages.
 */
void hugetlb_set_overcommit(unsigned long n);

/**
 * alloc_huge_page() - A 2 MiB huge page.
 *
 * From the pool's unreserved free pages, or a surplus page from the buddy allocator when those
 * are gone and the overcommit limit allows. Give it back with put_page().
 *
 * Return: its head, count 1; NULL otherwise.
 */
struct page *alloc_huge_page(void);

/**
 * alloc_huge_page_reserved() - A 2 MiB huge page that consumes one reservation.
 *
 * Return: its head, count 1; NULL (reported) when nothing is reserved.
 */
struct page *alloc_huge_page_reserved(void);

/**
 * hugetlb_reserve_pages() - Reserve 2 MiB pages for later alloc_huge_page_reserved() calls.
 * @n: how many.
 *
 * Adds surplus pages to the pool if the free ones do not suffice.
 *
 * Return: 0, or -ENOMEM (nothing reserved).
 */
int hugetlb_reserve_pages(unsigned long n);

/**
 * hugetlb_unreserve_pages() - Give back unused reservations.
 * @n: how many (reported if more than are held).
 *
 * Frees surplus pages no longer needed.
 */
void hugetlb_unreserve_pages(unsigned long n);

/**
 * alloc_gigantic_page() - A 1 GiB page from the gigantic pool.
 *
 * Return: its head, count 1, or NULL when the pool is empty.
 */
struct page *alloc_gigantic_page(void);

/**
 * free_huge_page() - The huge-page destructor.
 * @head: a pool page's head, its count zero.
 *
 * Run by destroy_compound_page() when a pool page's count drops to zero: a surplus page goes back
 * to the buddy allocator (surplus and total drop), any other returns to the free list (free rises).
 */
void free_huge_page(struct page *head);

/**
 * hugetlb_counters() - The counters of a pool.
 * @order: HPAGE_ORDER or GIGANTIC_ORDER.
 *
 * Return: a snapshot of them (see the top of this file for their meanings).
 */
struct hugetlb_counters hugetlb_counters(unsigned int order);

/**
 * hugetlb_check() - Check every invariant of both pools and every free page's marks.
 *
 * The invariants are at the top of this file.
 *
 * Return: NULL when they hold, otherwise a description of the first one broken.
 */
const char *hugetlb_check(void);

/**
 * hugetlb_meminfo() - The /proc/meminfo lines of the pools.
 * @buf: where to write: the 2 MiB pool's lines (HugePages_Total: ... Hugepagesize:) and the
 *       Hugetlb: total of both pools.
 * @size: buf's size.
 *
 * Return: the length, as snprintf does.
 */
int hugetlb_meminfo(char *buf, size_t size);

/**
 * hugetlb_report() - Print hugetlb_meminfo() and a summary of the gigantic pool to the console.
 */
void hugetlb_report(void);

#endif
