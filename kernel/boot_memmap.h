/* SPDX-License-Identifier: MIT */
/*
 * The firmware memory map as the boot loader passed it (multiboot2 tag 6: e820 entries, or tag
 * 17: EFI descriptors), turned into a struct fw_map (mm/fw_map.h). The kernel and the host's map
 * replay both build their map through here, so the replay sees what the kernel sees.
 */
#ifndef KERNEL_BOOT_MEMMAP_H
#define KERNEL_BOOT_MEMMAP_H

#include "kernel/bootinfo.h"
#include "kernel/pc_layout.h"
#include "mm/fw_map.h"
#include "mm/init.h"

enum boot_memmap_kind { BOOT_MEMMAP_E820, BOOT_MEMMAP_EFI };

/* e820 type numbers: 1 usable, 2 reserved, 3 ACPI data, 4 ACPI NVS, 5 unusable, 7 persistent. */
enum e820_type {
	E820_USABLE = 1, E820_RESERVED = 2, E820_ACPI = 3, E820_NVS = 4, E820_UNUSABLE = 5,
	E820_PERSISTENT = 7,
};

/* The fw_type of an e820 type; numbers it does not know are reserved. */
enum fw_type e820_to_fw_type(uint32_t e820_type);

/*
 * The fw_type of an EFI memory type and attributes: types 1-4 (loader, boot services) and 7
 * (conventional) are usable, 9 (ACPI reclaim) ACPI data, 10 ACPI NVS, 8 unusable, 14 persistent,
 * the rest reserved; a descriptor with EFI_MEMORY_RUNTIME stays reserved whatever its type.
 */
#define EFI_MEMORY_RUNTIME (1ULL << 63)
enum fw_type efi_to_fw_type(uint32_t efi_type, uint64_t attr);

/* A raw map: count entries of stride bytes (struct mb2_mmap_entry or efi_memory_descriptor first). */
struct boot_memmap {
	enum boot_memmap_kind kind;
	const uint8_t *entries;
	uint32_t count, stride;
};

/*
 * The map the kernel uses: the EFI map when the loader passed one (Linux prefers it too), else
 * the multiboot2 map. Returns false when bi has neither.
 */
bool boot_memmap_from_info(const struct boot_info *bi, struct boot_memmap *m);

/* Linux's name of the map ("EFI", "multiboot2 (e820)"). */
const char *boot_memmap_name(const struct boot_memmap *m);

/* Entry i in our terms (type translated; a size that overflows 64 bits is UINT64_MAX). */
void boot_memmap_entry(const struct boot_memmap *m, uint32_t i, struct fw_map_entry *e);

/* The bytes of storage (whole pages) a fw_map of m's entries takes, sanitizing included. */
size_t boot_memmap_storage_bytes(const struct boot_memmap *m);

/*
 * The highest page-aligned address, below limit, of size bytes inside one usable entry of m that
 * touch no entry of another type, none of the navoid ranges of avoid, and not the first
 * PC_LOW_RESERVE bytes: RAM the map itself proves free. 0 when there is none.
 */
phys_addr_t boot_memmap_find_room(const struct boot_memmap *m, const struct mm_reservation *avoid,
				  unsigned int navoid, uint64_t size, phys_addr_t limit);

/*
 * The highest page below limit (and above page 0) that lies inside one usable entry of m and
 * touches no entry of another type and none of the navoid ranges of avoid; 0 when there is none.
 * For a page below 1 MiB, where the first-1-MiB reservation is a precaution, not a use: leave
 * that one out of avoid.
 */
phys_addr_t boot_memmap_find_low_page(const struct boot_memmap *m, const struct mm_reservation *avoid,
				      unsigned int navoid, phys_addr_t limit);

/* Gives map storage (bytes at storage) and adds every entry of m. Returns 0 or -errno. */
int boot_memmap_fill(const struct boot_memmap *m, struct fw_map *map, void *storage, size_t bytes);

/*
 * Builds map from m, failing closed:
 *   - a map of more than FW_MAP_MAX_ENTRIES entries is refused;
 *   - the map's storage, boot_memmap_storage_bytes(m), goes where boot_memmap_find_room() says,
 *     avoid being what is in use (kernel image, boot information ...) and limit what the caller
 *     can reach;
 *   - every entry is added.
 * On success *storage is the range the caller must reserve. Returns 0, or -EINVAL / -ENOMEM with
 * a message saying why.
 */
int boot_memmap_build(const struct boot_memmap *m, const struct mm_reservation *avoid,
		      unsigned int navoid, phys_addr_t limit, struct fw_map *map,
		      struct mm_reservation *storage);

#endif
