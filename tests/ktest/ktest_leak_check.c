/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of the runner's leak check (tests/ktest/ktest_leak.h) on marks taken around blocks the
 * case holds for the moment and then frees, so that the check has a leak to find and the suite
 * leaves none behind.
 */

#include "tests/ktest/ktest.h"
#include "tests/ktest/ktest_leak.h"
#include "lib/printk.h"
#include "lib/string.h"
#include "mm/page_alloc.h"
#include "mm/page_owner.h"
#include "tests/ktest/text_capture.h"

static void equal_marks_pass_silently(struct ktest *t)
{
	struct ktest_mem_mark before = ktest_mem_mark(), after = ktest_mem_mark();

	capture_forget();
	KT_EXPECT_EQ(t, ktest_leak_check(&before, &after, capture_printf), 0);
	KT_EXPECT_EQ(t, captured.len, 0);
}

static void a_held_block_is_named_with_its_owner(struct ktest *t)
{
	struct ktest_mem_mark before = ktest_mem_mark(), after;
	struct page *page = alloc_pages(GFP_KERNEL, 2);
	char want[64];

	KT_ASSERT(t, page, "allocation failed");
	after = ktest_mem_mark();
	capture_forget();
	KT_EXPECT_EQ(t, ktest_leak_check(&before, &after, capture_printf), 4);
	__free_pages(page, 2);
	if (mm_page_owner_on) {
		snprintf(want, sizeof(want), "    # leak: pfn %#lx order 2 owner <", page_to_pfn(page));
		KT_EXPECT(t, !strncmp(captured.text, want, strlen(want)), "said \"%s\", want it to start \"%s\"",
			  captured.text, want);
		KT_EXPECT(t, strstr(captured.text, ", 1 blocks allocated during it still held\n") != NULL,
			  "said \"%s\"", captured.text);
		KT_EXPECT_EQ(t, captured.calls, 2);
	} else {
		KT_EXPECT(t, strstr(captured.text, "    # leak: 4 pages (free ") == captured.text &&
			  strstr(captured.text, "boot with page_owner=on") != NULL, "said \"%s\"", captured.text);
	}
}

/* Twenty blocks: sixteen are named, then how many more, then the count. */
static void at_most_sixteen_blocks_are_named(struct ktest *t)
{
	struct ktest_mem_mark before = ktest_mem_mark(), after;
	struct page *pages[KTEST_LEAK_LINES + 4];
	unsigned int n = 0;

	while (n < ARRAY_SIZE(pages) && (pages[n] = alloc_pages(GFP_KERNEL, 0)))
		n++;
	after = ktest_mem_mark();
	capture_forget();
	KT_EXPECT_EQ(t, ktest_leak_check(&before, &after, capture_printf), n);
	while (n)
		__free_pages(pages[--n], 0);
	if (!mm_page_owner_on) {
		ktest_skip(t, "page_owner is off (boot with page_owner=on)");
		return;
	}
	KT_EXPECT_EQ(t, captured.calls, KTEST_LEAK_LINES + 2);
	KT_EXPECT(t, strstr(captured.text, "    # leak: and 4 more blocks\n") != NULL, "said \"%s\"", captured.text);
}

/* A block allocated after the second mark is not the suite's. */
static void blocks_after_the_second_mark_are_not_named(struct ktest *t)
{
	struct ktest_mem_mark before = ktest_mem_mark(), after;
	struct page *mine = alloc_pages(GFP_KERNEL, 0), *later;

	KT_ASSERT(t, mine, "allocation failed");
	after = ktest_mem_mark();
	later = alloc_pages(GFP_KERNEL, 0);
	capture_forget();
	ktest_leak_check(&before, &after, capture_printf);
	__free_pages(mine, 0);
	if (later)
		__free_pages(later, 0);
	KT_EXPECT(t, !mm_page_owner_on || strstr(captured.text, ", 1 blocks allocated during it still held\n"),
		  "said \"%s\"", captured.text);
}

/* A suite that frees what it did not allocate fails too, saying so. */
static void more_free_pages_after_than_before_is_reported(struct ktest *t)
{
	struct ktest_mem_mark before = { 100, 0, 0 }, after = { 103, 0, 0 };

	capture_forget();
	KT_EXPECT_EQ(t, ktest_leak_check(&before, &after, capture_printf), -3);
	KT_EXPECT(t, !strcmp(captured.text, "    # leak: 3 pages more free after the suite than before it (100, then "
			     "103): it freed memory it did not allocate\n"), "said \"%s\"", captured.text);
}

KTEST_SUITE(ktest_leak_check,
	    KTEST_CASE(equal_marks_pass_silently),
	    KTEST_CASE(a_held_block_is_named_with_its_owner),
	    KTEST_CASE(at_most_sixteen_blocks_are_named),
	    KTEST_CASE(blocks_after_the_second_mark_are_not_named),
	    KTEST_CASE(more_free_pages_after_than_before_is_reported));
