/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for kernel/acpi.c: the input is "physical memory" at ACPI_IMG_BASE holding the
 * RSDP at its start (the shape of tests/ktest/acpi_samples.c). The parser must never read outside
 * it (AddressSanitizer), and what it returns must hold together: at most ACPI_MAX_CPUS ids, each
 * found in a local APIC or x2APIC entry of the input; or the one-CPU fallback with a message.
 * When the input's last byte is odd, the checksums are fixed first so the walk gets past them.
 * The CPUs acpi_cpus_to_start() picks from the list, in both APIC modes, must be listed, each
 * once, none the boot CPU, and in xAPIC mode none above 254.
 * The SRAT and SLIT (kernel/numa_acpi.c) are parsed twice: as found through the RSDP, and the
 * whole input taken as an SRAT body and as a SLIT, so the entries are reached without
 * checksums. The layout must hold together: 1 to NUMA_MAX_NODES nodes, ranges sorted, disjoint
 * and in nodes that exist, every CPU in a node, distances 10 on the diagonal, and all of the RAM
 * in some node.
 */
#include <stdlib.h>
#include <string.h>

#include "kernel/acpi.h"
#include "kernel/numa_acpi.h"
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
	static const size_t tables[] = { ACPI_IMG_ROOT, ACPI_IMG_FACP, ACPI_IMG_MADT, ACPI_IMG_SRAT, ACPI_IMG_SLIT };

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

/* The RAM the layouts are checked against: a PC's, with a hole below 4 GiB. */
static const struct numa_span ram[] = {
	{ 0, 0x9f000 }, { 0x100000, 0xc0000000 }, { 0x100000000ULL, 0x180000000ULL },
};
#define NR_RAM (sizeof(ram) / sizeof(ram[0]))

/* The layout holds together, and every byte of RAM is in exactly one node. */
static void check_layout(const struct numa_layout *l, int r, const struct acpi_cpus *cpus)
{
	uint64_t lo, hi, sum = 0, total = 0;

	if (l->nr_nodes < 1 || l->nr_nodes > NUMA_MAX_NODES || l->nr_ranges > NUMA_MAX_RANGES)
		abort();
	if ((r < 0) != !l->from_srat || (!l->from_srat && (l->nr_nodes != 1 || l->nr_ranges)))
		abort();
	for (uint32_t i = 0; i < l->nr_ranges; i++)
		if (l->ranges[i].node >= l->nr_nodes || l->ranges[i].start >= l->ranges[i].end ||
		    (i && l->ranges[i].start < l->ranges[i - 1].end))
			abort();
	if (l->nr_cpus != cpus->count)
		abort();
	for (uint32_t c = 0; c < l->nr_cpus; c++)
		if (l->cpu_node[c] >= l->nr_nodes || l->cpu_apic[c] != cpus->apic_ids[c])
			abort();
	for (uint32_t i = 0; i < l->nr_nodes; i++)
		for (uint32_t j = 0; j < l->nr_nodes; j++)
			if ((i == j) != (l->distance[i][j] == NUMA_LOCAL_DISTANCE))
				abort();
	for (size_t i = 0; i < NR_RAM; i++)
		total += ram[i].end - ram[i].start;
	for (uint32_t nid = 0; nid < l->nr_nodes; nid++) {
		char line[256];
		sum += numa_node_ram(l, nid, ram, NR_RAM, &lo, &hi);
		numa_format_node(line, sizeof(line), l, nid, l->nr_cpus ? l->cpu_apic[l->nr_cpus - 1] : 0, ram, NR_RAM);
		numa_format_distances(line, sizeof(line), l, nid);
	}
	if (sum != total)
		abort();
}

/* The SRAT and SLIT found through the RSDP, then the whole input as either. */
static void check_numa(const struct mem *m, const struct acpi_cpus *cpus)
{
	static struct numa_layout l;
	uint32_t srat_len, slit_len;
	const void *srat = acpi_find_table(m->p, m->n < 64 ? (uint32_t)m->n : 64, map, (void *)m, "SRAT", &srat_len, NULL);
	const void *slit = acpi_find_table(m->p, m->n < 64 ? (uint32_t)m->n : 64, map, (void *)m, "SLIT", &slit_len, NULL);
	uint32_t n = m->n > UINT32_MAX ? UINT32_MAX : (uint32_t)m->n;

	check_layout(&l, acpi_numa_parse(srat, srat_len, slit, slit_len, ram, NR_RAM, cpus, &l, quiet), cpus);
	check_layout(&l, acpi_numa_parse(m->p, n, m->p, n, ram, NR_RAM, cpus, &l, quiet), cpus);
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
	check_numa(&m, &cpus);
	char line[4096];
	acpi_format_cpus(line, sizeof(line), &cpus);
	free(m.p);
	return 0;
}
