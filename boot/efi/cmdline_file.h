/* SPDX-License-Identifier: MIT */
/*
 * The direct loader's command line file, \boot\cmdline.txt: the command line is the file's bytes,
 * exactly. Plain C with no firmware calls, so the host tests run it.
 */
#ifndef BOOT_EFI_CMDLINE_FILE_H
#define BOOT_EFI_CMDLINE_FILE_H

#include <stddef.h>

/*
 * Copies the command line in the file text[0..size) to out (cap bytes with the NUL): every byte as
 * it is, except one line end (LF or CR LF) at the very end, which an editor may add. Returns NULL,
 * or what is wrong with the file: a byte that is not printable ASCII (space to '~'; its offset
 * goes to *bad), or a command line longer than cap - 1 bytes. out holds "" after a failure.
 */
const char *cmdline_from_file(const char *text, size_t size, char *out, size_t cap, size_t *bad);

#endif
