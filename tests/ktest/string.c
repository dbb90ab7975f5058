/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of lib/'s memmove, memset and memcpy. memmove: overlapping copies in both
 * directions, checked byte by byte against a copy made through a separate buffer. memset and
 * memcpy, which work a word at a time where they can: every start offset within two words, on
 * either side for memcpy, and every length up to a few words, each byte of the range and of its
 * surroundings checked. On the host the cases run lib/memmove.c and lib/memcpy_memset.c (built
 * as lib_memmove, lib_memset and lib_memcpy), where AddressSanitizer would also report an access
 * outside the buffers, or a memcpy call on overlapping ranges.
 */
#include "tests/ktest/ktest.h"
#include "lib/string.h"

#ifdef HOST_BUILD
#define lib_memmove_under_test lib_memmove
#define lib_memset_under_test lib_memset
#define lib_memcpy_under_test lib_memcpy
#else
#define lib_memmove_under_test memmove
#define lib_memset_under_test memset
#define lib_memcpy_under_test memcpy
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

#define OFFSETS 16 /* start offsets: two words */
#define LENGTHS 72 /* lengths 0..71: bytes before a word, words of four and of one, bytes after */
#define SPAN (OFFSETS + LENGTHS + OFFSETS)

/* Is a[from, to) what fill() gave (or c when fill_c is in [0, 255])? Reports the first byte that is not. */
static bool expect_bytes(struct ktest *t, const char *what, const unsigned char *a, size_t from, size_t to,
			 int fill_c, size_t off, size_t n)
{
	for (size_t i = from; i < to; i++) {
		unsigned int want = fill_c >= 0 ? (unsigned int)fill_c : (unsigned char)(i * 7 + 1);

		if (!KT_EXPECT(t, a[i] == want, "%s at offset %zu, %zu bytes: byte %zu is %#x, want %#x", what, off, n, i,
			       a[i], want))
			return false;
	}
	return true;
}

static void memset_fills_exactly_its_range(struct ktest *t)
{
	_Alignas(8) unsigned char a[SPAN];

	for (size_t off = 0; off < OFFSETS; off++)
		for (size_t n = 0; n < LENGTHS; n++) {
			int c = (int)(n & 1 ? 0xa5 : -2); /* an int beyond a byte is taken as its low byte */

			for (size_t i = 0; i < SPAN; i++)
				a[i] = (unsigned char)(i * 7 + 1);
			if (!KT_EXPECT(t, lib_memset_under_test(a + off, c, n) == a + off, "memset does not return its destination") ||
			    !expect_bytes(t, "memset before", a, 0, off, -1, off, n) ||
			    !expect_bytes(t, "memset", a, off, off + n, (unsigned char)c, off, n) ||
			    !expect_bytes(t, "memset after", a, off + n, SPAN, -1, off, n))
				return;
		}
}

/* Source offsets sharing the destination's offset in a word and not: word copies and byte copies. */
static void memcpy_copies_exactly_its_range(struct ktest *t)
{
	_Alignas(8) unsigned char src[SPAN], dst[SPAN];

	for (size_t i = 0; i < SPAN; i++)
		src[i] = (unsigned char)(255 - i);
	for (size_t so = 0; so < OFFSETS; so++)
		for (size_t off = 0; off < OFFSETS; off++)
			for (size_t n = 0; n < LENGTHS; n++) {
				for (size_t i = 0; i < SPAN; i++)
					dst[i] = (unsigned char)(i * 7 + 1);
				if (!KT_EXPECT(t, lib_memcpy_under_test(dst + off, src + so, n) == dst + off,
					       "memcpy does not return its destination") ||
				    !expect_bytes(t, "memcpy before", dst, 0, off, -1, off, n) ||
				    !expect_bytes(t, "memcpy after", dst, off + n, SPAN, -1, off, n))
					return;
				for (size_t i = 0; i < n; i++)
					if (!KT_EXPECT(t, dst[off + i] == src[so + i],
						       "memcpy(+%zu, +%zu, %zu): byte %zu is %#x, want %#x", off, so, n, i,
						       dst[off + i], src[so + i]))
						return;
			}
}

KTEST_SUITE(string,
	    KTEST_CASE(memset_fills_exactly_its_range),
	    KTEST_CASE(memcpy_copies_exactly_its_range),
	    KTEST_CASE(memmove_copies_down_over_its_source),
	    KTEST_CASE(memmove_copies_up_over_its_source),
	    KTEST_CASE(memmove_copies_disjoint_same_and_empty_ranges));
