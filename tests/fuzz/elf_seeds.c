/* SPDX-License-Identifier: MIT */
/*
 * Writes the seed corpus of the ELF fuzzer (fuzz_elf) into DIR: the start of the real kernel
 * file, the real kernel's headers with its segments shortened into a small file, and hand-made
 * headers the loader accepts or refuses for one reason each.
 *   elf_seeds DIR build/kernel.elf
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/efi/elf_load.h"
#include "tests/fuzz/fuzz_util.h"

#define PT_LOAD 1
#define PT_NOTE 4
#define PF_X 1
#define PF_W 2
#define PF_R 4
#define SEED_MAX 4096

static int errors;


/* A hand-made file: header, program headers right after it, then segment bytes. */
struct seed {
	uint8_t bytes[SEED_MAX];
	struct elf64_ehdr eh;
	struct elf64_phdr ph[4];
	size_t len;
};

static void seed_begin(struct seed *s, uint64_t entry, unsigned phnum)
{
	memset(s, 0, sizeof(*s));
	memcpy(s->eh.ident, "\177ELF\2\1\1", 7);
	s->eh.type = 2;
	s->eh.machine = 62;
	s->eh.version = 1;
	s->eh.entry = entry;
	s->eh.phoff = sizeof(s->eh);
	s->eh.ehsize = sizeof(s->eh);
	s->eh.phentsize = sizeof(struct elf64_phdr);
	s->eh.phnum = (uint16_t)phnum;
	s->len = sizeof(s->eh) + phnum * sizeof(struct elf64_phdr);
}

/* Program header i, with filesz bytes of a recognisable pattern appended to the file. */
static void seed_segment(struct seed *s, unsigned i, uint32_t type, uint32_t flags, uint64_t paddr,
			 uint64_t filesz, uint64_t memsz)
{
	s->ph[i] = (struct elf64_phdr){ type, flags, s->len, paddr | 0xffffffff80000000ull, paddr,
					filesz, memsz, 0x1000 };
	memset(s->bytes + s->len, 0xc0 + (int)i, filesz);
	s->len += filesz;
}

static void seed_write(const char *dir, const char *name, struct seed *s)
{
	memcpy(s->bytes, &s->eh, sizeof(s->eh));
	memcpy(s->bytes + sizeof(s->eh), s->ph, s->eh.phnum * sizeof(struct elf64_phdr));
	errors += fuzz_write_seed(dir, name, s->bytes, s->len);
}

/* The seeds of one loadable segment: accepted, then refused ones. */
static const struct one_segment_seed {
	const char *name;
	uint64_t entry;
	uint32_t flags;
	uint64_t paddr, filesz, memsz;
} one_segment[] = {
	{ "minimal", 0x100000, PF_R | PF_X, 0x100000, 16, 16 },
	{ "ends-at-4g", 0xfffff000, PF_R | PF_X, 0xfffff000, 8, 0x1000 }, /* the highest segment allowed */
	{ "entry-in-data", 0x400000, PF_R | PF_W, 0x400000, 0x20, 0x20 }, /* refused */
	{ "below-1m", 0x8000, PF_R | PF_X, 0x8000, 0x20, 0x20 },          /* refused */
};

static void hand_made(const char *dir)
{
	static struct seed s;

	for (size_t i = 0; i < sizeof(one_segment) / sizeof(one_segment[0]); i++) {
		const struct one_segment_seed *o = &one_segment[i];

		seed_begin(&s, o->entry, 1);
		seed_segment(&s, 0, PT_LOAD, o->flags, o->paddr, o->filesz, o->memsz);
		seed_write(dir, o->name, &s);
	}

	/* Code and data sharing a page, then .bss-only, and a note that is not loaded. */
	seed_begin(&s, 0x200010, 4);
	seed_segment(&s, 0, PT_LOAD, PF_R | PF_X, 0x200000, 0x40, 0x40);
	seed_segment(&s, 1, PT_LOAD, PF_R | PF_W, 0x200040, 0x20, 0x100);
	seed_segment(&s, 2, PT_LOAD, PF_R | PF_W, 0x203000, 0, 0x5000);
	seed_segment(&s, 3, PT_NOTE, PF_R, 0, 8, 8);
	seed_write(dir, "shared-page-bss-note", &s);

	/* Refused: overlapping segments. */
	seed_begin(&s, 0x300000, 2);
	seed_segment(&s, 0, PT_LOAD, PF_R | PF_X, 0x300000, 0x20, 0x2000);
	seed_segment(&s, 1, PT_LOAD, PF_R | PF_W, 0x301000, 0x20, 0x20);
	seed_write(dir, "overlap", &s);

	/* A larger program header entry (64 bytes), as the format allows. */
	seed_begin(&s, 0x100000, 1);
	s.eh.phentsize = 64;
	s.len = sizeof(s.eh) + 64;
	seed_segment(&s, 0, PT_LOAD, PF_R | PF_X, 0x100000, 16, 16);
	seed_write(dir, "phentsize-64", &s);
}

/* The real kernel's headers, each segment cut to at most 256 bytes and packed after them. */
static void kernel_packed(const char *dir, const uint8_t *k, size_t size)
{
	static uint8_t out[SEED_MAX];
	struct elf64_ehdr eh;
	size_t table, len;

	if (size < sizeof(eh))
		return;
	memcpy(&eh, k, sizeof(eh));
	table = (size_t)eh.phnum * eh.phentsize;
	if (eh.phoff > size || table > size - eh.phoff || sizeof(eh) + table > SEED_MAX)
		return;
	memcpy(out, &eh, sizeof(eh));
	len = sizeof(eh) + table;
	((struct elf64_ehdr *)out)->phoff = sizeof(eh);
	for (unsigned i = 0; i < eh.phnum; i++) {
		struct elf64_phdr ph;
		memcpy(&ph, k + eh.phoff + (size_t)i * eh.phentsize, sizeof(ph));
		if (ph.type == PT_LOAD && ph.offset <= size) {
			uint64_t n = ph.filesz < 256 ? ph.filesz : 256;
			if (n > size - ph.offset || len + n > SEED_MAX)
				n = 0;
			memcpy(out + len, k + ph.offset, n);
			ph.offset = len;
			ph.filesz = n;
			len += n;
		}
		memcpy(out + sizeof(eh) + (size_t)i * eh.phentsize, &ph, sizeof(ph));
	}
	errors += fuzz_write_seed(dir, "kernel-packed", out, len);
}

int main(int argc, char **argv)
{
	static uint8_t kernel[8 << 20];
	size_t size;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: %s DIR KERNEL.elf\n", argv[0]);
		return 2;
	}
	hand_made(argv[1]);
	f = fopen(argv[2], "rb");
	if (!f) {
		perror(argv[2]);
		return 1;
	}
	size = fread(kernel, 1, sizeof(kernel), f);
	fclose(f);
	errors += fuzz_write_seed(argv[1], "kernel-head", kernel, size < SEED_MAX ? size : SEED_MAX);
	kernel_packed(argv[1], kernel, size);
	return errors != 0;
}
