/* SPDX-License-Identifier: MIT */
/*
 * Small pieces the fuzz targets and their seed writers share: reading a little-endian number out
 * of the fuzzer's bytes, and writing one seed file.
 */
#ifndef TESTS_FUZZ_FUZZ_UTIL_H
#define TESTS_FUZZ_FUZZ_UTIL_H

#include <stdint.h>
#include <stdio.h>

/* The n-byte little-endian number at p (n <= 8). */
static inline uint64_t fuzz_le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Writes len bytes of data to DIR/NAME.bin; returns 0, or 1 after printing why it could not. */
static inline int fuzz_write_seed(const char *dir, const char *name, const void *data, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.bin", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
		perror(path);
		return 1;
	}
	return 0;
}

#endif
