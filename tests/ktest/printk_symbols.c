/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of %pS and %pB (lib/printk.c): code addresses named through a symbolizer, here a
 * made-up one over three symbols, so that the text is known on the host and in the kernel
 * alike. Each case puts the symbolizer that was registered (the kernel's, or none) back.
 */
#include "tests/ktest/ktest.h"
#include "lib/printk.h"
#include "lib/string.h"

/* alpha and beta are adjacent, then a gap, then gamma. */
static const struct {
	const char *name;
	uintptr_t start, size;
} symbols[] = {
	{ "alpha", 0x1000, 0x40 },
	{ "beta", 0x1040, 0x20 },
	{ "gamma", 0x2000, 0x10 },
	{ "a_name_longer_than_the_text_printk_keeps_for_a_symbol_a_name_longer_than_the_text_"
	  "printk_keeps_for_a_symbol_a_name_longer_than_the_text", 0x3000, 0x10 },
};

static bool fake_symbolizer(uintptr_t addr, struct printk_symbol *sym)
{
	for (size_t i = 0; i < sizeof(symbols) / sizeof(symbols[0]); i++)
		if (addr >= symbols[i].start && addr - symbols[i].start < symbols[i].size) {
			*sym = (struct printk_symbol){ symbols[i].name, addr - symbols[i].start,
						       symbols[i].size };
			return true;
		}
	return false;
}

/* Formats fmt with one address into a buffer and expects exactly want, and its length back. */
#define EXPECT_SYM(t, want, fmt, addr) expect_sym(t, __LINE__, want, fmt, addr)
static void expect_sym(struct ktest *t, int line, const char *want, const char *fmt, uintptr_t addr)
{
	char buf[PRINTK_SYMBOL_LEN + 32];
	int n = snprintf(buf, sizeof(buf), fmt, (void *)addr);

	KT_EXPECT(t, !strcmp(buf, want), "line %d: \"%s\" of %#lx gave \"%s\", want \"%s\"", line, fmt,
		  (unsigned long)addr, buf, want);
	KT_EXPECT(t, n == (int)strlen(want), "line %d: \"%s\" returned %d, want %zu", line, fmt, n,
		  strlen(want));
}

/* What fmt of addr must print through fake_symbolizer(). */
struct sym_row {
	const char *want, *fmt;
	uintptr_t addr;
};

/* Every row through fake_symbolizer(); the symbolizer registered before is put back. */
#define EXPECT_SYMS(t, rows) expect_syms(t, __LINE__, rows, sizeof(rows) / sizeof(rows[0]))
static void expect_syms(struct ktest *t, int line, const struct sym_row *rows, size_t n)
{
	printk_symbolizer_fn *old = printk_set_symbolizer(fake_symbolizer);

	for (size_t i = 0; i < n; i++)
		expect_sym(t, line, rows[i].want, rows[i].fmt, rows[i].addr);
	printk_set_symbolizer(old);
}

static void percent_ps_names_the_symbol_offset_and_size(struct ktest *t)
{
	static const struct sym_row rows[] = {
		{ "alpha+0x0/0x40", "%pS", 0x1000 },
		{ "alpha+0x1c/0x40", "%pS", 0x101c },
		{ "alpha+0x3f/0x40", "%pS", 0x103f },
		{ "beta+0x0/0x20", "%pS", 0x1040 },
		{ "RIP gamma+0xf/0x10.", "RIP %pS.", 0x200f },
	};

	EXPECT_SYMS(t, rows);
}

static void percent_ps_prints_hex_where_no_symbol_covers(struct ktest *t)
{
	static const struct sym_row rows[] = {
		{ "0x0000000000001060", "%pS", 0x1060 }, /* just past beta */
		{ "0x0000000000000fff", "%pS", 0xfff },
		{ "0xffffffff80000000", "%pS", 0xffffffff80000000ULL },
		{ "0x0000000000000000", "%pS", 0 },
	};

	EXPECT_SYMS(t, rows);
}

static void percent_ps_without_a_symbolizer_prints_hex(struct ktest *t)
{
	printk_symbolizer_fn *old = printk_set_symbolizer(NULL);

	EXPECT_SYM(t, "0x0000000000001000", "%pS", 0x1000);
	EXPECT_SYM(t, "0x0000000000001040", "%pB", 0x1040);
	KT_EXPECT(t, printk_set_symbolizer(old) == NULL, "the symbolizer was not replaced");
}

/* A return address just past a function's end names that function: its last call did not return. */
static void percent_pb_names_the_function_that_made_the_call(struct ktest *t)
{
	static const struct sym_row rows[] = {
		{ "alpha+0x40/0x40", "%pB", 0x1040 },
		{ "beta+0x1/0x20", "%pB", 0x1041 },
		{ "beta+0x20/0x20", "%pB", 0x1060 },
		{ "0x0000000000002000", "%pB", 0x2000 }, /* the byte before is in the gap */
		{ "0x0000000000000000", "%pB", 0 },
	};

	EXPECT_SYMS(t, rows);
}

static void percent_ps_honours_width_and_precision(struct ktest *t)
{
	static const struct sym_row rows[] = {
		{ "[   beta+0x0/0x20]", "[%16pS]", 0x1040 },
		{ "[beta+0x0/0x20   ]", "[%-16pS]", 0x1040 },
		{ "[beta]", "[%.4pS]", 0x1040 },
		{ "[    0x0000000000001800]", "[%22pS]", 0x1800 },
	};

	EXPECT_SYMS(t, rows);
}

/* Only S and B follow %p as part of it: any other letter is text, as before. */
static void percent_p_with_other_letters_is_unchanged(struct ktest *t)
{
	static const struct sym_row rows[] = {
		{ "0x0000000000001000s", "%ps", 0x1000 },
		{ "0x0000000000001000x", "%px", 0x1000 },
		{ "alpha+0x0/0x40S", "%pSS", 0x1000 },
	};

	EXPECT_SYMS(t, rows);
}

static void percent_ps_cuts_a_long_name_and_truncates_like_snprintf(struct ktest *t)
{
	printk_symbolizer_fn *old = printk_set_symbolizer(fake_symbolizer);
	char buf[PRINTK_SYMBOL_LEN + 32], small[8];
	int n = snprintf(buf, sizeof(buf), "%pS", (void *)0x3004);

	KT_EXPECT_EQ(t, n, PRINTK_SYMBOL_LEN - 1);
	KT_EXPECT(t, !strncmp(buf, symbols[3].name, PRINTK_SYMBOL_LEN - 1), "gave \"%s\"", buf);
	KT_EXPECT_EQ(t, snprintf(small, sizeof(small), "%pS", (void *)0x101c), strlen("alpha+0x1c/0x40"));
	KT_EXPECT(t, !strcmp(small, "alpha+0"), "gave \"%s\"", small);
	printk_set_symbolizer(old);
}

KTEST_SUITE(printk_symbols,
	    KTEST_CASE(percent_ps_names_the_symbol_offset_and_size),
	    KTEST_CASE(percent_ps_prints_hex_where_no_symbol_covers),
	    KTEST_CASE(percent_ps_without_a_symbolizer_prints_hex),
	    KTEST_CASE(percent_pb_names_the_function_that_made_the_call),
	    KTEST_CASE(percent_ps_honours_width_and_precision),
	    KTEST_CASE(percent_p_with_other_letters_is_unchanged),
	    KTEST_CASE(percent_ps_cuts_a_long_name_and_truncates_like_snprintf));
