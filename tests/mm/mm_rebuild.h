/* SPDX-License-Identifier: MIT */
/*
 * For host suites that rebuild the allocator on a map of their own (KTEST_REBUILDS_MM): boot a
 * text map quietly, put the default map back, and the skip reason when the rebuild is not safe.
 */
#ifndef TESTS_MM_MM_REBUILD_H
#define TESTS_MM_MM_REBUILD_H

#include "mm/fw_map.h"

/* Boots mm/ on a text map (tests/mm/map_text.h) quietly into *map; returns mm_init()'s result. */
int rebuild_on_text(const char *text, struct fw_map *map);

/* Boots mm/ on the default simulated map again, quietly; returns mm_init()'s result. */
int rebuild_default(struct fw_map *map);

/*
 * The reason a suite must not rebuild (a KTEST_SUITE skip function): re-running mm_init() would
 * orphan the hugetlb pools' pages. NULL when the pools are empty.
 */
const char *hugetlb_pools_in_use(void);

#endif
