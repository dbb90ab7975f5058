// SPDX-License-Identifier: MIT
/* The event counters (mm/vmstat.h) and their /proc/vmstat-style listing. */
#include "mm/vmstat.h"

#include "mm/arch.h"

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

void show_vmstat(void)
{
	for (unsigned int i = 0; i < NR_VM_EVENT_ITEMS; i++)
		printk("%s %lu\n", vm_event_names[i], vm_event_count(i));
}

/* snprintf() at offset len of buf, which may already be full. */
#define APPEND(buf, size, len, ...) \
	((len) += snprintf((buf) + MIN((size_t)(len), (size)), (size) - MIN((size_t)(len), (size)), __VA_ARGS__))

int vmstat_text(char *buf, size_t size)
{
	int len = 0, col = 0;

	if (size)
		buf[0] = '\0';
	for (unsigned int i = 0; i < NR_VM_EVENT_ITEMS; i++) {
		char pair[64];
		int n = snprintf(pair, sizeof(pair), "%s %lu", vm_event_names[i], vm_event_count(i));

		if (col && col + 1 + n > VMSTAT_TEXT_COLS) {
			APPEND(buf, size, len, "\n");
			col = 0;
		}
		APPEND(buf, size, len, "%s%s", col ? " " : "", pair);
		col += (col ? 1 : 0) + n;
	}
	APPEND(buf, size, len, "\n");
	return len;
}
