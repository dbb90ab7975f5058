/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the EFI loader's ELF checks (boot/efi/elf_load.c): the input is the kernel
 * file. elf_check() may read exactly its bytes (AddressSanitizer catches a read past them). When
 * it accepts, everything elf_load.h promises is checked again here, independently: every PT_LOAD
 * segment lies inside the file and inside [KERNEL_MIN_PHYS, 4 GiB) and inside the image's span,
 * no two overlap, the entry is in an executable segment, the span is the tightest page-aligned
 * one. Then, for spans up to MAX_LOAD_SPAN, elf_load() copies into exactly the span (AddressSanitizer
 * catches a write outside it), which must come out as the segments' file bytes at their places and
 * zeroes everywhere else.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sanitizer/asan_interface.h>

#include "boot/efi/elf_load.h"

#define PT_LOAD 1
#define PF_X 1
#define PAGE 4096ull
#define LIMIT (1ull << 32)
#define MAX_LOAD_SPAN (1ull << 20) /* spans up to this are loaded and compared byte by byte */

static void fail(const char *what)
{
	fprintf(stderr, "fuzz_elf: %s\n", what);
	abort();
}

static struct elf64_phdr phdr_at(const uint8_t *file, const struct elf64_ehdr *eh, unsigned i)
{
	struct elf64_phdr ph;

	memcpy(&ph, file + eh->phoff + (uint64_t)i * eh->phentsize, sizeof(ph));
	return ph;
}

static int loadable(const struct elf64_phdr *ph)
{
	return ph->type == PT_LOAD && ph->memsz != 0;
}

/* One accepted segment: in the file, in the physical window, in the span, filesz <= memsz. */
static void check_segment(const struct elf64_phdr *ph, size_t size, const struct kernel_image *img)
{
	if (ph->offset > size || ph->filesz > size - ph->offset)
		fail("accepted a segment that runs past the end of the file");
	if (ph->filesz > ph->memsz)
		fail("accepted a segment with p_filesz > p_memsz");
	if (ph->paddr < KERNEL_MIN_PHYS || ph->memsz > LIMIT || ph->paddr > LIMIT - ph->memsz)
		fail("accepted a segment outside [KERNEL_MIN_PHYS, 4 GiB)");
	if (ph->paddr < img->phys_start || ph->paddr + ph->memsz > img->phys_end)
		fail("a segment lies outside [phys_start, phys_end)");
}

/* Everything an accepted file must satisfy. */
static void check_accepted(const uint8_t *file, size_t size, const struct kernel_image *img)
{
	const struct elf64_ehdr *eh = (const struct elf64_ehdr *)file;
	uint64_t lo = UINT64_MAX, hi = 0;
	unsigned nsegs = 0;
	int entry_ok = 0;

	if (size < sizeof(*eh) || memcmp(eh->ident, "\177ELF\2\1", 6) || eh->machine != 62 || eh->type != 2)
		fail("accepted a file that is not an ELF64 x86-64 executable");
	if (eh->phentsize < sizeof(struct elf64_phdr) || eh->phoff > size ||
	    (uint64_t)eh->phnum * eh->phentsize > size - eh->phoff)
		fail("accepted a program header table outside the file");
	if (img->bad_seg != -1 || img->entry != eh->entry)
		fail("bad_seg or entry wrong on success");
	if (img->phys_start % PAGE || img->phys_end % PAGE || img->phys_start >= img->phys_end ||
	    img->phys_start < (KERNEL_MIN_PHYS & ~(PAGE - 1)) || img->phys_end > LIMIT)
		fail("the span is not page-aligned, empty, or outside [1 MiB, 4 GiB)");
	for (unsigned i = 0; i < eh->phnum; i++) {
		struct elf64_phdr a = phdr_at(file, eh, i);
		if (!loadable(&a))
			continue;
		check_segment(&a, size, img);
		for (unsigned j = 0; j < i; j++) {
			struct elf64_phdr b = phdr_at(file, eh, j);
			if (loadable(&b) && a.paddr < b.paddr + b.memsz && b.paddr < a.paddr + a.memsz)
				fail("accepted two overlapping segments");
		}
		if ((a.flags & PF_X) && eh->entry >= a.paddr && eh->entry - a.paddr < a.memsz)
			entry_ok = 1;
		lo = a.paddr < lo ? a.paddr : lo;
		hi = a.paddr + a.memsz > hi ? a.paddr + a.memsz : hi;
		nsegs++;
	}
	if (nsegs == 0 || nsegs != img->nsegs)
		fail("nsegs is not the number of loadable segments");
	if (!entry_ok)
		fail("accepted an entry point outside every executable segment");
	if (img->phys_start != (lo & ~(PAGE - 1)) || img->phys_end != ((hi + PAGE - 1) & ~(PAGE - 1)))
		fail("the span is not the page-rounded hull of the segments");
}

/*
 * The load destination: a static arena (a fresh 1 MiB allocation per input would cost more than
 * everything else), with everything outside the span poisoned so AddressSanitizer still catches a
 * write past it.
 */
static uint8_t arena[MAX_LOAD_SPAN + 4096] __attribute__((aligned(4096)));
static uint8_t want[MAX_LOAD_SPAN];

/* Loads into exactly the span and compares with the segments' bytes and zeroes. */
static void check_load(const uint8_t *file, const struct kernel_image *img)
{
	const struct elf64_ehdr *eh = (const struct elf64_ehdr *)file;
	size_t span = img->phys_end - img->phys_start;
	uint8_t *dest = arena + 4096;

	if (span > MAX_LOAD_SPAN)
		return;
	memset(want, 0, span);
	for (unsigned i = 0; i < eh->phnum; i++) {
		struct elf64_phdr ph = phdr_at(file, eh, i);
		if (loadable(&ph))
			memcpy(want + (ph.paddr - img->phys_start), file + ph.offset, ph.filesz);
	}
	memset(dest, 0xa5, span); /* what elf_load must overwrite: .bss must start out zero */
	ASAN_POISON_MEMORY_REGION(arena, 4096);
	ASAN_POISON_MEMORY_REGION(dest + span, MAX_LOAD_SPAN - span);
	elf_load(file, img, dest);
	ASAN_UNPOISON_MEMORY_REGION(arena, sizeof(arena));
	if (memcmp(dest, want, span))
		fail("elf_load did not give the segments' bytes and zeroes elsewhere");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kernel_image img;
	const char *err;

	/* A copy of exactly the input, 8-byte aligned as the loader's file buffer is. */
	uint8_t *file = malloc(size ? size : 1);
	if (!file)
		return 0;
	memcpy(file, data, size);
	err = elf_check(file, size, &img);
	if (err) {
		const struct elf64_ehdr *eh = (const struct elf64_ehdr *)file;
		if (!*err)
			fail("an empty error message");
		if (img.bad_seg < -1 || (img.bad_seg >= 0 && (size < sizeof(*eh) || img.bad_seg >= eh->phnum)))
			fail("bad_seg names no program header");
	} else {
		check_accepted(file, size, &img);
		check_load(file, &img);
	}
	free(file);
	return 0;
}
