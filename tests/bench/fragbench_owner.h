/* SPDX-License-Identifier: MIT */
/*
 * The fragmentation benchmark's owner of movable pages (mm/migrate.h): the pages of its
 * vmalloc-like areas (tests/bench/fragbench.c), until vmalloc is their owner. Each page records
 * where the benchmark keeps its pointer (a slot of its area's page array); a migration switches
 * that slot to the new page, so compaction can move the areas' pages.
 */
#ifndef TESTS_BENCH_FRAGBENCH_OWNER_H
#define TESTS_BENCH_FRAGBENCH_OWNER_H

#include "mm/page.h"

/* Makes page, an order-0 page the benchmark just allocated and points to from *slot, movable. */
void frag_owner_adopt(struct page *page, struct page **slot);

/* Gives page up before the benchmark frees it: no migration starts on it after this. */
void frag_owner_release(struct page *page);

/* Pages the owner's migrate_page() moved since the program started. */
extern unsigned long frag_owner_moved;

#endif
