/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for kernel/acpi.c: the input is "physical memory" at ACPI_IMG_BASE holding the
 * RSDP at its start (the shape of tests/ktest/acpi_samples.c). The parser must never read outside
 * it (AddressSanitizer), and what it returns must hold together: at most ACPI_MAX_CPUS ids, each
 * found in a local APIC or x2APIC entry of the input; or the one-CPU fallback with a message.
 * When the input's last byte is odd, the checksums are fixed first so the walk gets past them.
 * The CPUs acpi_cpus_to_start() picks from the list, in both APIC modes, must be listed, each
 * once, none the boot CPU, and in xAPIC mode none above 254.
 */
#include <stdlib.h>
#include <string.h>

#include "kernel/acpi.h"
#include "tests/fuzz/fuzz_util.h"
#include "tests/ktest/acpi_samples.h"

#define BOOT_ID 0x5a

struct mem {
	uint8_t *p;
	size_t n;
};

static const void *map(void *ctx, uint64_t phys, uint32_t len)
{
	struct mem *m = ctx;

	if (phys < ACPI_IMG_BASE || phys - ACPI_IMG_BASE > m->n || len > m->n - (phys - ACPI_IMG_BASE))
		return NULL;
	return m->p + (phys - ACPI_IMG_BASE);
}

static void fix(uint8_t *p, size_t n, size_t at, size_t len)
{
	uint8_t s = 0;

	if (at >= n || len > n)
		return;
	p[at] = 0;
	for (size_t i = 0; i < len; i++)
		s += p[i];
	p[at] = (uint8_t)-s;
}

static void fix_checksums(struct mem *m)
{
	static const size_t tables[] = { ACPI_IMG_ROOT, ACPI_IMG_FACP, ACPI_IMG_MADT };

	if (m->n >= 36) {
		fix(m->p, 20, 8, 20);
		fix(m->p, m->n, 32, fuzz_le(m->p + 20, 4) < m->n ? fuzz_le(m->p + 20, 4) : m->n);
	}
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		size_t off = tables[i];
		if (off + 36 > m->n)
			continue;
		size_t len = fuzz_le(m->p + off + 4, 4);
		if (len > m->n - off)
			len = m->n - off;
		fix(m->p + off, len, 9, len);
	}
}

/* True when id is the APIC id of some local APIC or x2APIC entry in the input. */
static bool id_in_an_entry(const struct mem *m, uint32_t id)
{
	for (size_t i = 0; i + 8 <= m->n; i++) {
		if (m->p[i] == 0 && m->p[i + 1] >= 8 && m->p[i + 3] == id)
			return true;
		if (i + 16 <= m->n && m->p[i] == 9 && m->p[i + 1] >= 16 && fuzz_le(m->p + i + 4, 4) == id)
			return true;
	}
	return false;
}

static int quiet(const char *fmt, ...)
{
	(void)fmt;
	return 0;
}

/* The CPUs to start, in one APIC mode: each listed, none twice, none the boot CPU, none unreachable. */
static void check_to_start(const struct acpi_cpus *cpus, bool x2apic)
{
	static uint32_t ids[ACPI_MAX_CPUS];
	unsigned int n = acpi_cpus_to_start(cpus, BOOT_ID, x2apic, ids, ACPI_MAX_CPUS, quiet);

	if (n > cpus->count)
		abort();
	for (unsigned int i = 0; i < n; i++) {
		bool listed = false;
		for (uint32_t j = 0; j < cpus->count; j++)
			listed |= cpus->apic_ids[j] == ids[i];
		if (!listed || ids[i] == BOOT_ID || (!x2apic && ids[i] > 254) || ids[i] == 0xffffffffu)
			abort();
		for (unsigned int j = 0; j < i; j++)
			if (ids[j] == ids[i])
				abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct acpi_cpus cpus;
	struct mem m = { malloc(size ? size : 1), size };
	const char *err = NULL;

	if (size)
		memcpy(m.p, data, size);
	if (size && (data[size - 1] & 1))
		fix_checksums(&m);
	int r = acpi_find_cpus(m.p, size < 64 ? (uint32_t)size : 64, map, &m, BOOT_ID, &cpus, &err);
	if (cpus.count > ACPI_MAX_CPUS)
		abort();
	if (r < 0) {
		if (!err || !*err || cpus.from_madt || cpus.count != 1 || cpus.apic_ids[0] != BOOT_ID)
			abort();
	} else {
		if (!cpus.from_madt || (cpus.more && cpus.count != ACPI_MAX_CPUS))
			abort();
		for (uint32_t i = 0; i < cpus.count; i++)
			if (!id_in_an_entry(&m, cpus.apic_ids[i]))
				abort();
	}
	check_to_start(&cpus, false);
	check_to_start(&cpus, true);
	char line[4096];
	acpi_format_cpus(line, sizeof(line), &cpus);
	free(m.p);
	return 0;
}
