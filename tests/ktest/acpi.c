/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of the ACPI CPU list (kernel/acpi.c). Good tables (RSDP 1.0 with an RSDT, 2.0 with an
 * XSDT, MADT with local APIC and x2APIC entries) must list the usable CPUs; each malformed one
 * must be refused with exactly the message naming the table and offset, and the boot CPU alone.
 */
#include "kernel/acpi.h"
#include "tests/ktest/ktest.h"
#include "lib/printk.h"
#include "lib/string.h"
#include "tests/ktest/acpi_samples.h"
#include "tests/ktest/text_capture.h"

#define BOOT_ID 7   /* the boot CPU's APIC id the fallback must report */

static struct acpi_img img;
static struct acpi_cpus cpus;
static char line[4096];

static const struct acpi_sample_cpu two_cpus[] = {
	{ 0, 0, 1 }, { 9, 0x100, 2 }, { 0, 5, 0 },  /* enabled, online capable, disabled */
};

static int find(void)
{
	const char *err;
	uint32_t len = img.mem[15] >= 2 ? 36 : 20;

	return acpi_find_cpus(img.mem, len, acpi_img_map, &img, BOOT_ID, &cpus, &err);
}

/* Expects exactly the message want and the one-CPU fallback. */
#define EXPECT_ACPI_ERROR(t, want) expect_error(t, __LINE__, want)
static void expect_error(struct ktest *t, int line_no, const char *want)
{
	const char *err = NULL;
	uint32_t len = img.mem[15] >= 2 ? 36 : 20;
	int r = acpi_find_cpus(img.mem, len, acpi_img_map, &img, BOOT_ID, &cpus, &err);

	if (!KT_EXPECT(t, r < 0, "line %d: parse succeeded, expected \"%s\"", line_no, want))
		return;
	KT_EXPECT(t, err && !strcmp(err, want), "line %d: got \"%s\", want \"%s\"", line_no, err, want);
	KT_EXPECT(t, !cpus.from_madt && cpus.count == 1 && cpus.more == 0 && cpus.apic_ids[0] == BOOT_ID &&
			     cpus.lapic_addr == ACPI_LAPIC_DEFAULT,
		  "line %d: not the one-CPU fallback", line_no);
}

static void acpi_rsdt_lists_usable_cpus(struct ktest *t)
{
	acpi_img_build(&img, false, two_cpus, 3);
	KT_ASSERT(t, find() == 0, "RSDP 1.0 + RSDT refused");
	KT_EXPECT_EQ(t, cpus.count, 2);
	KT_EXPECT_EQ(t, cpus.apic_ids[0], 0);
	KT_EXPECT_EQ(t, cpus.apic_ids[1], 0x100);
	KT_EXPECT_EQ(t, cpus.lapic_addr, 0xfee00000);
	acpi_format_cpus(line, sizeof(line), &cpus);
	KT_EXPECT(t, !strcmp(line, "ACPI: MADT lists 2 CPUs (APIC ids 0 256), local APIC at 0xfee00000"),
		  "got \"%s\"", line);
}

static void acpi_xsdt_lists_usable_cpus(struct ktest *t)
{
	acpi_img_build(&img, true, two_cpus, 3);
	KT_ASSERT(t, find() == 0, "RSDP 2.0 + XSDT refused");
	KT_EXPECT_EQ(t, cpus.count, 2);
	KT_EXPECT_EQ(t, cpus.apic_ids[1], 0x100);
	KT_EXPECT(t, cpus.from_madt, "from the MADT");
}

static void acpi_counts_cpus_past_the_cap(struct ktest *t)
{
	static struct acpi_sample_cpu many[ACPI_MAX_CPUS + 4];

	for (uint32_t i = 0; i < ACPI_MAX_CPUS + 4; i++)
		many[i] = (struct acpi_sample_cpu){ 0, i & 0xff, 1 };
	acpi_img_build(&img, true, many, ACPI_MAX_CPUS + 4);
	KT_ASSERT(t, find() == 0, "1028 CPUs refused");
	KT_EXPECT_EQ(t, cpus.count, ACPI_MAX_CPUS);
	KT_EXPECT_EQ(t, cpus.more, 4);
	acpi_format_cpus(line, sizeof(line), &cpus);
	KT_EXPECT(t, strstr(line, "ACPI: MADT lists 1028 CPUs (APIC ids 0 1 ") == line &&
			     strstr(line, " 255; 4 more not recorded), local APIC at 0xfee00000"),
		  "got \"%s\"", line);
}

/* A machine of 300 CPUs with x2APIC ids above 255 (MADT type 9): every one recorded, none only counted. */
static void acpi_records_300_x2apic_cpus(struct ktest *t)
{
	static struct acpi_sample_cpu many[300];

	for (uint32_t i = 0; i < 300; i++)
		many[i] = (struct acpi_sample_cpu){ 9, 0x100 + 3 * i, 1 };
	acpi_img_build(&img, true, many, 300);
	KT_ASSERT(t, find() == 0, "300 x2APIC CPUs refused");
	KT_EXPECT_EQ(t, cpus.count, 300);
	KT_EXPECT_EQ(t, cpus.more, 0);
	KT_EXPECT_EQ(t, cpus.apic_ids[0], 0x100);
	KT_EXPECT_EQ(t, cpus.apic_ids[299], 0x100 + 3 * 299);
}

static void acpi_rejects_bad_checksums(struct ktest *t)
{
	acpi_img_build(&img, false, two_cpus, 3);
	img.mem[8]++;
	EXPECT_ACPI_ERROR(t, "acpi: RSDP checksum of bytes 0x0-0x13 sums to 0x1, not 0");
	acpi_img_build(&img, true, two_cpus, 3);
	img.mem[32]++;
	EXPECT_ACPI_ERROR(t, "acpi: RSDP extended checksum of bytes 0x0-0x23 sums to 0x1, not 0");
	acpi_img_build(&img, true, two_cpus, 3);
	img.mem[ACPI_IMG_MADT + 50]++;
	EXPECT_ACPI_ERROR(t, "acpi: MADT at 0xe0200 (length 0x4c) has a bad checksum (its bytes sum to 0x1, not 0)");
	acpi_img_build(&img, true, two_cpus, 3);
	memcpy(img.mem, "RSD PTX ", 8);
	EXPECT_ACPI_ERROR(t, "acpi: RSDP at offset 0x0 has no \"RSD PTR \" signature");
}

static void acpi_rejects_truncated_tables(struct ktest *t)
{
	acpi_img_build(&img, true, two_cpus, 3);
	acpi_img_put32(&img, ACPI_IMG_MADT + 4, 40);
	acpi_img_fix_table(&img, ACPI_IMG_MADT);
	EXPECT_ACPI_ERROR(t, "acpi: MADT at 0xe0200 has length 0x28, less than 44");
	acpi_img_build(&img, true, two_cpus, 3);
	acpi_img_put32(&img, ACPI_IMG_ROOT + 4, 30);
	EXPECT_ACPI_ERROR(t, "acpi: XSDT at 0xe0040 has length 0x1e, less than its 36-byte header");
	acpi_img_build(&img, true, two_cpus, 3);
	acpi_img_put32(&img, ACPI_IMG_MADT + 4, ACPI_IMG_SIZE);
	EXPECT_ACPI_ERROR(t, "acpi: MADT at 0xe0200 (length 0x5000) is not mapped");
	const char *err;
	KT_EXPECT(t, acpi_find_cpus(img.mem, 12, acpi_img_map, &img, BOOT_ID, &cpus, &err) < 0 &&
			     !strcmp(err, "acpi: RSDP copy of 12 bytes is shorter than 20"),
		  "a 12-byte RSDP copy is refused");
	KT_EXPECT(t, acpi_find_cpus(img.mem, 20, acpi_img_map, &img, BOOT_ID, &cpus, &err) < 0 &&
			     !strcmp(err, "acpi: RSDP revision 2 copy of 20 bytes is shorter than 36"),
		  "a 20-byte copy of a revision 2 RSDP is refused: %s", err);
}

static void acpi_rejects_bad_entry_lengths(struct ktest *t)
{
	acpi_img_build(&img, true, two_cpus, 3);
	img.mem[ACPI_IMG_MADT + 44 + 1] = 0;
	acpi_img_fix_table(&img, ACPI_IMG_MADT);
	EXPECT_ACPI_ERROR(t, "acpi: MADT entry at offset 0x2c has length 0");
	acpi_img_build(&img, true, two_cpus, 3);
	img.mem[ACPI_IMG_MADT + 44 + 8 + 16 + 1] = 12;
	acpi_img_fix_table(&img, ACPI_IMG_MADT);
	EXPECT_ACPI_ERROR(t, "acpi: MADT entry at offset 0x44 (length 12) runs past the table end 0x4c");
	acpi_img_build(&img, true, two_cpus, 3);
	img.mem[ACPI_IMG_MADT + 44 + 8 + 1] = 8;
	acpi_img_fix_table(&img, ACPI_IMG_MADT);
	EXPECT_ACPI_ERROR(t, "acpi: MADT entry at offset 0x34 of type 9 has length 8, less than 16");
}

static void acpi_rejects_tables_outside_low_4g(struct ktest *t)
{
	acpi_img_build(&img, true, two_cpus, 3);
	acpi_img_put64(&img, ACPI_IMG_ROOT + 36 + 8, 0x100000000ULL);
	acpi_img_fix_table(&img, ACPI_IMG_ROOT);
	EXPECT_ACPI_ERROR(t, "acpi: the table listed at XSDT offset 0x2c at 0x100000000 (length 0x24) leaves the low 4 GiB");
	acpi_img_build(&img, true, two_cpus, 3);
	acpi_img_put64(&img, 24, 0xfffffff0ULL);
	acpi_img_fix_rsdp(&img);
	EXPECT_ACPI_ERROR(t, "acpi: XSDT at 0xfffffff0 (length 0x24) leaves the low 4 GiB");
}

/* The CPUs to start from a MADT of n entries, in xAPIC or x2APIC mode, with boot CPU 0. */
static unsigned int to_start(const struct acpi_sample_cpu *madt, uint32_t n, bool x2apic, uint32_t *ids)
{
	acpi_img_build(&img, true, madt, n);
	if (find() < 0)
		return ~0u;
	capture_forget();
	return acpi_cpus_to_start(&cpus, 0, x2apic, ids, ACPI_MAX_CPUS, capture_printf);
}

/*
 * Starts the CPUs of madt (n entries) in xAPIC or x2APIC mode and expects exactly the ids want
 * (nwant of them, in order) and the lines said about the ones skipped.
 */
static void expect_started(struct ktest *t, const struct acpi_sample_cpu *madt, uint32_t n, bool x2apic,
			   const uint32_t *want, unsigned int nwant, const char *said)
{
	uint32_t ids[ACPI_MAX_CPUS];
	unsigned int got = to_start(madt, n, x2apic, ids);

	KT_ASSERT(t, got == nwant, "%u CPUs to start, want %u", got, nwant);
	for (unsigned int i = 0; i < nwant; i++)
		KT_EXPECT(t, ids[i] == want[i], "CPU %u to start has APIC id %u, want %u", i, ids[i], want[i]);
	KT_EXPECT(t, !strcmp(captured.text, said), "said \"%s\", want \"%s\"", captured.text, said);
}

static void acpi_xapic_mode_starts_ids_0_to_254_only(struct ktest *t)
{
	static const struct acpi_sample_cpu madt[] = {
		{ 0, 0, 1 }, { 0, 255, 1 }, { 9, 256, 1 }, { 0, 254, 1 }, { 9, 0x1000, 1 }, { 9, 3, 1 },
	};
	static const uint32_t want[] = { 254, 3 };

	expect_started(t, madt, 6, false, want, 2,
		       "smp: skipping the MADT's CPU with APIC id 255: it is the xAPIC broadcast id\n"
		       "smp: skipping the MADT's CPU with APIC id 256: xAPIC mode reaches ids 0 to 254 only\n"
		       "smp: skipping the MADT's CPU with APIC id 4096: xAPIC mode reaches ids 0 to 254 only\n");
}

static void acpi_x2apic_mode_starts_ids_past_255(struct ktest *t)
{
	static const struct acpi_sample_cpu madt[] = {
		{ 0, 0, 1 }, { 9, 255, 1 }, { 9, 256, 1 }, { 9, 0xffffffffu, 1 }, { 9, 0x10000, 2 },
	};
	static const uint32_t want[] = { 255, 256, 0x10000 };

	expect_started(t, madt, 5, true, want, 3,
		       "smp: skipping the MADT's CPU with APIC id 4294967295: it is the x2APIC broadcast id\n");
}

static void acpi_duplicate_ids_start_once(struct ktest *t)
{
	static const struct acpi_sample_cpu madt[] = {
		{ 0, 1, 1 }, { 0, 0, 1 }, { 9, 1, 1 }, { 0, 2, 1 }, { 9, 0, 1 }, { 0, 2, 2 },
	};
	static const uint32_t want[] = { 1, 2 };

	expect_started(t, madt, 6, false, want, 2,
		       "smp: skipping the MADT's CPU with APIC id 1: it is listed twice, and a second start-up would reset a running CPU\n"
		       "smp: skipping the MADT's CPU with APIC id 0: it is listed twice, and a second start-up would reset a running CPU\n"
		       "smp: skipping the MADT's CPU with APIC id 2: it is listed twice, and a second start-up would reset a running CPU\n");
}

static void acpi_boot_cpu_is_not_started_and_not_reported(struct ktest *t)
{
	static const struct acpi_sample_cpu madt[] = { { 0, 1, 1 }, { 0, 0, 1 }, { 0, 2, 1 } };
	static const uint32_t want[] = { 1, 2 };
	uint32_t ids[ACPI_MAX_CPUS];

	expect_started(t, madt, 3, false, want, 2, "");
	KT_EXPECT_EQ(t, acpi_cpus_to_start(&cpus, 0, false, ids, 1, capture_printf), 1);
}

KTEST_SUITE(acpi,
	    KTEST_CASE(acpi_rsdt_lists_usable_cpus),
	    KTEST_CASE(acpi_xsdt_lists_usable_cpus),
	    KTEST_CASE(acpi_counts_cpus_past_the_cap),
	    KTEST_CASE(acpi_records_300_x2apic_cpus),
	    KTEST_CASE(acpi_rejects_bad_checksums),
	    KTEST_CASE(acpi_rejects_truncated_tables),
	    KTEST_CASE(acpi_rejects_bad_entry_lengths),
	    KTEST_CASE(acpi_rejects_tables_outside_low_4g),
	    KTEST_CASE(acpi_xapic_mode_starts_ids_0_to_254_only),
	    KTEST_CASE(acpi_x2apic_mode_starts_ids_past_255),
	    KTEST_CASE(acpi_duplicate_ids_start_once),
	    KTEST_CASE(acpi_boot_cpu_is_not_started_and_not_reported));
