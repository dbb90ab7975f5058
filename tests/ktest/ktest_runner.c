/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of the self-test runner (tests/ktest/ktest.c): which suites a ktest= filter selects, and
 * that a filter selecting none fails instead of passing with nothing run.
 */
#include "tests/ktest/ktest.h"

static void filters_select_by_name_and_prefix(struct ktest *t)
{
	KT_EXPECT_EQ(t, ktest_count_selected("ktest_runner"), 1);
	KT_EXPECT_EQ(t, ktest_count_selected("no_such_suite,ktest_runner"), 1);
	KT_EXPECT(t, ktest_count_selected("ktest_run*") >= 1, "a prefix selects");
	KT_EXPECT_EQ(t, ktest_count_selected(""), ktest_count_selected(NULL));
	KT_EXPECT(t, ktest_count_selected(NULL) > 1, "every suite by default");
}

static void a_filter_that_selects_no_suite_fails(struct ktest *t)
{
	int ran = -1, skipped = -1;

	KT_EXPECT_EQ(t, ktest_count_selected("no_such_suite"), 0);
	KT_EXPECT_EQ(t, ktest_count_selected("ktest_runner_,x*y"), 0);
	KT_EXPECT_EQ(t, ktest_count_selected(","), 0);
	KT_EXPECT_EQ(t, ktest_run("no_such_suite", &ran, &skipped), -1);
	KT_EXPECT(t, ran == 0 && skipped == 0, "ran %d, skipped %d", ran, skipped);
}

KTEST_SUITE(ktest_runner,
	    KTEST_CASE(filters_select_by_name_and_prefix),
	    KTEST_CASE(a_filter_that_selects_no_suite_fails));
