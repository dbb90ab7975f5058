/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of the kernel's translation of the boot loader's memory maps (kernel/boot_memmap.c):
 * e820 and EFI types, the EFI runtime attribute, descriptors of any stride, and where the map's
 * storage and the other CPUs' start-up page may go (found, never written here: the raw maps are
 * made up).
 */
#include "kernel/boot_memmap.h"
#include "tests/ktest/ktest.h"

static void unknown_e820_types_become_reserved(struct ktest *t)
{
	static const struct {
		uint32_t e820;
		enum fw_type type;
	} cases[] = {
		{ 1, FW_USABLE }, { 2, FW_RESERVED }, { 3, FW_ACPI }, { 4, FW_NVS }, { 5, FW_UNUSABLE },
		{ 6, FW_RESERVED }, { 7, FW_PERSISTENT }, { 12, FW_RESERVED }, { 20, FW_RESERVED }, { 0, FW_RESERVED },
	};

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		KT_EXPECT(t, e820_to_fw_type(cases[i].e820) == cases[i].type, "e820 type %u: %s, expected %s",
			  cases[i].e820, fw_type_name(e820_to_fw_type(cases[i].e820)), fw_type_name(cases[i].type));
}

static void efi_types_map_to_our_types(struct ktest *t)
{
	static const struct {
		uint32_t efi;
		uint64_t attr;
		enum fw_type type;
	} cases[] = {
		{ 0, 0, FW_RESERVED }, { 1, 0, FW_USABLE }, { 2, 0, FW_USABLE }, { 3, 0, FW_USABLE },
		{ 4, 0, FW_USABLE }, { 5, 0, FW_RESERVED }, { 6, 0, FW_RESERVED }, { 7, 0, FW_USABLE },
		{ 8, 0, FW_UNUSABLE }, { 9, 0, FW_ACPI }, { 10, 0, FW_NVS }, { 11, 0, FW_RESERVED },
		{ 13, 0, FW_RESERVED }, { 14, 0, FW_PERSISTENT }, { 15, 0, FW_RESERVED },
		{ 4, EFI_MEMORY_RUNTIME, FW_RESERVED }, /* boot services data the runtime still uses */
	};

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		KT_EXPECT(t, efi_to_fw_type(cases[i].efi, cases[i].attr) == cases[i].type,
			  "EFI type %u attr %#llx: %s, expected %s", cases[i].efi,
			  (unsigned long long)cases[i].attr,
			  fw_type_name(efi_to_fw_type(cases[i].efi, cases[i].attr)), fw_type_name(cases[i].type));
}

/* Descriptors larger than the struct (as firmware makes them), sizes in pages, overflow clipped. */
static void efi_descriptors_of_any_stride_are_read(struct ktest *t)
{
	static uint8_t descs[3][64];
	struct boot_memmap m = { BOOT_MEMMAP_EFI, &descs[0][0], 3, 64 };
	struct fw_map_entry e;

	*(struct efi_memory_descriptor *)descs[0] = (struct efi_memory_descriptor){ .type = 7, .phys_start = 0x100000, .num_pages = 0x100 };
	*(struct efi_memory_descriptor *)descs[1] = (struct efi_memory_descriptor){ .type = 5, .phys_start = 0x200000, .num_pages = 1, .attribute = EFI_MEMORY_RUNTIME };
	*(struct efi_memory_descriptor *)descs[2] = (struct efi_memory_descriptor){ .type = 7, .phys_start = 0x300000, .num_pages = ~0ULL };
	boot_memmap_entry(&m, 0, &e);
	KT_EXPECT(t, e.base == 0x100000 && e.size == 0x100000 && e.type == FW_USABLE, "first descriptor");
	boot_memmap_entry(&m, 1, &e);
	KT_EXPECT(t, e.base == 0x200000 && e.size == 0x1000 && e.type == FW_RESERVED, "runtime descriptor");
	boot_memmap_entry(&m, 2, &e);
	KT_EXPECT(t, e.size == UINT64_MAX, "2^64 pages: size %#llx, expected clipped", (unsigned long long)e.size);
}

/*
 * The storage goes as high as it fits below the limit, inside a usable entry, clear of reserved
 * entries inside it, of the ranges in use and of the first 1 MiB, or nowhere.
 */
static void storage_room_is_proven_free(struct ktest *t)
{
	static struct mb2_mmap_entry e820[] = {
		{ 0x0, 0x9fc00, E820_USABLE, 0 },
		{ 0x100000, 0x7f00000, E820_USABLE, 0 },     /* 1 MiB .. 128 MiB */
		{ 0x7ffc000, 0x1000, E820_RESERVED, 0 },     /* a reserved page near its top */
		{ 0x100000000, 0x40000000, E820_USABLE, 0 }, /* above the limit below */
	};
	struct boot_memmap m = { BOOT_MEMMAP_E820, (const uint8_t *)e820, 4, sizeof(e820[0]) };
	struct mm_reservation in_use = { 0x7ff0000, 0x9000, "in use" };

	KT_EXPECT_EQ(t, boot_memmap_find_room(&m, NULL, 0, 0x2000, 4ULL << 30), 0x7ffe000);
	KT_EXPECT_EQ(t, boot_memmap_find_room(&m, NULL, 0, 0x4000, 4ULL << 30), 0x7ff8000);
	KT_EXPECT_EQ(t, boot_memmap_find_room(&m, &in_use, 1, 0x4000, 4ULL << 30), 0x7fec000);
	KT_EXPECT_EQ(t, boot_memmap_find_room(&m, NULL, 0, 0x2000, 8ULL << 30), 0x13fffe000);
	KT_EXPECT_EQ(t, boot_memmap_find_room(&m, NULL, 0, 0x8000000, 4ULL << 30), 0); /* larger than any */
	KT_EXPECT_EQ(t, boot_memmap_find_room(&m, NULL, 0, 0x2000, 0x100000), 0);     /* only the first MiB */
}

/*
 * The start-up page goes on the highest page below the limit that a usable entry holds whole,
 * touching no other entry nor a range in use; never on page 0.
 */
static void low_page_is_proven_free(struct ktest *t)
{
	static struct mb2_mmap_entry e820[] = {
		{ 0x0, 0x9fc00, E820_USABLE, 0 },        /* the top page is partly the EBDA's */
		{ 0x9fc00, 0x400, E820_RESERVED, 0 },
		{ 0x50000, 0x1000, E820_RESERVED, 0 },   /* a reserved page inside the usable entry */
		{ 0x100000, 0x7f00000, E820_USABLE, 0 },
	};
	static struct mb2_mmap_entry tiny[] = { { 0x0, 0x1fff, E820_USABLE, 0 } };
	struct boot_memmap m = { BOOT_MEMMAP_E820, (const uint8_t *)e820, 4, sizeof(e820[0]) };
	struct boot_memmap t1 = { BOOT_MEMMAP_E820, (const uint8_t *)tiny, 1, sizeof(tiny[0]) };
	struct mm_reservation in_use[] = { { 0x9d800, 0x1000, "boot information" },
					   { 0x51000, 0x4f000, "module" } };

	KT_EXPECT_EQ(t, boot_memmap_find_low_page(&m, NULL, 0, 0x100000), 0x9e000);
	KT_EXPECT_EQ(t, boot_memmap_find_low_page(&m, in_use, 1, 0x100000), 0x9c000);
	KT_EXPECT_EQ(t, boot_memmap_find_low_page(&m, in_use, 2, 0x100000), 0x4f000);
	KT_EXPECT_EQ(t, boot_memmap_find_low_page(&m, NULL, 0, 0x51000), 0x4f000);
	KT_EXPECT_EQ(t, boot_memmap_find_low_page(&t1, NULL, 0, 0x100000), 0); /* only page 0 is whole */
}

KTEST_SUITE(boot_memmap,
	    KTEST_CASE(unknown_e820_types_become_reserved),
	    KTEST_CASE(efi_types_map_to_our_types),
	    KTEST_CASE(efi_descriptors_of_any_stride_are_read),
	    KTEST_CASE(storage_room_is_proven_free),
	    KTEST_CASE(low_page_is_proven_free));
