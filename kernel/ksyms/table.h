/* SPDX-License-Identifier: MIT */
/*
 * The kernel's symbol table as the build generates it (kernel/ksyms/mktable.sh), from the
 * kernel's first link, into a C file of the second: every code symbol of .text, sorted by
 * address. Only kernel/ksyms/ksyms.c reads it.
 */
#ifndef KERNEL_KSYMS_TABLE_H
#define KERNEL_KSYMS_TABLE_H

#include <stdint.h>

/* One symbol: where it starts, as an offset from ksym_text_start, and how long it is. */
struct ksym_entry {
	uint32_t offset, size;
};

/* The address the offsets count from: the start of .text (0 in the first link's empty table). */
extern const uintptr_t ksym_text_start;

/* The number of symbols (0 in the first link). */
extern const unsigned int ksym_count;

/* ksym_count entries, by increasing offset, no two at one address and none overlapping. */
extern const struct ksym_entry ksym_entries[];

/* Their names in the same order, each ended by a NUL. */
extern const char ksym_names[];

#endif
