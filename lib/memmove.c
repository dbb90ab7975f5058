/* SPDX-License-Identifier: MIT */
/*
 * memmove: copies n bytes between ranges that may overlap. It copies with its own loops rather
 * than through memcpy, whose contract forbids overlap and promises no order: forward when the
 * destination starts below the source, backward when above, so that every byte is read before
 * the copy overwrites it. In a file of its own so that the host tests can build it beside the C
 * library's checked memcpy (lib/build.mk).
 */
#include <stdint.h>

#include "lib/string.h"

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if ((uintptr_t)d < (uintptr_t)s) {
		for (size_t i = 0; i < n; i++)
			d[i] = s[i];
	} else if ((uintptr_t)d > (uintptr_t)s) {
		while (n--)
			d[n] = s[n];
	}
	return dst;
}
