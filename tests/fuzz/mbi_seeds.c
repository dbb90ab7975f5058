/* SPDX-License-Identifier: MIT */
/*
 * Writes the seed corpus of the multiboot2 builder fuzzer (fuzz_mbi) into DIR, in the input
 * layout fuzz_mbi.c reads: a few loader inputs made here, and one for each EFI memory map fixture
 * given (its "efi: memNN: ..." lines become descriptors of 48 bytes, as OVMF's).
 *   mbi_seeds DIR [FIXTURE.txt ...]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/bootinfo.h"

/* fuzz_mbi.c's flags: framebuffer, RSDP, RSDP version 2, any descriptor size, partial descriptor. */
#define F_FB 1
#define F_RSDP 2
#define F_RSDP_V2 4
#define F_ANY_DESC_SIZE 8
#define F_PARTIAL 16
#define MAX_DESCS 255

struct desc {
	uint32_t type;
	uint64_t start, pages, attr;
};

struct seed {
	uint8_t flags;
	const char *cmdline, *name;
	uint64_t system_table;
	struct boot_framebuffer fb;
	uint16_t rsdp_size;
	uint32_t desc_size; /* 40 to 96 in steps of 8, or any below 512 with F_ANY_DESC_SIZE */
	uint8_t partial;    /* bytes of a partial descriptor, with F_PARTIAL */
	unsigned ndesc;
	struct desc d[MAX_DESCS];
};

static int errors;

static void put(FILE *f, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		fputc((int)(v >> (8 * i)) & 0xff, f);
}

static void put_string(FILE *f, const char *s)
{
	put(f, strlen(s), 2);
	fputs(s, f);
}

static void write_seed(const char *dir, const char *name, const struct seed *s)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.bin", dir, name);
	if (!(f = fopen(path, "wb"))) {
		perror(path);
		errors++;
		return;
	}
	put(f, s->flags, 1);
	put_string(f, s->cmdline);
	put_string(f, s->name);
	put(f, s->system_table, 8);
	if (s->flags & F_FB)
		fwrite(&s->fb, sizeof(s->fb), 1, f);
	put(f, s->rsdp_size, 2);
	for (unsigned i = 0; i < s->rsdp_size; i++)
		put(f, i < 8 ? (uint64_t)"RSD PTR "[i] : i, 1);
	put(f, s->flags & F_ANY_DESC_SIZE ? s->desc_size : (s->desc_size - 40) / 8, 2);
	put(f, 1, 4);
	put(f, s->ndesc, 1);
	if (s->flags & F_PARTIAL)
		put(f, s->partial, 1);
	for (unsigned i = 0; i < s->ndesc; i++) {
		struct efi_memory_descriptor d = { .type = s->d[i].type, .phys_start = s->d[i].start,
						   .num_pages = s->d[i].pages, .attribute = s->d[i].attr };
		fwrite(&d, sizeof(d), 1, f);
		for (size_t j = sizeof(d); j < s->desc_size; j++)
			fputc(0, f);
	}
	for (unsigned i = 0; i < s->partial; i++)
		fputc(0x5a, f);
	if (fclose(f) != 0) {
		perror(path);
		errors++;
	}
}

static void add(struct seed *s, uint32_t type, uint64_t start, uint64_t pages)
{
	if (s->ndesc < MAX_DESCS)
		s->d[s->ndesc++] = (struct desc){ type, start, pages, 0xf };
}

static void made_here(const char *dir)
{
	static struct seed s;

	/* Like the loader under OVMF: unsorted, neighbours to merge, an empty descriptor. */
	s = (struct seed){ .flags = F_FB | F_RSDP | F_RSDP_V2, .cmdline = "ktest=printk screen=off",
			   .name = "minimal x86-64 kernel EFI loader", .system_table = 0x7e000000,
			   .fb = { 0xc0000000, 5120, 1280, 800, 32, 1, 16, 8, 8, 8, 0, 8 },
			   .rsdp_size = 36, .desc_size = 48 };
	add(&s, 7, 0x100000, 0x100);
	add(&s, 3, 0x0, 0x9f);
	add(&s, 2, 0x200000, 0x20);
	add(&s, 9, 0x7f000000, 0x10);
	add(&s, 10, 0x7f010000, 0x10);
	add(&s, 11, 0xfec00000, 1);
	add(&s, 7, 0x300000, 0);
	add(&s, 8, 0x400000, 1);
	write_seed(dir, "ovmf-like", &s);

	/* Nothing optional, an empty map. */
	s = (struct seed){ .cmdline = "", .name = "l", .desc_size = 40 };
	write_seed(dir, "empty", &s);

	/* ACPI 1.0 RSDP, 40-byte descriptors, equal bases, a range up to the top of 64 bits. */
	s = (struct seed){ .flags = F_RSDP, .cmdline = "hugepages=2 bench", .name = "loader",
			   .rsdp_size = 20, .desc_size = 40 };
	add(&s, 7, 0x1000000, 0x1000);
	add(&s, 7, 0x1000000, 0x10);
	add(&s, 0, 0xfffffffffffff000ull, 1);
	add(&s, 14, 0x100000000ull, 0x40000);
	write_seed(dir, "v1-equal-bases-top", &s);

	/* A descriptor size that is not a multiple of 8, and a partial descriptor at the end. */
	s = (struct seed){ .flags = F_ANY_DESC_SIZE, .cmdline = "x", .name = "y", .desc_size = 44 };
	add(&s, 7, 0x100000, 0x10);
	write_seed(dir, "desc-size-44", &s);
	s = (struct seed){ .flags = F_PARTIAL, .cmdline = "x", .name = "y", .desc_size = 48, .partial = 8 };
	add(&s, 7, 0x100000, 0x10);
	write_seed(dir, "partial-descriptor", &s);
}

/* One seed from the "efi: memNN: type=T, attr=0xA, range=[0xS-0xE)" lines of a fixture. */
static void from_fixture(const char *dir, const char *path)
{
	static struct seed s;
	char line[256], name[128];
	const char *base = strrchr(path, '/');
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		errors++;
		return;
	}
	s = (struct seed){ .flags = F_RSDP | F_RSDP_V2, .cmdline = "", .name = "fixture",
			   .rsdp_size = 36, .desc_size = 48 };
	while (fgets(line, sizeof(line), f)) {
		unsigned idx, type;
		unsigned long long attr, start, end;
		if (sscanf(line, "efi: mem%u: type=%u, attr=%llx, range=[%llx-%llx)", &idx, &type, &attr,
			   &start, &end) == 5 && end > start)
			add(&s, type, start, (end - start) / 4096);
	}
	fclose(f);
	snprintf(name, sizeof(name), "fixture-%.*s", (int)strcspn(base ? base + 1 : path, "."),
		 base ? base + 1 : path);
	if (s.ndesc)
		write_seed(dir, name, &s);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s DIR [FIXTURE.txt ...]\n", argv[0]);
		return 2;
	}
	made_here(argv[1]);
	for (int i = 2; i < argc; i++)
		from_fixture(argv[1], argv[i]);
	return errors != 0;
}
