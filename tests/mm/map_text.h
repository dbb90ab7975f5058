/* SPDX-License-Identifier: MIT */
/*
 * Reading a firmware memory map from text (host only: the map replay, tests, the fuzzers) into
 * the raw form a boot loader passes: e820 entries and EFI descriptors, which then go through the
 * kernel's own conversion (kernel/boot_memmap.h). Two line forms, as Linux prints them at boot:
 *
 *   BIOS-e820: [mem 0x0000000000100000-0x0000000007fdffff] usable          (END inclusive)
 *   efi: mem04: type=7, attr=0xf, range=[0x0000000000100000-0x0000000000800000) (7MB)  (END exclusive)
 *
 * Text before the form (a log timestamp) is skipped; blank lines, lines starting with '#' and
 * lines holding neither form are ignored. e820 types: usable, reserved, ACPI data, ACPI NVS,
 * unusable, persistent (type N), type N, and nothing after them but white space. An EFI range is
 * whole 4 KiB pages; "(NMB)" may follow it. Anything else on a line of either form is malformed.
 *
 * And the NUMA nodes, for mm_init_params.numa (mm/node.h), in two more forms:
 *
 *   node 1 0x0000000010000000-0x0000000020000000     node N's memory [START, END), END exclusive
 *   distance 0 1 21                                  the distance from node A to node B
 *
 * N, A, B below MAX_NUMNODES, at most MM_MAX_NODE_RANGES node lines; a distance not given is 10
 * from a node to itself, 20 to another. mm/ checks the rest (sorted, disjoint ranges ...).
 */
#ifndef TESTS_MM_MAP_TEXT_H
#define TESTS_MM_MAP_TEXT_H

#include "kernel/boot_memmap.h"
#include "mm/node.h"

#define MAP_TEXT_MAX_ENTRIES (1u << 20)

/* Both raw maps read so far, in the order of their lines; the arrays grow as needed. */
struct map_text {
	struct mb2_mmap_entry *e820;
	struct efi_memory_descriptor *efi;
	uint32_t ne820, nefi;
	uint32_t cap_e820, cap_efi;
	struct mm_numa_layout numa; /* the node and distance lines: nr_ranges 0 when none */
};

/*
 * Parses one line (len bytes, no NUL needed) into mt. Returns 1 when it added an entry, 0 when the
 * line holds no entry (a node or distance line holds none), -EINVAL when a line of one of the two forms is malformed (reported with
 * lineno), -ENOMEM (reported) when the host has no memory or a form passes MAP_TEXT_MAX_ENTRIES
 * (no firmware map comes near: the kernel itself refuses more than FW_MAP_MAX_ENTRIES).
 */
int map_text_parse_line(struct map_text *mt, const char *line, size_t len, unsigned int lineno);

/* Parses a whole text; returns the entries added, or the first failing line's error. */
int map_text_parse(struct map_text *mt, const char *text, size_t len);

/* Reads a file of any size line by line; returns the entries added, or -errno (reported). */
int map_text_read_file(struct map_text *mt, const char *path);

/*
 * The raw map the kernel would use: the EFI descriptors when there are any (the kernel prefers
 * the EFI map), else the e820 entries. Returns false when there are neither.
 */
bool map_text_raw(const struct map_text *mt, struct boot_memmap *raw);

/* The node layout of the node and distance lines (distances not given filled in), or NULL when there are none. */
const struct mm_numa_layout *map_text_numa(struct map_text *mt);

/* Frees the arrays and empties mt. */
void map_text_free(struct map_text *mt);

#endif
