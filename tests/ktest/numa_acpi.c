/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of the NUMA layout from the SRAT and SLIT (kernel/numa_acpi.c) on made-up tables
 * (tests/ktest/acpi_samples.h): good tables give the nodes, their CPUs, RAM and distances; each
 * bad input drops the entry or falls back to one node with exactly the message naming why, and
 * in every case all of the RAM belongs to some node.
 */
#include "kernel/numa_acpi.h"
#include "tests/ktest/ktest.h"
#include "lib/printk.h"
#include "lib/string.h"
#include "tests/ktest/acpi_samples.h"
#include "tests/ktest/text_capture.h"

#define MIB (1ULL << 20)

static struct acpi_img img;
static struct acpi_cpus cpus;
static struct numa_layout layout;
static char line[256];

/* RAM as a PC's map has it: below 640 KiB, then from 1 MiB to 512 MiB. */
static const struct numa_span ram[] = { { 0, 0x9f000 }, { 0x100000, 512 * MIB } };
#define NR_RAM 2u

/* Four CPUs, APIC ids 0-3, in the MADT. */
static const struct acpi_sample_cpu four_cpus[] = { { 0, 0, 1 }, { 0, 1, 1 }, { 0, 2, 1 }, { 0, 3, 1 } };

/* Two nodes as QEMU builds them: 0-256 MiB and 256-512 MiB, CPUs 0-1 and 2-3. */
static const struct acpi_sample_mem two_mem[] = {
	{ 0, 0, 0xa0000, 1 }, { 0, 0x100000, 255 * MIB, 1 }, { 1, 256 * MIB, 256 * MIB, 1 },
};
static const struct acpi_sample_affinity two_cpu[] = {
	{ 0, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 2, 1, 1 }, { 0, 3, 1, 1 },
};
static const uint8_t two_slit[] = { 10, 21, 21, 10 };

/* Builds the sample with the SRAT and SLIT given, and parses it as the kernel does; returns the parse's result. */
static int build_and_parse(const struct acpi_sample_mem *mem, uint32_t nmem, const struct acpi_sample_affinity *aff,
			   uint32_t naff, const uint8_t *slit, uint32_t n)
{
	uint32_t srat_len, slit_len;
	const char *err;

	acpi_img_build(&img, true, four_cpus, 4);
	acpi_img_add_numa(&img, mem, nmem, aff, naff, slit, n);
	acpi_find_cpus(img.mem, 36, acpi_img_map, &img, 0, &cpus, &err);
	const void *srat = acpi_find_table(img.mem, 36, acpi_img_map, &img, "SRAT", &srat_len, &err);
	const void *s = acpi_find_table(img.mem, 36, acpi_img_map, &img, "SLIT", &slit_len, &err);
	capture_forget();
	return acpi_numa_parse(srat, srat_len, s, slit_len, ram, NR_RAM, &cpus, &layout, capture_printf);
}

/* Every byte of RAM is in exactly one node. */
static void expect_all_ram_placed(struct ktest *t)
{
	uint64_t lo, hi, sum = 0, total = 0;

	for (uint32_t i = 0; i < NR_RAM; i++)
		total += ram[i].end - ram[i].start;
	for (uint32_t nid = 0; nid < layout.nr_nodes; nid++)
		sum += numa_node_ram(&layout, nid, ram, NR_RAM, &lo, &hi);
	KT_EXPECT(t, sum == total, "the nodes hold %llu bytes of RAM, not all %llu", (unsigned long long)sum,
		  (unsigned long long)total);
}

/* Node nid's boot line, the boot CPU's APIC id 0 (the MADT's first) or boot. */
#define EXPECT_NODE_LINE(t, nid, want) expect_node_line(t, __LINE__, nid, 0, want)
#define EXPECT_NODE_LINE_BOOT(t, nid, boot, want) expect_node_line(t, __LINE__, nid, boot, want)
static void expect_node_line(struct ktest *t, int line_no, uint32_t nid, uint32_t boot, const char *want)
{
	numa_format_node(line, sizeof(line), &layout, nid, boot, ram, NR_RAM);
	KT_EXPECT(t, !strcmp(line, want), "line %d: got \"%s\", want \"%s\"", line_no, line, want);
}

#define EXPECT_SAID(t, want) \
	KT_EXPECT(t, !strcmp(captured.text, want), "said \"%s\", want \"%s\"", captured.text, want)

/* Expects the one-node fallback: everything in node 0, and the message want. */
#define EXPECT_ONE_NODE(t, r, want) expect_one_node(t, __LINE__, r, want)
static void expect_one_node(struct ktest *t, int line_no, int r, const char *want)
{
	KT_EXPECT(t, r < 0 && !layout.from_srat && layout.nr_nodes == 1 && layout.nr_ranges == 0,
		  "line %d: not the one-node fallback (result %d, %u nodes)", line_no, r, layout.nr_nodes);
	KT_EXPECT(t, !strcmp(captured.text, want), "line %d: said \"%s\", want \"%s\"", line_no, captured.text, want);
	for (uint32_t c = 0; c < layout.nr_cpus; c++)
		KT_EXPECT(t, layout.cpu_node[c] == 0, "line %d: CPU %u in node %u", line_no, c, layout.cpu_node[c]);
	expect_all_ram_placed(t);
}

static void numa_two_nodes_from_srat_and_slit(struct ktest *t)
{
	KT_ASSERT(t, build_and_parse(two_mem, 3, two_cpu, 4, two_slit, 2) == 0, "refused: %s", captured.text);
	KT_EXPECT_EQ(t, layout.nr_nodes, 2);
	KT_EXPECT(t, layout.from_srat && layout.from_slit, "not from the tables");
	EXPECT_SAID(t, "");
	EXPECT_NODE_LINE(t, 0, "NUMA: node 0: 0x0-0xfffffff (255 MiB), CPUs 0-1 (APIC ids 0-1)");
	EXPECT_NODE_LINE(t, 1, "NUMA: node 1: 0x10000000-0x1fffffff (256 MiB), CPUs 2-3 (APIC ids 2-3)");
	numa_format_distances(line, sizeof(line), &layout, 1);
	KT_EXPECT(t, !strcmp(line, "NUMA: distances from node 1: 21 10"), "got \"%s\"", line);
	KT_EXPECT_EQ(t, numa_node_of_addr(&layout, 256 * MIB - 1), 0);
	KT_EXPECT_EQ(t, numa_node_of_addr(&layout, 256 * MIB), 1);
	expect_all_ram_placed(t);
}

/*
 * The lines number the CPUs as the kernel does: the boot CPU 0, the others 1, 2 ... in MADT
 * order; with the boot CPU's APIC id 2, APIC ids 0-1 are CPUs 1-2 and APIC ids 2-3 CPUs 0 and 3.
 */
static void numa_node_lines_give_cpu_numbers_and_apic_ids(struct ktest *t)
{
	KT_ASSERT(t, build_and_parse(two_mem, 3, two_cpu, 4, two_slit, 2) == 0, "refused: %s", captured.text);
	EXPECT_NODE_LINE_BOOT(t, 0, 2, "NUMA: node 0: 0x0-0xfffffff (255 MiB), CPUs 1-2 (APIC ids 0-1)");
	EXPECT_NODE_LINE_BOOT(t, 1, 2, "NUMA: node 1: 0x10000000-0x1fffffff (256 MiB), CPUs 0,3 (APIC ids 2-3)");
	EXPECT_NODE_LINE_BOOT(t, 1, 0, "NUMA: node 1: 0x10000000-0x1fffffff (256 MiB), CPUs 2-3 (APIC ids 2-3)");
}

/* Nodes go by ascending proximity domain (7 and 3 here); x2APIC entries place CPUs; no SLIT: 10 and 20. */
static void numa_nodes_follow_domain_order_and_x2apic_entries(struct ktest *t)
{
	static const struct acpi_sample_mem mem[] = { { 7, 0, 256 * MIB, 1 }, { 3, 256 * MIB, 256 * MIB, 1 } };
	static const struct acpi_sample_affinity aff[] = {
		{ 2, 0, 7, 1 }, { 2, 1, 3, 1 }, { 0, 2, 7, 1 }, { 2, 3, 3, 1 }, { 2, 9, 5, 0 },  /* the last disabled */
	};

	KT_ASSERT(t, build_and_parse(mem, 2, aff, 5, NULL, 0) == 0, "refused: %s", captured.text);
	KT_EXPECT_EQ(t, layout.nr_nodes, 2);
	KT_EXPECT(t, layout.domain[0] == 3 && layout.domain[1] == 7, "domains %u %u", layout.domain[0], layout.domain[1]);
	EXPECT_NODE_LINE(t, 0, "NUMA: node 0: 0x10000000-0x1fffffff (256 MiB), CPUs 1,3 (APIC ids 1,3)");
	EXPECT_NODE_LINE(t, 1, "NUMA: node 1: 0x0-0xfffffff (255 MiB), CPUs 0,2 (APIC ids 0,2)");
	KT_EXPECT(t, !layout.from_slit && layout.distance[0][1] == 20 && layout.distance[1][1] == 10,
		  "distances %u %u", layout.distance[0][1], layout.distance[1][1]);
}

/* A node of CPUs alone and a node of memory alone are both nodes. */
static void numa_node_without_memory_and_node_without_cpus(struct ktest *t)
{
	static const struct acpi_sample_mem mem[] = { { 0, 0, 256 * MIB, 1 }, { 2, 256 * MIB, 256 * MIB, 1 } };
	static const struct acpi_sample_affinity aff[] = { { 0, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 2, 1, 1 }, { 0, 3, 1, 1 } };
	static const uint8_t slit[] = { 10, 20, 30, 20, 10, 40, 30, 40, 10 };

	KT_ASSERT(t, build_and_parse(mem, 2, aff, 4, slit, 3) == 0, "refused: %s", captured.text);
	KT_EXPECT_EQ(t, layout.nr_nodes, 3);
	EXPECT_NODE_LINE(t, 1, "NUMA: node 1: no memory, CPUs 2-3 (APIC ids 2-3)");
	EXPECT_NODE_LINE(t, 2, "NUMA: node 2: 0x10000000-0x1fffffff (256 MiB), CPUs none");
	numa_format_distances(line, sizeof(line), &layout, 2);
	KT_EXPECT(t, !strcmp(line, "NUMA: distances from node 2: 30 40 10"), "got \"%s\"", line);
	expect_all_ram_placed(t);
}

/* A range with no RAM in it (hot-pluggable or not) is dropped, saying so; the rest stands. */
static void numa_range_outside_ram_is_dropped(struct ktest *t)
{
	static const struct acpi_sample_mem mem[] = {
		{ 0, 0, 256 * MIB, 1 }, { 1, 256 * MIB, 256 * MIB, 1 },
		{ 1, 0x100000000ULL, 1024 * MIB, 3 }, { 0, 0xc0000000ULL, MIB, 1 },
	};

	KT_ASSERT(t, build_and_parse(mem, 4, two_cpu, 4, two_slit, 2) == 0, "refused: %s", captured.text);
	EXPECT_SAID(t, "numa: SRAT memory range at offset 0x80 (0x100000000-0x13fffffff, hot-pluggable) holds no RAM: dropped\n"
		       "numa: SRAT memory range at offset 0xa8 (0xc0000000-0xc00fffff) holds no RAM: dropped\n");
	KT_EXPECT_EQ(t, layout.nr_ranges, 2);
	expect_all_ram_placed(t);
}

/* RAM no range covers joins the node of the range below it (the first range when none is below). */
static void numa_ram_in_no_range_joins_the_node_below(struct ktest *t)
{
	static const struct acpi_sample_mem mem[] = { { 0, 64 * MIB, 64 * MIB, 1 }, { 1, 256 * MIB, 128 * MIB, 1 } };

	KT_ASSERT(t, build_and_parse(mem, 2, two_cpu, 4, two_slit, 2) == 0, "refused: %s", captured.text);
	KT_EXPECT_EQ(t, numa_node_of_addr(&layout, 0), 0);
	KT_EXPECT_EQ(t, numa_node_of_addr(&layout, 200 * MIB), 0);
	KT_EXPECT_EQ(t, numa_node_of_addr(&layout, 500 * MIB), 1);
	EXPECT_NODE_LINE(t, 1, "NUMA: node 1: 0x10000000-0x1fffffff (256 MiB), CPUs 2-3 (APIC ids 2-3)");
	expect_all_ram_placed(t);
}

static void numa_overlapping_nodes_fall_back_to_one(struct ktest *t)
{
	static const struct acpi_sample_mem mem[] = {
		{ 0, 0, 300 * MIB, 1 }, { 0, 0, 100 * MIB, 1 }, { 1, 256 * MIB, 256 * MIB, 1 },
	};

	EXPECT_ONE_NODE(t, build_and_parse(mem, 3, two_cpu, 4, two_slit, 2),
			"numa: SRAT memory of node 0 (0x0-0x12bfffff) overlaps node 1's (0x10000000-0x1fffffff): one node\n");
}

/* Overlapping ranges of one node are merged, not refused. */
static void numa_overlapping_ranges_of_one_node_merge(struct ktest *t)
{
	static const struct acpi_sample_mem mem[] = {
		{ 0, 0, 200 * MIB, 1 }, { 0, 100 * MIB, 156 * MIB, 1 }, { 1, 256 * MIB, 256 * MIB, 1 },
	};

	KT_ASSERT(t, build_and_parse(mem, 3, two_cpu, 4, two_slit, 2) == 0, "refused: %s", captured.text);
	KT_EXPECT_EQ(t, layout.nr_ranges, 2);
	KT_EXPECT(t, layout.ranges[0].end == 256 * MIB, "first range ends at %#llx",
		  (unsigned long long)layout.ranges[0].end);
}

static void numa_more_domains_than_supported_fall_back(struct ktest *t)
{
	struct acpi_sample_mem mem[NUMA_MAX_NODES + 1];

	for (uint32_t i = 0; i <= NUMA_MAX_NODES; i++)
		mem[i] = (struct acpi_sample_mem){ i, i * 32 * MIB, 32 * MIB, 1 };
	EXPECT_ONE_NODE(t, build_and_parse(mem, NUMA_MAX_NODES + 1, two_cpu, 4, NULL, 0),
			"numa: SRAT names more than 8 proximity domains: one node\n");
}

/* A MADT CPU no processor entry names joins node 0, saying so. */
static void numa_cpu_in_no_node_joins_node_0(struct ktest *t)
{
	static const struct acpi_sample_affinity aff[] = { { 0, 0, 1, 1 }, { 0, 1, 1, 1 }, { 0, 2, 1, 1 } };

	KT_ASSERT(t, build_and_parse(two_mem, 3, aff, 3, two_slit, 2) == 0, "refused: %s", captured.text);
	EXPECT_SAID(t, "numa: the SRAT names no node for the CPU with APIC id 3: it joins node 0\n");
	EXPECT_NODE_LINE(t, 0, "NUMA: node 0: 0x0-0xfffffff (255 MiB), CPUs 3 (APIC ids 3)");
	EXPECT_NODE_LINE(t, 1, "NUMA: node 1: 0x10000000-0x1fffffff (256 MiB), CPUs 0-2 (APIC ids 0-2)");
}

static void numa_bad_entries_fall_back_to_one_node(struct ktest *t)
{
	build_and_parse(two_mem, 3, two_cpu, 4, two_slit, 2);
	img.mem[ACPI_IMG_SRAT + 48 + 1] = 39;  /* the first memory entry one byte short */
	acpi_img_fix_table(&img, ACPI_IMG_SRAT);
	capture_forget();
	uint32_t len = acpi_img_get32(&img, ACPI_IMG_SRAT + 4);
	EXPECT_ONE_NODE(t, acpi_numa_parse(img.mem + ACPI_IMG_SRAT, len, NULL, 0, ram, NR_RAM, &cpus, &layout,
					   capture_printf),
			"numa: SRAT entry at offset 0x30 of type 1 has length 39, less than 40: one node\n");
	img.mem[ACPI_IMG_SRAT + 48 + 1] = 0;
	capture_forget();
	EXPECT_ONE_NODE(t, acpi_numa_parse(img.mem + ACPI_IMG_SRAT, len, NULL, 0, ram, NR_RAM, &cpus, &layout,
					   capture_printf),
			"numa: SRAT entry at offset 0x30 of type 1 has length 0, less than 40: one node\n");
	img.mem[ACPI_IMG_SRAT + 48 + 1] = 40;
	capture_forget();
	EXPECT_ONE_NODE(t, acpi_numa_parse(img.mem + ACPI_IMG_SRAT, len - 1, NULL, 0, ram, NR_RAM, &cpus, &layout,
					   capture_printf),
			"numa: SRAT entry at offset 0xd8 runs past the table end 0xe7: one node\n");
	capture_forget();
	EXPECT_ONE_NODE(t, acpi_numa_parse(img.mem + ACPI_IMG_SRAT, 47, NULL, 0, ram, NR_RAM, &cpus, &layout,
					   capture_printf),
			"numa: SRAT has length 0x2f, less than its 48-byte header: one node\n");
}

static void numa_no_srat_is_one_node_quietly(struct ktest *t)
{
	capture_forget();
	EXPECT_ONE_NODE(t, acpi_numa_parse(NULL, 0, NULL, 0, ram, NR_RAM, &cpus, &layout, capture_printf), "");
}

/* Each bad SLIT leaves the nodes alone and gives distances 10 and 20, saying why. */
static void numa_bad_slit_gives_default_distances(struct ktest *t)
{
	static const struct { uint8_t d[4]; uint32_t n; const char *want; } bad[] = {
		{ { 11, 21, 21, 10 }, 2, "numa: SLIT distance of node 0 to itself is 11, not 10: distances 10 and 20 used instead\n" },
		{ { 10, 10, 21, 10 }, 2, "numa: SLIT distance from node 0 to node 1 is 10, not above 10: distances 10 and 20 used instead\n" },
		{ { 10 }, 1, "numa: SLIT has 1 localities; node 1 is proximity domain 1: distances 10 and 20 used instead\n" },
	};

	for (uint32_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		KT_ASSERT(t, build_and_parse(two_mem, 3, two_cpu, 4, bad[i].d, bad[i].n) == 0, "refused");
		EXPECT_SAID(t, bad[i].want);
		KT_EXPECT(t, !layout.from_slit && layout.distance[0][1] == 20 && layout.nr_nodes == 2, "case %u", i);
	}
	build_and_parse(two_mem, 3, two_cpu, 4, two_slit, 2);
	acpi_img_put64(&img, ACPI_IMG_SLIT + 36, 3);  /* 3 x 3 distances do not fit in 48 bytes */
	capture_forget();
	acpi_numa_parse(img.mem + ACPI_IMG_SRAT, acpi_img_get32(&img, ACPI_IMG_SRAT + 4), img.mem + ACPI_IMG_SLIT,
			48, ram, NR_RAM, &cpus, &layout, capture_printf);
	EXPECT_SAID(t, "numa: SLIT of length 0x30 cannot hold 3 x 3 distances: distances 10 and 20 used instead\n");
}

KTEST_SUITE(numa_acpi,
	    KTEST_CASE(numa_two_nodes_from_srat_and_slit),
	    KTEST_CASE(numa_node_lines_give_cpu_numbers_and_apic_ids),
	    KTEST_CASE(numa_nodes_follow_domain_order_and_x2apic_entries),
	    KTEST_CASE(numa_node_without_memory_and_node_without_cpus),
	    KTEST_CASE(numa_range_outside_ram_is_dropped),
	    KTEST_CASE(numa_ram_in_no_range_joins_the_node_below),
	    KTEST_CASE(numa_overlapping_nodes_fall_back_to_one),
	    KTEST_CASE(numa_overlapping_ranges_of_one_node_merge),
	    KTEST_CASE(numa_more_domains_than_supported_fall_back),
	    KTEST_CASE(numa_cpu_in_no_node_joins_node_0),
	    KTEST_CASE(numa_bad_entries_fall_back_to_one_node),
	    KTEST_CASE(numa_no_srat_is_one_node_quietly),
	    KTEST_CASE(numa_bad_slit_gives_default_distances));
