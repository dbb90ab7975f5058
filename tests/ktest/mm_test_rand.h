/* SPDX-License-Identifier: MIT */
/*
 * The random number generator of every seeded test (the self-tests, the stress test, the model):
 * xorshift64, so a seed names the same sequence in the kernel and on the host. Freestanding.
 */
#ifndef TESTS_KTEST_MM_TEST_RAND_H
#define TESTS_KTEST_MM_TEST_RAND_H

/* The next number of the sequence in *state (never 0 if *state was not); advances *state. */
static inline unsigned long mm_test_rand(unsigned long *state)
{
	unsigned long x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

#endif
