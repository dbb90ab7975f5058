/* SPDX-License-Identifier: MIT */
/*
 * The direct loader's command line file: the bytes of \boot\cmdline.txt become the kernel's
 * command line unchanged. Anything that is not printable ASCII is refused, not turned into
 * something else, so what the kernel gets is exactly what the file says.
 */
#include "boot/efi/cmdline_file.h"

const char *cmdline_from_file(const char *text, size_t size, char *out, size_t cap, size_t *bad)
{
	size_t i;

	if (cap)
		out[0] = '\0';
	if (size && text[size - 1] == '\n')
		size -= 1 + (size >= 2 && text[size - 2] == '\r');
	if (size >= cap)
		return "the command line is longer than the loader takes";
	for (i = 0; i < size; i++) {
		if (text[i] < ' ' || text[i] > '~') {
			*bad = i;
			return "it has a byte that is not printable ASCII (a line end, tab or other "
			       "control character, or a non-ASCII character); the command line is one line "
			       "of printable ASCII";
		}
	}
	for (i = 0; i < size; i++)
		out[i] = text[i];
	out[size] = '\0';
	return NULL;
}
