/* SPDX-License-Identifier: MIT */
/*
 * NUMA nodes: which node each frame and each CPU belongs to, how far the nodes are from each
 * other, and the order in which an allocation falls back through them (Linux's pg_data_t and its
 * node-ordered zonelist, reduced to what mm/ needs).
 *
 * The environment describes the nodes to mm_init() (struct mm_numa_layout, in mm_init_params);
 * without a description there is one node, node 0, which holds all memory and every CPU. Each
 * node has its own three zones (mm/zone.h): a zone is known by its index in mm_zones[], the
 * node's number times MAX_NR_ZONES plus the zone type.
 *
 * Counters (enum node_stat_item; read with node_numa_stat(), mm/node_stat.h): Linux's meanings. An allocation has a preferred node (the one
 * it asks for, or the local node) and a preferred zone, the first zone it may use in that node's
 * fallback order:
 *   numa_hit        the block came from the preferred zone's node
 *   numa_miss       it came from this node, another was preferred
 *   numa_foreign    this node was preferred, the block came from another
 *   numa_interleave an interleaved allocation (alloc_pages_interleave()) got the node it chose
 *   local_node      the block came from this node, and the allocating CPU is on it
 *   other_node      the block came from this node, the allocating CPU is on another
 */
#ifndef MM_NODE_H
#define MM_NODE_H

#include "mm/types.h"

#define MAX_NUMNODES 8    /* nodes mm/ supports: the SRAT parser's limit too */
#define NUMA_NO_NODE (-1) /* "no node asked": the local node */
#define MM_MAX_NODE_RANGES 64 /* memory ranges a layout may give */
#define LOCAL_DISTANCE 10 /* the distance of a node to itself (the SLIT's) */
#define REMOTE_DISTANCE 20 /* a remote node's when the environment gives none */

/* Memory of one node: physical [start, end). */
struct mm_node_range {
	phys_addr_t start, end;
	unsigned int nid;
};

/*
 * The node layout the environment hands to mm_init() (a PC: from the ACPI SRAT and SLIT). mm/
 * checks it and copies it: anything odd (a node number out of range, ranges not sorted or
 * overlapping, a distance that is not LOCAL_DISTANCE to itself or is below it to another node) is
 * refused with a message, and mm/ runs with one node. Memory in no range belongs to the node of
 * the range below it (the first range's node below the first range).
 */
struct mm_numa_layout {
	unsigned int nr_nodes; /* nodes 0 .. nr_nodes - 1, 1..MAX_NUMNODES; a node may have no memory */
	unsigned int nr_ranges;
	struct mm_node_range ranges[MM_MAX_NODE_RANGES]; /* sorted by address, disjoint */
	uint8_t distance[MAX_NUMNODES][MAX_NUMNODES];  /* distance[a][b], as the SLIT gives it */
	/* The node of CPU i, for i below mm_init_params.nr_cpus (NULL: node 0); set_cpu_numa_node() changes one. */
	const uint8_t *cpu_node;
};

/* Per-node counters (the meanings are at the top of this file). */
enum node_stat_item {
	NUMA_HIT,
	NUMA_MISS,
	NUMA_FOREIGN,
	NUMA_INTERLEAVE_HIT,
	NUMA_LOCAL,
	NUMA_OTHER,
	NR_NODE_STAT_ITEMS
};

/* Nodes 0 .. mm_nr_node_ids - 1 exist (set by mm_init()): Linux's nr_node_ids. */
extern unsigned int mm_nr_node_ids;
#define nr_node_ids mm_nr_node_ids

/* The node of each CPU (below mm_init_params.nr_cpus; MM_MAX_CPU_NODES at most are recorded). */
#define MM_MAX_CPU_NODES 1024
extern uint8_t mm_cpu_node[MM_MAX_CPU_NODES];

/* The nodes in the order an allocation preferring node n tries them: n first, then by distance. */
extern uint8_t mm_node_order[MAX_NUMNODES][MAX_NUMNODES];

/**
 * mm_numa_setup() - Take the environment's node layout (mm_init() calls it).
 * @layout: the layout, or NULL for one node.
 * @nr_cpus: CPUs layout->cpu_node describes.
 *
 * Checks and copies it, or reports why not and sets up one node; computes each node's fallback
 * order and clears the counters.
 *
 * Return: the number of nodes set up.
 */
unsigned int mm_numa_setup(const struct mm_numa_layout *layout, unsigned int nr_cpus);

/**
 * pfn_to_nid() - The node a frame belongs to.
 * @pfn: the frame.
 *
 * Return: the node of the range holding it; for a frame in no range, that of the range below
 * it (the first range's below them all); 0 with one node.
 */
unsigned int pfn_to_nid(unsigned long pfn);

/**
 * pfn_node_end() - Where the node changes after a frame.
 * @pfn: the frame.
 *
 * Return: the first frame after pfn whose node pfn_to_nid() may give differently (the start of
 * the next range), or ~0UL when there is none.
 */
unsigned long pfn_node_end(unsigned long pfn);

/**
 * mm_node_ranges() - The memory ranges of the layout mm/ runs with.
 * @nr: set to their number (0 with one node: all memory is node 0's).
 *
 * Return: the ranges, sorted by address.
 */
const struct mm_node_range *mm_node_ranges(unsigned int *nr);

/**
 * node_distance() - The distance between two nodes.
 * @a: a node.
 * @b: a node.
 *
 * Return: the layout's distance (LOCAL_DISTANCE from a node to itself); 255 for a node that
 * does not exist.
 */
unsigned int node_distance(unsigned int a, unsigned int b);

/**
 * cpu_to_node() - The node of a CPU.
 * @cpu: the CPU number (below mm_init_params.nr_cpus).
 *
 * Return: its node; 0 for a CPU the layout does not know.
 */
static inline unsigned int cpu_to_node(unsigned int cpu)
{
	return cpu < MM_MAX_CPU_NODES ? __atomic_load_n(&mm_cpu_node[cpu], __ATOMIC_RELAXED) : 0;
}

/**
 * numa_node_id() - The node of the calling CPU.
 *
 * Return: cpu_to_node() of arch_cpu_id(); a caller that may move between CPUs gets the node of
 * the CPU it ran on.
 */
unsigned int numa_node_id(void);

/**
 * num_online_nodes() - The nodes mm/ runs with.
 *
 * Return: nr_node_ids (a node without memory or CPUs counts: it is in the layout).
 */
static inline unsigned int num_online_nodes(void) { return mm_nr_node_ids; }

/**
 * node_stat_name() - A counter's name as Linux's numastat prints it ("numa_hit", "local_node").
 * @item: the counter.
 *
 * Return: the name; "?" out of range.
 */
const char *node_stat_name(unsigned int item);

/*
 * mm/'s own: what the slow paths count, as events each CPU keeps for itself for the zone
 * concerned (cpu_node_events(), mm/pcp.h), so that no two CPUs write one counter (an atomic
 * add on a shared line cost 2 MiB allocations on two CPUs two thirds of their speed): a hit or
 * miss, local or other, on the zone that served it; a foreign on the zone the allocation
 * preferred; an interleave hit on the zone that served it. The counters of enum node_stat_item
 * are sums of them (node_numa_stat(), mm/node_stat.h).
 */
enum { NODE_EV_HIT_LOCAL, NODE_EV_HIT_OTHER, NODE_EV_MISS_LOCAL, NODE_EV_MISS_OTHER, NODE_EV_FOREIGN,
       NODE_EV_INTERLEAVE, NR_NODE_EVENTS };

#endif
