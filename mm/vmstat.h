/* SPDX-License-Identifier: MIT */
/*
 * Event counters in the manner of Linux's /proc/vmstat: how often something happened since boot
 * (compaction runs, pages migrated, slabs shrunk ...), one global count per event. They are for
 * people and tests reading them, not for decisions: each is one relaxed atomic add, kept off the
 * allocation fast path. mm/vmstat_show.h lists them, with the NUMA counters, as /proc/vmstat does.
 */
#ifndef MM_VMSTAT_H
#define MM_VMSTAT_H

#include "mm/types.h"

enum vm_event_item {
	PGMIGRATE_SUCCESS,       /* blocks moved by migrate_pages(), in pages */
	PGMIGRATE_FAIL,          /* blocks migrate_pages() put back unmoved, in pages */
	COMPACT_MIGRATE_SCANNED, /* frames the migration scanner looked at */
	COMPACT_FREE_SCANNED,    /* frames the free scanner looked at */
	COMPACT_ISOLATED,        /* pages isolated by compaction: to move, or as targets */
	COMPACT_STALL,           /* allocations that ran compaction before giving up */
	COMPACT_FAIL,            /* ... and still failed */
	COMPACT_SUCCESS,         /* ... and then succeeded */
	COMPACT_RUNS,            /* compact_memory() and other whole-zone runs */
	PAGEBLOCK_STEALS,        /* pageblocks claimed by another mobility type (all zones) */
	SLABS_SHRUNK,            /* slab pages given back by shrinkers, in pages */
	SHRINKER_RUNS,           /* times the allocation slow path called the shrinkers */
	HTLB_POOL_GROWN,         /* huge pages added to the hugetlb pool after boot */
	HTLB_POOL_GROW_FAIL,     /* requests to grow the pool that found no range */
	NR_VM_EVENT_ITEMS
};

extern unsigned long mm_vm_events[NR_VM_EVENT_ITEMS];

/**
 * count_vm_events() - Add to an event counter.
 * @item: the counter.
 * @n: how much (an atomic add).
 */
static inline void count_vm_events(enum vm_event_item item, unsigned long n)
{
	__atomic_fetch_add(&mm_vm_events[item], n, __ATOMIC_RELAXED);
}

/**
 * count_vm_event() - Count one event.
 * @item: the counter.
 */
static inline void count_vm_event(enum vm_event_item item) { count_vm_events(item, 1); }

/**
 * vm_event_count() - An event counter's value.
 * @item: the counter.
 *
 * Return: its value, read atomically.
 */
static inline unsigned long vm_event_count(enum vm_event_item item)
{
	return __atomic_load_n(&mm_vm_events[item], __ATOMIC_RELAXED);
}

/**
 * vm_event_name() - A counter's name as /proc/vmstat prints it ("pgmigrate_success").
 * @item: the counter.
 *
 * Return: the name; "?" out of range.
 */
const char *vm_event_name(unsigned int item);

#endif
