// SPDX-License-Identifier: MIT
/* The event counters (mm/vmstat.h); mm/vmstat_show.c lists them. */
#include "mm/vmstat.h"


unsigned long mm_vm_events[NR_VM_EVENT_ITEMS];

static const char *const vm_event_names[NR_VM_EVENT_ITEMS] = {
	[PGMIGRATE_SUCCESS] = "pgmigrate_success",
	[PGMIGRATE_FAIL] = "pgmigrate_fail",
	[COMPACT_MIGRATE_SCANNED] = "compact_migrate_scanned",
	[COMPACT_FREE_SCANNED] = "compact_free_scanned",
	[COMPACT_ISOLATED] = "compact_isolated",
	[COMPACT_STALL] = "compact_stall",
	[COMPACT_FAIL] = "compact_fail",
	[COMPACT_SUCCESS] = "compact_success",
	[COMPACT_RUNS] = "compact_runs",
	[PAGEBLOCK_STEALS] = "pageblock_steals",
	[SLABS_SHRUNK] = "slabs_shrunk",
	[SHRINKER_RUNS] = "shrinker_runs",
	[HTLB_POOL_GROWN] = "htlb_pool_grown",
	[HTLB_POOL_GROW_FAIL] = "htlb_pool_grow_fail",
};

const char *vm_event_name(unsigned int item)
{
	return item < NR_VM_EVENT_ITEMS ? vm_event_names[item] : "?";
}
