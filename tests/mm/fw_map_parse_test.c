/*
 * Host tests of the text memory-map parser: both line forms, Linux's log prefixes, comments,
 * empty entries, every e820 type name, and malformed lines reported with their number.
 */
#include <stdio.h>
#include <string.h>

#include "kernel/ktest.h"
#include "mm/fw_map_parse.h"

static struct fw_map map;

static int parse(const char *text)
{
	fw_map_init(&map);
	return fw_map_parse_text(&map, text, strlen(text));
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
	KT_EXPECT(t, map.entry[0].base == 0x100000 && map.entry[0].size == 0x100000, "timestamped e820 line");
}

static void empty_and_inverted_ranges_become_empty_entries(struct ktest *t)
{
	KT_EXPECT_EQ(t, parse("BIOS-e820: [mem 0x0000000050000000-0x000000004fffffff] usable\n"
			      "BIOS-e820: [mem 0x60000000-0x10000000] usable\n"
			      "efi: mem01: type=7, attr=0xf, range=[0x2000-0x1000) (0MB)\n"), 3);
	for (unsigned int i = 0; i < map.nr; i++)
		KT_EXPECT_EQ(t, map.entry[i].size, 0);
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
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		KT_EXPECT(t, parse(bad[i]) == -EINVAL, "'%s' accepted", bad[i]);
}

KTEST_SUITE(mm_fw_map_parse,
	    KTEST_CASE(e820_lines_are_read_with_inclusive_ends),
	    KTEST_CASE(every_e820_type_name_is_known),
	    KTEST_CASE(efi_lines_are_read_with_exclusive_ends),
	    KTEST_CASE(log_prefixes_comments_and_other_lines_are_skipped),
	    KTEST_CASE(empty_and_inverted_ranges_become_empty_entries),
	    KTEST_CASE(malformed_lines_are_refused));
