/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of the hugetlb boot path: the command-line options hugepagesz= and hugepages= (their
 * warnings are tested with the rest of the command line in cmdline.c), hugetlb_request(),
 * hugetlb_init() filling the 2 MiB pool, and the 1 GiB gigantic pages reserved at boot (run when
 * the kernel was booted with hugepagesz=1G hugepages=N and had the memory for them).
 */
#include "tests/ktest/compound_helpers.h"

#include "kernel/cmdline.h"
#include "kernel/hugetlb_cmdline.h"
#include "lib/printk.h"
#include "mm/hugetlb.h"

static unsigned long requested(unsigned int order) { return hugetlb_counters(order).requested; }

/* Puts the requests back to what they were. */
static void restore_requests(unsigned long r2m, unsigned long r1g)
{
	hugetlb_request(GIGANTIC_ORDER, r1g);
	hugetlb_request(HPAGE_ORDER, r2m);
}

static void cmdline_sets_counts_per_size(struct ktest *t)
{
	unsigned long r2m = requested(HPAGE_ORDER), r1g = requested(GIGANTIC_ORDER);

	KT_EXPECT_EQ(t, hugetlb_setup_cmdline("console=ttyS0 hugepages=7 quiet"), 0);
	KT_EXPECT_EQ(t, requested(HPAGE_ORDER), 7);
	KT_EXPECT_EQ(t, hugetlb_setup_cmdline("hugepagesz=1G hugepages=2 hugepagesz=2M hugepages=5"), 0);
	KT_EXPECT_EQ(t, requested(GIGANTIC_ORDER), 2);
	KT_EXPECT_EQ(t, requested(HPAGE_ORDER), 5);
	KT_EXPECT_EQ(t, hugetlb_setup_cmdline("hugepagesz=1g hugepages=0 hugepagesz=2m hugepages=1"), 0);
	KT_EXPECT_EQ(t, requested(GIGANTIC_ORDER), 0);
	KT_EXPECT_EQ(t, requested(HPAGE_ORDER), 1);
	KT_EXPECT_EQ(t, hugetlb_setup_cmdline(""), 0);
	KT_EXPECT_EQ(t, hugetlb_setup_cmdline(NULL), 0);
	restore_requests(r2m, r1g);
}

static void cmdline_reports_bad_options(struct ktest *t)
{
	unsigned long r2m = requested(HPAGE_ORDER), r1g = requested(GIGANTIC_ORDER);

	hugetlb_setup_cmdline("hugepages=3");
	KT_EXPECT_EQ(t, hugetlb_setup_cmdline("hugepagesz=4M"), -EINVAL);
	KT_EXPECT_EQ(t, hugetlb_setup_cmdline("hugepages=12x"), -EINVAL);
	KT_EXPECT_EQ(t, hugetlb_setup_cmdline("hugepages="), -EINVAL);
	KT_EXPECT_EQ(t, hugetlb_setup_cmdline("hugepages=99999999999999999999999"), -EINVAL);
	KT_EXPECT_EQ(t, requested(HPAGE_ORDER), 3);
	restore_requests(r2m, r1g);
}

static void request_records_counts_and_clamps_gigantic(struct ktest *t)
{
	unsigned long r2m = requested(HPAGE_ORDER), r1g = requested(GIGANTIC_ORDER);

	KT_EXPECT_EQ(t, hugetlb_request(HPAGE_ORDER, 100000), 100000);
	KT_EXPECT_EQ(t, requested(HPAGE_ORDER), 100000);
	KT_EXPECT_EQ(t, hugetlb_request(GIGANTIC_ORDER, HUGETLB_MAX_GIGANTIC), HUGETLB_MAX_GIGANTIC);
	KT_EXPECT_EQ(t, hugetlb_request(GIGANTIC_ORDER, HUGETLB_MAX_GIGANTIC + 1), HUGETLB_MAX_GIGANTIC);
	KT_EXPECT_EQ(t, requested(GIGANTIC_ORDER), HUGETLB_MAX_GIGANTIC);
	KT_EXPECT(t, hugetlb_has_order(HPAGE_ORDER) && hugetlb_has_order(GIGANTIC_ORDER), "both pools");
	KT_EXPECT(t, !hugetlb_has_order(0) && !hugetlb_has_order(10), "no pool of order 0 or 10");
	restore_requests(r2m, r1g);
}

static void init_fills_the_pool_to_the_request(struct ktest *t)
{
	struct hugetlb_counters c0 = hugetlb_counters(HPAGE_ORDER);
	unsigned long r2m = requested(HPAGE_ORDER), r1g = requested(GIGANTIC_ORDER);

	if (c0.in_use || c0.surplus) {
		ktest_skip(t, "huge pages are in use outside the test");
		return;
	}
	/* The pool's own pages count: init grows it only by what it lacks of 3. */
	if (mm_skip_without_blocks(t, HPAGE_ORDER, c0.total < 3 ? 3 - c0.total : 0, GFP_KERNEL))
		return;
	hugetlb_setup_cmdline("hugepages=3");
	KT_EXPECT_EQ(t, hugetlb_init(), 0);
	KT_EXPECT_EQ(t, hugetlb_counters(HPAGE_ORDER).total, 3);
	KT_EXPECT_EQ(t, hugetlb_counters(HPAGE_ORDER).free, 3);
	KT_EXPECT(t, hugetlb_check() == NULL, "%s", hugetlb_check());
	hugetlb_set_pool_size(c0.total);
	restore_requests(r2m, r1g);
}

static void gigantic_pages_are_compound_pool_pages(struct ktest *t)
{
	struct hugetlb_counters c = hugetlb_counters(GIGANTIC_ORDER);
	struct page *head;

	if (!c.total) {
		ktest_skip(t, "no 1 GiB pages (boot with hugepagesz=1G hugepages=1 and 2 GiB+ of RAM)");
		return;
	}
	printk("    # %lu gigantic page(s) of 1 GiB reserved at boot\n", c.total);
	head = alloc_gigantic_page();
	KT_ASSERT(t, head != NULL, "alloc_gigantic_page failed with %lu free", c.free);
	KT_EXPECT(t, (page_to_pfn(head) & ((1UL << GIGANTIC_ORDER) - 1)) == 0, "not 1 GiB aligned");
	KT_EXPECT(t, PageHead(head) && PageHugeTLB(head), "flags %#x", (unsigned int)head->flags);
	KT_EXPECT_EQ(t, compound_order(head), GIGANTIC_ORDER);
	KT_EXPECT(t, get_compound_page_dtor(head) == free_huge_page, "dtor is free_huge_page");
	KT_EXPECT(t, compound_check(head, GIGANTIC_ORDER) == NULL, "%s", compound_check(head, GIGANTIC_ORDER));
	KT_EXPECT_EQ(t, hugetlb_counters(GIGANTIC_ORDER).free, c.free - 1);
	get_page(&head[(1UL << GIGANTIC_ORDER) - 1]);
	put_page(head);
	KT_EXPECT_EQ(t, hugetlb_counters(GIGANTIC_ORDER).free, c.free - 1);
	put_page(&head[(1UL << GIGANTIC_ORDER) - 1]);
	KT_EXPECT_EQ(t, hugetlb_counters(GIGANTIC_ORDER).free, c.free);
	KT_EXPECT(t, hugetlb_check() == NULL, "%s", hugetlb_check());
}

KTEST_SUITE(hugetlb_boot,
	    KTEST_CASE(cmdline_sets_counts_per_size),
	    KTEST_CASE(cmdline_reports_bad_options),
	    KTEST_CASE(request_records_counts_and_clamps_gigantic),
	    KTEST_CASE(init_fills_the_pool_to_the_request),
	    KTEST_CASE(gigantic_pages_are_compound_pool_pages));
