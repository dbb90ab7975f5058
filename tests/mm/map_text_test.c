/* SPDX-License-Identifier: MIT */
/*
 * Host tests of the text memory-map parser: both line forms, Linux's log prefixes, comments,
 * empty entries, every e820 type name, malformed lines refused, files of any size read whole.
 */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "tests/ktest/ktest.h"
#include "tests/mm/host_mm.h"
#include "tests/mm/map_text.h"

static struct map_text mt;
static struct fw_map map; /* what the kernel's conversion makes of the parsed lines */

/* Parses text, then converts the raw map the kernel would use into map (unsanitized). */
static int parse(const char *text)
{
	struct boot_memmap raw;
	struct fw_map_entry e;
	int r;

	map_text_free(&mt);
	host_fw_map_init(&map, 64);
	r = map_text_parse(&mt, text, strlen(text));
	if (r <= 0 || !map_text_raw(&mt, &raw))
		return r;
	for (uint32_t i = 0; i < raw.count; i++) {
		boot_memmap_entry(&raw, i, &e);
		fw_map_add_range(&map, e.base, e.size, e.type);
	}
	return r;
}

static void e820_lines_are_read_with_inclusive_ends(struct ktest *t)
{
	KT_EXPECT_EQ(t, parse("BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable\n"
			      "BIOS-e820: [mem 0x00000000000f0000-0x00000000000fffff] reserved\n"), 2);
	KT_EXPECT(t, map.entry[0].base == 0 && map.entry[0].size == 0x9fc00 && map.entry[0].type == FW_USABLE,
		  "first entry");
	KT_EXPECT(t, map.entry[1].base == 0xf0000 && map.entry[1].size == 0x10000 && map.entry[1].type == FW_RESERVED,
		  "second entry");
}

static void every_e820_type_name_is_known(struct ktest *t)
{
	static const struct {
		const char *name;
		enum fw_type type;
	} names[] = {
		{ "usable", FW_USABLE }, { "reserved", FW_RESERVED }, { "ACPI data", FW_ACPI },
		{ "ACPI NVS", FW_NVS }, { "unusable", FW_UNUSABLE }, { "persistent (type 7)", FW_PERSISTENT },
		{ "persistent (type 12)", FW_PERSISTENT }, { "type 20", FW_RESERVED }, { "type 4", FW_NVS },
	};
	char line[128];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(line, sizeof(line), "BIOS-e820: [mem 0x1000-0x1fff] %s", names[i].name);
		KT_EXPECT(t, parse(line) == 1 && map.entry[0].type == names[i].type, "'%s' read as %s",
			  names[i].name, map.nr ? fw_type_name(map.entry[0].type) : "nothing");
	}
}

static void efi_lines_are_read_with_exclusive_ends(struct ktest *t)
{
	KT_EXPECT_EQ(t, parse("efi: mem04: type=7, attr=0xf, range=[0x0000000000100000-0x0000000000800000) (7MB)\n"
			      "efi: mem12: type=6, attr=0x800000000000000f, range=[0x3f010000-0x3f100000) (0MB)\n"
			      "efi: mem11: type=9, attr=0xf, range=[0x3f000000-0x3f010000) (0MB)\n"), 3);
	KT_EXPECT(t, map.entry[0].base == 0x100000 && map.entry[0].size == 0x700000 && map.entry[0].type == FW_USABLE,
		  "conventional memory");
	KT_EXPECT_EQ(t, map.entry[1].type, FW_RESERVED);
	KT_EXPECT_EQ(t, map.entry[2].type, FW_ACPI);
}

static void log_prefixes_comments_and_other_lines_are_skipped(struct ktest *t)
{
	KT_EXPECT_EQ(t, parse("# a comment\n\n[    0.000000] BIOS-e820: [mem 0x100000-0x1fffff] usable\r\n"
			      "[    0.000000] Linux version 6.2\n  \t\n"
			      "<6>[    0.000000] efi: mem00: type=3, attr=0xf, range=[0x0-0x1000) (0MB)\n"), 2);
	KT_EXPECT(t, mt.ne820 == 1 && mt.e820[0].base_addr == 0x100000 && mt.e820[0].length == 0x100000,
		  "timestamped e820 line");
	KT_EXPECT_EQ(t, mt.nefi, 1);
}

/* The kernel prefers the EFI map when it has both; so does the replay. */
static void the_efi_map_is_used_when_both_are_present(struct ktest *t)
{
	struct boot_memmap raw;

	KT_EXPECT_EQ(t, parse("BIOS-e820: [mem 0x0-0x9ffff] usable\n"
			      "efi: mem00: type=7, attr=0xf, range=[0x1000-0x3000) (0MB)\n"
			      "BIOS-e820: [mem 0x100000-0x1fffff] usable\n"), 3);
	KT_ASSERT(t, map_text_raw(&mt, &raw), "no raw map");
	KT_EXPECT(t, raw.kind == BOOT_MEMMAP_EFI && raw.count == 1, "kind %d, %u entries", raw.kind, raw.count);
	KT_EXPECT(t, map.nr == 1 && map.entry[0].base == 0x1000 && map.entry[0].size == 0x2000,
		  "%u entries", map.nr);
}

static void empty_and_inverted_ranges_become_empty_entries(struct ktest *t)
{
	KT_EXPECT_EQ(t, parse("BIOS-e820: [mem 0x0000000050000000-0x000000004fffffff] usable\n"
			      "BIOS-e820: [mem 0x60000000-0x10000000] usable\n"
			      "efi: mem01: type=7, attr=0xf, range=[0x2000-0x1000) (0MB)\n"), 3);
	KT_EXPECT(t, mt.ne820 == 2 && mt.e820[0].length == 0 && mt.e820[1].length == 0, "e820 lengths");
	KT_EXPECT(t, mt.nefi == 1 && mt.efi[0].num_pages == 0, "EFI pages");
	KT_EXPECT_EQ(t, parse("BIOS-e820: [mem 0x0-0xffffffffffffffff] reserved\n"), 1);
	KT_EXPECT_EQ(t, map.entry[0].size, UINT64_MAX);
}

static void malformed_lines_are_refused(struct ktest *t)
{
	static const char *const bad[] = {
		"BIOS-e820: [mem 0x1000-0x1fff] bogus",
		"BIOS-e820: [mem 0x1000 0x1fff] usable",
		"BIOS-e820: [mem 1000-0x1fff] usable",
		"BIOS-e820: [mem 0x10000000000000000-0x1] usable",
		"efi: mem00: type=7, attr=0xf, range=[0x0-0x1000 (0MB)",
		"efi: mem00: type=, attr=0xf, range=[0x0-0x1000) (0MB)",
		/* a type name must be the whole rest of the line: this was once read as usable */
		"BIOS-e820: [mem 0x1000-0x1fff] usablex",
		"BIOS-e820: [mem 0x1000-0x1fff] usable RAM",
		"BIOS-e820: [mem 0x1000-0x1fff] reserved!",
		"BIOS-e820: [mem 0x1000-0x1fff] persistent (type 7",
		"BIOS-e820: [mem 0x1000-0x1fff] type 12x",
		"efi: mem00: type=7, attr=0xf, range=[0x0-0x1800) (0MB)",
		"efi: mem00: type=7, attr=0xf, range=[0x800-0x1000) (0MB)",
		"efi: mem00: type=7, attr=0xf, range=[0x0-0x1000) (0MB) more",
		"efi: mem00: type=7, attr=0xf, range=[0x0-0x1000)x",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		KT_EXPECT(t, parse(bad[i]) == -EINVAL, "'%s' accepted", bad[i]);
}

/* Trailing white space and a CR are fine. */
static void trailing_white_space_is_allowed(struct ktest *t)
{
	KT_EXPECT_EQ(t, parse("BIOS-e820: [mem 0x1000-0x1fff] ACPI NVS  \t\r\n"
			      "BIOS-e820: [mem 0x2000-0x2fff] persistent (type 12) \n"), 2);
	KT_EXPECT(t, mt.e820[0].type == 4 && mt.e820[1].type == 7, "types %u %u", mt.e820[0].type,
		  mt.e820[1].type);
}

/* A file is read line by line whatever its size: a line across the first MiB stays whole. */
static void a_file_larger_than_a_mib_is_read_whole(struct ktest *t)
{
	char path[] = "/tmp/map-text-test-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	long pos = 0;

	KT_ASSERT(t, f, "cannot create a temporary file");
	while (pos < (1L << 20) - 30)
		pos += fprintf(f, "# padding, padding, padding, padding, padding, padding\n");
	fprintf(f, "BIOS-e820: [mem 0x0000000000100000-0x00000000001fffff] type 12\n");
	fprintf(f, "BIOS-e820: [mem 0x0000000000200000-0x00000000002fffff] usable\n");
	fclose(f);
	map_text_free(&mt);
	KT_EXPECT_EQ(t, map_text_read_file(&mt, path), 2);
	KT_EXPECT(t, mt.ne820 == 2 && mt.e820[0].type == 12 && mt.e820[1].type == 1, "%u entries, first type %u",
		  mt.ne820, mt.ne820 ? mt.e820[0].type : 0);
	unlink(path);
}

/* A malformed line stops the reading of a file, with its number. */
static void a_malformed_line_in_a_file_is_an_error(struct ktest *t)
{
	char path[] = "/tmp/map-text-test-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	KT_ASSERT(t, f, "cannot create a temporary file");
	fprintf(f, "BIOS-e820: [mem 0x0-0x9ffff] usable\nBIOS-e820: [mem 0x100000-0x1fffff] usablex\n");
	fclose(f);
	map_text_free(&mt);
	KT_EXPECT_EQ(t, map_text_read_file(&mt, path), -EINVAL);
	unlink(path);
}

/* Node and distance lines give the layout for mm_init_params.numa; bad ones are refused. */
static void node_lines_give_the_numa_layout(struct ktest *t)
{
	const struct mm_numa_layout *l;

	KT_EXPECT_EQ(t, parse("BIOS-e820: [mem 0x0000000000000000-0x0000000007ffffff] usable\n"
			      "node 0 0x0-0x4001000\nnode 2 0x4001000-0x8000000\ndistance 0 2 31\n"), 1);
	l = map_text_numa(&mt);
	KT_ASSERT(t, l, "no layout from the node lines");
	KT_EXPECT_EQ(t, l->nr_nodes, 3);
	KT_EXPECT_EQ(t, l->nr_ranges, 2);
	KT_EXPECT_EQ(t, l->ranges[1].start, 0x4001000);
	KT_EXPECT_EQ(t, l->ranges[1].end, 0x8000000);
	KT_EXPECT_EQ(t, l->ranges[1].nid, 2);
	KT_EXPECT_EQ(t, l->distance[0][2], 31);
	KT_EXPECT_EQ(t, l->distance[2][0], REMOTE_DISTANCE);
	KT_EXPECT_EQ(t, l->distance[1][1], LOCAL_DISTANCE);
	KT_EXPECT_EQ(t, parse("BIOS-e820: [mem 0x0000000000000000-0x0000000007ffffff] usable\n"), 1);
	KT_EXPECT(t, !map_text_numa(&mt), "a layout without node lines");
	KT_EXPECT_EQ(t, parse("node 8 0x0-0x1000\n"), -EINVAL);
	KT_EXPECT_EQ(t, parse("node 0 0x0-\n"), -EINVAL);
	KT_EXPECT_EQ(t, parse("distance 0 1 256\n"), -EINVAL);
	KT_EXPECT_EQ(t, parse("distance 0 9 20\n"), -EINVAL);
}

KTEST_SUITE(map_text,
	    KTEST_CASE(node_lines_give_the_numa_layout),
	    KTEST_CASE(e820_lines_are_read_with_inclusive_ends),
	    KTEST_CASE(every_e820_type_name_is_known),
	    KTEST_CASE(efi_lines_are_read_with_exclusive_ends),
	    KTEST_CASE(log_prefixes_comments_and_other_lines_are_skipped),
	    KTEST_CASE(empty_and_inverted_ranges_become_empty_entries),
	    KTEST_CASE(malformed_lines_are_refused),
	    KTEST_CASE(the_efi_map_is_used_when_both_are_present),
	    KTEST_CASE(trailing_white_space_is_allowed),
	    KTEST_CASE(a_file_larger_than_a_mib_is_read_whole),
	    KTEST_CASE(a_malformed_line_in_a_file_is_an_error));
