/* SPDX-License-Identifier: MIT */
/*
 * The /proc/vmstat-style listing: the NUMA counters summed over the nodes (mm/node.h: numa_hit,
 * numa_miss, numa_foreign, numa_interleave, numa_local, numa_other, Linux's names in
 * /proc/vmstat), then every event counter (mm/vmstat.h). Apart from the counters themselves
 * because the NUMA sums are read from every node and CPU's lists (mm/node_stat.h), above the
 * layer of the event counters that the allocator's own paths add to.
 */
#ifndef MM_VMSTAT_SHOW_H
#define MM_VMSTAT_SHOW_H

#include "mm/node.h"
#include "mm/vmstat.h"

/**
 * global_numa_stat() - A NUMA counter summed over every node.
 * @item: the counter (enum node_stat_item, mm/node.h).
 *
 * Return: the sum of node_numa_stat() over the nodes, read racily while CPUs allocate; 0 for a
 * counter that does not exist.
 */
unsigned long global_numa_stat(enum node_stat_item item);

/**
 * numa_stat_name() - A NUMA counter's name as /proc/vmstat prints it ("numa_hit").
 * @item: the counter.
 *
 * Return: the name; "?" out of range.
 */
const char *numa_stat_name(unsigned int item);

/**
 * show_vmstat() - Print every counter, one "name value" line each, as /proc/vmstat does.
 *
 * The NUMA counters summed over the nodes first, then the event counters.
 */
void show_vmstat(void);

/* The width vmstat_text() keeps its lines within. */
#define VMSTAT_TEXT_COLS 80

/**
 * vmstat_text() - The counters, compactly.
 * @buf: where to write as many "name value" pairs on a line as fit in VMSTAT_TEXT_COLS columns,
 *       separated by a space, each line ending in a newline (show_mem() prints them); the NUMA
 *       counters first, as show_vmstat().
 * @size: buf's size.
 *
 * Return: the length snprintf() would write.
 */
int vmstat_text(char *buf, size_t size);

#endif
