/* SPDX-License-Identifier: MIT */
/*
 * Builders of multiboot2 information structures (see mb2_samples.h): the parser's tests start
 * from these, and the fuzzer's seed corpus is made of the whole samples at the end.
 */
#include "tests/ktest/mb2_samples.h"

#include "kernel/multiboot2.h"
#include "lib/string.h"

#define ALIGN8(x) (((x) + 7u) & ~7u)

void mb2_begin(struct mb2_buf *b)
{
	memset(b, 0, sizeof(*b));
	b->len = sizeof(struct mb2_info_header);
}

void *mb2_add_tag(struct mb2_buf *b, uint32_t type, uint32_t size)
{
	if (size < sizeof(struct mb2_tag) || size > MB2_BUF_SIZE - b->len) {
		b->overflow = true;
		return NULL;
	}
	struct mb2_tag *t = mb2_at(b, b->len);
	t->type = type;
	t->size = size;
	b->len += ALIGN8(size); /* MB2_BUF_SIZE is a multiple of 8, so this stays inside */
	return t;
}

void mb2_add_string(struct mb2_buf *b, uint32_t type, const char *s)
{
	uint32_t n = (uint32_t)strlen(s) + 1;
	struct mb2_tag_string *t = mb2_add_tag(b, type, sizeof(*t) + n);

	if (t)
		memcpy(t->string, s, n);
}

void mb2_add_module(struct mb2_buf *b, uint32_t start, uint32_t end, const char *cmdline)
{
	uint32_t n = (uint32_t)strlen(cmdline) + 1;
	struct mb2_tag_module *t = mb2_add_tag(b, MB2_TAG_MODULE, sizeof(*t) + n);

	if (!t)
		return;
	t->mod_start = start;
	t->mod_end = end;
	memcpy(t->cmdline, cmdline, n);
}

void mb2_add_mmap(struct mb2_buf *b, const struct mb2_mmap_entry *e, uint32_t n)
{
	struct mb2_tag_mmap *t = mb2_add_tag(b, MB2_TAG_MMAP, sizeof(*t) + n * sizeof(*e));

	if (!t)
		return;
	t->entry_size = sizeof(*e);
	memcpy(t + 1, e, n * sizeof(*e));
}

void mb2_add_efi_mmap(struct mb2_buf *b, const struct efi_memory_descriptor *d, uint32_t n,
		      uint32_t desc_size)
{
	struct mb2_tag_efi_mmap *t = mb2_add_tag(b, MB2_TAG_EFI_MMAP, sizeof(*t) + n * desc_size);

	if (!t)
		return;
	t->desc_size = desc_size;
	t->desc_version = 1;
	for (uint32_t i = 0; i < n; i++)
		memcpy((uint8_t *)(t + 1) + i * desc_size, &d[i], sizeof(*d));
}

void mb2_add_framebuffer_rgb(struct mb2_buf *b, uint64_t addr, uint32_t width, uint32_t height)
{
	struct mb2_tag_framebuffer *t = mb2_add_tag(b, MB2_TAG_FRAMEBUFFER, MB2_FB_RGB_SIZE);

	if (!t)
		return;
	t->addr = addr;
	t->width = width;
	t->height = height;
	t->pitch = width * 4;
	t->bpp = 32;
	t->fb_type = MB2_FB_RGB;
	t->red_pos = 16, t->red_size = 8;
	t->green_pos = 8, t->green_size = 8;
	t->blue_pos = 0, t->blue_size = 8;
}

uint32_t mb2_end(struct mb2_buf *b)
{
	mb2_add_tag(b, MB2_TAG_END, sizeof(struct mb2_tag));
	mb2_set_total_size(b, b->len);
	return b->len;
}

/* A tag the parser skips, with payload bytes that are not zero. */
static void add_opaque(struct mb2_buf *b, uint32_t type, uint32_t size)
{
	uint8_t *t = mb2_add_tag(b, type, size);

	for (uint32_t i = 8; t && i < size; i++)
		t[i] = (uint8_t)(i * 37 + type);
}

void mb2_sample_minimal(struct mb2_buf *b)
{
	mb2_begin(b);
	mb2_end(b);
}

/* What GRUB passes under SeaBIOS to a 128 MiB QEMU pc machine, EGA text console. */
void mb2_sample_bios(struct mb2_buf *b)
{
	static const struct mb2_mmap_entry e820[] = {
		{ 0x0, 0x9fc00, 1, 0 },         { 0x9fc00, 0x400, 2, 0 },
		{ 0xf0000, 0x10000, 2, 0 },     { 0x100000, 0x7ee0000, 1, 0 },
		{ 0x7fe0000, 0x20000, 2, 0 },   { 0xfffc0000, 0x40000, 2, 0 },
	};

	mb2_begin(b);
	add_opaque(b, 21, 12);                     /* image load base address */
	mb2_add_string(b, MB2_TAG_CMDLINE, "ktest=mb2 console=ttyS0");
	mb2_add_string(b, MB2_TAG_LOADER_NAME, "GRUB 2.06-13+deb12u1");
	add_opaque(b, 4, 16);                      /* basic memory information */
	add_opaque(b, 5, 20);                      /* BIOS boot device */
	mb2_add_mmap(b, e820, sizeof(e820) / sizeof(e820[0]));
	struct mb2_tag_framebuffer *fb = mb2_add_tag(b, MB2_TAG_FRAMEBUFFER, MB2_FB_COMMON_SIZE);
	if (fb) {
		fb->addr = 0xb8000;
		fb->pitch = 160, fb->width = 80, fb->height = 25;
		fb->bpp = 16, fb->fb_type = MB2_FB_EGA_TEXT;
	}
	add_opaque(b, 9, 20 + 5 * 64);             /* ELF section headers */
	add_opaque(b, 14, 8 + 20);                 /* ACPI 1.0 RSDP */
	mb2_end(b);
}

/* What GRUB passes under OVMF: an RGB framebuffer, the EFI system table and EFI memory map. */
void mb2_sample_uefi(struct mb2_buf *b)
{
	static const struct mb2_mmap_entry e820[] = {
		{ 0x0, 0xa0000, 1, 0 },         { 0x100000, 0x700000, 1, 0 },
		{ 0x800000, 0x8000, 4, 0 },     { 0x808000, 0xf7f8000, 1, 0 },
		{ 0xffc00000, 0x400000, 2, 0 },
	};
	static const struct efi_memory_descriptor efi[] = {
		{ 3, 0, 0x0, 0, 0x1, 0xf },             { 7, 0, 0x1000, 0, 0x9f, 0xf },
		{ 7, 0, 0x100000, 0, 0x700, 0xf },      { 10, 0, 0x800000, 0, 0x8, 0xf },
		{ 7, 0, 0x808000, 0, 0xf7f8, 0xf },
		{ 11, 0, 0xffc00000, 0, 0x400, 0x8000000000000001ULL },
	};

	mb2_begin(b);
	add_opaque(b, 21, 12);
	mb2_add_string(b, MB2_TAG_CMDLINE, "");
	mb2_add_string(b, MB2_TAG_LOADER_NAME, "GRUB 2.06-13+deb12u1");
	mb2_add_mmap(b, e820, sizeof(e820) / sizeof(e820[0]));
	mb2_add_framebuffer_rgb(b, 0x80000000, 1280, 800);
	add_opaque(b, 15, 8 + 36);                 /* ACPI 2.0 RSDP */
	struct mb2_tag_efi64 *st = mb2_add_tag(b, MB2_TAG_EFI64, sizeof(*st));
	if (st)
		st->system_table = 0xfe9d018;
	add_opaque(b, 20, 16);                     /* EFI image handle */
	mb2_add_efi_mmap(b, efi, sizeof(efi) / sizeof(efi[0]), 48);
	mb2_end(b);
}

/* Three modules, one with an empty command line. */
void mb2_sample_modules(struct mb2_buf *b)
{
	mb2_begin(b);
	mb2_add_string(b, MB2_TAG_CMDLINE, "ktest=boot*");
	mb2_add_module(b, 0x200000, 0x201000, "initrd.img root=/dev/ram0");
	mb2_add_module(b, 0x201000, 0x201000, "");
	mb2_add_module(b, 0x300000, 0x380123, "memmap.txt");
	mb2_end(b);
}

const struct mb2_sample mb2_samples[] = {
	{ "minimal", mb2_sample_minimal },
	{ "bios", mb2_sample_bios },
	{ "uefi", mb2_sample_uefi },
	{ "modules", mb2_sample_modules },
};
const size_t mb2_nsamples = sizeof(mb2_samples) / sizeof(mb2_samples[0]);
