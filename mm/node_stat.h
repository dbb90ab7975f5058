/* SPDX-License-Identifier: MIT */
/*
 * Per-node figures, as Linux prints them under /sys/devices/system/node/nodeN/: meminfo
 * ("Node 0 MemTotal: ... kB") and numastat (numa_hit, numa_miss ...: mm/node.h).
 */
#ifndef MM_NODE_STAT_H
#define MM_NODE_STAT_H

#include "mm/node.h"

/* One node's memory, in frames. */
struct node_meminfo {
	unsigned long present; /* usable frames of the node (firmware map) */
	unsigned long total;   /* frames handed to the buddy allocator: Linux's MemTotal */
	unsigned long free;    /* free frames, every CPU's lists included: MemFree */
	unsigned long used;    /* total - free: MemUsed */
};

/**
 * node_meminfo() - One node's memory.
 * @nid: the node.
 * @mi: filled in (all zero for a node that does not exist or has no memory).
 *
 * The sums of the node's zones; over all nodes they add up to the zones' totals and
 * nr_free_pages(), read the same way (exact while no CPU allocates or frees).
 */
void node_meminfo(unsigned int nid, struct node_meminfo *mi);

/**
 * node_numa_stat() - One of a node's counters (mm/node.h).
 * @nid: the node.
 * @item: the counter.
 *
 * Return: its value, the fast path's allocations (counted on each CPU's lists) included; 0 for a
 * node or counter that does not exist.
 */
unsigned long node_numa_stat(unsigned int nid, enum node_stat_item item);

/**
 * show_node_meminfo() - Print every node's meminfo and numastat.
 *
 * Per node: "Node N MemTotal: ... kB", MemFree, MemUsed, then one line of its counters.
 */
void show_node_meminfo(void);

#endif
