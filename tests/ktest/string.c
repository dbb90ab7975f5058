/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of lib/'s memmove: overlapping copies in both directions, checked byte by byte
 * against a copy made through a separate buffer. On the host the case runs lib/memmove.c (built
 * as lib_memmove), where a memcpy call on overlapping ranges would also be reported by
 * AddressSanitizer.
 */
#include "tests/ktest/ktest.h"
#include "lib/string.h"

#ifdef HOST_BUILD
#define lib_memmove_under_test lib_memmove
#else
#define lib_memmove_under_test memmove
#endif

#define AREA 96

/* Fills a with a pattern in which no two nearby bytes are equal. */
static void fill(unsigned char *a)
{
	for (int i = 0; i < AREA; i++)
		a[i] = (unsigned char)(i * 7 + 1);
}

/* What moving n bytes from src to dst within a must give, computed through a separate buffer. */
static void reference_move(unsigned char *a, size_t dst, size_t src, size_t n)
{
	unsigned char tmp[AREA];

	for (size_t i = 0; i < n; i++)
		tmp[i] = a[src + i];
	for (size_t i = 0; i < n; i++)
		a[dst + i] = tmp[i];
}

/* Moves n bytes from offset src to offset dst of one area and compares every byte of the area. */
static bool expect_move(struct ktest *t, size_t dst, size_t src, size_t n)
{
	unsigned char got[AREA], want[AREA];

	fill(got);
	fill(want);
	reference_move(want, dst, src, n);
	KT_EXPECT(t, lib_memmove_under_test(got + dst, got + src, n) == got + dst,
		  "memmove does not return its destination");
	for (size_t i = 0; i < AREA; i++)
		if (!KT_EXPECT(t, got[i] == want[i],
			       "memmove(+%zu, +%zu, %zu): byte %zu is %#x, want %#x", dst, src, n, i,
			       got[i], want[i]))
			return false;
	return true;
}

static void memmove_copies_down_over_its_source(struct ktest *t)
{
	for (size_t n = 1; n <= 64; n++)
		for (size_t shift = 1; shift <= 9; shift++)
			if (!expect_move(t, 4, 4 + shift, n))
				return;
}

static void memmove_copies_up_over_its_source(struct ktest *t)
{
	for (size_t n = 1; n <= 64; n++)
		for (size_t shift = 1; shift <= 9; shift++)
			if (!expect_move(t, 4 + shift, 4, n))
				return;
}

static void memmove_copies_disjoint_same_and_empty_ranges(struct ktest *t)
{
	expect_move(t, 0, 48, 48);
	expect_move(t, 48, 0, 48);
	expect_move(t, 10, 10, 30);
	expect_move(t, 3, 9, 0);
}

KTEST_SUITE(string,
	    KTEST_CASE(memmove_copies_down_over_its_source),
	    KTEST_CASE(memmove_copies_up_over_its_source),
	    KTEST_CASE(memmove_copies_disjoint_same_and_empty_ranges));
