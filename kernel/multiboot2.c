/* SPDX-License-Identifier: MIT */
/*
 * mb2_parse(): checks the multiboot2 information structure the boot loader passed and fills
 * struct boot_info from it (kernel/bootinfo.h). Nothing in the structure is trusted before it is
 * checked: total_size must fit in the bytes the caller may read, every tag must lie inside
 * total_size, and every tag the kernel uses must be large enough for what is read from it. The
 * first problem found is reported as a message naming the tag, its offset and what is wrong.
 *
 * Tags the kernel does not use (basic memory info, boot device, ELF sections, APM, network,
 * EFI image handle, load base address, ...) are skipped after the common checks.
 */
#include "kernel/bootinfo.h"

#include <stdbool.h>

#include "kernel/multiboot2.h"
#include "lib/printk.h"
#include "lib/string.h"

#define MB2_MMAP_ENTRY_MIN 24u /* struct mb2_mmap_entry */
#define EFI_DESC_MIN       40u /* struct efi_memory_descriptor */

struct parser {
	const uint8_t *base;
	uint32_t total;         /* total_size, checked against avail */
	struct boot_info *bi;
	uint32_t first_seen[10]; /* offset of the first tag of each rule that may appear once */
};

struct tag_rule {
	uint32_t type;
	const char *name;
	uint32_t min_size;      /* header and fixed fields */
	bool once;
	int (*parse)(struct parser *p, const void *tag, uint32_t off);
};

/* The string of len bytes at s must end with a NUL inside those bytes. */
static int check_string(const char *s, uint32_t len, uint32_t type, uint32_t off, const char *what)
{
	if (strnlen(s, len) == len)
		return parse_fail("tag %u at offset 0x%x: %s is not NUL-terminated within its %u bytes", type,
			    off, what, len);
	return 0;
}

static int parse_cmdline(struct parser *p, const void *tag, uint32_t off)
{
	const struct mb2_tag_string *t = tag;

	p->bi->cmdline = t->string;
	return check_string(t->string, t->size - 8, t->type, off, "the command line");
}

static int parse_loader_name(struct parser *p, const void *tag, uint32_t off)
{
	const struct mb2_tag_string *t = tag;

	p->bi->loader_name = t->string;
	return check_string(t->string, t->size - 8, t->type, off, "the boot loader name");
}

/* More than BOOT_MAX_MODULES modules is an error: the kernel must not lose one silently. */
static int parse_module(struct parser *p, const void *tag, uint32_t off)
{
	const struct mb2_tag_module *t = tag;
	struct boot_info *bi = p->bi;

	if (bi->nmodules == BOOT_MAX_MODULES)
		return parse_fail("tag 3 at offset 0x%x: more than %d modules (BOOT_MAX_MODULES)", off,
			    BOOT_MAX_MODULES);
	if (t->mod_end < t->mod_start)
		return parse_fail("tag 3 at offset 0x%x: module end 0x%x is below its start 0x%x", off,
			    t->mod_end, t->mod_start);
	if (check_string(t->cmdline, t->size - 16, 3, off, "the module command line") < 0)
		return -1;
	bi->modules[bi->nmodules++] = (struct boot_module){ t->mod_start, t->mod_end, t->cmdline };
	return 0;
}

/* Entries of entry_size bytes fill the rest of a map tag exactly. */
static int check_entries(uint32_t type, uint32_t off, uint32_t bytes, uint32_t entry_size,
			 uint32_t min, const char *what)
{
	if (entry_size < min)
		return parse_fail("tag %u at offset 0x%x: %s %u is less than %u", type, off, what, entry_size, min);
	if (entry_size % 8)
		return parse_fail("tag %u at offset 0x%x: %s %u is not a multiple of 8", type, off, what,
			    entry_size);
	if (bytes % entry_size)
		return parse_fail("tag %u at offset 0x%x: %u bytes of entries are not a whole number of %s %u",
			    type, off, bytes, what, entry_size);
	return 0;
}

static int parse_mmap(struct parser *p, const void *tag, uint32_t off)
{
	const struct mb2_tag_mmap *t = tag;
	uint32_t bytes = t->size - sizeof(*t);

	if (check_entries(6, off, bytes, t->entry_size, MB2_MMAP_ENTRY_MIN, "entry_size") < 0)
		return -1;
	p->bi->mmap = (const uint8_t *)(t + 1);
	p->bi->mmap_entry_size = t->entry_size;
	p->bi->mmap_count = bytes / t->entry_size;
	return 0;
}

static int parse_efi_mmap(struct parser *p, const void *tag, uint32_t off)
{
	const struct mb2_tag_efi_mmap *t = tag;
	uint32_t bytes = t->size - sizeof(*t);

	if (check_entries(17, off, bytes, t->desc_size, EFI_DESC_MIN, "descriptor size") < 0)
		return -1;
	p->bi->efi_mmap = (const uint8_t *)(t + 1);
	p->bi->efi_desc_size = t->desc_size;
	p->bi->efi_desc_version = t->desc_version;
	p->bi->efi_mmap_count = bytes / t->desc_size;
	return 0;
}

static int parse_efi64(struct parser *p, const void *tag, uint32_t off)
{
	(void)off;
	p->bi->efi_system_table = ((const struct mb2_tag_efi64 *)tag)->system_table;
	return 0;
}

static int parse_framebuffer(struct parser *p, const void *tag, uint32_t off)
{
	const struct mb2_tag_framebuffer *t = tag;
	static const uint32_t min_size[] = { MB2_FB_INDEXED_SIZE, MB2_FB_RGB_SIZE, MB2_FB_COMMON_SIZE };
	struct boot_framebuffer *fb = &p->bi->fb;

	if (t->fb_type > MB2_FB_EGA_TEXT)
		return parse_fail("tag 8 at offset 0x%x: framebuffer type %u is not 0, 1 or 2", off, t->fb_type);
	if (t->size < min_size[t->fb_type])
		return parse_fail("tag 8 at offset 0x%x: size %u is too small for framebuffer type %u (at least %u bytes)",
			    off, t->size, t->fb_type, min_size[t->fb_type]);
	*fb = (struct boot_framebuffer){ .addr = t->addr, .pitch = t->pitch, .width = t->width,
					 .height = t->height, .bpp = t->bpp, .type = t->fb_type };
	if (t->fb_type == MB2_FB_RGB) {
		fb->red_pos = t->red_pos, fb->red_size = t->red_size;
		fb->green_pos = t->green_pos, fb->green_size = t->green_size;
		fb->blue_pos = t->blue_pos, fb->blue_size = t->blue_size;
	}
	return 0;
}

/*
 * Tags 14 and 15 hold a copy of the ACPI RSDP: 20 bytes (ACPI 1.0) or at least 36 (2.0+), which
 * the minimum sizes of their rules check; kernel/acpi.c checks the contents. GRUB passes both on
 * BIOS: the 2.0+ copy is kept whichever comes first.
 */
static int parse_acpi_rsdp(struct parser *p, const void *tag, uint32_t off)
{
	const struct mb2_tag *t = tag;
	struct boot_info *bi = p->bi;

	(void)off;
	if (t->type == MB2_TAG_ACPI_OLD && bi->acpi_rsdp_tag == MB2_TAG_ACPI_NEW)
		return 0;
	bi->acpi_rsdp = (const uint8_t *)(t + 1);
	bi->acpi_rsdp_len = t->size - sizeof(*t);
	bi->acpi_rsdp_tag = t->type;
	return 0;
}

/* How each tag the kernel uses is checked and read. */
static const struct tag_rule rules[] = {
	{ MB2_TAG_CMDLINE, "command line", 8, true, parse_cmdline },
	{ MB2_TAG_LOADER_NAME, "boot loader name", 8, true, parse_loader_name },
	{ MB2_TAG_MODULE, "module", sizeof(struct mb2_tag_module), false, parse_module },
	{ MB2_TAG_MMAP, "memory map", sizeof(struct mb2_tag_mmap), true, parse_mmap },
	{ MB2_TAG_FRAMEBUFFER, "framebuffer", MB2_FB_COMMON_SIZE, true, parse_framebuffer },
	{ MB2_TAG_EFI64, "EFI 64-bit system table", sizeof(struct mb2_tag_efi64), true, parse_efi64 },
	{ MB2_TAG_EFI_MMAP, "EFI memory map", sizeof(struct mb2_tag_efi_mmap), true, parse_efi_mmap },
	{ MB2_TAG_ACPI_OLD, "ACPI 1.0 RSDP", 8 + 20, true, parse_acpi_rsdp },
	{ MB2_TAG_ACPI_NEW, "ACPI 2.0 RSDP", 8 + 36, true, parse_acpi_rsdp },
};
_Static_assert(sizeof(rules) / sizeof(rules[0]) <= sizeof(((struct parser *)0)->first_seen) / sizeof(uint32_t),
	       "struct parser has a first_seen slot for every rule");

/* Checks a tag that lies inside total_size against its rule, then reads it. */
static int parse_tag(struct parser *p, const struct mb2_tag *tag, uint32_t off)
{
	for (unsigned i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		const struct tag_rule *r = &rules[i];
		if (r->type != tag->type)
			continue;
		if (tag->size < r->min_size)
			return parse_fail("tag %u at offset 0x%x: size %u is too small for the %s (at least %u bytes)",
				    tag->type, off, tag->size, r->name, r->min_size);
		if (r->once && p->first_seen[i])
			return parse_fail("tag %u at offset 0x%x: a second %s tag (the first is at offset 0x%x)",
				    tag->type, off, r->name, p->first_seen[i]);
		p->first_seen[i] = off;
		return r->parse(p, tag, off);
	}
	return 0;
}

/* The end tag has size 8; after it, total_size leaves at most the padding to 8 bytes. */
static int check_end_tag(const struct parser *p, const struct mb2_tag *tag, uint32_t off)
{
	if (tag->size != 8)
		return parse_fail("tag 0 at offset 0x%x: the end tag has size %u, not 8", off, tag->size);
	if (p->total - (off + 8) >= MB2_TAG_ALIGN)
		return parse_fail("tag 0 at offset 0x%x: the end tag is followed by 0x%x more bytes of total_size 0x%x",
			    off, p->total - (off + 8), p->total);
	return 0;
}

/* Walks the tags from offset 8 to the end tag, which must come before total_size. */
static int parse_tags(struct parser *p)
{
	uint64_t off = sizeof(struct mb2_info_header);

	for (;;) {
		if (off + sizeof(struct mb2_tag) > p->total)
			return parse_fail("no end tag: the tags stop at offset 0x%llx, total_size 0x%x",
				    (unsigned long long)off, p->total);
		const struct mb2_tag *tag = (const struct mb2_tag *)(p->base + off);
		if (tag->size < sizeof(struct mb2_tag))
			return parse_fail("tag %u at offset 0x%x has size %u, less than its 8-byte header",
				    tag->type, (uint32_t)off, tag->size);
		if (tag->size > p->total - off)
			return parse_fail("tag %u at offset 0x%x runs past total_size 0x%x", tag->type,
				    (uint32_t)off, p->total);
		if (tag->type == MB2_TAG_END)
			return check_end_tag(p, tag, (uint32_t)off);
		if (parse_tag(p, tag, (uint32_t)off) < 0)
			return -1;
		off = (off + tag->size + MB2_TAG_ALIGN - 1) & ~(uint64_t)(MB2_TAG_ALIGN - 1);
	}
}

/* The header must be readable, aligned, and claim a size between 16 bytes and avail. */
static int check_header(struct parser *p, size_t avail)
{
	if (!p->base)
		return parse_fail("the structure's address is NULL");
	if ((uintptr_t)p->base % MB2_TAG_ALIGN)
		return parse_fail("the structure at %p is not 8-byte aligned", (const void *)p->base);
	if (avail < sizeof(struct mb2_info_header))
		return parse_fail("only %zu bytes are readable: the 8-byte header does not fit", avail);
	p->total = ((const struct mb2_info_header *)p->base)->total_size;
	if (p->total < sizeof(struct mb2_info_header) + sizeof(struct mb2_tag))
		return parse_fail("total_size 0x%x is less than 16 (the header and an end tag)", p->total);
	if (p->total > avail)
		return parse_fail("total_size 0x%x exceeds the 0x%zx bytes that may be read", p->total, avail);
	return 0;
}

static void clear_boot_info(struct boot_info *bi)
{
	memset(bi, 0, sizeof(*bi));
	bi->cmdline = "";
	bi->loader_name = "";
}

int mb2_parse(const void *mbi, size_t avail, struct boot_info *bi, const char **err)
{
	struct parser p = { .base = mbi, .bi = bi };

	clear_boot_info(bi);
	if (check_header(&p, avail) < 0 || parse_tags(&p) < 0) {
		clear_boot_info(bi); /* no half-checked pointers survive a failure */
		if (err)
			*err = parse_fail_message();
		return -1;
	}
	bi->mbi_size = p.total;
	return 0;
}
