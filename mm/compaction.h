/* SPDX-License-Identifier: MIT */
/*
 * Compaction: moving movable blocks (mm/migrate.h) out of the way so that free pages join into
 * large free blocks (a 2 MiB huge page, a costly allocation).
 *
 * A run over a zone has two scanners, both over the zone's movable pageblocks only (unmovable,
 * reclaimable and isolated pageblocks are skipped by both):
 *
 *   migration scanner  from the bottom of the zone up: isolates the movable blocks it finds
 *                      (isolate_movable_page()), 32 at a time, and moves them with
 *                      migrate_pages() into the free scanner's targets when 32 are
 *                      isolated or at the end of each pageblock;
 *   free scanner       from the top of the zone down, one pageblock at a time and only as many
 *                      as the next batch needs: takes the free buddy blocks there off the free
 *                      lists (under the zone's lock) as migration targets, split to the size of
 *                      each block moved. Free blocks of a pageblock or more are left alone:
 *                      filling them would break what compaction makes.
 *
 * The run ends where the scanners meet (everything movable below that point has moved up), or
 * as soon as the zone has a free block of the order asked for. Targets not used go back to the
 * free lists. Every step is counted in the vmstat counters (mm/vmstat.h): compact_migrate_scanned,
 * compact_free_scanned, compact_isolated, compact_runs; the allocation slow path counts
 * compact_stall, compact_success and compact_fail (mm/page_alloc.h).
 *
 * Context: interrupts on, not in an interrupt handler, none of mm/'s locks held (the owners'
 * operations run inside, mm/migrate.h). A call from any other context is refused (reported).
 */
#ifndef MM_COMPACTION_H
#define MM_COMPACTION_H

#include "mm/zone.h"

/* Blocks the migration scanner isolates before it moves them. */
#define COMPACT_BATCH 32

/* What compact_zone() did. */
enum compact_result {
	COMPACT_NOT_NEEDED, /* a free block of the order was there already: nothing scanned */
	COMPACT_NO_ROOM,    /* too few free pages to move blocks into: nothing scanned */
	COMPACT_MADE_BLOCK, /* a free block of the order is there now */
	COMPACT_COMPLETE,   /* the scanners met without making one */
};

/**
 * compact_zone() - Compact a zone until it has a free block of an order.
 * @zone: the zone.
 * @order: the block's order, at most MAX_ORDER.
 *
 * Runs until zone has a free block of 2^order frames that a GFP_KERNEL allocation may take (the
 * min watermark kept, mm/watermark.h), or until the scanners meet.
 *
 * Return: an enum compact_result, or -EINVAL (reported) for a bad order or a call from a context
 * that may not migrate.
 */
int compact_zone(struct zone *zone, unsigned int order);

/**
 * compact_memory() - Compact every zone whole (Linux's /proc/sys/vm/compact_memory).
 *
 * Each zone until its scanners meet; then drains the per-CPU lists so that the freed pages merge.
 * Also forgets the allocation slow path's deferrals. A zone with nothing movable costs one pass
 * of the migration scanner and changes nothing.
 *
 * Return: the pages moved; 0 (reported) from a context that may not migrate.
 */
unsigned long compact_memory(void);

/**
 * compact_for_allocation() - The allocation slow path's compaction.
 * @zone: the zone the allocation may take from.
 * @order: the allocation's order.
 *
 * The alloc_compact_fn (mm/page_alloc.h) compaction_init() registers: compact_zone(zone, order),
 * unless the zone's recent runs for this order or less failed: after a failure the next 1, 2, 4
 * ... 64 calls for zone are skipped, and a block made (or compact_memory()) ends the deferral.
 *
 * Return: 1 when zone has a free block of order, 0 when a run ended without one, -1 when it did
 * not run (deferred, too few free pages).
 */
int compact_for_allocation(struct zone *zone, unsigned int order);

/**
 * compaction_init() - Boot: let the allocation slow path compact, and forget deferrals.
 *
 * Called by mm_init(); registers compact_for_allocation() with set_alloc_compact_fn().
 */
void compaction_init(void);

/**
 * set_slow_path_compaction() - Turn the allocation slow path's compaction off or back on.
 * @on: false: off; true: on, the state after mm_init().
 *
 * compact_zone() and compact_memory() work either way. For a test that predicts every
 * allocation's outcome from the free frames alone (the model test).
 *
 * Return: the previous state.
 */
bool set_slow_path_compaction(bool on);

#endif
