/* SPDX-License-Identifier: MIT */
/*
 * What the kernel learned from its boot loader, parsed from the multiboot2 information structure
 * (kernel/multiboot2.c). Pointers point into the structure itself, which stays reserved.
 */
#ifndef KERNEL_BOOTINFO_H
#define KERNEL_BOOTINFO_H

#include <stddef.h>
#include <stdint.h>

#define MB2_BOOTLOADER_MAGIC 0x36d76289u
#define BOOT_MAX_MODULES 16

struct boot_module {
	uint64_t start, end;  /* physical, end exclusive */
	const char *cmdline;
};

struct boot_framebuffer {
	uint64_t addr;        /* physical address; 0 when none was passed */
	uint32_t pitch, width, height;
	uint8_t bpp, type;    /* type: 0 indexed, 1 direct RGB, 2 EGA text */
	uint8_t red_pos, red_size, green_pos, green_size, blue_pos, blue_size;
};

struct boot_info {
	uint64_t mbi_phys;                /* where the structure is, and its total_size */
	uint32_t mbi_size;
	const char *cmdline;              /* "" when absent */
	const char *loader_name;          /* "" when absent */

	const uint8_t *mmap;              /* tag 6 entries (NULL when absent) */
	uint32_t mmap_entry_size, mmap_count;

	const uint8_t *efi_mmap;          /* tag 17 descriptors (NULL when absent) */
	uint32_t efi_desc_size, efi_desc_version, efi_mmap_count;

	uint64_t efi_system_table;        /* tag 12, 0 when absent */
	const uint8_t *acpi_rsdp;         /* the RSDP copy of tag 15, else of tag 14; NULL when absent */
	uint32_t acpi_rsdp_len;           /* bytes of that copy */
	uint32_t acpi_rsdp_tag;           /* 14 (ACPI 1.0 RSDP) or 15 (ACPI 2.0+), 0 when absent */
	struct boot_framebuffer fb;       /* tag 8 */
	struct boot_module modules[BOOT_MAX_MODULES];
	uint32_t nmodules;
};

/* One entry of the multiboot2 memory map (tag 6). */
struct mb2_mmap_entry {
	uint64_t base_addr, length;
	uint32_t type, reserved;
};

/* One EFI memory descriptor (tag 17); desc_size may be larger than this. */
struct efi_memory_descriptor {
	uint32_t type, pad;
	uint64_t phys_start, virt_start, num_pages, attribute;
};

/* The kernel's boot information (kernel/main.c), filled before anything else reads it. */
extern struct boot_info boot_info;

/*
 * Parses the multiboot2 information structure at mbi, of which at most avail bytes may be read.
 * Returns 0 and fills bi, or a negative value with *err set to a message naming what is wrong
 * (the structure is never read past its end or past avail).
 * On failure bi is left empty; *err is parse_fail_message() (lib/printk.h), valid until the next
 * parse. More than BOOT_MAX_MODULES modules, or a second tag of a kind that comes once, is an
 * error.
 */
int mb2_parse(const void *mbi, size_t avail, struct boot_info *bi, const char **err);

/* Prints the loader name, the command line and the firmware memory maps in Linux's log format. */
void bootinfo_print(const struct boot_info *bi);

/*
 * One memory map line without its newline, as Linux prints it:
 * "BIOS-e820: [mem 0x%016llx-0x%016llx] usable" (end inclusive) for a tag 6 entry, and
 * "efi: mem%02u: type=%u, attr=0x%llx, range=[0x%016llx-0x%016llx) (%lluMB)" (end exclusive) for
 * EFI descriptor number idx. Both truncate to len bytes like snprintf and return its result.
 */
int bootinfo_format_e820(char *buf, size_t len, const struct mb2_mmap_entry *e);
int bootinfo_format_efi_md(char *buf, size_t len, unsigned int idx, const struct efi_memory_descriptor *d);

#endif
