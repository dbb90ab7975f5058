// SPDX-License-Identifier: MIT
/* The /proc/vmstat-style listing of the NUMA sums and the event counters (mm/vmstat_show.h). */
#include "mm/vmstat_show.h"

#include "mm/arch.h"
#include "mm/node_stat.h"

/* Linux's /proc/vmstat names, which differ from numastat's for the last three. */
static const char *const numa_stat_names[NR_NODE_STAT_ITEMS] = {
	[NUMA_HIT] = "numa_hit",
	[NUMA_MISS] = "numa_miss",
	[NUMA_FOREIGN] = "numa_foreign",
	[NUMA_INTERLEAVE_HIT] = "numa_interleave",
	[NUMA_LOCAL] = "numa_local",
	[NUMA_OTHER] = "numa_other",
};

unsigned long global_numa_stat(enum node_stat_item item)
{
	unsigned long sum = 0;

	if ((unsigned int)item >= NR_NODE_STAT_ITEMS)
		return 0;
	for (unsigned int nid = 0; nid < nr_node_ids; nid++)
		sum += node_numa_stat(nid, item);
	return sum;
}

const char *numa_stat_name(unsigned int item)
{
	return item < NR_NODE_STAT_ITEMS ? numa_stat_names[item] : "?";
}

/* Listing item i: the NUMA sums come first, then the events. */
#define NR_VMSTAT_ITEMS (NR_NODE_STAT_ITEMS + NR_VM_EVENT_ITEMS)

static int vmstat_pair(unsigned int i, char *buf, size_t size)
{
	if (i < NR_NODE_STAT_ITEMS)
		return snprintf(buf, size, "%s %lu", numa_stat_names[i], global_numa_stat(i));
	i -= NR_NODE_STAT_ITEMS;
	return snprintf(buf, size, "%s %lu", vm_event_name(i), vm_event_count(i));
}

void show_vmstat(void)
{
	char pair[64];

	for (unsigned int i = 0; i < NR_VMSTAT_ITEMS; i++) {
		vmstat_pair(i, pair, sizeof(pair));
		printk("%s\n", pair);
	}
}

/* snprintf() at offset len of buf, which may already be full. */
#define APPEND(buf, size, len, ...) \
	((len) += snprintf((buf) + MIN((size_t)(len), (size)), (size) - MIN((size_t)(len), (size)), __VA_ARGS__))

int vmstat_text(char *buf, size_t size)
{
	int len = 0, col = 0;

	if (size)
		buf[0] = '\0';
	for (unsigned int i = 0; i < NR_VMSTAT_ITEMS; i++) {
		char pair[64];
		int n = vmstat_pair(i, pair, sizeof(pair));

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
