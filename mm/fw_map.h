/*
 * The firmware memory map: which physical ranges are RAM and which are not.
 *
 * Boot code fills a struct fw_map from the multiboot2 memory map (e820 entries) or the EFI memory
 * map, then fw_map_sanitize() turns whatever the firmware said (unsorted, overlapping, unaligned,
 * overflowing ...) into sorted, disjoint entries whose usable ranges are whole pages below
 * MAX_PHYS_BITS. Everything after that (memblock, memmap, buddy) trusts the sanitized map.
 */
#ifndef MM_FW_MAP_H
#define MM_FW_MAP_H

#include "mm/types.h"

/* Physical addresses at and above 1 << MAX_PHYS_BITS (64 TiB) are not supported: RAM there is ignored. */
#define MAX_PHYS_BITS 46
#define MAX_PHYS_ADDR (1ULL << MAX_PHYS_BITS)

/*
 * The adders accept at most FW_MAP_MAX entries (a real machine has a few dozen). Overlaps can
 * split entries, so a sanitized map may hold up to 2 * FW_MAP_MAX.
 */
#define FW_MAP_MAX 256
#define FW_MAP_SLOTS (2 * FW_MAP_MAX)

/* Entry types, numbered like e820's. Types we do not know become FW_RESERVED. */
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

struct fw_map {
	struct fw_map_entry entry[FW_MAP_SLOTS];
	unsigned int nr;
};

/* Empties map. */
void fw_map_init(struct fw_map *map);

/* Adds [base, base + size) of type. Returns 0, or -ENOMEM (reported) when the map is full. */
int fw_map_add_range(struct fw_map *map, phys_addr_t base, uint64_t size, enum fw_type type);

/*
 * Adds an e820 entry (type as the firmware numbers it; unknown numbers become FW_RESERVED).
 * Returns 0, or -ENOMEM (reported) when the map is full.
 */
int fw_map_add_e820(struct fw_map *map, phys_addr_t base, uint64_t size, uint32_t e820_type);

/*
 * Adds an EFI memory descriptor: EFI types 1-4 (loader, boot services) and 7 (conventional) are
 * usable, 9 (ACPI reclaim) ACPI data, 10 ACPI NVS, 8 unusable, 14 persistent, the rest reserved;
 * a descriptor with the EFI_MEMORY_RUNTIME attribute (bit 63) stays reserved whatever its type.
 * Returns 0, or -ENOMEM (reported) when the map is full.
 */
int fw_map_add_efi(struct fw_map *map, uint32_t efi_type, uint64_t attr, phys_addr_t base,
		   uint64_t num_pages);

/* The fw_type for an EFI memory type and attribute (as fw_map_add_efi() uses it). */
enum fw_type fw_type_from_efi(uint32_t efi_type, uint64_t attr);

/*
 * Sanitizes map in place: drops zero-length entries; clips an entry whose base + size overflows
 * at 2^64; sorts; where entries overlap, the type with the larger number wins (so any non-usable
 * type beats usable); merges neighbours of the same type; trims usable entries inward to whole
 * pages; drops usable RAM at or above MAX_PHYS_ADDR with a warning naming the range. Each change
 * it makes to usable RAM is reported on the console. Idempotent.
 */
void fw_map_sanitize(struct fw_map *map);

/* Prints map in Linux's form: "BIOS-e820: [mem 0x...-0x...] usable", end inclusive. */
void fw_map_print(const struct fw_map *map);

/* Linux's name of a type ("usable", "ACPI NVS", "persistent (type 7)" ...). */
const char *fw_type_name(enum fw_type type);

/* Bytes of usable RAM in a sanitized map, and the end of the highest usable entry. */
uint64_t fw_map_usable_bytes(const struct fw_map *map);
phys_addr_t fw_map_usable_end(const struct fw_map *map);

#endif
