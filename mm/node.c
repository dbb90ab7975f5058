/* SPDX-License-Identifier: MIT */
/*
 * NUMA nodes: the layout mm_init() was given (checked, copied), frame -> node and CPU -> node,
 * distances, each node's fallback order, and the counters the slow paths keep. See mm/node.h.
 */
#include "mm/node.h"

#include "mm/arch.h"

unsigned int mm_nr_node_ids = 1;
uint8_t mm_cpu_node[MM_MAX_CPU_NODES];
uint8_t mm_node_order[MAX_NUMNODES][MAX_NUMNODES];

static struct mm_node_range ranges[MM_MAX_NODE_RANGES]; /* in frames' addresses, sorted */
static unsigned int nr_ranges;
static uint8_t distance[MAX_NUMNODES][MAX_NUMNODES];

/*
 * What is wrong with a layout's ranges, or NULL. Each node's ranges must follow each other: a
 * zone's span then holds only its node's memory, which the scanners that walk a span (compaction,
 * isolation) rely on.
 */
static const char *ranges_problem(const struct mm_numa_layout *l)
{
	uint8_t seen[MAX_NUMNODES] = { 0 };

	if (l->nr_ranges > MM_MAX_NODE_RANGES)
		return "more ranges than MM_MAX_NODE_RANGES";
	for (unsigned int i = 0; i < l->nr_ranges; i++) {
		const struct mm_node_range *r = &l->ranges[i];

		if (r->nid >= l->nr_nodes)
			return "a range of a node that does not exist";
		if (r->end <= r->start)
			return "an empty or wrapping range";
		if (i && r->start < l->ranges[i - 1].end)
			return "ranges not sorted, or overlapping";
		if (seen[r->nid] && l->ranges[i - 1].nid != r->nid)
			return "a node's memory on both sides of another node's";
		seen[r->nid] = 1;
	}
	return NULL;
}

/* What is wrong with a layout's distances and CPUs, or NULL. */
static const char *distance_problem(const struct mm_numa_layout *l, unsigned int nr_cpus)
{
	for (unsigned int a = 0; a < l->nr_nodes; a++)
		for (unsigned int b = 0; b < l->nr_nodes; b++)
			if (a == b ? l->distance[a][b] != LOCAL_DISTANCE : l->distance[a][b] <= LOCAL_DISTANCE)
				return "a node not at distance 10 from itself, or another node at 10 or less";
	for (unsigned int cpu = 0; l->cpu_node && cpu < MIN(nr_cpus, MM_MAX_CPU_NODES); cpu++)
		if (l->cpu_node[cpu] >= l->nr_nodes)
			return "a CPU on a node that does not exist";
	return NULL;
}

/* What is wrong with a layout, or NULL. */
static const char *layout_problem(const struct mm_numa_layout *l, unsigned int nr_cpus)
{
	if (l->nr_nodes == 0 || l->nr_nodes > MAX_NUMNODES)
		return "no node, or more than MAX_NUMNODES";
	if (!l->nr_ranges)
		return "no memory range";
	return ranges_problem(l) ? ranges_problem(l) : distance_problem(l, nr_cpus);
}

/* The one-node layout: everything on node 0. */
static void set_one_node(void)
{
	mm_nr_node_ids = 1;
	nr_ranges = 0;
	memset(mm_cpu_node, 0, sizeof(mm_cpu_node));
	memset(distance, 0, sizeof(distance));
	distance[0][0] = LOCAL_DISTANCE;
}

/* Copies a checked layout. */
static void set_layout(const struct mm_numa_layout *l, unsigned int nr_cpus)
{
	mm_nr_node_ids = l->nr_nodes;
	nr_ranges = l->nr_ranges;
	memcpy(ranges, l->ranges, nr_ranges * sizeof(ranges[0]));
	memcpy(distance, l->distance, sizeof(distance));
	memset(mm_cpu_node, 0, sizeof(mm_cpu_node));
	for (unsigned int cpu = 0; l->cpu_node && cpu < MIN(nr_cpus, MM_MAX_CPU_NODES); cpu++)
		mm_cpu_node[cpu] = l->cpu_node[cpu];
}

/* Is node a before node b in the fallback order of node from: nearer, or as near and numbered lower? */
static bool nearer(unsigned int from, unsigned int a, unsigned int b)
{
	return distance[from][a] < distance[from][b] || (distance[from][a] == distance[from][b] && a < b);
}

/* mm_node_order[from]: from first (the only node at LOCAL_DISTANCE), then by distance; an insertion sort. */
static void set_node_order(unsigned int from)
{
	uint8_t *order = mm_node_order[from];

	for (unsigned int n = 0; n < mm_nr_node_ids; n++) {
		unsigned int i = n;

		for (; i > 0 && nearer(from, n, order[i - 1]); i--)
			order[i] = order[i - 1];
		order[i] = (uint8_t)n;
	}
}

unsigned int mm_numa_setup(const struct mm_numa_layout *layout, unsigned int nr_cpus)
{
	const char *problem = layout ? layout_problem(layout, nr_cpus) : NULL;

	if (problem)
		printk("mm: NUMA layout refused (%s): one node\n", problem);
	if (!layout || problem)
		set_one_node();
	else
		set_layout(layout, nr_cpus);
	for (unsigned int n = 0; n < mm_nr_node_ids; n++)
		set_node_order(n);
	return mm_nr_node_ids;
}

/* The index of the last range starting at or below pfn, or -1 when pfn is below them all. */
static int range_below(unsigned long pfn)
{
	int lo = 0, hi = (int)nr_ranges - 1, found = -1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (PFN_DOWN(ranges[mid].start) <= pfn) {
			found = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return found;
}

unsigned int pfn_to_nid(unsigned long pfn)
{
	int i = range_below(pfn);

	if (!nr_ranges)
		return 0;
	return ranges[i < 0 ? 0 : i].nid;
}

unsigned long pfn_node_end(unsigned long pfn)
{
	int i = range_below(pfn);

	return (unsigned int)(i + 1) < nr_ranges ? PFN_DOWN(ranges[i + 1].start) : ~0UL;
}

const struct mm_node_range *mm_node_ranges(unsigned int *nr)
{
	*nr = nr_ranges;
	return ranges;
}

unsigned int node_distance(unsigned int a, unsigned int b)
{
	return a < mm_nr_node_ids && b < mm_nr_node_ids ? distance[a][b] : 255;
}

unsigned int numa_node_id(void)
{
	return cpu_to_node(arch_cpu_id());
}

const char *node_stat_name(unsigned int item)
{
	static const char *const names[NR_NODE_STAT_ITEMS] = { "numa_hit",       "numa_miss",  "numa_foreign",
								"interleave_hit", "local_node", "other_node" };

	return item < NR_NODE_STAT_ITEMS ? names[item] : "?";
}

