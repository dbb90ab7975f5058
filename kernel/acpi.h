/* SPDX-License-Identifier: MIT */
/*
 * Finding the CPUs from ACPI (kernel/acpi.c): RSDP, then XSDT or RSDT, then the MADT, whose local
 * APIC and x2APIC entries list the processors; and any other table by its signature (the SRAT and
 * SLIT for kernel/numa_acpi.c). Every table is read through a callback, so the
 * same parser runs on the kernel's direct map and on made-up tables in host tests and a fuzzer.
 */
#ifndef KERNEL_ACPI_H
#define KERNEL_ACPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ACPI_MAX_CPUS     1024         /* APIC ids recorded (NR_CPUS_MAX); more are counted in `more` */
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
 * *err naming the table and the offset (parse_fail_message(), lib/printk.h: valid until the next
 * parse) and cpus set to the fallback: the boot CPU alone (boot_apic_id) at the default local
 * APIC address. No table is read outside the low 4 GiB or past what map returns.
 */
int acpi_find_cpus(const void *rsdp, uint32_t rsdp_len, acpi_map_fn map, void *ctx,
		   uint32_t boot_apic_id, struct acpi_cpus *cpus, const char **err);

/*
 * The table with signature sig (four characters, such as "SRAT" or "SLIT"; not "APIC") that the
 * XSDT or RSDT lists, after the same checks as acpi_find_cpus() (RSDP, root table, the table's
 * signature, length and checksum, all in the low 4 GiB and mapped). Returns it with *len its
 * length in bytes; or NULL, *len 0 and *err the message (valid until the next parse) when it is
 * missing or malformed. Only the header is checked: the caller parses the body.
 */
const void *acpi_find_table(const void *rsdp, uint32_t rsdp_len, acpi_map_fn map, void *ctx, const char *sig,
			    uint32_t *len, const char **err);

/* Where acpi_cpus_to_start() writes its messages: printk in the kernel, a buffer in the tests. */
typedef int acpi_say_fn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * The CPUs the kernel may start: the APIC ids of cpus in MADT order, without the boot CPU's
 * (boot_apic) and without any id an interrupt cannot reach alone. In xAPIC mode (x2apic false)
 * the destination is 8 bits and 255 is the broadcast, so only ids 0 to 254 qualify; in x2APIC
 * mode 0xffffffff is the broadcast. An id listed a second time (the boot CPU's included) is
 * left out too: starting it would reset a CPU already running. Writes one line through say for
 * each entry it leaves out, the boot CPU's own excepted. Writes at most max ids to ids and
 * returns how many it wrote.
 */
unsigned int acpi_cpus_to_start(const struct acpi_cpus *cpus, uint32_t boot_apic, bool x2apic,
				uint32_t *ids, unsigned int max, acpi_say_fn *say);

/* Writes the boot report line "ACPI: MADT lists N CPUs (APIC ids ...), local APIC at 0x..." into buf, like snprintf. */
int acpi_format_cpus(char *buf, size_t len, const struct acpi_cpus *cpus);

#endif
