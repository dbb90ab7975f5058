/* SPDX-License-Identifier: MIT */
/*
 * Host tests of put_page() on a movable block while its owner lets the block go on another CPU
 * (mm/migrate.h, "Freeing"): the owner clears PG_movable and drops its reference between the
 * moment put_page() asks whether the block has an owner and the moment it reads the count. The
 * other CPU's step is played at that point through mm/arch.h's race window
 * (host_mm_race_window, tests/mm/mm_env.h), so the interleaving happens on every run. The
 * reference put_page() drops is then the last one: the block must be freed, with no report.
 */
#include "tests/ktest/ktest.h"
#include "mm/bad_page.h"
#include "mm/migrate.h"
#include "mm/page_alloc.h"
#include "tests/ktest/mm_helpers.h"
#include "tests/mm/host_mm.h"

/* The block whose owner lets it go in the race window, once; NULL: nothing to do there. */
static struct page *letting_go;
static unsigned int windows_played;

static bool owner_isolate(struct page *page) { return page != letting_go || !windows_played; }
static int owner_migrate(struct page *dst, struct page *src) { (void)dst; (void)src; return -EAGAIN; }
static void owner_putback(struct page *page) { (void)page; }

static const struct movable_operations owner_ops = {
	.name = "movable-put-test",
	.isolate_page = owner_isolate,
	.migrate_page = owner_migrate,
	.putback_page = owner_putback,
};

/* The owner, on "another CPU": clears PG_movable and drops its reference, as mm/migrate.h asks. */
static void owner_lets_go(const char *where)
{
	struct page *page = letting_go;

	(void)where;
	if (!page)
		return;
	letting_go = NULL; /* the owner's own put_page() must not play it again */
	windows_played++;
	clear_page_movable(page);
	put_page(page);
}

/* A page made movable by the test's owner, and the free page count before it was allocated. */
static struct page *movable_page(struct ktest *t, unsigned long *before)
{
	struct page *page;

	drain_pcp_lists();
	*before = nr_free_pages();
	page = alloc_pages(GFP_HIGHUSER_MOVABLE, 0);
	if (!KT_EXPECT(t, page != NULL, "alloc_pages() failed"))
		return NULL;
	set_page_movable(page, &owner_ops);
	KT_EXPECT(t, page_movable(page), "set_page_movable() refused the page");
	return page;
}

/* The page was freed, no report: the free page count is back and the window was played. */
static void expect_freed(struct ktest *t, struct page *page, unsigned long before, unsigned long reports)
{
	host_mm_race_window = NULL;
	KT_EXPECT_EQ(t, windows_played, 1);
	KT_EXPECT(t, mm_bad_page_reports == reports, "%lu reports, want none (the last put_page() was "
		  "refused as the owner's)", mm_bad_page_reports - reports);
	KT_EXPECT(t, page_ref(page) == 0, "the page kept reference count %d: not freed", page_ref(page));
	drain_pcp_lists();
	KT_EXPECT(t, nr_free_pages() == before, "free pages %lu, %lu before: the page leaked", nr_free_pages(),
		  before);
}

/* A pin (get_page()) dropped while the owner lets the block go: the pin's put frees it. */
static void a_pin_dropped_as_the_owner_lets_go_frees_the_block(struct ktest *t)
{
	unsigned long before, reports = mm_bad_page_reports;
	struct page *page = movable_page(t, &before);

	if (!page)
		return;
	get_page(page);
	windows_played = 0;
	letting_go = page;
	host_mm_race_window = owner_lets_go;
	put_page(page);
	expect_freed(t, page, before, reports);
}

/* A migration put back while the owner lets the block go: the isolation's put frees it. */
static void a_migration_put_back_as_the_owner_lets_go_frees_the_block(struct ktest *t)
{
	unsigned long before, reports = mm_bad_page_reports;
	struct page *page = movable_page(t, &before);

	if (!page)
		return;
	windows_played = 0;
	KT_ASSERT(t, isolate_movable_page(page) == 0, "isolate_movable_page() failed");
	letting_go = page;
	host_mm_race_window = owner_lets_go;
	putback_movable_page(page);
	expect_freed(t, page, before, reports);
}

/* The owner's last reference, PG_movable still set, is still refused and reported. */
static void the_owners_last_put_with_pg_movable_set_is_still_refused(struct ktest *t)
{
	unsigned long before, reports = mm_bad_page_reports;
	struct page *page = movable_page(t, &before);

	if (!page)
		return;
	put_page(page);
	KT_EXPECT_EQ(t, mm_bad_page_reports, reports + 1);
	KT_EXPECT_EQ(t, page_ref(page), 1);
	clear_page_movable(page);
	put_page(page);
	KT_EXPECT_EQ(t, mm_bad_page_reports, reports + 1);
	drain_pcp_lists();
	KT_EXPECT_EQ(t, nr_free_pages(), before);
}

KTEST_SUITE(movable_put_host, KTEST_CASE(a_pin_dropped_as_the_owner_lets_go_frees_the_block),
	    KTEST_CASE(a_migration_put_back_as_the_owner_lets_go_frees_the_block),
	    KTEST_MISUSE_CASE(the_owners_last_put_with_pg_movable_set_is_still_refused));
