/* SPDX-License-Identifier: MIT */
/*
 * Host tests of how the direct EFI loader reads \boot\cmdline.txt (boot/efi/cmdline_file.c): the
 * command line is the file's bytes exactly, spaces and quotes included; only one final line end
 * goes; anything that is not printable ASCII is refused.
 */
#include "boot/efi/cmdline_file.h"
#include "tests/ktest/ktest.h"
#include "lib/string.h"

/* Reads file[0..size) and expects want (NULL: refused, with the bad byte at bad_at). */
static void expect_read(struct ktest *t, const char *file, size_t size, const char *want, size_t bad_at)
{
	char out[64];
	size_t bad = 999;
	const char *err = cmdline_from_file(file, size, out, sizeof(out), &bad);

	if (want) {
		KT_EXPECT(t, err == NULL, "\"%.*s\" refused: %s", (int)size, file, err);
		KT_EXPECT(t, !strcmp(out, want), "\"%.*s\" gave \"%s\", want \"%s\"", (int)size, file, out, want);
	} else {
		KT_EXPECT(t, err != NULL, "\"%.*s\" accepted as \"%s\"", (int)size, file, out);
		KT_EXPECT(t, bad == bad_at, "bad byte at %zu, want %zu", bad, bad_at);
		KT_EXPECT(t, out[0] == '\0', "out \"%s\" after a refusal", out);
	}
}

#define READS_AS(t, file, want) expect_read(t, file, sizeof(file) - 1, want, 0)
#define REFUSED_AT(t, file, at) expect_read(t, file, sizeof(file) - 1, NULL, at)

static void cmdline_file_keeps_every_printable_byte(struct ktest *t)
{
	READS_AS(t, "  ktest=printk  '\"$HOME;\\#{}|&  ", "  ktest=printk  '\"$HOME;\\#{}|&  ");
	READS_AS(t, " ", " ");
	READS_AS(t, "", "");
	READS_AS(t, "~ !", "~ !");
}

static void cmdline_file_drops_one_final_line_end(struct ktest *t)
{
	READS_AS(t, "ktest=printk\n", "ktest=printk");
	READS_AS(t, "ktest=printk \r\n", "ktest=printk ");
	READS_AS(t, "\n", "");
	REFUSED_AT(t, "ktest=printk\n\n", 12);
	REFUSED_AT(t, "a\r", 1);
}

static void cmdline_file_refuses_what_is_not_printable_ascii(struct ktest *t)
{
	REFUSED_AT(t, "a\tb", 1);
	REFUSED_AT(t, "one\ntwo", 3);
	REFUSED_AT(t, "\xef\xbb\xbfktest=printk", 0);
	REFUSED_AT(t, "x\x7f", 1);
	expect_read(t, "ab\0c", 4, NULL, 2);
}

static void cmdline_file_refuses_a_line_too_long(struct ktest *t)
{
	char file[80], out[64];
	size_t bad = 999;

	memset(file, 'a', sizeof(file));
	KT_EXPECT(t, cmdline_from_file(file, 63, out, sizeof(out), &bad) == NULL, "63 bytes fit in 64");
	KT_EXPECT(t, strlen(out) == 63, "length %zu", strlen(out));
	KT_EXPECT(t, cmdline_from_file(file, 64, out, sizeof(out), &bad) != NULL && out[0] == '\0',
		  "64 bytes do not fit in 64");
	KT_EXPECT_EQ(t, bad, 999);
}

KTEST_SUITE(efi_cmdline_file,
	    KTEST_CASE(cmdline_file_keeps_every_printable_byte),
	    KTEST_CASE(cmdline_file_drops_one_final_line_end),
	    KTEST_CASE(cmdline_file_refuses_what_is_not_printable_ascii),
	    KTEST_CASE(cmdline_file_refuses_a_line_too_long));
