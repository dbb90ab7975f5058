/* SPDX-License-Identifier: MIT */
/*
 * Finding the CPUs from ACPI (kernel/acpi.c): RSDP, then XSDT or RSDT, then the MADT, whose local
 * APIC and x2APIC entries list the processors. Every table is read through a callback, so the
 * same parser runs on the kernel's direct map and on made-up tables in host tests and a fuzzer.
 */
#ifndef KERNEL_ACPI_H
#define KERNEL_ACPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ACPI_MAX_CPUS     256          /* APIC ids recorded; more are counted in `more` */
#define ACPI_LAPIC_DEFAULT 0xfee00000u /* the architectural local APIC address */

/* Returns a pointer to the len bytes at physical address phys, or NULL when they are not mapped. */
typedef const void *(*acpi_map_fn)(void *ctx, uint64_t phys, uint32_t len);

struct acpi_cpus {
	uint32_t count;                   /* APIC ids recorded in apic_ids */
	uint32_t more;                    /* usable CPUs listed past ACPI_MAX_CPUS, not recorded */
	uint32_t apic_ids[ACPI_MAX_CPUS]; /* in MADT order */
	uint64_t lapic_addr;              /* physical address of the local APIC */
	bool from_madt;                   /* false: the one-CPU fallback */
};

/*
 * Lists the CPUs the MADT marks enabled or online capable (entry types 0 and 9), from the RSDP
 * copy of rsdp_len bytes. Returns 0 and fills cpus; or, on the first problem, returns -1 with
 * *err naming the table and the offset (a static buffer valid until the next call) and cpus set
 * to the fallback: the boot CPU alone (boot_apic_id) at the default local APIC address. No table
 * is read outside the low 4 GiB or past what map returns.
 */
int acpi_find_cpus(const void *rsdp, uint32_t rsdp_len, acpi_map_fn map, void *ctx,
		   uint32_t boot_apic_id, struct acpi_cpus *cpus, const char **err);

/* Writes the boot report line "ACPI: MADT lists N CPUs (APIC ids ...), local APIC at 0x..." into buf, like snprintf. */
int acpi_format_cpus(char *buf, size_t len, const struct acpi_cpus *cpus);

#endif
