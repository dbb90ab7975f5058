/* SPDX-License-Identifier: MIT */
/*
 * The EFI loader's multiboot2 information structure: tags written one after another into one
 * buffer, each 8-byte aligned, with the EFI memory map both as given (tag 17) and converted to the
 * multiboot2 memory map (tag 6).
 */
#include "boot/efi/mbi.h"
#include "kernel/multiboot2.h"
#include "lib/string.h"   /* memcpy, memset: libefi has them in the loader, libc on the host */

#define EFI_PAGE_SIZE 4096ull

/* Multiboot2 memory types (tag 6), as in the e820 map. */
#define MB2_MEM_AVAILABLE  1
#define MB2_MEM_RESERVED   2
#define MB2_MEM_ACPI       3
#define MB2_MEM_NVS        4
#define MB2_MEM_BAD        5
#define MB2_MEM_PERSISTENT 7


/* A write cursor into the structure; overflow is sticky and makes mbi_build() return 0. */
struct writer {
	uint8_t *buf;
	size_t cap, off;
	int overflow;
};

static size_t align8(size_t n) { return (n + 7) & ~(size_t)7; }

/* Reserves n bytes at the cursor and returns them zeroed, or NULL on overflow. */
static void *reserve(struct writer *w, size_t n)
{
	if (w->overflow || w->off > w->cap || n > w->cap - w->off) {
		w->overflow = 1;
		return NULL;
	}
	void *p = w->buf + w->off;
	memset(p, 0, n);
	w->off += n;
	return p;
}

/* Starts a tag of the given type with a fixed part of hdr_size bytes (the tag header included). */
static void *tag_begin(struct writer *w, uint32_t type, size_t hdr_size)
{
	w->off = align8(w->off);
	struct mb2_tag *t = reserve(w, hdr_size);
	if (t)
		t->type = type;
	return t;
}

/* Ends tag t: its size covers everything written since it began. */
static void tag_end(struct writer *w, void *t)
{
	if (t)
		((struct mb2_tag *)t)->size = (uint32_t)(w->buf + w->off - (uint8_t *)t);
}

static void put_string_tag(struct writer *w, uint32_t type, const char *s)
{
	void *t = tag_begin(w, type, sizeof(struct mb2_tag));
	size_t n = 1;
	while (s[n - 1])
		n++;
	char *p = reserve(w, n);
	if (p)
		memcpy(p, s, n);
	tag_end(w, t);
}

static void put_efi64(struct writer *w, uint64_t system_table)
{
	struct mb2_tag_efi64 *t = tag_begin(w, MB2_TAG_EFI64, sizeof(*t));
	if (t)
		t->system_table = system_table;
	tag_end(w, t);
}

static void put_framebuffer(struct writer *w, const struct boot_framebuffer *fb)
{
	struct mb2_tag_framebuffer *t = tag_begin(w, MB2_TAG_FRAMEBUFFER, MB2_FB_RGB_SIZE);
	if (!t)
		return;
	t->addr = fb->addr;
	t->pitch = fb->pitch;
	t->width = fb->width;
	t->height = fb->height;
	t->bpp = fb->bpp;
	t->fb_type = MB2_FB_RGB;
	t->red_pos = fb->red_pos;
	t->red_size = fb->red_size;
	t->green_pos = fb->green_pos;
	t->green_size = fb->green_size;
	t->blue_pos = fb->blue_pos;
	t->blue_size = fb->blue_size;
	tag_end(w, t);
}

static void put_rsdp(struct writer *w, const struct mbi_input *in)
{
	void *t = tag_begin(w, in->rsdp_v2 ? MB2_TAG_ACPI_NEW : MB2_TAG_ACPI_OLD, sizeof(struct mb2_tag));
	void *p = reserve(w, in->rsdp_size);
	if (p)
		memcpy(p, in->rsdp, in->rsdp_size);
	tag_end(w, t);
}

uint32_t mbi_mem_type(uint32_t efi_type)
{
	switch (efi_type) {
	case 1: case 2: case 3: case 4: case 7:   /* loader code/data, boot services, conventional */
		return MB2_MEM_AVAILABLE;
	case 8: return MB2_MEM_BAD;               /* unusable */
	case 9: return MB2_MEM_ACPI;              /* ACPI reclaim */
	case 10: return MB2_MEM_NVS;              /* ACPI NVS */
	case 14: return MB2_MEM_PERSISTENT;       /* persistent memory */
	default: return MB2_MEM_RESERVED;         /* reserved, runtime services, MMIO, PAL code ... */
	}
}

/* Sorts entries by base address (insertion sort: firmware maps are short and nearly sorted). */
static void sort_entries(struct mb2_mmap_entry *e, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct mb2_mmap_entry x = e[i];
		size_t j = i;
		for (; j > 0 && e[j - 1].base_addr > x.base_addr; j--)
			e[j] = e[j - 1];
		e[j] = x;
	}
}

/*
 * Merges each entry into the one before it when they touch and have one type, unless the length
 * would not fit in 64 bits; returns the count.
 */
static size_t merge_entries(struct mb2_mmap_entry *e, size_t n)
{
	size_t out = 0;

	for (size_t i = 0; i < n; i++) {
		struct mb2_mmap_entry *last = out ? &e[out - 1] : NULL;
		if (last && last->type == e[i].type && last->base_addr + last->length == e[i].base_addr &&
		    e[i].length <= UINT64_MAX - last->length)   /* [0, 2^64) has no 64-bit length */
			last->length += e[i].length;
		else
			e[out++] = e[i];
	}
	return out;
}

/* Tag 6: one entry per non-empty EFI descriptor, then sorted and merged. */
static void put_mmap(struct writer *w, const struct mbi_input *in)
{
	size_t ndesc = in->efi_map_size / in->efi_desc_size, n = 0;
	struct mb2_tag_mmap *t = tag_begin(w, MB2_TAG_MMAP, sizeof(*t));
	struct mb2_mmap_entry *e = reserve(w, ndesc * sizeof(*e));

	if (!t || !e)
		return;
	t->entry_size = sizeof(*e);
	t->entry_version = 0;
	for (size_t i = 0; i < ndesc; i++) {
		struct efi_memory_descriptor d;
		memcpy(&d, (const uint8_t *)in->efi_map + i * in->efi_desc_size, sizeof(d));
		if (d.num_pages == 0)
			continue;
		e[n++] = (struct mb2_mmap_entry){ .base_addr = d.phys_start,
			.length = d.num_pages * EFI_PAGE_SIZE, .type = mbi_mem_type(d.type) };
	}
	sort_entries(e, n);
	n = merge_entries(e, n);
	w->off = (size_t)((uint8_t *)(e + n) - w->buf);   /* give back what merging freed */
	tag_end(w, t);
}

/* Tag 17: the firmware's whole descriptors, descriptor size and version as it gave them. */
static void put_efi_mmap(struct writer *w, const struct mbi_input *in)
{
	size_t bytes = in->efi_map_size / in->efi_desc_size * in->efi_desc_size;
	struct mb2_tag_efi_mmap *t = tag_begin(w, MB2_TAG_EFI_MMAP, sizeof(*t));
	void *p = reserve(w, bytes);

	if (!t || !p)
		return;
	t->desc_size = in->efi_desc_size;
	t->desc_version = in->efi_desc_version;
	memcpy(p, in->efi_map, bytes);
	tag_end(w, t);
}

/* The most pages a range from start can have: it ends at or below 2^64, its length fits 64 bits. */
static uint64_t max_pages_from(uint64_t start)
{
	return (start ? 0 - start : UINT64_MAX) / EFI_PAGE_SIZE;
}

const char *mbi_input_error(const struct mbi_input *in)
{
	if (in->efi_desc_size < sizeof(struct efi_memory_descriptor))
		return "the EFI memory descriptor size is smaller than a descriptor";
	if (in->efi_desc_size % 8)
		return "the EFI memory descriptor size is not a multiple of 8 (the kernel reads no other)";
	if (in->rsdp && in->rsdp_size < (in->rsdp_v2 ? 36u : 20u))
		return "the RSDP is shorter than ACPI's (20 bytes, 36 from 2.0 on): the kernel reads no shorter one";
	for (size_t i = 0; i < in->efi_map_size / in->efi_desc_size; i++) {
		struct efi_memory_descriptor d;
		memcpy(&d, (const uint8_t *)in->efi_map + i * in->efi_desc_size, sizeof(d));
		if (d.num_pages > max_pages_from(d.phys_start))
			return "an EFI memory descriptor's range runs past 2^64 (its length cannot be passed)";
	}
	return NULL;
}

size_t mbi_size_bound(size_t cmdline_len, size_t name_len, size_t efi_map_size, uint32_t rsdp_size)
{
	/* Header, end tag, and per tag its header and padding; tag 6 is smaller than tag 17's map. */
	return 256 + cmdline_len + name_len + rsdp_size + 2 * efi_map_size;
}

size_t mbi_build(void *buf, size_t cap, const struct mbi_input *in)
{
	struct writer w = { .buf = buf, .cap = cap };
	struct mb2_info_header *h;

	if (mbi_input_error(in))
		return 0;
	h = reserve(&w, sizeof(*h));
	put_string_tag(&w, MB2_TAG_CMDLINE, in->cmdline);
	put_string_tag(&w, MB2_TAG_LOADER_NAME, in->loader_name);
	put_efi64(&w, in->efi_system_table);
	if (in->fb.addr)
		put_framebuffer(&w, &in->fb);
	if (in->rsdp)
		put_rsdp(&w, in);
	put_mmap(&w, in);
	put_efi_mmap(&w, in);
	tag_end(&w, tag_begin(&w, MB2_TAG_END, sizeof(struct mb2_tag)));
	if (w.overflow || !h)
		return 0;
	h->total_size = (uint32_t)w.off;
	return w.off;
}
