/* SPDX-License-Identifier: MIT */
/*
 * The EFI loader's ELF reader: validates the kernel file completely before anything is copied,
 * then copies its PT_LOAD segments to their physical load addresses (p_paddr).
 */
#include "boot/efi/elf_load.h"
#include "lib/string.h"   /* memcpy, memset: libefi has them in the loader, libc on the host */

#define PAGE_SIZE 4096ull
#define PT_LOAD 1
#define ET_EXEC 2
#define EM_X86_64 62
#define LOAD_LIMIT (1ull << 32)   /* the kernel's boot page tables map the low 4 GiB */

static uint64_t page_down(uint64_t a) { return a & ~(PAGE_SIZE - 1); }
static uint64_t page_up(uint64_t a) { return (a + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1); }

static const struct elf64_phdr *phdr(const void *file, unsigned i)
{
	const struct elf64_ehdr *eh = file;
	return (const struct elf64_phdr *)((const uint8_t *)file + eh->phoff + (uint64_t)i * eh->phentsize);
}

/* The file header: ELF64, little-endian, x86-64, executable, program headers inside the file. */
static const char *check_header(const void *file, size_t size)
{
	const struct elf64_ehdr *eh = file;

	if (size < sizeof(*eh) || eh->ident[0] != 0x7f || eh->ident[1] != 'E' || eh->ident[2] != 'L' ||
	    eh->ident[3] != 'F')
		return "not an ELF file (no \\177ELF magic)";
	if (eh->ident[4] != 2 || eh->ident[5] != 1)
		return "not a 64-bit little-endian ELF file";
	if (eh->machine != EM_X86_64 || eh->type != ET_EXEC)
		return "not an x86-64 executable (e_machine 62, e_type ET_EXEC)";
	if (eh->phentsize < sizeof(struct elf64_phdr) || eh->phnum == 0)
		return "no program headers, or e_phentsize too small";
	if (eh->phoff > size || (uint64_t)eh->phnum * eh->phentsize > size - eh->phoff)
		return "the program header table runs past the end of the file";
	if (eh->phoff % 8 || eh->phentsize % 8)
		return "the program header table is not 8-byte aligned";
	return NULL;
}

/* One PT_LOAD segment: inside the file, filesz <= memsz, loaded in [1 MiB, 4 GiB). */
static const char *check_segment(const struct elf64_phdr *ph, size_t size)
{
	if (ph->offset > size || ph->filesz > size - ph->offset)
		return "a segment's file range runs past the end of the file";
	if (ph->filesz > ph->memsz)
		return "a segment has p_filesz > p_memsz";
	if (ph->paddr < KERNEL_MIN_PHYS)
		return "a segment loads below 1 MiB (p_paddr must be a physical address >= 0x100000)";
	if (ph->memsz > LOAD_LIMIT || ph->paddr > LOAD_LIMIT - ph->memsz)
		return "a segment loads at or above 4 GiB (p_paddr + p_memsz)";
	return NULL;
}

/* Segments may share a page but not bytes: compares segment i with every earlier one. */
static int overlaps_earlier(const void *file, unsigned i)
{
	const struct elf64_phdr *a = phdr(file, i);

	for (unsigned j = 0; j < i; j++) {
		const struct elf64_phdr *b = phdr(file, j);
		if (b->type == PT_LOAD && b->memsz && a->paddr < b->paddr + b->memsz &&
		    b->paddr < a->paddr + a->memsz)
			return 1;
	}
	return 0;
}

/* Checks every PT_LOAD segment and records the span they cover and which one holds the entry. */
static const char *check_segments(const void *file, size_t size, struct kernel_image *img)
{
	const struct elf64_ehdr *eh = file;
	int entry_found = 0;

	img->phys_start = UINT64_MAX;
	for (unsigned i = 0; i < eh->phnum; i++) {
		const struct elf64_phdr *ph = phdr(file, i);
		const char *err;

		if (ph->type != PT_LOAD || ph->memsz == 0)
			continue;
		img->bad_seg = (int)i;
		if ((err = check_segment(ph, size)) != NULL)
			return err;
		if (overlaps_earlier(file, i))
			return "two segments overlap in physical memory";
		if (eh->entry >= ph->paddr && eh->entry < ph->paddr + ph->memsz && (ph->flags & 1))
			entry_found = 1;
		if (page_down(ph->paddr) < img->phys_start)
			img->phys_start = page_down(ph->paddr);
		if (page_up(ph->paddr + ph->memsz) > img->phys_end)
			img->phys_end = page_up(ph->paddr + ph->memsz);
		img->nsegs++;
	}
	img->bad_seg = -1;
	if (img->nsegs == 0)
		return "no PT_LOAD segment";
	if (!entry_found)
		return "e_entry is not inside an executable segment (it must be the physical address of _start64)";
	return NULL;
}

const char *elf_check(const void *file, size_t size, struct kernel_image *img)
{
	const char *err;

	memset(img, 0, sizeof(*img));
	img->bad_seg = -1;
	if ((err = check_header(file, size)) != NULL)
		return err;
	if ((err = check_segments(file, size, img)) != NULL)
		return err;
	img->entry = ((const struct elf64_ehdr *)file)->entry;
	return NULL;
}

void elf_load(const void *file, const struct kernel_image *img, uint8_t *dest)
{
	const struct elf64_ehdr *eh = file;

	memset(dest, 0, img->phys_end - img->phys_start);
	for (unsigned i = 0; i < eh->phnum; i++) {
		const struct elf64_phdr *ph = phdr(file, i);
		if (ph->type == PT_LOAD && ph->memsz)
			memcpy(dest + (ph->paddr - img->phys_start), (const uint8_t *)file + ph->offset,
			       ph->filesz);
	}
}
