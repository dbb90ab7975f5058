/* SPDX-License-Identifier: MIT */
/*
 * Builds made-up ACPI tables for the self-tests of kernel/acpi.c and for its fuzzer's seeds: an
 * image of a few KiB of "physical memory" at ACPI_IMG_BASE holding an RSDP, an RSDT or XSDT, a
 * FADT-shaped filler table and a MADT, and the map callback that reads it.
 */
#ifndef TESTS_KTEST_ACPI_SAMPLES_H
#define TESTS_KTEST_ACPI_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ACPI_IMG_BASE 0xe0000u
#define ACPI_IMG_SIZE 20480u 
#define ACPI_IMG_ROOT 0x40u   /* image offsets of the tables the samples build */
#define ACPI_IMG_FACP 0x100u
#define ACPI_IMG_MADT 0x200u
#define ACPI_IMG_SRAT 0x2800u /* after a MADT of 300 x2APIC entries; room for 150 SRAT entries */
#define ACPI_IMG_SLIT 0x4000u /* room for 63 x 63 distances */
#define ACPI_IMG_SLIT_MAX 63u

struct acpi_img {
	uint8_t mem[ACPI_IMG_SIZE] __attribute__((aligned(16)));
};

/* One MADT entry to build: type 0 (local APIC) or 9 (local x2APIC). */
struct acpi_sample_cpu {
	uint8_t type;
	uint32_t apic_id, flags;
};

/* One SRAT memory affinity entry to build. */
struct acpi_sample_mem {
	uint32_t domain;
	uint64_t base, len;
	uint32_t flags;  /* 1 enabled, 2 hot-pluggable */
};

/* One SRAT processor affinity entry to build: type 0 (local APIC) or 2 (local x2APIC). */
struct acpi_sample_affinity {
	uint8_t type;
	uint32_t apic_id, domain, flags;
};

/* The map callback for acpi_find_cpus(): ctx is the struct acpi_img. */
const void *acpi_img_map(void *ctx, uint64_t phys, uint32_t len);

/*
 * A whole sample: RSDP revision 0 with an RSDT, or revision 2 with an XSDT, listing a filler
 * "FACP" table then a MADT with local APIC address 0xfee00000 and the n entries of cpus.
 */
void acpi_img_build(struct acpi_img *m, bool xsdt, const struct acpi_sample_cpu *cpus, uint32_t n);

/*
 * Adds an SRAT of the nmem memory and ncpu processor entries given (memory entries first) to a
 * sample acpi_img_build() made, and, when slit is not NULL, a SLIT of n x n distances (row major,
 * n <= ACPI_IMG_SLIT_MAX); both are listed in the root table and their checksums are fixed.
 */
void acpi_img_add_numa(struct acpi_img *m, const struct acpi_sample_mem *mem, uint32_t nmem,
		       const struct acpi_sample_affinity *cpus, uint32_t ncpu, const uint8_t *slit, uint32_t n);

/* The bytes of the image up to the end of its last table (what a fuzzer seed needs). */
uint32_t acpi_img_used(const struct acpi_img *m);

/* Recomputes the checksum of the table at image offset off, or of the RSDP (both checksums). */
void acpi_img_fix_table(struct acpi_img *m, uint32_t off);
void acpi_img_fix_rsdp(struct acpi_img *m);

/* Reads or writes a little-endian field of the image. */
uint32_t acpi_img_get32(const struct acpi_img *m, uint32_t off);
void acpi_img_put32(struct acpi_img *m, uint32_t off, uint32_t v);
void acpi_img_put64(struct acpi_img *m, uint32_t off, uint64_t v);

#endif
