/* SPDX-License-Identifier: MIT */
/*
 * Checking and loading the kernel's ELF file for the EFI loader. Plain C with no firmware calls,
 * so the host tests run it on crafted files.
 */
#ifndef BOOT_EFI_ELF_LOAD_H
#define BOOT_EFI_ELF_LOAD_H

#include <stddef.h>
#include <stdint.h>

/* The lowest physical address a kernel segment may be loaded at (below is the BIOS area). */
#define KERNEL_MIN_PHYS 0x100000ull

/* The ELF64 file header and program header (the fields the loader reads, in file order). */
struct elf64_ehdr {
	uint8_t ident[16];
	uint16_t type, machine;
	uint32_t version;
	uint64_t entry, phoff, shoff;
	uint32_t flags;
	uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct elf64_phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, paddr, filesz, memsz, align;
};

/* Where a checked kernel goes: every PT_LOAD segment lies in [phys_start, phys_end). */
struct kernel_image {
	uint64_t entry;       /* physical address of the 64-bit entry (e_entry) */
	uint64_t phys_start;  /* page-aligned start of the lowest segment */
	uint64_t phys_end;    /* page-aligned end of the highest segment */
	unsigned nsegs;       /* PT_LOAD segments */
	int bad_seg;          /* on error: index of the program header at fault, or -1 */
};

/*
 * Checks that file[0..size) is an ELF64 x86-64 executable whose PT_LOAD segments lie inside the
 * file, load at or above KERNEL_MIN_PHYS below 4 GiB without overlapping, and contain the entry
 * point. Returns NULL and fills img, or a message saying what is wrong (img->bad_seg names the
 * program header when one is at fault).
 */
const char *elf_check(const void *file, size_t size, struct kernel_image *img);

/*
 * Copies every PT_LOAD segment of a checked file to dest + (p_paddr - img->phys_start) and zeroes
 * the rest of the span, so .bss starts out zero. dest holds phys_end - phys_start bytes.
 */
void elf_load(const void *file, const struct kernel_image *img, uint8_t *dest);

#endif
