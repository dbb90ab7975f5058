/* SPDX-License-Identifier: MIT */
/*
 * NUMA nodes from ACPI (kernel/numa_acpi.c): which memory and which CPUs make up each node (the
 * SRAT's memory, local APIC and x2APIC affinity entries) and how far apart the nodes are (the
 * SLIT). The parser reads table bytes it is given, so the same code runs in the kernel, in host
 * tests and in a fuzzer. Nothing in the tables is trusted: a bad entry is dropped, or the whole
 * layout falls back to one node, and each time one message says why. No RAM is ever left out:
 * RAM that no SRAT range covers joins the node of the nearest range below it (numa_node_of_addr()).
 */
#ifndef KERNEL_NUMA_ACPI_H
#define KERNEL_NUMA_ACPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/acpi.h"

#define NUMA_MAX_NODES      8   /* more proximity domains than this: one node */
#define NUMA_MAX_RANGES     64  /* more usable SRAT memory ranges than this: one node */
#define NUMA_LOCAL_DISTANCE 10  /* the SLIT's distance of a node to itself */
#define NUMA_REMOTE_DISTANCE 20 /* the distance between two nodes when there is no usable SLIT */

/* A physical address range [start, end). */
struct numa_span {
	uint64_t start, end;
};

/* Memory of one node: the part of an SRAT memory affinity range that holds RAM. */
struct numa_range {
	uint64_t start, end; /* [start, end), clipped to the RAM it covers */
	uint32_t node;
};

/* Where acpi_numa_parse() writes its messages: printk in the kernel, a buffer in the tests. */
typedef int numa_say_fn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

struct numa_layout {
	uint32_t nr_nodes;                      /* nodes 0 .. nr_nodes - 1; 1 in the fallback */
	uint32_t domain[NUMA_MAX_NODES];        /* each node's ACPI proximity domain, ascending */
	uint32_t nr_ranges;
	struct numa_range ranges[NUMA_MAX_RANGES]; /* sorted by address, disjoint */
	uint32_t nr_cpus;                       /* the MADT's CPUs, in MADT order */
	uint32_t cpu_apic[ACPI_MAX_CPUS];
	uint8_t cpu_node[ACPI_MAX_CPUS];
	uint8_t distance[NUMA_MAX_NODES][NUMA_MAX_NODES];
	bool from_srat;                         /* false: the one-node fallback */
	bool from_slit;                         /* false: distances 10 and 20 */
};

/*
 * Builds the node layout from the SRAT (srat, srat_len bytes; NULL: none) and the SLIT (slit,
 * slit_len; NULL: none), for the RAM ranges ram[0 .. nr_ram) of the boot memory map and the
 * CPUs cpus the MADT lists. The checks and what each failure does:
 * - SRAT missing, shorter than its 48-byte header, an entry with a bad length or running past
 *   the table, more than NUMA_MAX_NODES proximity domains, more than NUMA_MAX_RANGES ranges,
 *   two nodes' ranges overlapping, no usable memory range: one node with all RAM and all CPUs.
 * - A disabled entry is skipped; an enabled memory range that covers no RAM is dropped (RAM
 *   added later is not this parser's business); a range is clipped to the RAM span it covers.
 * - A MADT CPU that no processor entry names joins node 0.
 * - SLIT missing, of the wrong size, with fewer localities than a domain used, a diagonal entry
 *   other than 10 or a remote one below 11: distances 10 (local) and 20 (remote).
 * Nodes are numbered by ascending proximity domain. say (may be NULL) gets one line per
 * problem. Always fills *out; returns 0 with the SRAT's nodes, -1 with the fallback.
 */
int acpi_numa_parse(const void *srat, uint32_t srat_len, const void *slit, uint32_t slit_len,
		    const struct numa_span *ram, uint32_t nr_ram, const struct acpi_cpus *cpus,
		    struct numa_layout *out, numa_say_fn *say);

/*
 * The node that owns physical address addr: that of the range holding it, else that of the
 * nearest range below it, else that of the lowest range; 0 in the fallback (no ranges).
 */
uint32_t numa_node_of_addr(const struct numa_layout *l, uint64_t addr);

/*
 * The bytes of RAM of ram[0 .. nr_ram) that numa_node_of_addr() gives node nid, with *lo and *hi
 * its lowest and highest address (*lo > *hi when there is none). Over all nodes they add up to
 * all of ram[] (for disjoint spans): no RAM is left out of every node.
 */
uint64_t numa_node_ram(const struct numa_layout *l, uint32_t nid, const struct numa_span *ram, uint32_t nr_ram,
		       uint64_t *lo, uint64_t *hi);

/*
 * Writes node nid's boot line into buf, like snprintf:
 * "NUMA: node 0: 0x0-0x7fffffff (2047 MiB), CPUs 0-2 (APIC ids 0-1,4)", counting the RAM of ram[]
 * that numa_node_of_addr() gives the node; "no memory" and "CPUs none" for an empty node. The
 * CPU numbers are the kernel's, as Linux prints them: the boot CPU (APIC id boot_apic) is 0, the
 * others 1, 2 ... in MADT order (the numbers they get when every CPU comes up); their APIC ids
 * follow in MADT order. Not reentrant (a buffer of its own): for the boot report.
 */
int numa_format_node(char *buf, size_t len, const struct numa_layout *l, uint32_t nid, uint32_t boot_apic,
		     const struct numa_span *ram, uint32_t nr_ram);

/* Writes node nid's distances into buf, like snprintf: "NUMA: distances from node 0: 10 20". */
int numa_format_distances(char *buf, size_t len, const struct numa_layout *l, uint32_t nid);

#endif
