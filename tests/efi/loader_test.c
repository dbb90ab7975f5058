/* SPDX-License-Identifier: MIT */
/*
 * Host tests of the EFI loader's firmware-independent parts: the ELF checks on crafted kernels,
 * and the multiboot2 information structure it builds, read back with the kernel's own parser.
 */
#include <string.h>
#include "boot/efi/elf_load.h"
#include "boot/efi/mbi.h"
#include "kernel/bootinfo.h"
#include "tests/ktest/ktest.h"

/* ---- crafted ELF files ---------------------------------------------------------------------- */

struct test_elf {
	struct elf64_ehdr eh;
	struct elf64_phdr ph[3];
	uint8_t body[0x200];
};

static struct test_elf elf;

/* A kernel like ours: code at 2 MiB (entry inside), data with .bss one page above. */
static void make_kernel_elf(void)
{
	memset(&elf, 0, sizeof(elf));
	memcpy(elf.eh.ident, "\177ELF\2\1\1", 7);
	elf.eh.type = 2;
	elf.eh.machine = 62;
	elf.eh.version = 1;
	elf.eh.entry = 0x200010;
	elf.eh.phoff = offsetof(struct test_elf, ph);
	elf.eh.ehsize = sizeof(elf.eh);
	elf.eh.phentsize = sizeof(elf.ph[0]);
	elf.eh.phnum = 2;
	elf.ph[0] = (struct elf64_phdr){ 1, 5, offsetof(struct test_elf, body), 0xffffffff80200000,
					 0x200000, 0x100, 0x100, 0x1000 };
	elf.ph[1] = (struct elf64_phdr){ 1, 6, offsetof(struct test_elf, body) + 0x100, 0xffffffff80201000,
					 0x201000, 0x10, 0x2000, 0x1000 };
	memset(elf.body, 0xc3, 0x100);
	memset(elf.body + 0x100, 0xd4, 0x10);
}

static const char *check_elf(struct kernel_image *img)
{
	return elf_check(&elf, sizeof(elf), img);
}

static void elf_accepts_a_kernel_and_loads_its_segments(struct ktest *t)
{
	static uint8_t dest[0x3000];
	struct kernel_image img;
	const char *err;

	make_kernel_elf();
	err = check_elf(&img);
	KT_ASSERT(t, err == NULL, "rejected: %s", err);
	KT_EXPECT_EQ(t, img.entry, 0x200010);
	KT_EXPECT_EQ(t, img.phys_start, 0x200000);
	KT_EXPECT_EQ(t, img.phys_end, 0x203000);
	KT_EXPECT_EQ(t, img.nsegs, 2);
	memset(dest, 0x55, sizeof(dest));
	elf_load(&elf, &img, dest);
	KT_EXPECT(t, dest[0] == 0xc3 && dest[0xff] == 0xc3 && dest[0x100] == 0, "code: %#x %#x %#x",
		  dest[0], dest[0xff], dest[0x100]);
	KT_EXPECT(t, dest[0x1000] == 0xd4 && dest[0x100f] == 0xd4, "data not copied");
	KT_EXPECT(t, dest[0x1010] == 0 && dest[0x2fff] == 0, "bss not zeroed: %#x %#x", dest[0x1010],
		  dest[0x2fff]);
}

/* Breaks the crafted kernel one way and expects a refusal whose message contains want. */
static void expect_refusal(struct ktest *t, const char *what, const char *want)
{
	struct kernel_image img;
	const char *err = check_elf(&img);

	KT_EXPECT(t, err != NULL && strstr(err, want), "%s: expected an error containing \"%s\", got \"%s\"",
		  what, want, err ? err : "(accepted)");
}

static void elf_refuses_what_it_cannot_load(struct ktest *t)
{
	make_kernel_elf(); elf.eh.ident[1] = 'X';
	expect_refusal(t, "bad magic", "not an ELF file");
	make_kernel_elf(); elf.eh.ident[4] = 1;
	expect_refusal(t, "ELF32", "64-bit");
	make_kernel_elf(); elf.eh.machine = 3;
	expect_refusal(t, "i386", "x86-64 executable");
	make_kernel_elf(); elf.eh.phnum = 60;
	expect_refusal(t, "program headers past the end", "program header table runs past");
	make_kernel_elf(); elf.ph[1].filesz = 0x1000;
	expect_refusal(t, "segment past the end", "runs past the end of the file");
	make_kernel_elf(); elf.ph[0].filesz = 0x101;
	expect_refusal(t, "filesz > memsz", "p_filesz > p_memsz");
	make_kernel_elf(); elf.ph[0].paddr = 0x8000; elf.eh.entry = 0x8010;
	expect_refusal(t, "below 1 MiB", "below 1 MiB");
	make_kernel_elf(); elf.ph[1].paddr = 0xfffff000;
	expect_refusal(t, "above 4 GiB", "4 GiB");
	make_kernel_elf(); elf.ph[1].paddr = 0x200080;
	expect_refusal(t, "overlapping segments", "overlap");
	make_kernel_elf(); elf.eh.entry = 0x201000;
	expect_refusal(t, "entry in the data segment", "e_entry");
	make_kernel_elf(); elf.ph[0].type = elf.ph[1].type = 4;
	expect_refusal(t, "no PT_LOAD", "no PT_LOAD");
}

/* ---- the information structure ---------------------------------------------------------------- */

#define DESC_SIZE 48   /* what OVMF uses: larger than struct efi_memory_descriptor */

static uint8_t efi_map[8 * DESC_SIZE];
static uint64_t mbi_buf[1024];

static void put_desc(unsigned i, uint32_t type, uint64_t start, uint64_t pages)
{
	struct efi_memory_descriptor d = { .type = type, .phys_start = start, .num_pages = pages };
	memcpy(efi_map + i * DESC_SIZE, &d, sizeof(d));
}

/* Unsorted, with neighbours of one multiboot2 type to merge, and an empty descriptor. */
static struct mbi_input make_input(void)
{
	static const uint8_t rsdp[36] = "RSD PTR ";
	memset(efi_map, 0, sizeof(efi_map));
	put_desc(0, 7, 0x100000, 0x100);    /* conventional      [1M, 2M)   usable */
	put_desc(1, 3, 0x0, 0x9f);          /* boot services     [0, 636K)  usable */
	put_desc(2, 2, 0x200000, 0x20);     /* loader data       [2M, ...)  usable, merges with 0 */
	put_desc(3, 9, 0x7f000000, 0x10);   /* ACPI reclaim                 3 */
	put_desc(4, 10, 0x7f010000, 0x10);  /* ACPI NVS                     4 */
	put_desc(5, 11, 0xfec00000, 1);     /* MMIO                         reserved */
	put_desc(6, 7, 0x300000, 0);        /* empty: dropped */
	put_desc(7, 8, 0x400000, 1);        /* unusable                     5 */
	return (struct mbi_input){ .cmdline = "ktest=printk screen=off", .loader_name = "test loader",
		.efi_system_table = 0x7e000000,
		.fb = { .addr = 0xc0000000, .pitch = 5120, .width = 1280, .height = 800, .bpp = 32,
			.type = 1, .red_pos = 16, .red_size = 8, .green_pos = 8, .green_size = 8,
			.blue_pos = 0, .blue_size = 8 },
		.rsdp = rsdp, .rsdp_size = sizeof(rsdp), .rsdp_v2 = 1,
		.efi_map = efi_map, .efi_map_size = sizeof(efi_map), .efi_desc_size = DESC_SIZE,
		.efi_desc_version = 1 };
}

static void expect_entry(struct ktest *t, const struct boot_info *bi, unsigned i, uint64_t base,
			 uint64_t len, uint32_t type)
{
	struct mb2_mmap_entry e;
	memcpy(&e, bi->mmap + (size_t)i * bi->mmap_entry_size, sizeof(e));
	KT_EXPECT(t, e.base_addr == base && e.length == len && e.type == type,
		  "entry %u is [%#llx +%#llx) type %u, expected [%#llx +%#llx) type %u", i,
		  (unsigned long long)e.base_addr, (unsigned long long)e.length, e.type,
		  (unsigned long long)base, (unsigned long long)len, type);
}

static void mbi_is_read_back_by_the_kernel_parser(struct ktest *t)
{
	struct mbi_input in = make_input();
	struct boot_info bi;
	const char *err = "";
	size_t n = mbi_build(mbi_buf, sizeof(mbi_buf), &in);

	KT_ASSERT(t, n > 0, "mbi_build failed");
	KT_ASSERT(t, mb2_parse(mbi_buf, n, &bi, &err) == 0, "the kernel's parser refused it: %s", err);
	KT_EXPECT(t, !strcmp(bi.cmdline, in.cmdline), "cmdline \"%s\"", bi.cmdline);
	KT_EXPECT(t, !strcmp(bi.loader_name, "test loader"), "loader name \"%s\"", bi.loader_name);
	KT_EXPECT_EQ(t, bi.efi_system_table, 0x7e000000);
	KT_EXPECT(t, bi.fb.addr == 0xc0000000 && bi.fb.width == 1280 && bi.fb.pitch == 5120 &&
		  bi.fb.bpp == 32 && bi.fb.type == 1 && bi.fb.red_pos == 16 && bi.fb.blue_size == 8,
		  "framebuffer %ux%u pitch %u bpp %u type %u", bi.fb.width, bi.fb.height, bi.fb.pitch,
		  bi.fb.bpp, bi.fb.type);
	KT_EXPECT_EQ(t, bi.efi_mmap_count, 8);
	KT_EXPECT_EQ(t, bi.efi_desc_size, DESC_SIZE);
	KT_EXPECT(t, bi.efi_mmap && !memcmp(bi.efi_mmap, efi_map, sizeof(efi_map)), "tag 17 differs");
	KT_ASSERT(t, bi.mmap_count == 6, "tag 6 has %u entries, expected 6", bi.mmap_count);
	expect_entry(t, &bi, 0, 0, 0x9f000, 1);
	expect_entry(t, &bi, 1, 0x100000, 0x120000, 1);
	expect_entry(t, &bi, 2, 0x400000, 0x1000, 5);
	expect_entry(t, &bi, 3, 0x7f000000, 0x10000, 3);
	expect_entry(t, &bi, 4, 0x7f010000, 0x10000, 4);
	expect_entry(t, &bi, 5, 0xfec00000, 0x1000, 2);
}

static void mbi_fits_in_its_size_bound_and_not_in_less(struct ktest *t)
{
	struct mbi_input in = make_input();
	size_t bound = mbi_size_bound(strlen(in.cmdline), strlen(in.loader_name) + 1, in.efi_map_size,
				      in.rsdp_size);
	size_t n = mbi_build(mbi_buf, bound, &in);

	KT_EXPECT(t, n > 0 && n <= bound, "built %zu bytes with a bound of %zu", n, bound);
	KT_EXPECT_EQ(t, mbi_build(mbi_buf, n - 8, &in), 0);
	KT_EXPECT_EQ(t, mbi_build(mbi_buf, 4, &in), 0);
	in.efi_desc_size = 16;
	KT_EXPECT_EQ(t, mbi_build(mbi_buf, sizeof(mbi_buf), &in), 0);
}

/* Builds and parses back; expects success and returns the parser's view in *bi. */
static bool build_and_parse(struct ktest *t, const struct mbi_input *in, struct boot_info *bi)
{
	const char *err = "";
	size_t n = mbi_build(mbi_buf, sizeof(mbi_buf), in);

	if (!KT_EXPECT(t, n > 0, "mbi_build refused: %s", mbi_input_error(in) ? mbi_input_error(in) : "(no reason)"))
		return false;
	return KT_EXPECT(t, mb2_parse(mbi_buf, n, bi, &err) == 0, "the kernel's parser refused it: %s", err);
}

static void mbi_refuses_descriptor_sizes_the_kernel_cannot_read(struct ktest *t)
{
	struct mbi_input in = make_input();
	const char *why;

	in.efi_desc_size = 44; /* a descriptor and 4 bytes: not a multiple of 8 */
	in.efi_map_size = 8 * 44;
	KT_EXPECT_EQ(t, mbi_build(mbi_buf, sizeof(mbi_buf), &in), 0);
	why = mbi_input_error(&in);
	KT_EXPECT(t, why && strstr(why, "multiple of 8"), "reason \"%s\"", why ? why : "(none)");
	in.efi_desc_size = 32;
	KT_EXPECT_EQ(t, mbi_build(mbi_buf, sizeof(mbi_buf), &in), 0);
	KT_EXPECT(t, mbi_input_error(&in) != NULL, "a descriptor size of 32 is not refused");
}

/* The kernel refuses a tag 14 or 15 too short for an RSDP; the builder must not make one. */
static void mbi_refuses_an_rsdp_shorter_than_acpi_s(struct ktest *t)
{
	static const uint8_t rsdp[36];
	struct mbi_input in = make_input();
	const char *why;

	in.rsdp = rsdp;
	in.rsdp_size = 19;
	in.rsdp_v2 = 0;
	KT_EXPECT_EQ(t, mbi_build(mbi_buf, sizeof(mbi_buf), &in), 0);
	why = mbi_input_error(&in);
	KT_EXPECT(t, why && strstr(why, "RSDP"), "reason \"%s\"", why ? why : "(none)");
	in.rsdp_size = 35;
	in.rsdp_v2 = 1;
	KT_EXPECT_EQ(t, mbi_build(mbi_buf, sizeof(mbi_buf), &in), 0);
	in.rsdp_size = 20;
	in.rsdp_v2 = 0;
	KT_EXPECT(t, mbi_input_error(&in) == NULL, "a 20-byte ACPI 1.0 RSDP refused");
}

static void mbi_leaves_a_partial_descriptor_out(struct ktest *t)
{
	struct mbi_input in = make_input();
	struct boot_info bi;

	in.efi_map_size = 7 * DESC_SIZE + 8; /* the eighth descriptor cut short */
	if (!build_and_parse(t, &in, &bi))
		return;
	KT_EXPECT_EQ(t, bi.efi_mmap_count, 7);
	KT_EXPECT(t, !memcmp(bi.efi_mmap, efi_map, 7 * DESC_SIZE), "tag 17 differs");
	KT_EXPECT_EQ(t, bi.mmap_count, 5); /* descriptor 7 (unusable, type 5) is the one cut */
}

static void mbi_refuses_a_range_past_2_64_and_keeps_lengths_in_64_bits(struct ktest *t)
{
	struct mbi_input in = make_input();
	struct boot_info bi;
	const char *why;

	/* 2^52 pages from 0 is 2^64 bytes: no 64-bit length; 2 pages from the last one run past. */
	put_desc(7, 0, 0x0, 1ull << 52);
	KT_EXPECT_EQ(t, mbi_build(mbi_buf, sizeof(mbi_buf), &in), 0);
	put_desc(7, 0, 0xfffffffffffff000ull, 2);
	KT_EXPECT_EQ(t, mbi_build(mbi_buf, sizeof(mbi_buf), &in), 0);
	why = mbi_input_error(&in);
	KT_EXPECT(t, why && strstr(why, "2^64"), "reason \"%s\"", why ? why : "(none)");

	/* Up to 2^64 exactly is taken; two halves of one type are not merged into 2^64 bytes. */
	in = make_input();
	in.efi_map_size = 2 * DESC_SIZE;
	put_desc(0, 0, 0x0, 1ull << 51);
	put_desc(1, 0, 1ull << 63, 1ull << 51);
	if (!build_and_parse(t, &in, &bi))
		return;
	KT_ASSERT(t, bi.mmap_count == 2, "tag 6 has %u entries, expected 2", bi.mmap_count);
	expect_entry(t, &bi, 0, 0, 1ull << 63, 2);
	expect_entry(t, &bi, 1, 1ull << 63, 1ull << 63, 2);
}

static void mbi_converts_every_efi_memory_type(struct ktest *t)
{
	/* EFI types 0..15 -> multiboot2: usable 1, reserved 2, ACPI 3, NVS 4, bad 5, persistent 7. */
	static const uint32_t want[16] = { 2, 1, 1, 1, 1, 2, 2, 1, 5, 3, 4, 2, 2, 2, 7, 2 };
	for (uint32_t type = 0; type < 16; type++)
		KT_EXPECT(t, mbi_mem_type(type) == want[type], "EFI type %u gives %u, expected %u", type,
			  mbi_mem_type(type), want[type]);
}

KTEST_SUITE(efi_loader,
	    KTEST_CASE(elf_accepts_a_kernel_and_loads_its_segments),
	    KTEST_CASE(elf_refuses_what_it_cannot_load),
	    KTEST_CASE(mbi_is_read_back_by_the_kernel_parser),
	    KTEST_CASE(mbi_fits_in_its_size_bound_and_not_in_less),
	    KTEST_CASE(mbi_refuses_descriptor_sizes_the_kernel_cannot_read),
	    KTEST_CASE(mbi_refuses_an_rsdp_shorter_than_acpi_s),
	    KTEST_CASE(mbi_leaves_a_partial_descriptor_out),
	    KTEST_CASE(mbi_refuses_a_range_past_2_64_and_keeps_lengths_in_64_bits),
	    KTEST_CASE(mbi_converts_every_efi_memory_type));
