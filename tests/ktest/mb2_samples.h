/* SPDX-License-Identifier: MIT */
/*
 * Builds multiboot2 information structures for the parser's tests and for the fuzzer's seed
 * corpus: tag by tag, as a boot loader would, plus a few whole samples shaped like what GRUB
 * passes on BIOS and on UEFI.
 */
#ifndef TESTS_KTEST_MB2_SAMPLES_H
#define TESTS_KTEST_MB2_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/bootinfo.h"
#include "lib/string.h"

#define MB2_BUF_SIZE 4096

/* An information structure being built, 8-byte aligned as a loader places it. */
struct mb2_buf {
	uint8_t words[MB2_BUF_SIZE] __attribute__((aligned(8)));
	uint32_t len;      /* bytes used, a multiple of 8 */
	bool overflow;     /* a tag did not fit; the structure is incomplete */
};

/* Starts an empty structure (the 8-byte header). */
void mb2_begin(struct mb2_buf *b);

/* Appends a zeroed tag of size bytes (header included) and returns it, or NULL if it does not fit. */
void *mb2_add_tag(struct mb2_buf *b, uint32_t type, uint32_t size);

/* Appends a string tag (command line, loader name) holding s and its NUL. */
void mb2_add_string(struct mb2_buf *b, uint32_t type, const char *s);

/* Appends a module tag for [start, end) with its command line. */
void mb2_add_module(struct mb2_buf *b, uint32_t start, uint32_t end, const char *cmdline);

/* Appends a memory map tag with n entries of 24 bytes. */
void mb2_add_mmap(struct mb2_buf *b, const struct mb2_mmap_entry *e, uint32_t n);

/* Appends an EFI memory map tag with n descriptors, each padded to desc_size (>= 40) bytes. */
void mb2_add_efi_mmap(struct mb2_buf *b, const struct efi_memory_descriptor *d, uint32_t n,
		      uint32_t desc_size);

/* Appends a direct-RGB framebuffer tag (32 bits per pixel, x8r8g8b8). */
void mb2_add_framebuffer_rgb(struct mb2_buf *b, uint64_t addr, uint32_t width, uint32_t height);

/* Appends the end tag and sets total_size; returns total_size. */
uint32_t mb2_end(struct mb2_buf *b);

/* The tag at byte offset off of the structure being built. */
static inline void *mb2_at(struct mb2_buf *b, uint32_t off)
{
	return b->words + off;
}

/* Reads or overwrites the total_size field of the header. */
static inline uint32_t mb2_total_size(const struct mb2_buf *b)
{
	uint32_t v;
	memcpy(&v, b->words, sizeof(v));
	return v;
}

static inline void mb2_set_total_size(struct mb2_buf *b, uint32_t v)
{
	memcpy(b->words, &v, sizeof(v));
}

/* Whole sample structures, each a valid one a loader could pass. */
struct mb2_sample {
	const char *name;
	void (*build)(struct mb2_buf *b);
};
extern const struct mb2_sample mb2_samples[];
extern const size_t mb2_nsamples;

/* The samples by name, for tests that mutate one. */
void mb2_sample_minimal(struct mb2_buf *b);
void mb2_sample_bios(struct mb2_buf *b);
void mb2_sample_uefi(struct mb2_buf *b);
void mb2_sample_modules(struct mb2_buf *b);

#endif
