/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of the multiboot2 parser (kernel/multiboot2.c) and of the memory map lines of the
 * boot report (kernel/bootinfo_print.c). Good structures shaped like GRUB's must parse into the
 * right boot_info; each malformed one must be refused with exactly the message that names what
 * is wrong. The structures are built in static buffers with tests/ktest/mb2_samples.h.
 */
#include "kernel/bootinfo.h"
#include "tests/ktest/ktest.h"
#include "kernel/multiboot2.h"
#include "lib/printk.h"
#include "lib/string.h"
#include "tests/ktest/mb2_samples.h"

static struct mb2_buf b;
static struct boot_info bi;

/* Parses b with avail = total_size; true when it succeeded (a failure is reported). */
#define EXPECT_MB2_OK(t) expect_ok(t, __LINE__)
static bool expect_ok(struct ktest *t, int line)
{
	const char *err = NULL;

	if (!KT_EXPECT(t, !b.overflow, "line %d: the test structure does not fit its buffer", line))
		return false;
	return KT_EXPECT(t, mb2_parse(b.words, mb2_total_size(&b), &bi, &err) == 0,
			 "line %d: parse failed: %s", line, err);
}

/* Parses mbi and expects exactly the error message want. */
#define EXPECT_MB2_ERROR(t, mbi, avail, want) expect_error(t, __LINE__, mbi, avail, want)
static void expect_error(struct ktest *t, int line, const void *mbi, size_t avail, const char *want)
{
	const char *err = NULL;
	int r = mb2_parse(mbi, avail, &bi, &err);

	if (!KT_EXPECT(t, r < 0, "line %d: parse succeeded, expected \"%s\"", line, want))
		return;
	KT_EXPECT(t, err && !strcmp(err, want), "line %d: got \"%s\", want \"%s\"", line, err, want);
	KT_EXPECT(t, bi.mmap == NULL && bi.nmodules == 0 && !strcmp(bi.cmdline, ""),
		  "line %d: boot_info not cleared after a failure", line);
}

/* Ends b and expects exactly the error message want, reading total_size bytes. */
static void end_expect_error(struct ktest *t, int line, const char *want)
{
	mb2_end(&b);
	expect_error(t, line, b.words, mb2_total_size(&b), want);
}
#define END_EXPECT_ERROR(t, want) end_expect_error(t, __LINE__, want)

/* A structure with one tag that build(type, a, b) makes, and the error message it must get. */
struct bad_tag {
	uint32_t type, a, b;
	const char *want;
};

/* Each row of rows (n of them) built by build and ended: expects the row's error message. */
static void expect_bad_tags(struct ktest *t, int line, void (*build)(uint32_t type, uint32_t a, uint32_t b),
			    const struct bad_tag *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		build(rows[i].type, rows[i].a, rows[i].b);
		end_expect_error(t, line, rows[i].want);
	}
}
#define EXPECT_BAD_TAGS(t, build, rows) expect_bad_tags(t, __LINE__, build, rows, sizeof(rows) / sizeof(rows[0]))

static void expect_str(struct ktest *t, const char *got, const char *want)
{
	KT_EXPECT(t, got && !strcmp(got, want), "got \"%s\", want \"%s\"", got, want);
}

/* ---- structures that parse ------------------------------------------------------------ */

static void mb2_minimal_structure_parses_empty(struct ktest *t)
{
	mb2_sample_minimal(&b);
	if (!EXPECT_MB2_OK(t))
		return;
	KT_EXPECT_EQ(t, bi.mbi_size, 16);
	expect_str(t, bi.cmdline, "");
	expect_str(t, bi.loader_name, "");
	KT_EXPECT(t, bi.mmap == NULL && bi.efi_mmap == NULL, "no memory map was passed");
	KT_EXPECT_EQ(t, bi.nmodules, 0);
	KT_EXPECT_EQ(t, bi.fb.addr, 0);
}

static void mb2_bios_sample_gives_strings_and_e820_map(struct ktest *t)
{
	mb2_sample_bios(&b);
	if (!EXPECT_MB2_OK(t))
		return;
	expect_str(t, bi.cmdline, "ktest=mb2 console=ttyS0");
	expect_str(t, bi.loader_name, "GRUB 2.06-13+deb12u1");
	KT_EXPECT_EQ(t, bi.mbi_size, b.len);
	KT_EXPECT_EQ(t, bi.mmap_entry_size, 24);
	KT_ASSERT(t, bi.mmap_count == 6, "mmap_count %u", bi.mmap_count);
	const struct mb2_mmap_entry *e = (const void *)(bi.mmap + 3 * bi.mmap_entry_size);
	KT_EXPECT_EQ(t, e->base_addr, 0x100000);
	KT_EXPECT_EQ(t, e->length, 0x7ee0000);
	KT_EXPECT_EQ(t, e->type, 1);
	KT_EXPECT_EQ(t, bi.fb.type, MB2_FB_EGA_TEXT);
	KT_EXPECT_EQ(t, bi.fb.addr, 0xb8000);
	KT_EXPECT(t, bi.efi_mmap == NULL, "no EFI map under BIOS");
	KT_EXPECT_EQ(t, bi.efi_system_table, 0);
}

static void mb2_uefi_sample_gives_efi_map_and_system_table(struct ktest *t)
{
	mb2_sample_uefi(&b);
	if (!EXPECT_MB2_OK(t))
		return;
	KT_EXPECT_EQ(t, bi.efi_system_table, 0xfe9d018);
	KT_EXPECT_EQ(t, bi.efi_desc_size, 48);
	KT_EXPECT_EQ(t, bi.efi_desc_version, 1);
	KT_ASSERT(t, bi.efi_mmap_count == 6, "efi_mmap_count %u", bi.efi_mmap_count);
	const struct efi_memory_descriptor *d = (const void *)(bi.efi_mmap + 5 * bi.efi_desc_size);
	KT_EXPECT_EQ(t, d->type, 11);
	KT_EXPECT_EQ(t, d->phys_start, 0xffc00000);
	KT_EXPECT_EQ(t, d->num_pages, 0x400);
	KT_EXPECT_EQ(t, d->attribute, 0x8000000000000001ULL);
	KT_EXPECT_EQ(t, bi.mmap_count, 5);
	expect_str(t, bi.cmdline, "");
	KT_EXPECT_EQ(t, bi.fb.type, MB2_FB_RGB);
	KT_EXPECT_EQ(t, bi.fb.width, 1280);
	KT_EXPECT_EQ(t, bi.fb.height, 800);
	KT_EXPECT_EQ(t, bi.fb.red_pos, 16);
	KT_EXPECT_EQ(t, bi.fb.blue_size, 8);
}

/* GRUB passes tag 14 and tag 15 on BIOS; the 2.0+ copy wins in either order. */
static void mb2_acpi_rsdp_tags_are_found(struct ktest *t)
{
	mb2_sample_bios(&b);
	if (!EXPECT_MB2_OK(t))
		return;
	KT_EXPECT_EQ(t, bi.acpi_rsdp_tag, 14);
	KT_EXPECT_EQ(t, bi.acpi_rsdp_len, 20);
	KT_EXPECT(t, bi.acpi_rsdp > b.words && bi.acpi_rsdp + 20 <= b.words + b.len,
		  "the RSDP copy points into the structure");
	for (int order = 0; order < 2; order++) {
		mb2_begin(&b);
		uint8_t *first = mb2_add_tag(&b, order ? 15 : 14, order ? 8 + 36 : 8 + 20);
		uint8_t *second = mb2_add_tag(&b, order ? 14 : 15, order ? 8 + 20 : 8 + 36);
		mb2_end(&b);
		if (!EXPECT_MB2_OK(t))
			return;
		KT_EXPECT_EQ(t, bi.acpi_rsdp_tag, 15);
		KT_EXPECT_EQ(t, bi.acpi_rsdp_len, 36);
		KT_EXPECT(t, bi.acpi_rsdp == (order ? first : second) + 8, "order %d: the tag 15 copy", order);
	}
}

static void mb2_rejects_bad_acpi_rsdp_tags(struct ktest *t)
{
	mb2_begin(&b);
	mb2_add_tag(&b, 15, 8 + 20);
	END_EXPECT_ERROR(t, "tag 15 at offset 0x8: size 28 is too small for the ACPI 2.0 RSDP (at least 44 bytes)");
	mb2_begin(&b);
	mb2_add_tag(&b, 14, 8 + 16);
	END_EXPECT_ERROR(t, "tag 14 at offset 0x8: size 24 is too small for the ACPI 1.0 RSDP (at least 28 bytes)");
	mb2_begin(&b);
	mb2_add_tag(&b, 14, 8 + 20);
	mb2_add_tag(&b, 14, 8 + 20);
	END_EXPECT_ERROR(t, "tag 14 at offset 0x28: a second ACPI 1.0 RSDP tag (the first is at offset 0x8)");
	KT_EXPECT(t, bi.acpi_rsdp == NULL && bi.acpi_rsdp_tag == 0, "no RSDP survives a failure");
}

static void mb2_modules_are_listed_in_order(struct ktest *t)
{
	mb2_sample_modules(&b);
	if (!EXPECT_MB2_OK(t))
		return;
	KT_ASSERT(t, bi.nmodules == 3, "nmodules %u", bi.nmodules);
	KT_EXPECT_EQ(t, bi.modules[0].start, 0x200000);
	KT_EXPECT_EQ(t, bi.modules[0].end, 0x201000);
	expect_str(t, bi.modules[0].cmdline, "initrd.img root=/dev/ram0");
	KT_EXPECT_EQ(t, bi.modules[1].start, bi.modules[1].end);
	expect_str(t, bi.modules[1].cmdline, "");
	KT_EXPECT_EQ(t, bi.modules[2].end, 0x380123);
	expect_str(t, bi.modules[2].cmdline, "memmap.txt");
	expect_str(t, bi.cmdline, "ktest=boot*");
}

static void mb2_sixteen_modules_fit(struct ktest *t)
{
	mb2_begin(&b);
	for (uint32_t i = 0; i < BOOT_MAX_MODULES; i++)
		mb2_add_module(&b, i << 12, (i + 1) << 12, "m");
	mb2_end(&b);
	if (EXPECT_MB2_OK(t))
		KT_EXPECT_EQ(t, bi.modules[15].end, 16 << 12);
}

static void mb2_unknown_tags_and_odd_sizes_are_skipped(struct ktest *t)
{
	mb2_begin(&b);
	mb2_add_tag(&b, 999, 13);     /* next tag at 0x8 + 16 */
	mb2_add_string(&b, MB2_TAG_CMDLINE, "x");
	mb2_add_tag(&b, 0xffffffffu, 8);
	mb2_end(&b);
	if (EXPECT_MB2_OK(t))
		expect_str(t, bi.cmdline, "x");
}

static void mb2_total_size_may_end_in_padding(struct ktest *t)
{
	mb2_sample_minimal(&b);
	mb2_set_total_size(&b, 16 + 7);
	KT_EXPECT(t, mb2_parse(b.words, 24, &bi, NULL) == 0, "7 bytes after the end tag are padding");
}

static void mb2_parse_reads_no_more_than_avail(struct ktest *t)
{
	/* avail is exactly total_size: the last byte read is the end tag's last byte. */
	mb2_sample_uefi(&b);
	KT_EXPECT(t, mb2_parse(b.words, b.len, &bi, NULL) == 0, "avail == total_size suffices");
}

/* ---- the header ----------------------------------------------------------------------- */

static void mb2_rejects_null_and_short_header(struct ktest *t)
{
	mb2_sample_minimal(&b);
	EXPECT_MB2_ERROR(t, NULL, 16, "the structure's address is NULL");
	EXPECT_MB2_ERROR(t, b.words, 4, "only 4 bytes are readable: the 8-byte header does not fit");
	EXPECT_MB2_ERROR(t, b.words, 0, "only 0 bytes are readable: the 8-byte header does not fit");
}

static void mb2_rejects_misaligned_structure(struct ktest *t)
{
	char want[96];
	const uint8_t *p = b.words + 4;

	mb2_sample_minimal(&b);
	snprintf(want, sizeof(want), "the structure at %p is not 8-byte aligned", (const void *)p);
	EXPECT_MB2_ERROR(t, p, 16, want);
}

static void mb2_rejects_total_size_too_small(struct ktest *t)
{
	mb2_sample_minimal(&b);
	mb2_set_total_size(&b, 8);
	EXPECT_MB2_ERROR(t, b.words, 16, "total_size 0x8 is less than 16 (the header and an end tag)");
	mb2_set_total_size(&b, 0);
	EXPECT_MB2_ERROR(t, b.words, 16, "total_size 0x0 is less than 16 (the header and an end tag)");
}

static void mb2_rejects_total_size_beyond_avail(struct ktest *t)
{
	mb2_sample_minimal(&b);
	EXPECT_MB2_ERROR(t, b.words, 12, "total_size 0x10 exceeds the 0xc bytes that may be read");
	mb2_set_total_size(&b, 0xffffffffu);
	EXPECT_MB2_ERROR(t, b.words, 4096,
			 "total_size 0xffffffff exceeds the 0x1000 bytes that may be read");
}

/* ---- tags that do not fit --------------------------------------------------------------- */

/* Header, a 12-byte command line at 0x8, a 2-entry memory map at 0x18, the end tag at 0x58. */
static void build_small(void)
{
	static const struct mb2_mmap_entry e[2] = { { 0, 0x9fc00, 1, 0 }, { 0x100000, 0x100000, 1, 0 } };

	mb2_begin(&b);
	mb2_add_string(&b, MB2_TAG_CMDLINE, "abc");
	mb2_add_mmap(&b, e, 2);
	mb2_end(&b);
}

static void mb2_rejects_truncated_structure(struct ktest *t)
{
	build_small();
	mb2_set_total_size(&b, 0x40);
	EXPECT_MB2_ERROR(t, b.words, 0x60, "tag 6 at offset 0x18 runs past total_size 0x40");
}

static void mb2_rejects_missing_end_tag(struct ktest *t)
{
	build_small();
	mb2_set_total_size(&b, 0x58);
	EXPECT_MB2_ERROR(t, b.words, 0x60, "no end tag: the tags stop at offset 0x58, total_size 0x58");
	mb2_set_total_size(&b, 0x5c);
	EXPECT_MB2_ERROR(t, b.words, 0x60, "no end tag: the tags stop at offset 0x58, total_size 0x5c");
}

static void mb2_rejects_tag_running_past_end(struct ktest *t)
{
	build_small();
	((struct mb2_tag *)mb2_at(&b, 0x18))->size = 0x1000;
	EXPECT_MB2_ERROR(t, b.words, 0x60, "tag 6 at offset 0x18 runs past total_size 0x60");
	((struct mb2_tag *)mb2_at(&b, 0x18))->size = 0xfffffff8u;
	EXPECT_MB2_ERROR(t, b.words, 0x60, "tag 6 at offset 0x18 runs past total_size 0x60");
}

static void mb2_rejects_zero_and_short_tag_sizes(struct ktest *t)
{
	build_small();
	((struct mb2_tag *)mb2_at(&b, 0x8))->size = 0;
	EXPECT_MB2_ERROR(t, b.words, 0x60, "tag 1 at offset 0x8 has size 0, less than its 8-byte header");
	((struct mb2_tag *)mb2_at(&b, 0x8))->size = 7;
	EXPECT_MB2_ERROR(t, b.words, 0x60, "tag 1 at offset 0x8 has size 7, less than its 8-byte header");
}

/* A loader that packs tags without the padding to 8 bytes puts the end tag where it is not read. */
static void mb2_rejects_misaligned_tag(struct ktest *t)
{
	mb2_begin(&b);
	mb2_add_string(&b, MB2_TAG_CMDLINE, "abc");        /* 12 bytes at 0x8 */
	struct mb2_tag *end = mb2_at(&b, 0x14);            /* unaligned end tag at 0x14 */
	end->type = MB2_TAG_END;
	end->size = 8;
	mb2_set_total_size(&b, 0x1c);
	EXPECT_MB2_ERROR(t, b.words, 0x20, "no end tag: the tags stop at offset 0x18, total_size 0x1c");
}

static void mb2_rejects_bad_end_tag(struct ktest *t)
{
	mb2_begin(&b);
	mb2_add_tag(&b, MB2_TAG_END, 16);
	mb2_set_total_size(&b, b.len);
	EXPECT_MB2_ERROR(t, b.words, 0x18, "tag 0 at offset 0x8: the end tag has size 16, not 8");

	mb2_sample_minimal(&b);
	mb2_set_total_size(&b, 0x18);
	EXPECT_MB2_ERROR(t, b.words, 0x18,
			 "tag 0 at offset 0x8: the end tag is followed by 0x8 more bytes of total_size 0x18");
}

/* ---- memory maps -------------------------------------------------------------------------- */

/* A memory map tag at 0x8 with payload bytes of entries of entry_size bytes. */
static void build_mmap(uint32_t type, uint32_t entry_size, uint32_t payload)
{
	mb2_begin(&b);
	struct mb2_tag_mmap *m = mb2_add_tag(&b, type, 16 + payload);
	if (m)
		m->entry_size = entry_size;
}

/* Rows of build_mmap() (type, entry_size, payload bytes) and the error each must get. */
static void mb2_rejects_bad_mmap_entry_size(struct ktest *t)
{
	static const struct bad_tag rows[] = {
		{ MB2_TAG_MMAP, 20, 40, "tag 6 at offset 0x8: entry_size 20 is less than 24" },
		{ MB2_TAG_MMAP, 0, 48, "tag 6 at offset 0x8: entry_size 0 is less than 24" },
		{ MB2_TAG_MMAP, 28, 56, "tag 6 at offset 0x8: entry_size 28 is not a multiple of 8" },
	};

	EXPECT_BAD_TAGS(t, build_mmap, rows);
}

static void mb2_rejects_mmap_entries_that_do_not_fit(struct ktest *t)
{
	static const struct bad_tag rows[] = {
		{ MB2_TAG_MMAP, 24, 40, "tag 6 at offset 0x8: 40 bytes of entries are not a whole number of entry_size 24" },
		{ MB2_TAG_MMAP, 0x80000000u, 24,
		  "tag 6 at offset 0x8: 24 bytes of entries are not a whole number of entry_size 2147483648" },
	};

	EXPECT_BAD_TAGS(t, build_mmap, rows);
}

static void mb2_accepts_larger_mmap_entries(struct ktest *t)
{
	build_mmap(MB2_TAG_MMAP, 32, 64);
	mb2_end(&b);
	if (EXPECT_MB2_OK(t)) {
		KT_EXPECT_EQ(t, bi.mmap_count, 2);
		KT_EXPECT_EQ(t, bi.mmap_entry_size, 32);
	}
	build_mmap(MB2_TAG_MMAP, 24, 0);
	mb2_end(&b);
	if (EXPECT_MB2_OK(t))
		KT_EXPECT_EQ(t, bi.mmap_count, 0);
}

static void mb2_rejects_short_map_tags(struct ktest *t)
{
	mb2_begin(&b);
	mb2_add_tag(&b, MB2_TAG_MMAP, 12);
	END_EXPECT_ERROR(t, "tag 6 at offset 0x8: size 12 is too small for the memory map (at least 16 bytes)");
	mb2_begin(&b);
	mb2_add_tag(&b, MB2_TAG_EFI_MMAP, 8);
	END_EXPECT_ERROR(t, "tag 17 at offset 0x8: size 8 is too small for the EFI memory map (at least 16 bytes)");
}

static void mb2_rejects_bad_efi_descriptor_size(struct ktest *t)
{
	static const struct bad_tag rows[] = {
		{ MB2_TAG_EFI_MMAP, 32, 64, "tag 17 at offset 0x8: descriptor size 32 is less than 40" },
		{ MB2_TAG_EFI_MMAP, 44, 88, "tag 17 at offset 0x8: descriptor size 44 is not a multiple of 8" },
		{ MB2_TAG_EFI_MMAP, 48, 72,
		  "tag 17 at offset 0x8: 72 bytes of entries are not a whole number of descriptor size 48" },
	};

	EXPECT_BAD_TAGS(t, build_mmap, rows);
}

/* ---- strings, modules, framebuffer, system table ------------------------------------------- */

/* A tag of the given type at 0x8 whose payload is n bytes of 'a' (no NUL). */
static void build_unterminated(uint32_t type, uint32_t fixed, uint32_t n)
{
	mb2_begin(&b);
	uint8_t *p = mb2_add_tag(&b, type, fixed + n);
	if (p)
		memset(p + fixed, 'a', n);
}

/* Rows of build_unterminated(): type, the payload's fixed part, the string's bytes, the error. */
static void mb2_rejects_unterminated_strings(struct ktest *t)
{
	static const struct bad_tag rows[] = {
		{ MB2_TAG_CMDLINE, 8, 8, "tag 1 at offset 0x8: the command line is not NUL-terminated within its 8 bytes" },
		{ MB2_TAG_CMDLINE, 8, 0, "tag 1 at offset 0x8: the command line is not NUL-terminated within its 0 bytes" },
		{ MB2_TAG_LOADER_NAME, 8, 5,
		  "tag 2 at offset 0x8: the boot loader name is not NUL-terminated within its 5 bytes" },
		{ MB2_TAG_MODULE, 16, 8,
		  "tag 3 at offset 0x8: the module command line is not NUL-terminated within its 8 bytes" },
	};

	EXPECT_BAD_TAGS(t, build_unterminated, rows);
}

static void mb2_rejects_bad_modules(struct ktest *t)
{
	mb2_begin(&b);
	mb2_add_module(&b, 0x2000, 0x1000, "backwards");
	END_EXPECT_ERROR(t, "tag 3 at offset 0x8: module end 0x1000 is below its start 0x2000");
	mb2_begin(&b);
	mb2_add_tag(&b, MB2_TAG_MODULE, 12);
	END_EXPECT_ERROR(t, "tag 3 at offset 0x8: size 12 is too small for the module (at least 16 bytes)");
}

static void mb2_rejects_more_than_max_modules(struct ktest *t)
{
	mb2_begin(&b);
	for (uint32_t i = 0; i <= BOOT_MAX_MODULES; i++) /* 24 bytes each */
		mb2_add_module(&b, 0, 0, "m");
	END_EXPECT_ERROR(t, "tag 3 at offset 0x188: more than 16 modules (BOOT_MAX_MODULES)");
}

static void mb2_rejects_second_tag_of_a_kind(struct ktest *t)
{
	mb2_begin(&b);
	mb2_add_string(&b, MB2_TAG_CMDLINE, "a");
	mb2_add_string(&b, MB2_TAG_CMDLINE, "b");
	END_EXPECT_ERROR(t, "tag 1 at offset 0x18: a second command line tag (the first is at offset 0x8)");
	build_mmap(MB2_TAG_EFI_MMAP, 48, 0);
	struct mb2_tag_efi_mmap *m = mb2_add_tag(&b, MB2_TAG_EFI_MMAP, 16);
	if (m)
		m->desc_size = 48;
	END_EXPECT_ERROR(t, "tag 17 at offset 0x18: a second EFI memory map tag (the first is at offset 0x8)");
}

static void mb2_rejects_bad_framebuffer(struct ktest *t)
{
	mb2_begin(&b);
	struct mb2_tag_framebuffer *fb = mb2_add_tag(&b, MB2_TAG_FRAMEBUFFER, MB2_FB_COMMON_SIZE);
	if (fb)
		fb->fb_type = 3;
	END_EXPECT_ERROR(t, "tag 8 at offset 0x8: framebuffer type 3 is not 0, 1 or 2");
	mb2_begin(&b);
	fb = mb2_add_tag(&b, MB2_TAG_FRAMEBUFFER, MB2_FB_COMMON_SIZE);
	if (fb)
		fb->fb_type = MB2_FB_RGB;
	END_EXPECT_ERROR(t, "tag 8 at offset 0x8: size 32 is too small for framebuffer type 1 (at least 38 bytes)");
	mb2_begin(&b);
	mb2_add_tag(&b, MB2_TAG_FRAMEBUFFER, 24);
	END_EXPECT_ERROR(t, "tag 8 at offset 0x8: size 24 is too small for the framebuffer (at least 32 bytes)");
}

static void mb2_rejects_short_efi_system_table_tag(struct ktest *t)
{
	mb2_begin(&b);
	mb2_add_tag(&b, MB2_TAG_EFI64, 12);
	END_EXPECT_ERROR(t, "tag 12 at offset 0x8: size 12 is too small for the EFI 64-bit system table (at least 16 bytes)");
}

/* The first error found is the one reported, even when the structure holds several. */
static void mb2_reports_the_first_error(struct ktest *t)
{
	build_unterminated(MB2_TAG_LOADER_NAME, 8, 3);
	mb2_add_tag(&b, MB2_TAG_MMAP, 12);
	END_EXPECT_ERROR(t, "tag 2 at offset 0x8: the boot loader name is not NUL-terminated within its 3 bytes");
}

/* ---- the memory map lines of the boot report ------------------------------------------------ */

static void expect_e820_line(struct ktest *t, uint64_t base, uint64_t len, uint32_t type, const char *want)
{
	struct mb2_mmap_entry e = { base, len, type, 0 };
	char line[160];

	KT_EXPECT_EQ(t, bootinfo_format_e820(line, sizeof(line), &e), strlen(want));
	expect_str(t, line, want);
}

static void e820_lines_match_linux(struct ktest *t)
{
	expect_e820_line(t, 0, 0x9fc00, 1, "BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable");
	expect_e820_line(t, 0x9fc00, 0x400, 2, "BIOS-e820: [mem 0x000000000009fc00-0x000000000009ffff] reserved");
	expect_e820_line(t, 0x7fe0000, 0x20000, 3, "BIOS-e820: [mem 0x0000000007fe0000-0x0000000007ffffff] ACPI data");
	expect_e820_line(t, 0xfe000, 0x2000, 4, "BIOS-e820: [mem 0x00000000000fe000-0x00000000000fffff] ACPI NVS");
	expect_e820_line(t, 0x1000, 0x1000, 5, "BIOS-e820: [mem 0x0000000000001000-0x0000000000001fff] unusable");
	expect_e820_line(t, 0x100000000ULL, 0x40000000, 7,
			 "BIOS-e820: [mem 0x0000000100000000-0x000000013fffffff] persistent (type 7)");
	expect_e820_line(t, 0xfd00000000ULL, 0x300000000ULL, 12,
			 "BIOS-e820: [mem 0x000000fd00000000-0x000000ffffffffff] type 12");
	expect_e820_line(t, 0x5000, 0, 0, "BIOS-e820: [mem 0x0000000000005000-0x0000000000004fff] type 0");
}

static void efi_lines_match_linux(struct ktest *t)
{
	struct efi_memory_descriptor d = { 7, 0, 0x100000, 0, 0x700, 0xf };
	char line[160];
	const char *want = "efi: mem04: type=7, attr=0xf, range=[0x0000000000100000-0x0000000000800000) (7MB)";

	KT_EXPECT_EQ(t, bootinfo_format_efi_md(line, sizeof(line), 4, &d), strlen(want));
	expect_str(t, line, want);
	d = (struct efi_memory_descriptor){ 11, 0, 0xffc00000, 0, 0x400, 0x8000000000000001ULL };
	bootinfo_format_efi_md(line, sizeof(line), 123, &d);
	expect_str(t, line, "efi: mem123: type=11, attr=0x8000000000000001, "
			    "range=[0x00000000ffc00000-0x0000000100000000) (4MB)");
}

KTEST_SUITE(multiboot2,
	    KTEST_CASE(mb2_minimal_structure_parses_empty),
	    KTEST_CASE(mb2_bios_sample_gives_strings_and_e820_map),
	    KTEST_CASE(mb2_uefi_sample_gives_efi_map_and_system_table),
	    KTEST_CASE(mb2_acpi_rsdp_tags_are_found),
	    KTEST_CASE(mb2_rejects_bad_acpi_rsdp_tags),
	    KTEST_CASE(mb2_modules_are_listed_in_order),
	    KTEST_CASE(mb2_sixteen_modules_fit),
	    KTEST_CASE(mb2_unknown_tags_and_odd_sizes_are_skipped),
	    KTEST_CASE(mb2_total_size_may_end_in_padding),
	    KTEST_CASE(mb2_parse_reads_no_more_than_avail),
	    KTEST_CASE(mb2_rejects_null_and_short_header),
	    KTEST_CASE(mb2_rejects_misaligned_structure),
	    KTEST_CASE(mb2_rejects_total_size_too_small),
	    KTEST_CASE(mb2_rejects_total_size_beyond_avail),
	    KTEST_CASE(mb2_rejects_truncated_structure),
	    KTEST_CASE(mb2_rejects_missing_end_tag),
	    KTEST_CASE(mb2_rejects_tag_running_past_end),
	    KTEST_CASE(mb2_rejects_zero_and_short_tag_sizes),
	    KTEST_CASE(mb2_rejects_misaligned_tag),
	    KTEST_CASE(mb2_rejects_bad_end_tag),
	    KTEST_CASE(mb2_rejects_bad_mmap_entry_size),
	    KTEST_CASE(mb2_rejects_mmap_entries_that_do_not_fit),
	    KTEST_CASE(mb2_accepts_larger_mmap_entries),
	    KTEST_CASE(mb2_rejects_short_map_tags),
	    KTEST_CASE(mb2_rejects_bad_efi_descriptor_size),
	    KTEST_CASE(mb2_rejects_unterminated_strings),
	    KTEST_CASE(mb2_rejects_bad_modules),
	    KTEST_CASE(mb2_rejects_more_than_max_modules),
	    KTEST_CASE(mb2_rejects_second_tag_of_a_kind),
	    KTEST_CASE(mb2_rejects_bad_framebuffer),
	    KTEST_CASE(mb2_rejects_short_efi_system_table_tag),
	    KTEST_CASE(mb2_reports_the_first_error),
	    KTEST_CASE(e820_lines_match_linux),
	    KTEST_CASE(efi_lines_match_linux));
