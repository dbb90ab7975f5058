/* SPDX-License-Identifier: MIT */
/*
 * The self-test runner's leak check: every suite must leave as many free pages as it found.
 * The runner takes a mark before and after each suite (tests/ktest/ktest.c); a suite whose free pages
 * went down fails, with one diagnostic per block allocated during the suite and still allocated,
 * named by page_owner (mm/page_owner.h: on in the host tests, page_owner=on in the kernel).
 */
#ifndef KERNEL_KTEST_LEAK_H
#define KERNEL_KTEST_LEAK_H

#include <stdbool.h>

/* What the page allocator holds at one moment. */
struct ktest_mem_mark {
	unsigned long free_pages; /* nr_free_pages() once every CPU's lists are drained */
	unsigned long seq;        /* page_owner_seq(): blocks allocated later have a larger one */
	/*
	 * Frames mm/ was given since boot (mm/memory_add.h: managed pages beyond the boot's, less the
	 * pages their struct pages took): a suite that gives memory back or adds RAM frees that many
	 * more, and has leaked nothing.
	 */
	unsigned long grown;
};

/* Drains every CPU's lists (so no free page hides there) and takes a mark. */
struct ktest_mem_mark ktest_mem_mark(void);

/* At most this many blocks are named; a count of the others follows them. */
#define KTEST_LEAK_LINES 16

typedef int ktest_print_fn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Compares the marks taken before and after a suite. When the free pages differ, prints with
 * print a KTAP diagnostic per block allocated after before.seq and still allocated
 *   "    # leak: pfn 0x1234 order 2 owner <site> seq 1234"
 * (at most KTEST_LEAK_LINES, then how many more), and one line with the count. Returns the pages
 * missing after the suite (negative when more are free than before), 0 when they match.
 */
long ktest_leak_check(const struct ktest_mem_mark *before, const struct ktest_mem_mark *after,
		      ktest_print_fn *print);

#endif
