/* SPDX-License-Identifier: MIT */
/*
 * bootinfo_print(): the boot report. The firmware memory maps are printed in the line forms
 * Linux uses (`BIOS-e820: [mem ...] type` for the multiboot2 map, `efi: memNN: ...` for the EFI
 * map), so a kernel log can be compared with Linux's and read back as a test input.
 */
#include "kernel/bootinfo.h"

#include "lib/printk.h"

#define EFI_PAGE_SHIFT 12
#define LINE_MAX_LEN   160 /* an efi: line with every field at its widest is 126 characters */

/* The name Linux gives an e820 type; buf holds "type N" for the others. */
static const char *e820_type_name(uint32_t type, char *buf, size_t len)
{
	switch (type) {
	case 1: return "usable";
	case 2: return "reserved";
	case 3: return "ACPI data";
	case 4: return "ACPI NVS";
	case 5: return "unusable";
	case 7: return "persistent (type 7)";
	}
	snprintf(buf, len, "type %u", type);
	return buf;
}

/* End inclusive: a zero-length entry prints its end below its start, as Linux does. */
int bootinfo_format_e820(char *buf, size_t len, const struct mb2_mmap_entry *e)
{
	char name[16];

	return snprintf(buf, len, "BIOS-e820: [mem 0x%016llx-0x%016llx] %s",
			(unsigned long long)e->base_addr,
			(unsigned long long)(e->base_addr + e->length - 1),
			e820_type_name(e->type, name, sizeof(name)));
}

/* End exclusive, size in whole MiB. */
int bootinfo_format_efi_md(char *buf, size_t len, unsigned int idx, const struct efi_memory_descriptor *d)
{
	unsigned long long size = (unsigned long long)d->num_pages << EFI_PAGE_SHIFT;

	return snprintf(buf, len, "efi: mem%02u: type=%u, attr=0x%llx, range=[0x%016llx-0x%016llx) (%lluMB)",
			idx, d->type, (unsigned long long)d->attribute,
			(unsigned long long)d->phys_start, (unsigned long long)d->phys_start + size,
			(unsigned long long)d->num_pages >> (20 - EFI_PAGE_SHIFT));
}

static void print_e820(const struct boot_info *bi)
{
	char line[LINE_MAX_LEN];

	printk("BIOS-provided physical RAM map:\n");
	for (uint32_t i = 0; i < bi->mmap_count; i++) {
		bootinfo_format_e820(line, sizeof(line),
				     (const void *)(bi->mmap + (size_t)i * bi->mmap_entry_size));
		printk("%s\n", line);
	}
}

static void print_efi_mmap(const struct boot_info *bi)
{
	char line[LINE_MAX_LEN];

	printk("boot: EFI memory map: %u descriptors of %u bytes, version %u\n", bi->efi_mmap_count,
	       bi->efi_desc_size, bi->efi_desc_version);
	for (uint32_t i = 0; i < bi->efi_mmap_count; i++) {
		bootinfo_format_efi_md(line, sizeof(line), i,
				       (const void *)(bi->efi_mmap + (size_t)i * bi->efi_desc_size));
		printk("%s\n", line);
	}
}

static void print_modules(const struct boot_info *bi)
{
	for (uint32_t i = 0; i < bi->nmodules; i++) {
		const struct boot_module *m = &bi->modules[i];
		printk("boot: module %u: [0x%llx-0x%llx) %s\n", i, (unsigned long long)m->start,
		       (unsigned long long)m->end, m->cmdline);
	}
}

static void print_firmware(const struct boot_info *bi)
{
	const struct boot_framebuffer *fb = &bi->fb;

	if (bi->efi_system_table)
		printk("boot: EFI system table at 0x%llx\n", (unsigned long long)bi->efi_system_table);
	if (fb->addr)
		printk("boot: framebuffer at 0x%llx: %ux%u, %u bits per pixel, pitch %u, type %u\n",
		       (unsigned long long)fb->addr, fb->width, fb->height, fb->bpp, fb->pitch, fb->type);
}

void bootinfo_print(const struct boot_info *bi)
{
	printk("boot: loaded by \"%s\", multiboot2 information at 0x%llx (%u bytes)\n",
	       bi->loader_name, (unsigned long long)bi->mbi_phys, bi->mbi_size);
	printk("Command line: %s\n", bi->cmdline);
	print_modules(bi);
	print_firmware(bi);
	if (bi->mmap)
		print_e820(bi);
	else
		printk("boot: no multiboot2 memory map (tag 6)\n");
	if (bi->efi_mmap)
		print_efi_mmap(bi);
}
