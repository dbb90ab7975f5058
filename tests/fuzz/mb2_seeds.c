/* SPDX-License-Identifier: MIT */
/*
 * Writes the seed corpus of the multiboot2 fuzzer: one file per sample structure of
 * tests/ktest/mb2_samples.c, in the directory given as the only argument.
 */
#include <stdio.h>

#include "tests/fuzz/fuzz_util.h"
#include "tests/ktest/mb2_samples.h"

static struct mb2_buf b;

int main(int argc, char **argv)
{
	int errors = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	for (size_t i = 0; i < mb2_nsamples; i++) {
		mb2_samples[i].build(&b);
		errors += fuzz_write_seed(argv[1], mb2_samples[i].name, b.words, mb2_total_size(&b));
	}
	return errors != 0;
}
