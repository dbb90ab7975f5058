/* SPDX-License-Identifier: MIT */
/*
 * The multiboot2 boot information structure as a boot loader lays it out in memory (Multiboot2
 * specification, section 3.6). kernel/multiboot2.c reads it; the tests build it.
 *
 * An 8-byte header (total_size, reserved) is followed by tags. Every tag starts on an 8-byte
 * boundary with an 8-byte header (type, size); size counts the header and the payload but not the
 * padding up to the next tag. A tag of type 0 and size 8 ends the list.
 */
#ifndef KERNEL_MULTIBOOT2_H
#define KERNEL_MULTIBOOT2_H

#include <stdint.h>

#define MB2_TAG_ALIGN 8

/* The tag types the kernel reads; the others are skipped. */
#define MB2_TAG_END         0
#define MB2_TAG_CMDLINE     1
#define MB2_TAG_LOADER_NAME 2
#define MB2_TAG_MODULE      3
#define MB2_TAG_MMAP        6
#define MB2_TAG_FRAMEBUFFER 8
#define MB2_TAG_EFI64       12
#define MB2_TAG_ACPI_OLD    14
#define MB2_TAG_ACPI_NEW    15
#define MB2_TAG_EFI_MMAP    17

/* Framebuffer types (tag 8). */
#define MB2_FB_INDEXED  0
#define MB2_FB_RGB      1
#define MB2_FB_EGA_TEXT 2

struct mb2_info_header {
	uint32_t total_size;  /* bytes, the header and the end tag included */
	uint32_t reserved;
};

struct mb2_tag {
	uint32_t type, size;
};

/* Tags 1 (command line) and 2 (boot loader name): a NUL-terminated string. */
struct mb2_tag_string {
	uint32_t type, size;
	char string[];
};

/* Tag 3: one module the loader put in memory, [mod_start, mod_end), and its command line. */
struct mb2_tag_module {
	uint32_t type, size;
	uint32_t mod_start, mod_end;
	char cmdline[];
};

/* Tag 6: the firmware memory map, entries of entry_size bytes (struct mb2_mmap_entry first). */
struct mb2_tag_mmap {
	uint32_t type, size;
	uint32_t entry_size, entry_version;
};

/* Tag 17: the EFI memory map, descriptors of desc_size bytes (struct efi_memory_descriptor first). */
struct mb2_tag_efi_mmap {
	uint32_t type, size;
	uint32_t desc_size, desc_version;
};

/* Tag 12: the physical address of the EFI system table. */
struct mb2_tag_efi64 {
	uint32_t type, size;
	uint64_t system_table;
};

/*
 * Tag 8: the framebuffer. The common part is 32 bytes (GRUB's layout: the reserved field is 16
 * bits). Direct RGB adds six bytes of field positions and sizes; indexed colour adds a 16-bit
 * palette size and the palette, which the kernel does not use.
 */
struct mb2_tag_framebuffer {
	uint32_t type, size;
	uint64_t addr;
	uint32_t pitch, width, height;
	uint8_t bpp, fb_type;
	uint16_t reserved;
	uint8_t red_pos, red_size, green_pos, green_size, blue_pos, blue_size;
};

#define MB2_FB_COMMON_SIZE  32u  /* up to and including reserved */
#define MB2_FB_RGB_SIZE     38u  /* the common part and the six RGB bytes */
#define MB2_FB_INDEXED_SIZE 34u  /* the common part and the palette size */

#endif
