/* SPDX-License-Identifier: MIT */
/*
 * The fragmentation benchmark's owner of movable pages (tests/bench/fragbench_owner.h). One
 * thread runs the benchmark, and compaction runs on it between the benchmark's own calls, so a
 * page is never freed while it moves: isolation always succeeds and put back has nothing to undo.
 */
#include "tests/bench/fragbench_owner.h"

#include "mm/migrate.h"

unsigned long frag_owner_moved;

static bool frag_owner_isolate(struct page *page)
{
	(void)page;
	return true;
}

/* dst has src's private: the slot that points to src. */
static int frag_owner_migrate(struct page *dst, struct page *src)
{
	struct page **slot = (struct page **)src->private;

	if (*slot != src)
		return -EINVAL;
	*slot = dst;
	frag_owner_moved++;
	return 0;
}

static void frag_owner_putback(struct page *page)
{
	(void)page;
}

static const struct movable_operations frag_owner_ops = {
	.name = "fragbench",
	.isolate_page = frag_owner_isolate,
	.migrate_page = frag_owner_migrate,
	.putback_page = frag_owner_putback,
};

void frag_owner_adopt(struct page *page, struct page **slot)
{
	page->private = (unsigned long)slot;
	set_page_movable(page, &frag_owner_ops);
}

void frag_owner_release(struct page *page)
{
	clear_page_movable(page);
}
