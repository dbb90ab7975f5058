/* SPDX-License-Identifier: MIT */
/*
 * Pageblocks and mobility types: the names mm/zone.h needs for its free lists (the rest is in
 * mm/pageblock.h).
 *
 * Memory is grouped in pageblocks of 2^PAGEBLOCK_ORDER frames (2 MiB, a huge page), each with a
 * type: what kind of allocation its free blocks are for. Keeping unmovable pages together in a
 * few pageblocks leaves the others free of them, so that freeing (or one day moving) the movable
 * pages there gives back whole 2 MiB blocks.
 */
#ifndef MM_PAGEBLOCK_TYPES_H
#define MM_PAGEBLOCK_TYPES_H

#define PAGEBLOCK_ORDER 9
#define PAGEBLOCK_NR_PAGES (1UL << PAGEBLOCK_ORDER)

/*
 * The first three are gfp_migratetype()'s values (mm/gfp.h), in that order. MIGRATE_ISOLATE marks
 * a pageblock set aside (a migration target): its free blocks are on their own lists and no
 * allocation takes them, not even as a fallback.
 */
enum migratetype {
	MIGRATE_UNMOVABLE,
	MIGRATE_MOVABLE,
	MIGRATE_RECLAIMABLE,
	MIGRATE_ISOLATE,
	MIGRATE_TYPES
};

/* The types an allocation may ask for (and the per-CPU lists hold). */
#define MIGRATE_PCPTYPES MIGRATE_ISOLATE

#endif
