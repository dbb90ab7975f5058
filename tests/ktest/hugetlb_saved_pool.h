/* SPDX-License-Identifier: MIT */
/*
 * For self-tests that need the 2 MiB hugetlb pool to themselves (tests/ktest/hugetlb_pool.c,
 * tests/ktest/contig_alloc.c): empty it at the start of a case, put it back as it was at the end
 * (the boot command line may have filled it).
 */
#ifndef TESTS_KTEST_HUGETLB_SAVED_POOL_H
#define TESTS_KTEST_HUGETLB_SAVED_POOL_H

#include "tests/ktest/ktest.h"
#include "mm/hugetlb.h"

/* The 2 MiB pool as the case found it. */
struct saved_pool {
	unsigned long persistent, overcommit;
};

/* Empties the 2 MiB pool into *s; false (the case skipped) when its pages are in use outside the case. */
static inline bool saved_pool_empty(struct ktest *t, struct saved_pool *s)
{
	struct hugetlb_counters c = hugetlb_counters(HPAGE_ORDER);

	if (c.in_use || c.reserved) {
		ktest_skip(t, "huge pages are in use outside the test");
		return false;
	}
	s->persistent = c.total - c.surplus;
	s->overcommit = c.overcommit;
	hugetlb_set_overcommit(0);
	hugetlb_set_pool_size(0);
	return true;
}

/* Puts the pool back as *s says, first expecting its invariants to hold (hugetlb_check()). */
static inline void saved_pool_restore(struct ktest *t, const struct saved_pool *s)
{
	KT_EXPECT(t, hugetlb_check() == NULL, "%s", hugetlb_check());
	hugetlb_set_overcommit(s->overcommit);
	hugetlb_set_pool_size(s->persistent);
}

#endif
