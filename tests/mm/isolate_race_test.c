/* SPDX-License-Identifier: MIT */
/*
 * Host tests of isolate_movable_page() against the block's reuse (mm/migrate.h, "Counts"): a
 * scanner (compaction, a contiguous range's migration) sees PG_movable on a block it does not
 * own; before it takes its reference, the owner lets the block go (clear_page_movable(),
 * put_page()) and a user that never makes it movable allocates it. That user's own free, split
 * or last put is then its business alone: the scanner must not hold a reference on the block by
 * then, or __free_pages() and split_page() find "other references", report the block and keep
 * it, and the scanner's put_page() leaves it with count 1 and no owner (a leak).
 *
 * The other CPUs' steps are played at the points isolate_movable_page() names through mm/arch.h's
 * race windows (host_mm_race_window, tests/mm/mm_env.h), so the interleaving happens every run:
 * the owner lets go and the new user allocates when PG_movable has been seen, the new user frees
 * as soon as the scanner holds a reference (if it ever does), else after isolate_movable_page().
 */
#include <pthread.h>
#include <sched.h>
#include <string.h>

#include "tests/ktest/ktest.h"
#include "mm/bad_page.h"
#include "mm/migrate.h"
#include "mm/page_alloc.h"
#include "tests/ktest/mm_helpers.h"
#include "tests/mm/host_mm.h"

/* What the new user does with the block in the end. */
enum reuse {
	REUSE_FREE,      /* __free_pages(): a plain block of order 0 */
	REUSE_COMPOUND,  /* __free_pages() of a compound page of order 2 */
	REUSE_SPLIT,     /* split_page(), then __free_pages() of each page */
	REUSE_MOVABLE,   /* set_page_movable() by a second owner: the scanner may take that one */
};

static struct {
	struct page *page; /* the first owner's block, which it lets go in the first window */
	unsigned int order;
	gfp_t gfp;
	enum reuse how;
	struct page *reused; /* the new user's block, once allocated */
	bool user_done;      /* the new user freed it (or split and freed it) */
	unsigned int let_go, held_windows;
} race;

static bool owner_isolate(struct page *page) { (void)page; return true; }
static int owner_migrate(struct page *dst, struct page *src) { (void)dst; (void)src; return -EAGAIN; }
static void owner_putback(struct page *page) { (void)page; }

static const struct movable_operations first_owner_ops = {
	.name = "isolate-race-first",
	.isolate_page = owner_isolate,
	.migrate_page = owner_migrate,
	.putback_page = owner_putback,
};

static const struct movable_operations second_owner_ops = {
	.name = "isolate-race-second",
	.isolate_page = owner_isolate,
	.migrate_page = owner_migrate,
	.putback_page = owner_putback,
};

/* The new user lets its block go its own way (REUSE_MOVABLE's owner keeps it). */
static void user_frees(struct ktest *t)
{
	struct page *page = race.reused;

	race.user_done = true;
	if (race.how == REUSE_SPLIT && KT_EXPECT(t, split_page(page, race.order) == 0, "split_page() refused")) {
		for (unsigned long i = 0; i < 1UL << race.order; i++)
			__free_pages(page + i, 0);
		return;
	}
	__free_pages(page, race.order);
}

static struct ktest *race_test;

/*
 * The other CPUs. PG_movable seen: the owner lets its block go and the new user allocates it.
 * A reference taken on the new user's block: the new user lets it go (a movable one stays).
 */
static void other_cpus(const char *where)
{
	if (!race.page)
		return;
	if (!strcmp(where, "isolate_movable_page: PG_movable seen, no reference yet") && !race.let_go) {
		race.let_go++;
		clear_page_movable(race.page);
		put_page(race.page);
		race.reused = alloc_pages(race.gfp, race.order);
		if (race.reused && race.how == REUSE_MOVABLE)
			set_page_movable(race.reused, &second_owner_ops);
	} else if (!strcmp(where, "isolate_movable_page: a reference taken, the owner not asked yet") &&
		   race.reused == race.page) {
		race.held_windows++;
		if (race.how != REUSE_MOVABLE && !race.user_done)
			user_frees(race_test);
	}
}

/*
 * Plays the race on a movable block of order from gfp, reused as how. Returns
 * isolate_movable_page()'s result (1 when the case could not be set up).
 */
static int play_race(struct ktest *t, unsigned int order, gfp_t gfp, enum reuse how)
{
	int rc;

	race.page = alloc_pages(gfp, order);
	if (!KT_EXPECT(t, race.page != NULL, "alloc_pages() failed"))
		return 1;
	set_page_movable(race.page, &first_owner_ops);
	race.order = order;
	race.gfp = gfp;
	race.how = how;
	race.reused = NULL;
	race.user_done = false;
	race.let_go = race.held_windows = 0;
	race_test = t;
	host_mm_race_window = other_cpus;
	rc = isolate_movable_page(race.page);
	host_mm_race_window = NULL;
	KT_EXPECT_EQ(t, race.let_go, 1);
	if (!KT_EXPECT(t, race.reused == race.page, "the new user got another block: the race was not played"))
		return 1;
	return rc;
}

/* The new user's block goes back whole, no report, whatever the scanner did. */
static void reused_block_comes_back(struct ktest *t, unsigned int order, gfp_t gfp, enum reuse how)
{
	unsigned long before, reports = mm_bad_page_reports;
	int rc;

	drain_pcp_lists();
	before = nr_free_pages();
	rc = play_race(t, order, gfp, how);
	if (rc == 1)
		return;
	KT_EXPECT_EQ(t, rc, -EINVAL); /* not movable: the new user's */
	if (!race.user_done)
		user_frees(t);
	race.page = NULL;
	KT_EXPECT(t, mm_bad_page_reports == reports, "%lu bad page reports: the new user's free met the "
		  "scanner's reference", mm_bad_page_reports - reports);
	KT_EXPECT(t, page_ref(race.reused) == 0, "the block kept reference count %d", page_ref(race.reused));
	drain_pcp_lists();
	KT_EXPECT(t, nr_free_pages() == before, "free pages %lu, %lu before: the block leaked", nr_free_pages(),
		  before);
}

static void a_plain_block_freed_by_its_new_user_comes_back(struct ktest *t)
{
	reused_block_comes_back(t, 0, GFP_HIGHUSER_MOVABLE, REUSE_FREE);
}

static void a_compound_page_freed_by_its_new_user_comes_back(struct ktest *t)
{
	reused_block_comes_back(t, 2, GFP_HIGHUSER_MOVABLE | __GFP_COMP, REUSE_COMPOUND);
}

static void a_block_split_by_its_new_user_comes_back(struct ktest *t)
{
	reused_block_comes_back(t, 1, GFP_HIGHUSER_MOVABLE, REUSE_SPLIT);
}

/* Reused by a second movable owner: the scanner may isolate it, as that owner's. */
static void a_block_made_movable_by_a_new_owner_is_isolated_as_its(struct ktest *t)
{
	unsigned long before, reports = mm_bad_page_reports;
	struct page *page;
	int rc;

	drain_pcp_lists();
	before = nr_free_pages();
	rc = play_race(t, 0, GFP_HIGHUSER_MOVABLE, REUSE_MOVABLE);
	if (rc == 1)
		return;
	page = race.reused;
	race.page = NULL;
	KT_EXPECT_EQ(t, rc, 0);
	if (!rc) {
		KT_EXPECT(t, PageIsolated(page) && page_movable_ops(page) == &second_owner_ops,
			  "flags %#x: want isolated, the second owner's", page_flags(page));
		KT_EXPECT_EQ(t, page_ref(page), 2);
		putback_movable_page(page);
	}
	clear_page_movable(page);
	put_page(page);
	KT_EXPECT_EQ(t, mm_bad_page_reports, reports);
	drain_pcp_lists();
	KT_EXPECT(t, nr_free_pages() == before, "free pages %lu, %lu before: the block leaked", nr_free_pages(),
		  before);
}

/*
 * A reference taken while the new user's free is past its test of the count: a free stores 0
 * over it (the reference is lost), the block goes back and a third user gets it; the scanner's
 * put_page() must not drop that user's reference. The free runs on a second thread (CPU 1), held
 * in __free_pages()'s window between its test and its store until the scanner has taken its
 * reference (or, as it must, has not).
 */
enum freer_stage { FREER_IDLE, FREER_GO, FREER_IN_WINDOW, FREER_GO_ON, FREER_DONE };

static struct {
	pthread_t thread;
	struct page *block, *third; /* the new user's block; what the third user got */
	int stage;
} freer;

static void set_stage(int stage)
{
	__atomic_store_n(&freer.stage, stage, __ATOMIC_RELEASE);
}

static void wait_stage(int stage)
{
	while (__atomic_load_n(&freer.stage, __ATOMIC_ACQUIRE) < stage)
		sched_yield();
}

static void *freer_main(void *arg)
{
	(void)arg;
	host_mm_set_cpu(1);
	wait_stage(FREER_GO);
	__free_pages(freer.block, 2);
	freer.third = alloc_pages(GFP_HIGHUSER_MOVABLE | __GFP_COMP, 2); /* from CPU 1's list: the block */
	set_stage(FREER_DONE);
	return NULL;
}

/*
 * The scanner's windows (CPU 0): the owner lets go, the new user allocates and starts its free;
 * the reference taken, the free goes on and a third user allocates. The freer's window: it waits.
 */
static void lost_reference_windows(const char *where)
{
	if (pthread_equal(pthread_self(), freer.thread)) {
		if (!strcmp(where, "__free_pages: the block checked, its count not cleared yet") &&
		    __atomic_load_n(&freer.stage, __ATOMIC_ACQUIRE) == FREER_GO) {
			set_stage(FREER_IN_WINDOW);
			wait_stage(FREER_GO_ON);
		}
		return;
	}
	if (!strcmp(where, "isolate_movable_page: PG_movable seen, no reference yet") && !race.let_go) {
		race.let_go++;
		clear_page_movable(race.page);
		put_page(race.page);
		race.reused = freer.block = alloc_pages(GFP_HIGHUSER_MOVABLE | __GFP_COMP, 2);
		if (race.reused != race.page)
			return; /* not the block: the case reports it */
		set_stage(FREER_GO);
		wait_stage(FREER_IN_WINDOW);
	} else if (!strcmp(where, "isolate_movable_page: a reference taken, the owner not asked yet") &&
		   race.reused == race.page) {
		race.held_windows++;
		set_stage(FREER_GO_ON);
		wait_stage(FREER_DONE);
	}
}

static void a_reference_lost_under_a_free_does_not_free_the_next_users_block(struct ktest *t)
{
	unsigned long before, reports = mm_bad_page_reports;
	struct page *page;
	int rc;

	drain_pcp_lists();
	before = nr_free_pages();
	page = race.page = alloc_pages(GFP_HIGHUSER_MOVABLE | __GFP_COMP, 2);
	KT_ASSERT(t, page != NULL, "alloc_pages() failed");
	set_page_movable(page, &first_owner_ops);
	race.reused = freer.block = freer.third = NULL;
	race.let_go = race.held_windows = 0;
	set_stage(FREER_IDLE);
	KT_ASSERT(t, pthread_create(&freer.thread, NULL, freer_main, NULL) == 0, "pthread_create failed");
	host_mm_race_window = lost_reference_windows;
	rc = isolate_movable_page(page);
	if (race.reused != page)
		set_stage(FREER_GO); /* the race is not played: let the freer finish */
	set_stage(FREER_GO_ON);
	pthread_join(freer.thread, NULL);
	host_mm_race_window = NULL;
	race.page = NULL;
	KT_ASSERT(t, race.reused == page && freer.third == page, "the users got other blocks: the race was not "
		  "played");
	KT_EXPECT_EQ(t, rc, -EINVAL);
	KT_EXPECT(t, mm_bad_page_reports == reports, "%lu bad page reports", mm_bad_page_reports - reports);
	KT_EXPECT(t, page_ref(page) == 1 && PageHead(page), "the third user's block has count %d, flags %#x: "
		  "its reference was dropped by the scanner", page_ref(page), page_flags(page));
	if (page_ref(page) == 1)
		__free_pages(page, 2);
	drain_pcp_lists();
	KT_EXPECT(t, nr_free_pages() == before, "free pages %lu, %lu before", nr_free_pages(), before);
}

KTEST_SUITE(isolate_race_host, KTEST_CASE(a_plain_block_freed_by_its_new_user_comes_back),
	    KTEST_CASE(a_compound_page_freed_by_its_new_user_comes_back),
	    KTEST_CASE(a_block_split_by_its_new_user_comes_back),
	    KTEST_CASE(a_block_made_movable_by_a_new_owner_is_isolated_as_its),
	    KTEST_CASE(a_reference_lost_under_a_free_does_not_free_the_next_users_block));
