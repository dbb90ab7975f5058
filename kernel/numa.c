/* SPDX-License-Identifier: MIT */
/*
 * numa_discover(): finds the SRAT and SLIT through the RSDP, hands them with the boot memory map's
 * usable RAM to acpi_numa_parse() (kernel/numa_acpi.c) and prints what it found.
 */
#include "kernel/numa.h"

#include "kernel/boot_memmap.h"
#include "kernel/paging.h"
#include "lib/string.h"
#include "mm/arch.h"
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
		numa_format_node(line, sizeof(line), &layout, nid, ram, nr_ram);
		printk("%s\n", line);
	}
	for (uint32_t nid = 0; nid < layout.nr_nodes && layout.nr_nodes > 1; nid++) {
		numa_format_distances(line, sizeof(line), &layout, nid);
		printk("%s\n", line);
	}
	return &layout;
}
