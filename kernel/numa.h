/* SPDX-License-Identifier: MIT */
/* The machine's NUMA nodes at boot (kernel/numa.c): the SRAT and SLIT read, checked and reported. */
#ifndef KERNEL_NUMA_H
#define KERNEL_NUMA_H

#include "kernel/acpi.h"
#include "kernel/bootinfo.h"
#include "kernel/numa_acpi.h"

/*
 * Reads the SRAT and SLIT through bi's RSDP (the boot page tables must map the low 4 GiB),
 * checks them against the usable RAM of bi's memory map and the CPUs cpus lists, and prints a
 * line per node and its distances ("NUMA: node 0: ..."), with one line per problem found.
 * Returns the layout: one node with everything when there is no usable SRAT.
 */
const struct numa_layout *numa_discover(const struct boot_info *bi, const struct acpi_cpus *cpus);

/* The node of the CPU with this APIC id in the layout numa_discover() found (0: a CPU it does not list). */
uint32_t numa_node_of_apic(uint32_t apic);

/*
 * The layout numa_discover() found, as mm_init() takes it (mm/node.h), with the CPUs numbered as
 * smp_init() will most likely number them: the boot CPU (boot_apic) 0, the others in MADT order.
 * NULL with one node.
 */
struct mm_numa_layout;
const struct mm_numa_layout *numa_mm_layout(uint32_t boot_apic, unsigned int nr_cpus);

#endif
