/* SPDX-License-Identifier: MIT */
/*
 * numa_discover(): finds the SRAT and SLIT through the RSDP, hands them with the boot memory map's
 * usable RAM to acpi_numa_parse() (kernel/numa_acpi.c) and prints what it found.
 */
#include "kernel/numa.h"

#include "kernel/boot_memmap.h"
#include "kernel/paging.h"
#include "kernel/x86.h"
#include "lib/string.h"
#include "mm/arch.h"
#include "mm/node.h"
#include "lib/printk.h"

#define NUMA_MAX_RAM 256  /* usable entries of the boot memory map looked at; more count as one more span */

static struct numa_layout layout;
static struct numa_span ram[NUMA_MAX_RAM];

/* The boot page tables map the low 4 GiB at the direct map; acpi_find_table() stays below it. */
static const void *map_direct(void *ctx, uint64_t phys, uint32_t len)
{
	(void)ctx;
	(void)len;
	return phys_to_virt(phys);
}

/* The usable RAM of the boot memory map; past NUMA_MAX_RAM entries the last span reaches the highest end. */
static uint32_t usable_ram(const struct boot_info *bi)
{
	struct boot_memmap raw;
	struct fw_map_entry e;
	uint32_t n = 0;

	if (!boot_memmap_from_info(bi, &raw))
		return 0;
	for (uint32_t i = 0; i < raw.count; i++) {
		boot_memmap_entry(&raw, i, &e);
		if (e.type != FW_USABLE || !e.size)
			continue;
		uint64_t end = e.size > UINT64_MAX - e.base ? UINT64_MAX : e.base + e.size;
		if (n < NUMA_MAX_RAM)
			ram[n++] = (struct numa_span){ e.base, end };
		else if (end > ram[n - 1].end)
			ram[n - 1].end = end;
	}
	return n;
}

/* The table sig, or NULL with a line saying why when it is there but malformed. */
static const void *find_table(const struct boot_info *bi, const char *sig, uint32_t *len)
{
	const char *err = NULL;
	const void *t = acpi_find_table(bi->acpi_rsdp, bi->acpi_rsdp_len, map_direct, NULL, sig, len, &err);

	if (!t && err && !strstr(err, "lists no"))
		printk("%s\n", err);
	return t;
}

const struct numa_layout *numa_discover(const struct boot_info *bi, const struct acpi_cpus *cpus)
{
	uint32_t srat_len = 0, slit_len = 0, nr_ram = usable_ram(bi);
	const void *srat = bi->acpi_rsdp ? find_table(bi, "SRAT", &srat_len) : NULL;
	const void *slit = srat ? find_table(bi, "SLIT", &slit_len) : NULL;
	char line[256];

	acpi_numa_parse(srat, srat_len, slit, slit_len, ram, nr_ram, cpus, &layout, printk);
	if (layout.from_srat)
		printk("NUMA: %u node%s from the SRAT, distances %s\n", layout.nr_nodes, layout.nr_nodes == 1 ? "" : "s",
		       layout.from_slit ? "from the SLIT" : "10 local and 20 remote (no usable SLIT)");
	else
		printk("NUMA: %s: one node\n", srat ? "the SRAT was refused" : "no SRAT");
	for (uint32_t nid = 0; nid < layout.nr_nodes; nid++) {
		numa_format_node(line, sizeof(line), &layout, nid, cpu_initial_apic_id(), ram, nr_ram) /* the boot CPU: CPU 0 */;
		printk("%s\n", line);
	}
	for (uint32_t nid = 0; nid < layout.nr_nodes && layout.nr_nodes > 1; nid++) {
		numa_format_distances(line, sizeof(line), &layout, nid);
		printk("%s\n", line);
	}
	return &layout;
}

uint32_t numa_node_of_apic(uint32_t apic)
{
	for (uint32_t i = 0; i < layout.nr_cpus; i++)
		if (layout.cpu_apic[i] == apic)
			return layout.cpu_node[i];
	return 0;
}

const struct mm_numa_layout *numa_mm_layout(uint32_t boot_apic, unsigned int nr_cpus)
{
	static struct mm_numa_layout mm;
	static uint8_t cpu_node[ACPI_MAX_CPUS];
	unsigned int cpu = 1;

	if (layout.nr_nodes <= 1 || layout.nr_nodes > MAX_NUMNODES || layout.nr_ranges > MM_MAX_NODE_RANGES)
		return NULL;
	mm = (struct mm_numa_layout){ .nr_nodes = layout.nr_nodes, .nr_ranges = layout.nr_ranges, .cpu_node = cpu_node };
	for (uint32_t i = 0; i < layout.nr_ranges; i++)
		mm.ranges[i] = (struct mm_node_range){ layout.ranges[i].start, layout.ranges[i].end, layout.ranges[i].node };
	for (uint32_t a = 0; a < layout.nr_nodes; a++)
		for (uint32_t b = 0; b < layout.nr_nodes; b++)
			mm.distance[a][b] = layout.distance[a][b];
	/* CPU 0 is the boot CPU; smp_init() numbers the others as they come up (set_cpu_numa_node()). */
	cpu_node[0] = (uint8_t)numa_node_of_apic(boot_apic);
	for (uint32_t i = 0; i < layout.nr_cpus && cpu < MIN(nr_cpus, ACPI_MAX_CPUS); i++)
		if (layout.cpu_apic[i] != boot_apic)
			cpu_node[cpu++] = layout.cpu_node[i];
	return &mm;
}
