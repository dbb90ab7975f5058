/* SPDX-License-Identifier: MIT */
/*
 * Writes the seed corpus of the ACPI fuzzer: the made-up table images of tests/ktest/acpi_samples.c
 * (RSDT and XSDT, local APIC and x2APIC entries, and a machine of 300 x2APIC CPUs with ids above
 * 255), in the directory given as the only argument.
 */
#include <stdio.h>

#include "tests/fuzz/fuzz_util.h"
#include "tests/ktest/acpi_samples.h"

static struct acpi_img img;

static int write_image(const char *dir, const char *name)
{
	uint32_t end = ACPI_IMG_MADT + acpi_img_get32(&img, ACPI_IMG_MADT + 4);

	return fuzz_write_seed(dir, name, img.mem, end);
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
	return errors != 0;
}
