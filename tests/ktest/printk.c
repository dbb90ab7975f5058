/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of the formatter behind printk (lib/printk.c): every conversion the kernel uses,
 * flags, widths and precisions, the limits of each integer type, how snprintf truncates and
 * what it returns, and how printk cuts a line too long for its buffer. Each expectation of a
 * conversion is the exact text C's printf would produce (%p excepted: ours always prints "0x"
 * and 16 digits).
 */
#include "tests/ktest/ktest.h"
#include "lib/printk.h"
#include "lib/string.h"

#define INT_MIN_   (-__INT_MAX__ - 1)
#define LONG_MIN_  (-__LONG_MAX__ - 1L)
#define LLONG_MIN_ (-__LONG_LONG_MAX__ - 1LL)
#define ULLONG_MAX_ (__LONG_LONG_MAX__ * 2ULL + 1)

static void expect_vfmt(struct ktest *t, int line, const char *want, const char *fmt, va_list ap)
{
	char buf[128];
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);

	KT_EXPECT(t, !strcmp(buf, want), "line %d: format \"%s\" gave \"%s\", want \"%s\"", line, fmt,
		  buf, want);
	KT_EXPECT(t, n == (int)strlen(want), "line %d: format \"%s\" returned %d, want %zu", line, fmt,
		  n, strlen(want));
}

/* Formats into a buffer and expects exactly want, and a return value of its length. */
#define EXPECT_FMT(t, want, ...) expect_fmt(t, __LINE__, want, __VA_ARGS__)
static void expect_fmt(struct ktest *t, int line, const char *want, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void expect_fmt(struct ktest *t, int line, const char *want, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	expect_vfmt(t, line, want, fmt, ap);
	va_end(ap);
}

/*
 * The same without the compiler's format check, for flag combinations it warns are ignored
 * ("%-05d", "%08.3d"): that they are ignored is what those checks test.
 */
#define EXPECT_FMT_IGNORED_FLAG(t, want, ...) expect_fmt_unchecked(t, __LINE__, want, __VA_ARGS__)
static void expect_fmt_unchecked(struct ktest *t, int line, const char *want, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	expect_vfmt(t, line, want, fmt, ap);
	va_end(ap);
}

static void printk_formats_signed_decimal(struct ktest *t)
{
	EXPECT_FMT(t, "0 42 -42", "%d %d %d", 0, 42, -42);
	EXPECT_FMT(t, "7 -7", "%i %i", 7, -7);
	EXPECT_FMT(t, "2147483647", "%d", __INT_MAX__);
	EXPECT_FMT(t, "-2147483648", "%d", INT_MIN_);
	EXPECT_FMT(t, "-9223372036854775808", "%ld", LONG_MIN_);
	EXPECT_FMT(t, "-9223372036854775808", "%lld", LLONG_MIN_);
	EXPECT_FMT(t, "9223372036854775807", "%lli", __LONG_LONG_MAX__);
	EXPECT_FMT(t, "-1 -1", "%hd %hhd", (short)-1, (signed char)-1);
	EXPECT_FMT(t, "+5 -5  5", "%+d %+d % d", 5, -5, 5);
}

static void printk_formats_unsigned_decimal(struct ktest *t)
{
	EXPECT_FMT(t, "0 4294967295", "%u %u", 0u, 4294967295u);
	EXPECT_FMT(t, "18446744073709551615", "%llu", ULLONG_MAX_);
	EXPECT_FMT(t, "18446744073709551615", "%lu", (unsigned long)ULLONG_MAX_);
	EXPECT_FMT(t, "18446744073709551615 4096", "%zu %zu", (size_t)__SIZE_MAX__, (size_t)4096);
	EXPECT_FMT(t, "65535 255", "%hu %hhu", (unsigned short)0xffff, (unsigned char)0xff);
}

static void printk_formats_hex_and_octal(struct ktest *t)
{
	EXPECT_FMT(t, "deadbeef DEADBEEF", "%x %X", 0xdeadbeefu, 0xdeadbeefu);
	EXPECT_FMT(t, "0", "%x", 0u);
	EXPECT_FMT(t, "ffffffffffffffff", "%lx", (unsigned long)ULLONG_MAX_);
	EXPECT_FMT(t, "ffffffffffffffff", "%llx", ULLONG_MAX_);
	EXPECT_FMT(t, "fffffffff", "%zx", (size_t)0xfffffffffULL);
	EXPECT_FMT(t, "0xff 0XFF 0", "%#x %#X %#x", 255u, 255u, 0u);
	EXPECT_FMT(t, "10 010 0", "%o %#o %#o", 8u, 8u, 0u);
	EXPECT_FMT(t, "0x0000000000100000", "0x%016llx", 0x100000ULL);
}

static void printk_formats_pointers(struct ktest *t)
{
	EXPECT_FMT(t, "0x0000000000001234", "%p", (void *)0x1234);
	EXPECT_FMT(t, "0x0000000000000000", "%p", (void *)0);
	EXPECT_FMT(t, "0xffffffff80000000", "%p", (void *)0xffffffff80000000ULL);
}

static void printk_formats_strings_and_chars(struct ktest *t)
{
	const char *volatile null = 0; /* volatile: the compiler must not see the NULL */

	EXPECT_FMT(t, "abc", "%s", "abc");
	EXPECT_FMT(t, "(null)", "%s", null);
	EXPECT_FMT(t, "", "%s", "");
	EXPECT_FMT(t, "  abc|abc  |ab", "%5s|%-5s|%.2s", "abc", "abc", "abcdef");
	EXPECT_FMT(t, "   ab", "%5.2s", "abcdef");
	EXPECT_FMT(t, "x|  x|x  ", "%c|%3c|%-3c", 'x', 'x', 'x');
	EXPECT_FMT(t, "100% %d", "100%% %%d");
	EXPECT_FMT(t, "plain text", "plain text");
}

static void printk_honours_width_and_flags(struct ktest *t)
{
	EXPECT_FMT(t, "   42|42   |00042", "%5d|%-5d|%05d", 42, 42, 42);
	EXPECT_FMT(t, "-0042|  -42|-42  ", "%05d|%5d|%-5d", -42, -42, -42);
	EXPECT_FMT(t, "0x00ff|  0xff", "%#06x|%#6x", 255u, 255u);
	EXPECT_FMT(t, "000000000000beef", "%016lx", 0xbeefUL);
	EXPECT_FMT(t, "05 123", "%02u %02u", 5u, 123u);
	EXPECT_FMT(t, "42", "%1d", 42);
	EXPECT_FMT_IGNORED_FLAG(t, "-42  ", "%-05d", -42);
}

static void printk_honours_precision(struct ktest *t)
{
	EXPECT_FMT(t, "007|     007", "%.3d|%8.3d", 7, 7);
	EXPECT_FMT_IGNORED_FLAG(t, "     007", "%08.3d", 7);
	EXPECT_FMT(t, "-007", "%.3d", -7);
	EXPECT_FMT(t, "|0", "%.0d|%d", 0, 0);
	EXPECT_FMT(t, "0000ff", "%.6x", 255u);
}

static void printk_takes_width_and_precision_from_arguments(struct ktest *t)
{
	EXPECT_FMT(t, "   42|42   |ab", "%*d|%-*d|%.*s", 5, 42, 5, 42, 2, "abc");
	EXPECT_FMT(t, "42   ", "%*d", -5, 42); /* a negative width means '-' */
}

static void snprintf_truncates_and_returns_full_length(struct ktest *t)
{
	char buf[8];

	memset(buf, '#', sizeof(buf));
	KT_EXPECT_EQ(t, snprintf(buf, 5, "hello world"), 11);
	KT_EXPECT(t, !strcmp(buf, "hell"), "got \"%s\"", buf);
	KT_EXPECT(t, buf[5] == '#', "wrote past size: buf[5] = %#x", buf[5]);

	memset(buf, '#', sizeof(buf));
	KT_EXPECT_EQ(t, snprintf(buf, 0, "hello"), 5);
	KT_EXPECT(t, buf[0] == '#', "size 0 wrote buf[0] = %#x", buf[0]);

	KT_EXPECT_EQ(t, snprintf(buf, 1, "%d", 12345), 5);
	KT_EXPECT(t, buf[0] == '\0', "size 1 must leave just the NUL");

	KT_EXPECT_EQ(t, snprintf(buf, sizeof(buf), "%s", "1234567"), 7);
	KT_EXPECT(t, !strcmp(buf, "1234567"), "exact fit: got \"%s\"", buf);
	KT_EXPECT_EQ(t, snprintf(buf, sizeof(buf), "%s", "12345678"), 8);
	KT_EXPECT(t, !strcmp(buf, "1234567"), "one too many: got \"%s\"", buf);

	KT_EXPECT_EQ(t, snprintf(0, 0, "%llu", ULLONG_MAX_), 20);
	KT_EXPECT_EQ(t, snprintf(buf, sizeof(buf), "%20d", 1), 20);
}

static void snprintf_counts_a_nul_character(struct ktest *t)
{
	char buf[8];

	memset(buf, '#', sizeof(buf));
	KT_EXPECT_EQ(t, snprintf(buf, sizeof(buf), "a%cb", 0), 3);
	KT_EXPECT(t, buf[0] == 'a' && buf[1] == 0 && buf[2] == 'b' && buf[3] == 0,
		  "got %02x %02x %02x %02x", buf[0], buf[1], buf[2], buf[3]);
}

/* printk_format() called the way printk calls it, through a va_list. */
static int format_as_printk(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int format_as_printk(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	int n = printk_format(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

#define LONG_LINE 600

/* A line of n 'x' characters, without its newline. */
static const char *x_line(size_t n)
{
	static char line[LONG_LINE + 1];

	memset(line, 'x', n);
	line[n] = '\0';
	return line;
}

/* Expects buf[0..n) to be 'x' characters. */
static void expect_xs(struct ktest *t, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!KT_EXPECT(t, buf[i] == 'x', "byte %zu is %#x, want 'x'", i, buf[i]))
			return;
}

static void printk_cuts_a_long_line_but_keeps_its_newline(struct ktest *t)
{
	static char out[PRINTK_BUF_SIZE];
	int n = format_as_printk(out, sizeof(out), "%s\n", x_line(LONG_LINE));

	KT_ASSERT(t, n == PRINTK_BUF_SIZE - 1, "wrote %d bytes, want %d", n, PRINTK_BUF_SIZE - 1);
	KT_EXPECT_EQ(t, strlen(out), PRINTK_BUF_SIZE - 1);
	KT_EXPECT(t, !strcmp(out + n - 4, "...\n"), "the line ends in \"%s\", want \"...\\n\"", out + n - 8);
	expect_xs(t, out, (size_t)n - 4);

	/* Without a newline at the end, the cut has none either. */
	n = format_as_printk(out, sizeof(out), "%s", x_line(LONG_LINE));
	KT_ASSERT(t, n == PRINTK_BUF_SIZE - 1, "wrote %d bytes, want %d", n, PRINTK_BUF_SIZE - 1);
	KT_EXPECT(t, !strcmp(out + n - 3, "..."), "ends in \"%s\", want \"...\"", out + n - 8);
	expect_xs(t, out, (size_t)n - 3);
}

static void printk_line_after_a_long_one_starts_a_line(struct ktest *t)
{
	/* What the console receives from a 600-byte line and then a short one. */
	static char console[2 * PRINTK_BUF_SIZE];
	int n1 = format_as_printk(console, PRINTK_BUF_SIZE, "%s\n", x_line(LONG_LINE));
	int n2 = format_as_printk(console + n1, PRINTK_BUF_SIZE, "next line %d\n", 2);

	KT_EXPECT(t, n1 > 0 && console[n1 - 1] == '\n', "the long line ends in %#x, not a newline",
		  n1 > 0 ? console[n1 - 1] : 0);
	KT_EXPECT(t, n2 == 12 && !strcmp(console + n1, "next line 2\n"), "then \"%s\"", console + n1);

	/* The same through printk itself (as a KTAP diagnostic line). */
	KT_EXPECT_EQ(t, printk("    # %s\n", x_line(LONG_LINE)), PRINTK_BUF_SIZE - 1);
	printk("    # (the line above was cut to %d bytes)\n", PRINTK_BUF_SIZE - 1);
}

static void printk_leaves_lines_that_fit_alone(struct ktest *t)
{
	static char out[PRINTK_BUF_SIZE];

	/* PRINTK_BUF_SIZE - 1 bytes with the newline: exactly what fits. */
	KT_EXPECT_EQ(t, format_as_printk(out, sizeof(out), "%s\n", x_line(PRINTK_BUF_SIZE - 2)),
		     PRINTK_BUF_SIZE - 1);
	KT_EXPECT(t, out[PRINTK_BUF_SIZE - 2] == '\n', "a line that fits was changed");
	expect_xs(t, out, PRINTK_BUF_SIZE - 2);
	/* One byte more is cut. */
	format_as_printk(out, sizeof(out), "%s\n", x_line(PRINTK_BUF_SIZE - 1));
	KT_EXPECT(t, !strcmp(out + PRINTK_BUF_SIZE - 5, "...\n"), "ends in \"%s\"", out + PRINTK_BUF_SIZE - 8);
}

static void printk_format_cuts_into_tiny_buffers(struct ktest *t)
{
	char buf[8];

	memset(buf, '#', sizeof(buf));
	KT_EXPECT_EQ(t, format_as_printk(buf, 0, "hello\n"), 0);
	KT_EXPECT(t, buf[0] == '#', "size 0 wrote buf[0] = %#x", buf[0]);
	KT_EXPECT_EQ(t, format_as_printk(buf, 1, "hello\n"), 0);
	KT_EXPECT(t, buf[0] == '\0', "size 1 must leave just the NUL");
	KT_EXPECT_EQ(t, format_as_printk(buf, 3, "hello\n"), 2);
	KT_EXPECT(t, !strcmp(buf, ".\n"), "size 3: got \"%s\"", buf);
	KT_EXPECT_EQ(t, format_as_printk(buf, 7, "hello world\n"), 6);
	KT_EXPECT(t, !strcmp(buf, "he...\n"), "size 7: got \"%s\"", buf);
	KT_EXPECT_EQ(t, format_as_printk(buf, 7, "hello\n"), 6);
	KT_EXPECT(t, !strcmp(buf, "hello\n"), "size 7, fits: got \"%s\"", buf);
}

/* A console that keeps what it is given, for the cases below. */
static char captured[64];
static size_t ncaptured;

static void capture_write(const char *s, size_t len)
{
	for (size_t i = 0; i < len && ncaptured < sizeof(captured) - 1; i++)
		captured[ncaptured++] = s[i];
	captured[ncaptured] = '\0';
}

/* A registered console gets printk's bytes, once however often it registers, and none after. */
static void registered_consoles_get_every_line(struct ktest *t)
{
	static struct console capture = { .name = "capture", .write = capture_write };

	ncaptured = 0;
	register_console(&capture);
	register_console(&capture);
	printk("console %d\n", 1);
	unregister_console(&capture);
	printk("console %d\n", 2);
	KT_EXPECT(t, !strcmp(captured, "console 1\n"), "captured \"%s\"", captured);
}

/* Appending past the end writes nothing more, keeps the NUL, and still counts what was asked. */
static void snprintf_append_stops_at_the_end_and_counts_on(struct ktest *t)
{
	char buf[8];
	size_t n = 0;

	n = snprintf_append(buf, sizeof(buf), n, "ab");
	n = snprintf_append(buf, sizeof(buf), n, " %u", 1234u);
	KT_EXPECT(t, n == 7 && !strcmp(buf, "ab 1234"), "got \"%s\", %zu", buf, n);
	n = snprintf_append(buf, sizeof(buf), n, "xyz");
	n = snprintf_append(buf, sizeof(buf), n, "%s", "more");
	KT_EXPECT(t, n == 14 && !strcmp(buf, "ab 1234"), "got \"%s\", %zu", buf, n);
}

/* A parser's first problem is kept until the next one. */
static void parse_fail_keeps_the_message(struct ktest *t)
{
	KT_EXPECT_EQ(t, parse_fail("bad %s at %#x", "tag", 0x10u), -1);
	KT_EXPECT(t, !strcmp(parse_fail_message(), "bad tag at 0x10"), "got \"%s\"", parse_fail_message());
}

KTEST_SUITE(printk,
	    KTEST_CASE(snprintf_append_stops_at_the_end_and_counts_on),
	    KTEST_CASE(parse_fail_keeps_the_message),
	    KTEST_CASE(registered_consoles_get_every_line),
	    KTEST_CASE(printk_formats_signed_decimal),
	    KTEST_CASE(printk_formats_unsigned_decimal),
	    KTEST_CASE(printk_formats_hex_and_octal),
	    KTEST_CASE(printk_formats_pointers),
	    KTEST_CASE(printk_formats_strings_and_chars),
	    KTEST_CASE(printk_honours_width_and_flags),
	    KTEST_CASE(printk_honours_precision),
	    KTEST_CASE(printk_takes_width_and_precision_from_arguments),
	    KTEST_CASE(snprintf_truncates_and_returns_full_length),
	    KTEST_CASE(snprintf_counts_a_nul_character),
	    KTEST_CASE(printk_cuts_a_long_line_but_keeps_its_newline),
	    KTEST_CASE(printk_line_after_a_long_one_starts_a_line),
	    KTEST_CASE(printk_leaves_lines_that_fit_alone),
	    KTEST_CASE(printk_format_cuts_into_tiny_buffers));
