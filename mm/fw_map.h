/* SPDX-License-Identifier: MIT */
/*
 * The firmware memory map: which physical ranges are RAM and which are not.
 *
 * Boot code fills a struct fw_map from the firmware's map (kernel/boot_memmap.c translates the
 * multiboot2 e820 entries or the EFI memory map), then fw_map_sanitize() turns whatever the
 * firmware said (unsorted, overlapping, unaligned, overflowing ...) into sorted, disjoint entries
 * whose usable ranges are whole pages below MAX_PHYS_BITS. Everything after that (memblock, memmap, buddy) trusts the sanitized map.
 */
#ifndef MM_FW_MAP_H
#define MM_FW_MAP_H

#include "mm/types.h"

/* Physical addresses at and above 1 << MAX_PHYS_BITS (64 TiB) are not supported: RAM there is ignored. */
#define MAX_PHYS_BITS 46
#define MAX_PHYS_ADDR (1ULL << MAX_PHYS_BITS)

/*
 * The hard limit: a firmware map with more entries is refused (fw_map_init() takes storage for at
 * most this many). Real machines have dozens to a few hundred; OVMF gives about 130.
 */
#define FW_MAP_MAX_ENTRIES 16384

/*
 * Entry types. Where entries overlap, the larger number wins (so anything beats usable RAM); the
 * numbers happen to be e820's, but the translation from any firmware's types is the
 * environment's job (kernel/boot_memmap.c for e820 and EFI), and what it does not know it must
 * call FW_RESERVED.
 */
enum fw_type {
	FW_USABLE = 1,     /* RAM the kernel may use */
	FW_RESERVED = 2,   /* anything else the firmware keeps: ROMs, MMIO, runtime services */
	FW_ACPI = 3,       /* ACPI tables ("ACPI data"): reclaimable once parsed */
	FW_NVS = 4,        /* ACPI non-volatile storage: must be preserved */
	FW_UNUSABLE = 5,   /* RAM with errors */
	FW_PERSISTENT = 7, /* persistent memory (NVDIMM) */
};

struct fw_map_entry {
	phys_addr_t base;
	uint64_t size;
	enum fw_type type;
};

/* One boundary of an entry: the sanitizer's scratch, kept in the map's storage. */
struct fw_map_point {
	phys_addr_t addr;
	uint32_t type;
	uint32_t start; /* 1 for the start of an entry, 0 for its end */
};

/*
 * A map lives in storage its user provides, sized for the number of firmware entries before
 * they are added: FW_MAP_STORAGE_BYTES(n) bytes accept n entries and leave room for everything
 * sanitizing needs. Overlaps can split an entry in two, so a sanitized map holds up to 2n - 1
 * entries, and sanitizing that again needs two boundaries for each of them.
 */
struct fw_map {
	struct fw_map_entry *entry;  /* nr entries; sanitized: sorted, disjoint */
	struct fw_map_point *points; /* room for 4 * cap boundaries while sanitizing */
	unsigned int nr;
	unsigned int cap;            /* entries fw_map_add_*() accepts */
};

#define FW_MAP_BYTES_PER_ENTRY (2 * sizeof(struct fw_map_entry) + 4 * sizeof(struct fw_map_point))
/**
 * FW_MAP_STORAGE_BYTES() - The storage a map needs for a number of firmware entries.
 * @n: the entries the firmware gives.
 *
 * Return: the bytes, sanitizing's room included.
 */
#define FW_MAP_STORAGE_BYTES(n) ((size_t)(n) * FW_MAP_BYTES_PER_ENTRY)

/**
 * fw_map_init() - Empty a map and give it storage.
 * @map: the map.
 * @storage: its storage, 8-byte aligned.
 * @bytes: the storage's size: the map then accepts bytes / FW_MAP_BYTES_PER_ENTRY entries, at
 *         most FW_MAP_MAX_ENTRIES.
 *
 * Return: 0, or -EINVAL (reported) when the storage holds no entry.
 */
int fw_map_init(struct fw_map *map, void *storage, size_t bytes);

/**
 * fw_map_add_range() - Add an entry to a map.
 * @map: the map.
 * @base: the entry's start.
 * @size: its size: the entry is [base, base + size).
 * @type: its type, translated from the firmware's (FW_RESERVED for any type not known).
 *
 * Return: 0, or -ENOMEM (reported) when the map is full: the caller sized it for fewer entries,
 * and must not go on with a map that lacks one.
 */
int fw_map_add_range(struct fw_map *map, phys_addr_t base, uint64_t size, enum fw_type type);

/**
 * fw_map_sanitize() - Sanitize a map in place.
 * @map: the map.
 *
 * Drops zero-length entries; clips an entry whose base + size overflows
 * at 2^64; sorts; where entries overlap, the type with the larger number wins (so any non-usable
 * type beats usable); merges neighbours of the same type; trims usable entries inward to whole
 * pages; drops usable RAM at or above MAX_PHYS_ADDR with a warning naming the range. Each change
 * it makes to usable RAM is reported on the console. Idempotent.
 */
void fw_map_sanitize(struct fw_map *map);

/**
 * fw_map_print() - Print a map in Linux's form.
 * @map: the map: "BIOS-e820: [mem 0x...-0x...] usable" lines, end inclusive.
 */
void fw_map_print(const struct fw_map *map);

/**
 * fw_type_name() - Linux's name of an entry type.
 * @type: the type.
 *
 * Return: "usable", "ACPI NVS", "persistent (type 7)" ...
 */
const char *fw_type_name(enum fw_type type);

/**
 * fw_map_usable_bytes() - Bytes of usable RAM in a sanitized map.
 * @map: the map.
 *
 * Return: the bytes.
 */
uint64_t fw_map_usable_bytes(const struct fw_map *map);

/**
 * fw_map_usable_end() - The end of the highest usable entry of a sanitized map.
 * @map: the map.
 *
 * Return: one past its last byte.
 */
phys_addr_t fw_map_usable_end(const struct fw_map *map);

#endif
