/* SPDX-License-Identifier: MIT */
/*
 * memset and memcpy, a word (8 bytes) at a time where the destination allows: the bytes before
 * the first word boundary one by one, then words, then the bytes after the last one. memcpy
 * copies words only when source and destination have the same offset in a word (so that both
 * are aligned together); otherwise byte by byte, which is always right. A word store is one guest
 * instruction where a byte loop takes eight: the debug kernel fills every freed page with its
 * poison (mm/poison.c), and under QEMU's TCG a byte loop made that most of the time of a 5 GiB
 * boot's self-tests. In a file of its own so that the host tests can build it beside the C
 * library's (lib/build.mk) and check it under AddressSanitizer.
 */
#include <stdint.h>

#include "lib/string.h"

/* A word that may alias any object, as the bytes it stands for do. */
typedef uint64_t __attribute__((may_alias)) mem_word;

#define WORD sizeof(mem_word)

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	mem_word w = 0x0101010101010101ULL * (unsigned char)c;

	for (; n && ((uintptr_t)d & (WORD - 1)); n--)
		*d++ = (unsigned char)c;
	for (; n >= 4 * WORD; n -= 4 * WORD, d += 4 * WORD) {
		((mem_word *)d)[0] = w;
		((mem_word *)d)[1] = w;
		((mem_word *)d)[2] = w;
		((mem_word *)d)[3] = w;
	}
	for (; n >= WORD; n -= WORD, d += WORD)
		*(mem_word *)d = w;
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (!(((uintptr_t)d ^ (uintptr_t)s) & (WORD - 1))) {
		for (; n && ((uintptr_t)d & (WORD - 1)); n--)
			*d++ = *s++;
		for (; n >= 4 * WORD; n -= 4 * WORD, d += 4 * WORD, s += 4 * WORD) {
			((mem_word *)d)[0] = ((const mem_word *)s)[0];
			((mem_word *)d)[1] = ((const mem_word *)s)[1];
			((mem_word *)d)[2] = ((const mem_word *)s)[2];
			((mem_word *)d)[3] = ((const mem_word *)s)[3];
		}
		for (; n >= WORD; n -= WORD, d += WORD, s += WORD)
			*(mem_word *)d = *(const mem_word *)s;
	}
	while (n--)
		*d++ = *s++;
	return dst;
}
