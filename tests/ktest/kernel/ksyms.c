/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of the kernel's symbol table (kernel/ksyms/): it holds the kernel's functions at
 * their real addresses (the second link did not move them), lookups cover exactly each symbol,
 * and %pS names this very file's functions.
 */
#include "kernel/ksyms/ksyms.h"
#include "tests/ktest/ktest.h"
#include "lib/printk.h"
#include "lib/string.h"

void kmain(uint32_t magic, uint64_t mbi_phys);

static void ksyms_table_is_filled(struct ktest *t)
{
	KT_EXPECT(t, ksym_table_size() > 100, "the table has %u symbols", ksym_table_size());
}

static void ksyms_name_functions_at_their_addresses(struct ktest *t)
{
	struct printk_symbol sym = { 0 };

	KT_ASSERT(t, ksym_lookup((uintptr_t)kmain, &sym), "kmain is not in the table");
	KT_EXPECT(t, !strcmp(sym.name, "kmain"), "kmain's address is named %s", sym.name);
	KT_EXPECT_EQ(t, sym.offset, 0);
	KT_EXPECT(t, sym.size > 0, "kmain has size 0");
	KT_EXPECT_EQ(t, ksym_address("kmain"), (uintptr_t)kmain);
	KT_EXPECT_EQ(t, ksym_address("ksyms_name_functions_at_their_addresses"),
		     (uintptr_t)ksyms_name_functions_at_their_addresses);
	KT_EXPECT_EQ(t, ksym_address("no_such_function_anywhere"), 0);
}

/* The first and the last byte of a function are in it; the bytes around it are not. */
static void ksyms_lookup_covers_exactly_the_symbol(struct ktest *t)
{
	uintptr_t start = (uintptr_t)ksym_lookup;
	struct printk_symbol sym = { 0 }, next = { 0 }, before = { 0 };

	KT_ASSERT(t, ksym_lookup(start, &sym), "ksym_lookup is not in the table");
	KT_ASSERT(t, ksym_lookup(start + sym.size - 1, &next), "its last byte is not");
	KT_EXPECT(t, !strcmp(next.name, "ksym_lookup"), "its last byte is named %s", next.name);
	KT_EXPECT_EQ(t, next.offset, sym.size - 1);
	if (ksym_lookup(start + sym.size, &next))
		KT_EXPECT(t, strcmp(next.name, "ksym_lookup"), "the byte after it is still ksym_lookup");
	if (ksym_lookup(start - 1, &before))
		KT_EXPECT(t, strcmp(before.name, "ksym_lookup"), "the byte before it is ksym_lookup");
}

/* Data and addresses outside the kernel's code are named by no symbol. */
static void ksyms_do_not_name_data_or_foreign_addresses(struct ktest *t)
{
	static int some_data;
	struct printk_symbol sym;

	KT_EXPECT(t, !ksym_lookup((uintptr_t)&some_data, &sym), "data is named %s", sym.name);
	KT_EXPECT(t, !ksym_lookup(0, &sym), "address 0 is named %s", sym.name);
	KT_EXPECT(t, !ksym_lookup(0x200000, &sym), "the low boot code is named %s", sym.name);
	KT_EXPECT(t, !ksym_lookup(~(uintptr_t)0, &sym), "the last address is named %s", sym.name);
}

static void ksyms_name_this_function_in_printk(struct ktest *t)
{
	char buf[PRINTK_SYMBOL_LEN];
	uintptr_t here = (uintptr_t)ksyms_name_this_function_in_printk;
	const char *want = "ksyms_name_this_function_in_printk+0x4/0x";

	snprintf(buf, sizeof(buf), "%pS", (void *)(here + 4));
	KT_EXPECT(t, !strncmp(buf, want, strlen(want)), "%%pS gave \"%s\", want \"%s...\"", buf, want);
}

KTEST_SUITE(ksyms,
	    KTEST_CASE(ksyms_table_is_filled),
	    KTEST_CASE(ksyms_name_functions_at_their_addresses),
	    KTEST_CASE(ksyms_lookup_covers_exactly_the_symbol),
	    KTEST_CASE(ksyms_do_not_name_data_or_foreign_addresses),
	    KTEST_CASE(ksyms_name_this_function_in_printk));
