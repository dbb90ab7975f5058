/*
 * Writes the seed corpus of the multiboot2 fuzzer: one file per sample structure of
 * tests/ktest/mb2_samples.c, in the directory given as the only argument.
 */
#include <stdio.h>

#include "tests/ktest/mb2_samples.h"

static struct mb2_buf b;

static int write_seed(const char *dir, const char *name, const void *data, size_t len)
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

int main(int argc, char **argv)
{
	int errors = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	for (size_t i = 0; i < mb2_nsamples; i++) {
		mb2_samples[i].build(&b);
		errors += write_seed(argv[1], mb2_samples[i].name, b.words, mb2_total_size(&b));
	}
	return errors != 0;
}
