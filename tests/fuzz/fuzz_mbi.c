/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the EFI loader's multiboot2 builder (boot/efi/mbi.c). The input is taken
 * apart into what the loader gathers from the firmware: command line, loader name, framebuffer,
 * RSDP, and an EFI memory map of fuzzed descriptors and descriptor size. mbi_build() writes into a
 * buffer of exactly mbi_size_bound() bytes (AddressSanitizer catches a write past it), and must
 * either refuse the input, for the reasons mbi.h gives, or build a structure that the kernel's own
 * parser (kernel/multiboot2.c) accepts and that gives every input back: the strings, the system
 * table, the framebuffer, the RSDP bytes, the EFI map as given (tag 17), and the map converted,
 * sorted and merged (tag 6), compared with a model computed here in exact arithmetic.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/efi/mbi.h"
#include "kernel/bootinfo.h"
#include "kernel/multiboot2.h"
#include "lib/printk.h"

#define MAX_DESCS 255
#define EFI_PAGE 4096u

static void fail(const char *what)
{
	fprintf(stderr, "fuzz_mbi: %s\n", what);
	abort();
}

/* The fuzzer's bytes, taken from the front; zeroes once they run out. */
struct reader {
	const uint8_t *p;
	size_t n;
};

static uint64_t take(struct reader *r, unsigned bytes)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < bytes; i++) {
		uint8_t b = r->n ? (r->n--, *r->p++) : 0;
		v |= (uint64_t)b << (8 * i);
	}
	return v;
}

static void take_bytes(struct reader *r, void *dst, size_t len)
{
	size_t n = len < r->n ? len : r->n;

	memcpy(dst, r->p, n);
	memset((uint8_t *)dst + n, 0, len - n);
	r->p += n;
	r->n -= n;
}

/* A string of up to max bytes (it ends at the first NUL the fuzzer puts in). */
static char *take_string(struct reader *r, size_t max)
{
	size_t len = take(r, 2) % (max + 1);
	char *s = malloc(len + 1);

	if (!s)
		fail("out of memory");
	take_bytes(r, s, len);
	s[len] = '\0';
	return s;
}

struct fuzz_case {
	struct mbi_input in;
	char *cmdline, *name;
	uint8_t *rsdp, *map;
};

/* Descriptor sizes: mostly ones the firmware uses (40 to 96, multiples of 8), sometimes any. */
static uint32_t take_desc_size(struct reader *r, uint8_t flags)
{
	uint32_t raw = (uint32_t)take(r, 2);

	return flags & 8 ? raw % 512 : 40 + 8 * (raw % 8);
}

static void take_case(struct reader *r, struct fuzz_case *c)
{
	uint8_t flags = (uint8_t)take(r, 1);
	struct mbi_input *in = &c->in;
	size_t ndesc;

	memset(c, 0, sizeof(*c));
	in->cmdline = c->cmdline = take_string(r, 4096);
	in->loader_name = c->name = take_string(r, 300);
	in->efi_system_table = take(r, 8);
	if (flags & 1) {
		take_bytes(r, &in->fb, sizeof(in->fb));
		in->fb.type = 1;
	}
	in->rsdp_size = (uint32_t)(take(r, 2) % 4097);
	c->rsdp = malloc(in->rsdp_size + 1);
	if (!c->rsdp)
		fail("out of memory");
	take_bytes(r, c->rsdp, in->rsdp_size);
	in->rsdp = flags & 2 ? c->rsdp : NULL;
	in->rsdp_v2 = (flags >> 2) & 1;
	in->efi_desc_size = take_desc_size(r, flags);
	in->efi_desc_version = (uint32_t)take(r, 4);
	ndesc = take(r, 1) % (MAX_DESCS + 1);
	in->efi_map_size = ndesc * in->efi_desc_size;
	if ((flags & 16) && in->efi_desc_size) /* a partial descriptor at the end */
		in->efi_map_size += take(r, 1) % in->efi_desc_size;
	c->map = malloc(in->efi_map_size + 1);
	if (!c->map)
		fail("out of memory");
	take_bytes(r, c->map, in->efi_map_size);
	in->efi_map = c->map;
}

static void free_case(struct fuzz_case *c)
{
	free(c->cmdline);
	free(c->name);
	free(c->rsdp);
	free(c->map);
}

/* ---- the model of tag 6, in exact arithmetic ----------------------------------------------- */

typedef unsigned __int128 u128;

struct range {
	u128 base, len;
	uint32_t type;
};

/*
 * Converts, sorts (stably) and merges the map, merging no two ranges whose length together needs
 * more than 64 bits; returns the count, or -1 if a descriptor's range runs past 2^64.
 */
static int model_mmap(const struct mbi_input *in, struct range *out)
{
	size_t ndesc = in->efi_map_size / in->efi_desc_size;
	int n = 0, m = 0;

	for (size_t i = 0; i < ndesc; i++) {
		struct efi_memory_descriptor d;
		memcpy(&d, (const uint8_t *)in->efi_map + i * in->efi_desc_size, sizeof(d));
		if (d.num_pages == 0)
			continue;
		struct range x = { d.phys_start, (u128)d.num_pages * EFI_PAGE, mbi_mem_type(d.type) };
		if (x.base + x.len > (u128)1 << 64 || x.len > UINT64_MAX)
			return -1;
		int j = n++;
		for (; j > 0 && out[j - 1].base > x.base; j--)
			out[j] = out[j - 1];
		out[j] = x;
	}
	for (int i = 0; i < n; i++) {
		struct range *last = m ? &out[m - 1] : NULL;
		if (last && last->type == out[i].type && last->base + last->len == out[i].base &&
		    last->len + out[i].len <= UINT64_MAX)
			last->len += out[i].len;
		else
			out[m++] = out[i];
	}
	return m;
}

/* ---- checks of what was built ---------------------------------------------------------------- */

/* The tag of the given type in a structure the parser accepted, or NULL. */
static const struct mb2_tag *find_tag(const uint8_t *mbi, uint32_t type)
{
	uint32_t total = ((const struct mb2_info_header *)mbi)->total_size;

	for (uint32_t off = 8; off + 8 <= total;) {
		const struct mb2_tag *t = (const struct mb2_tag *)(mbi + off);
		if (t->type == type)
			return t;
		if (t->type == MB2_TAG_END)
			return NULL;
		off = (off + t->size + 7) & ~7u;
	}
	return NULL;
}

static void check_framebuffer(const struct mbi_input *in, const struct boot_info *bi)
{
	const struct boot_framebuffer *a = &in->fb, *b = &bi->fb;

	if (!a->addr) {
		if (b->addr)
			fail("a framebuffer appeared that was not passed");
		return;
	}
	if (b->addr != a->addr || b->pitch != a->pitch || b->width != a->width || b->height != a->height ||
	    b->bpp != a->bpp || b->type != MB2_FB_RGB || b->red_pos != a->red_pos ||
	    b->red_size != a->red_size || b->green_pos != a->green_pos || b->green_size != a->green_size ||
	    b->blue_pos != a->blue_pos || b->blue_size != a->blue_size)
		fail("the framebuffer does not round-trip");
}

static void check_rsdp(const struct mbi_input *in, const uint8_t *mbi)
{
	const struct mb2_tag *v1 = find_tag(mbi, 14), *v2 = find_tag(mbi, 15);
	const struct mb2_tag *t = in->rsdp_v2 ? v2 : v1;

	if (!in->rsdp) {
		if (v1 || v2)
			fail("an RSDP tag appeared that was not passed");
		return;
	}
	if (!t || (in->rsdp_v2 ? v1 : v2))
		fail("the RSDP is not in the one tag its version asks for");
	if (t->size != 8 + in->rsdp_size || memcmp(t + 1, in->rsdp, in->rsdp_size))
		fail("the RSDP bytes do not round-trip");
}

/* Tag 17 holds the map's whole descriptors as given. */
static void check_efi_mmap(const struct mbi_input *in, const struct boot_info *bi)
{
	size_t ndesc = in->efi_map_size / in->efi_desc_size;

	if (!bi->efi_mmap || bi->efi_desc_size != in->efi_desc_size ||
	    bi->efi_desc_version != in->efi_desc_version || bi->efi_mmap_count != ndesc)
		fail("tag 17 does not have the descriptor size, version and count given");
	if (memcmp(bi->efi_mmap, in->efi_map, ndesc * in->efi_desc_size))
		fail("tag 17's descriptors differ from the map given");
}

static void check_mmap(const struct boot_info *bi, const struct range *want, int n)
{
	if (!bi->mmap || bi->mmap_entry_size != sizeof(struct mb2_mmap_entry) || bi->mmap_count != (uint32_t)n)
		fail("tag 6 does not have the entries of the converted map");
	for (int i = 0; i < n; i++) {
		struct mb2_mmap_entry e;
		memcpy(&e, bi->mmap + (size_t)i * sizeof(e), sizeof(e));
		if (e.base_addr != want[i].base || e.length != want[i].len || e.type != want[i].type ||
		    e.reserved != 0) {
			fprintf(stderr, "fuzz_mbi: entry %d is [%#llx +%#llx) type %u, want [%#llx +%#llx) type %u\n",
				i, (unsigned long long)e.base_addr, (unsigned long long)e.length, e.type,
				(unsigned long long)want[i].base, (unsigned long long)want[i].len, want[i].type);
			fail("a tag 6 entry differs from the sorted, merged conversion of the map");
		}
	}
}

/* Builds in a buffer of exactly the bound and checks what comes back through the kernel's parser. */
static void run_case(const struct fuzz_case *c)
{
	const struct mbi_input *in = &c->in;
	static struct range want[MAX_DESCS];
	size_t bound = mbi_size_bound(strlen(in->cmdline), strlen(in->loader_name), in->efi_map_size,
				      in->rsdp ? in->rsdp_size : 0);
	uint8_t *buf = malloc(bound);
	struct boot_info bi;
	const char *err = NULL;
	int nwant;

	if (!buf)
		fail("out of memory");
	size_t n = mbi_build(buf, bound, in);
	int refusable = in->efi_desc_size < sizeof(struct efi_memory_descriptor) ||
			in->efi_desc_size % 8 != 0 ||
			(in->rsdp && in->rsdp_size < (in->rsdp_v2 ? 36u : 20u));
	nwant = refusable ? 0 : model_mmap(in, want);
	if (!mbi_input_error(in) != !(refusable || nwant < 0))
		fail("mbi_input_error() does not refuse exactly the input mbi.h says it refuses");
	if (refusable || nwant < 0) {
		if (n != 0) {
			fprintf(stderr, "fuzz_mbi: descriptor size %u, %s\n", in->efi_desc_size,
				refusable ? "not a multiple of 8 or too small" : "a range beyond 64 bits");
			fail("built a structure from input mbi.h says it refuses");
		}
		free(buf);
		return;
	}
	if (n == 0)
		fail("refused input that fits in mbi_size_bound()");
	if (n > bound || n % 8 || ((struct mb2_info_header *)buf)->total_size != n)
		fail("total_size is not the size returned, or exceeds the bound");
	if (mb2_parse(buf, n, &bi, &err) < 0) {
		fprintf(stderr, "fuzz_mbi: the kernel's parser refused it: %s\n", err);
		abort();
	}
	if (strcmp(bi.cmdline, in->cmdline) || strcmp(bi.loader_name, in->loader_name))
		fail("the command line or loader name does not round-trip");
	if (bi.efi_system_table != in->efi_system_table)
		fail("the EFI system table does not round-trip");
	check_framebuffer(in, &bi);
	check_rsdp(in, buf);
	check_efi_mmap(in, &bi);
	check_mmap(&bi, want, nwant);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reader r = { data, size };
	struct fuzz_case c;

	take_case(&r, &c);
	run_case(&c);
	free_case(&c);
	return 0;
}
