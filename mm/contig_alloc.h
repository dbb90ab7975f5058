/* SPDX-License-Identifier: MIT */
/*
 * Contiguous-range allocation (Linux's alloc_contig_range()): taking a given range of frames,
 * or finding one, larger than the buddy allocator's largest block (a 1 GiB gigantic page) or
 * when no free block of the size is left but the movable blocks in a range can move out.
 *
 *   isolate   the range's pageblocks are set aside (mm/page_isolation.h): no allocation takes
 *             their free blocks, and blocks freed there stay there;
 *   migrate   every movable block in the range is moved to a block outside it (mm/migrate.h);
 *   check     every frame of the range is free (a block freed meanwhile is waited for by draining
 *             the per-CPU lists and looking again, a few times);
 *   take      the whole range comes off the free lists at once; its pageblocks get their types back.
 *
 * Any failure gives everything back: the pageblocks their types and free blocks, the blocks that
 * did not move their owners (those that moved stay moved: their contents are the same).
 *
 * The calls may move pages, so they are made with interrupts on, outside interrupt handlers and
 * with none of mm/'s locks held, as migration requires (mm/migrate.h).
 */
#ifndef MM_CONTIG_ALLOC_H
#define MM_CONTIG_ALLOC_H

#include "mm/gfp.h"
#include "mm/page.h"

/**
 * alloc_contig_range() - Take a given range of frames.
 * @start_pfn: its first frame: the range is whole pageblocks of one zone, at most 1 GiB.
 * @end_pfn: one past its last frame.
 * @gfp: __GFP_COMP, __GFP_ZERO, __GFP_NOWARN.
 *
 * Without __GFP_COMP every page comes with a reference count of 1 (order-0 pages: free them with
 * free_contig_range()); with it the range, a power of two of pages aligned to its size, becomes
 * one compound page whose head has count 1. __GFP_ZERO zeroes it; __GFP_NOWARN keeps a failure
 * quiet.
 *
 * Return: 0; -EINVAL (reported) for a bad range or gfp; -EBUSY when the range holds a page that
 * cannot be moved (an unmovable one, a pinned movable one) or is isolated by another call;
 * -ENOMEM when the blocks to move found no room outside. On an error the range is as it was,
 * but for the movable blocks that moved out.
 */
int alloc_contig_range(unsigned long start_pfn, unsigned long end_pfn, gfp_t gfp);

/**
 * free_contig_range() - Give back a range alloc_contig_range() (or alloc_contig_pages()) took.
 * @pfn: its first frame.
 * @nr_pages: how many frames.
 *
 * Each page with count 1, or one compound page of exactly nr_pages pages whose head has count 1.
 * Anything else (a page with another count, a compound page of another size) is reported with
 * bad_page() and nothing is freed.
 */
void free_contig_range(unsigned long pfn, unsigned long nr_pages);

/**
 * alloc_contig_pages() - Find and take contiguous frames.
 * @nr_pages: how many: a power of two, a pageblock to 1 GiB; the range is aligned to it.
 * @gfp: the zones it may come from (highest first), and as alloc_contig_range()'s.
 *
 * Each aligned candidate with a hole or a page that cannot move is skipped after a quick look,
 * the others are tried with alloc_contig_range().
 *
 * Return: the first page (as alloc_contig_range() leaves it, by gfp), or NULL (reported unless
 * __GFP_NOWARN; a bad nr_pages or gfp always).
 */
struct page *alloc_contig_pages(unsigned long nr_pages, gfp_t gfp);

#endif
