/* SPDX-License-Identifier: MIT */
/*
 * Writes the seed corpus of the ACPI fuzzer: the made-up table images of tests/ktest/acpi_samples.c
 * (RSDT and XSDT, local APIC and x2APIC entries, and a machine of 300 x2APIC CPUs with ids above
 * 255, and SRATs and SLITs of two, four and nine nodes, a node without memory and one without
 * CPUs), in the directory given as the only argument.
 */
#include <stdio.h>

#include "tests/fuzz/fuzz_util.h"
#include "tests/ktest/acpi_samples.h"

static struct acpi_img img;

static int write_image(const char *dir, const char *name)
{
	return fuzz_write_seed(dir, name, img.mem, acpi_img_used(&img));
}

/* Four CPUs; n nodes of 256 MiB each from 1 MiB, node i with CPU i % 4 when i < 4 (x2APIC entries
 * when x2apic); the SLIT 10 on the diagonal, 20 + i + j elsewhere. Node 1 has no memory when
 * memoryless. */
static int write_numa(const char *dir, const char *name, uint32_t n, bool x2apic, bool memoryless)
{
	static const struct acpi_sample_cpu four[] = { { 0, 0, 1 }, { 0, 1, 1 }, { 0, 2, 1 }, { 0, 3, 1 } };
	struct acpi_sample_mem mem[16];
	struct acpi_sample_affinity aff[4];
	uint8_t slit[16 * 16];
	uint32_t nmem = 0, naff = 0;

	for (uint32_t i = 0; i < n; i++) {
		if (!(memoryless && i == 1))
			mem[nmem++] = (struct acpi_sample_mem){ i, 0x100000 + i * 0x10000000ULL, 0x10000000ULL, 1 };
		if (i < 4)
			aff[naff++] = (struct acpi_sample_affinity){ x2apic ? 2 : 0, i, i, 1 };
		for (uint32_t j = 0; j < n; j++)
			slit[i * n + j] = (uint8_t)(i == j ? 10 : 20 + i + j);
	}
	acpi_img_build(&img, true, four, 4);
	acpi_img_add_numa(&img, mem, nmem, aff, naff, slit, n);
	return write_image(dir, name);
}

int main(int argc, char **argv)
{
	static const struct acpi_sample_cpu cpus[] = {
		{ 0, 0, 1 }, { 0, 1, 1 }, { 9, 0x100, 2 }, { 0, 3, 0 }, { 9, 0x101, 1 },
	};
	static struct acpi_sample_cpu many[300];
	int errors = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	acpi_img_build(&img, false, cpus, 2);
	errors += write_image(argv[1], "rsdt_two_lapics");
	acpi_img_build(&img, true, cpus, 5);
	errors += write_image(argv[1], "xsdt_mixed");
	for (uint32_t i = 0; i < 300; i++)
		many[i] = (struct acpi_sample_cpu){ 9, 0x100 + 3 * i, 1 };
	acpi_img_build(&img, true, many, 300);
	errors += write_image(argv[1], "xsdt_300_x2apics");
	errors += write_numa(argv[1], "srat_two_nodes", 2, false, false);
	errors += write_numa(argv[1], "srat_four_nodes_x2apic", 4, true, false);
	errors += write_numa(argv[1], "srat_memoryless_node", 3, false, true);
	errors += write_numa(argv[1], "srat_nine_nodes", 9, true, false);
	return errors != 0;
}
