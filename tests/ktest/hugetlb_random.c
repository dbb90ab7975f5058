/* SPDX-License-Identifier: MIT */
/*
 * Self-test of the hugetlb pool's accounting under a randomized (fixed-seed) sequence of resizes,
 * overcommit changes, reservations, allocations and frees. After every step the pool's invariants
 * hold and every page not owned by the pool is back in the buddy allocator. When the free memory
 * holds fewer huge pages than the sequence uses, the invariants are checked and the case is
 * skipped if the sequence could not reach what it is meant to cover.
 */
#include "tests/ktest/compound_helpers.h"

#include "lib/printk.h"
#include "mm/hugetlb.h"

#define STEPS 400
#define MAX_HELD 12
#define MAX_POOL 6       /* persistent pages the sequence asks for at most */
#define MAX_OVERCOMMIT 3 /* surplus pages it allows at most */

struct model {
	struct page *held[MAX_HELD];
	unsigned int nheld;
	unsigned long reserved; /* reservations this test holds */
	unsigned long allocs, max_surplus, max_reserved; /* coverage: what the sequence reached */
};

static void op_alloc(struct model *m, bool reserved)
{
	struct page *p;

	if (m->nheld == MAX_HELD || (reserved && !m->reserved))
		return;
	p = reserved ? alloc_huge_page_reserved() : alloc_huge_page();
	if (p) {
		m->held[m->nheld++] = p;
		m->allocs++;
	}
	if (p && reserved)
		m->reserved--;
}

/* Drops the held page k through a random sub-page. */
static void op_free(struct model *m, unsigned long r)
{
	unsigned int k;

	if (!m->nheld)
		return;
	k = r % m->nheld;
	put_page(&m->held[k][(r >> 8) % (1UL << HPAGE_ORDER)]);
	m->held[k] = m->held[--m->nheld];
}

static void random_step(struct model *m, unsigned long r)
{
	switch (r % 8) {
	case 0: hugetlb_set_pool_size((r >> 4) % (MAX_POOL + 1)); break;
	case 1: hugetlb_set_overcommit((r >> 4) % (MAX_OVERCOMMIT + 1)); break;
	case 2:
		if (hugetlb_reserve_pages(1 + (r >> 4) % 2) == 0)
			m->reserved += 1 + (r >> 4) % 2;
		break;
	case 3:
		hugetlb_unreserve_pages(MIN(m->reserved, 1));
		m->reserved -= MIN(m->reserved, 1);
		break;
	case 4: op_alloc(m, true); break;
	case 5: case 6: op_alloc(m, false); break;
	default: op_free(m, r >> 4); break;
	}
}

/* Pages the buddy allocator lacks are exactly the pool's: its own plus those handed out. */
static bool step_ok(struct ktest *t, int step, unsigned long before, struct model *m)
{
	struct hugetlb_counters c = hugetlb_counters(HPAGE_ORDER);
	const char *bad = hugetlb_check();

	m->max_surplus = MAX(m->max_surplus, c.surplus);
	m->max_reserved = MAX(m->max_reserved, c.reserved);
	return KT_EXPECT(t, !bad, "step %d: %s", step, bad) &&
	       KT_EXPECT(t, c.in_use == m->nheld && c.reserved == m->reserved,
			 "step %d: pool says %lu out %lu reserved, test holds %u and %lu", step, c.in_use,
			 c.reserved, m->nheld, m->reserved) &&
	       KT_EXPECT(t, test_free_pages() + (c.total << HPAGE_ORDER) == before,
			 "step %d: buddy free %lu + pool %lu pages != %lu", step, test_free_pages(),
			 c.total << HPAGE_ORDER, before);
}

/*
 * Expects the sequence to have reached what it is meant to exercise. When the memory free at the
 * start, room huge pages, was short of what it uses at most, it cannot: the case is then skipped
 * (the invariants were checked).
 */
static void expect_coverage(struct ktest *t, const struct model *m, unsigned long room)
{
	bool covered = m->allocs > 50 && m->max_surplus > 1 && m->max_reserved > 1;

	if (covered)
		return;
	printk("    # the sequence reached %lu allocations, surplus %lu, reserved %lu\n", m->allocs,
	       m->max_surplus, m->max_reserved);
	if (!mm_skip_short_of_blocks(t, HPAGE_ORDER, MAX_POOL + MAX_OVERCOMMIT, room))
		KT_EXPECT(t, covered, "too few allocations, surplus or reserved pages");
}

static void pool_invariants_hold_under_random_operations(struct ktest *t)
{
	struct hugetlb_counters c0 = hugetlb_counters(HPAGE_ORDER);
	struct model m = { .nheld = 0 };
	unsigned long seed = 0x6875676574; /* fixed: the same sequence on every run */
	unsigned long before, room;

	if (c0.in_use || c0.reserved || c0.surplus) {
		ktest_skip(t, "huge pages are in use outside the test");
		return;
	}
	hugetlb_set_pool_size(0);
	before = test_free_pages();
	room = mm_free_blocks(HPAGE_ORDER, GFP_KERNEL);
	for (int step = 0; step < STEPS; step++) {
		random_step(&m, mm_test_rand(&seed));
		if (!step_ok(t, step, before, &m))
			break;
	}
	expect_coverage(t, &m, room);
	while (m.nheld)
		op_free(&m, mm_test_rand(&seed));
	hugetlb_unreserve_pages(m.reserved);
	hugetlb_set_overcommit(c0.overcommit);
	hugetlb_set_pool_size(0);
	KT_EXPECT_EQ(t, test_free_pages(), before);
	KT_EXPECT(t, hugetlb_check() == NULL, "%s", hugetlb_check());
	hugetlb_set_pool_size(c0.total);
}

KTEST_SUITE(hugetlb_random, KTEST_CASE(pool_invariants_hold_under_random_operations));
