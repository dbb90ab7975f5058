/* SPDX-License-Identifier: MIT */
/*
 * page_owner: who allocated each block that is still allocated. For the first frame of every
 * block alloc_pages() hands out it records the allocation site (the return address in the caller
 * of alloc_pages()), the order, the gfp flags and a sequence number that orders all allocations
 * since boot; freeing the block clears the record. dump_page() prints it, and the self-test runner
 * uses it to name the blocks a suite leaked (tests/ktest/ktest.c).
 *
 * The records are a side array, one per frame from 0 to mm_max_pfn, taken from memblock by mm_init()
 * only when asked for (mm_init_params.page_owner; page_owner=on on the kernel's command line), so
 * struct page stays 32 bytes and a kernel without it pays 0 bytes and nothing on the allocation and
 * free fast paths: their tests of the order (mm_alloc_gate, mm/poison.h) and of the page (the free
 * check's expected word) also send every call to the slow side while it is on.
 *
 * Concurrency: a block's record is written only by the CPU that holds the block (the one that
 * allocated it, then the one that frees it), so writers never race; the sequence number is one
 * atomic increment. Readers on other CPUs (a leak walk, dump_page) load each field atomically and
 * may see a record half written while its block changes hands: a report, never a decision.
 */
#ifndef MM_PAGE_OWNER_H
#define MM_PAGE_OWNER_H

#include "mm/types.h"

/* One frame's record; seq 0: no block allocated at this frame (free, reserved, or a tail). */
struct page_owner {
	uintptr_t site;     /* return address in the caller of alloc_pages() */
	unsigned long seq;  /* page_owner_seq() when it was allocated: 1, 2, ... */
	uint32_t gfp;       /* the gfp flags it was asked with */
	uint32_t order;     /* its order */
};

/* True while records are kept (set by page_owner_init()); the slow paths test this. */
extern bool mm_page_owner_on;

/**
 * page_owner_init() - Boot: take records and turn recording on.
 * @nr_pfns: frames to keep records for (0..nr_pfns - 1); 0 turns recording off (an mm_init()
 *           without it).
 *
 * Called by mm_init() while memblock lives: the zeroed records come from memblock.
 *
 * Return: 0, or -ENOMEM (reported; recording stays off).
 */
int page_owner_init(unsigned long nr_pfns);

/**
 * page_owner_alloc() - The allocator's hook: record a block allocated.
 * @pfn: its first frame.
 * @order: its order.
 * @gfp: the flags it was asked with.
 * @site: the return address in the caller of alloc_pages().
 *
 * Called only while mm_page_owner_on, by the CPU that holds the block.
 */
void page_owner_alloc(unsigned long pfn, unsigned int order, gfp_t gfp, uintptr_t site);

/**
 * page_owner_free() - The allocator's hook: forget a block freed.
 * @pfn: its first frame.
 *
 * Called only while mm_page_owner_on, by the CPU that holds the block.
 */
void page_owner_free(unsigned long pfn);

/**
 * page_owner_split() - Record a split: a block becomes blocks of order 0.
 * @pfn: the block's first frame.
 * @order: its order: each of its 2^order frames gets the record of the block it came from.
 *
 * Called by split_huge_page() and split_page().
 */
void page_owner_split(unsigned long pfn, unsigned int order);

/**
 * page_owner_frames() - How many frames have records (from frame 0).
 *
 * Return: the count; 0 while page_owner is off.
 */
unsigned long page_owner_frames(void);

/**
 * page_owner_seq() - The last sequence number handed out.
 *
 * Return: it; 0 before the first allocation.
 */
unsigned long page_owner_seq(void);

/**
 * page_owner_get() - A copy of a frame's record.
 * @pfn: the frame.
 *
 * Return: the record; all zero when recording is off or pfn is out of range.
 */
struct page_owner page_owner_get(unsigned long pfn);

/**
 * page_owner_for_each_since() - Visit the blocks allocated since a sequence number, not freed.
 * @after: the sequence number.
 * @fn: called as fn(pfn, record, arg) for every frame whose record has a sequence number above
 *      after, in frame order; returning false stops the walk.
 * @arg: passed to fn.
 *
 * Return: the number of records it found (those it called fn for, and those after it stopped).
 */
unsigned long page_owner_for_each_since(unsigned long after,
					bool (*fn)(unsigned long pfn, const struct page_owner *rec, void *arg),
					void *arg);

#endif
