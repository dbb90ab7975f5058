/* SPDX-License-Identifier: MIT */
/*
 * Whole-allocator consistency checks for the host (map replay, fuzzer, host tests): every free
 * block is well formed and lies in usable, unreserved RAM; exhausting memory hands out every free
 * frame exactly once; freeing everything restores the free lists' shape. Page contents are never
 * touched, and the sets of frames cover present RAM only, so time and memory follow the RAM, not
 * the highest address: a 128 GiB map is checked in seconds.
 */
#ifndef TESTS_MM_MM_CHECK_H
#define TESTS_MM_MM_CHECK_H

#include "mm/fw_map.h"
#include "mm/page_alloc.h"

/*
 * Checks every free block, on the buddy and the pcp lists: its marks, aligned, in its zone,
 * inside one usable entry of map, clear of every memblock reservation; the lists' links and
 * counters. Returns NULL, or a description of the first problem.
 */
const char *mm_check_free_lists(const struct fw_map *map);

/*
 * Checks that no free frame lies in an entry of raw that is not usable: the firmware's map as it
 * came, before sanitizing, so that a reserved entry lost on the way shows. NULL or the problem.
 */
struct boot_memmap;
const char *mm_check_raw_map(const struct boot_memmap *raw);

/* Checks that every frame memblock reserved inside RAM is PG_reserved. NULL or the problem. */
const char *mm_check_reserved(void);

/*
 * For each order from 0 to MAX_ORDER: allocates blocks of that order until none is left, then of
 * each lower order down to 0, checking that no two blocks overlap and that every frame handed
 * out was free; then that every free frame was handed out, and after freeing everything that the
 * free lists have their first shape again and no bad_page() was reported. NULL or the problem.
 */
const char *mm_check_exhaustive(const struct fw_map *map);

/* Checks that the memmap costs no more than the usable RAM's chunks (holes are free). */
const char *mm_check_memmap_size(void);

#endif
