/* SPDX-License-Identifier: MIT */
/*
 * Building the multiboot2 information structure the EFI loader hands to the kernel, the same
 * structure GRUB builds (layout in kernel/multiboot2.h). Plain C with no firmware calls: the loader
 * fills struct mbi_input from the firmware, and the host tests from fixtures.
 */
#ifndef BOOT_EFI_MBI_H
#define BOOT_EFI_MBI_H

#include <stddef.h>
#include <stdint.h>
#include "kernel/bootinfo.h"

struct mbi_input {
	const char *cmdline;              /* tag 1; "" for none */
	const char *loader_name;          /* tag 2 */
	uint64_t efi_system_table;        /* tag 12 */
	struct boot_framebuffer fb;       /* tag 8 (direct RGB) when fb.addr != 0 */
	const void *rsdp;                 /* tag 15 (ACPI 2.0+) or 14 (ACPI 1.0) when not NULL */
	uint32_t rsdp_size;               /* bytes of RSDP to copy */
	int rsdp_v2;                      /* 1: tag 15, 0: tag 14 */
	const void *efi_map;              /* the map the last GetMemoryMap returned: tags 17 and 6 */
	size_t efi_map_size;              /* bytes */
	uint32_t efi_desc_size, efi_desc_version;
};

/*
 * An upper bound of the size mbi_build() needs for strings of these lengths, an EFI map of
 * efi_map_size bytes with descriptors of desc_size bytes, and an RSDP of rsdp_size bytes.
 */
size_t mbi_size_bound(size_t cmdline_len, size_t name_len, size_t efi_map_size, uint32_t rsdp_size);

/*
 * Writes the information structure into buf (8-byte aligned, cap bytes): tags 1, 2, 12, 8, 14/15,
 * 6 (the EFI map converted to multiboot2 types, sorted, adjacent ranges of one type merged), 17
 * (the EFI map as given) and the end tag. A partial descriptor at the end of the map (efi_map_size
 * not a multiple of efi_desc_size) is left out of both maps. Returns total_size, or 0 when it does
 * not fit in cap or when mbi_input_error() refuses the input. Makes no firmware calls, so it may
 * run between the final GetMemoryMap and ExitBootServices.
 */
size_t mbi_build(void *buf, size_t cap, const struct mbi_input *in);

/*
 * Why the kernel cannot be given this input, or NULL when it can: a descriptor size smaller than
 * a descriptor or not a multiple of 8 (the kernel's parser reads no other), a descriptor whose
 * range runs past 2^64 (tag 6 could not hold its length), or an RSDP shorter than ACPI's (20
 * bytes; 36 from ACPI 2.0 on), which the kernel's parser refuses.
 */
const char *mbi_input_error(const struct mbi_input *in);

/* The multiboot2 memory type (tag 6) for an EFI memory type: 1 usable, 2 reserved, 3 ACPI, ... */
uint32_t mbi_mem_type(uint32_t efi_type);

#endif
