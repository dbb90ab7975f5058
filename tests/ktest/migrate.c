/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of page migration (mm/migrate.h), through a small owner of movable blocks: a table
 * of blocks whose contents it checksums, behind a lock of its own, that registers operations on
 * each block and switches its table entry when one moves. A move must keep the contents, switch
 * the owner to the new block and free the old one; a pinned block, an owner that refuses, an
 * owner whose switch fails, a second isolation: nothing moves, nothing leaks, the owner gets its
 * block back; an owner that lets the new block go as soon as it switched leaks nothing.
 * set_page_movable() refuses blocks that are not an allocated block's first page, and a movable
 * block is not freed behind a migration's back (mm/block_owner.h).
 */
#include "mm/lock_check.h"
#include "mm/migrate.h"
#include "mm/vmstat.h"
#include "tests/ktest/mm_helpers.h"
#include "tests/ktest/slab_helpers.h"

#define OWNER_BLOCKS 8
#define ENOSPC_TEST 28 /* the owner's own error: ENOSPC, which mm/types.h does not define */

/* One block of the owner: where it is now, its size and shape, and the checksum of its contents. */
struct owned_block {
	struct page *page;
	unsigned int order;
	bool compound;
	bool isolated; /* isolate_page() said yes, no migrate_page() or putback_page() yet */
	bool dying;    /* being freed: no more isolations */
	uint32_t sum;
};

/* The owner: its table, its lock, and what its operations saw. */
static struct test_owner {
	int lock; /* a plain test-and-set lock of the owner's own, not an mm/ one */
	struct owned_block blocks[OWNER_BLOCKS];
	bool refuse_isolate;  /* isolate_page() says no */
	int fail_migrate;     /* migrate_page() returns this when not 0 */
	unsigned int isolates, unmaps, migrates, putbacks;
	unsigned int bad_calls;  /* a call with an mm/ lock held, interrupts off, or the wrong block */
	bool probe_frozen;       /* migrate_page() tries to take references on both blocks */
	bool src_ref_taken, src_isolated_again, dst_isolated_again;
	bool free_on_switch;     /* migrate_page() lets the new block go right after its switch */
} owner;

static void owner_lock(void)
{
	while (__atomic_exchange_n(&owner.lock, 1, __ATOMIC_ACQUIRE))
		;
}

static void owner_unlock(void)
{
	__atomic_store_n(&owner.lock, 0, __ATOMIC_RELEASE);
}

/* Owner lock held: the entry page stands for, or NULL (counted as a bad call). */
static struct owned_block *entry_of(const struct page *page)
{
	if (page->private < OWNER_BLOCKS && owner.blocks[page->private].page == page)
		return &owner.blocks[page->private];
	owner.bad_calls++;
	return NULL;
}

/* Every operation runs with no mm/ lock held and interrupts on (mm/migrate.h). */
static void check_context(void)
{
	if (lock_held_count() || arch_irqs_disabled())
		owner.bad_calls++;
}

static bool owner_isolate(struct page *page)
{
	struct owned_block *b;
	bool ok;

	check_context();
	owner_lock();
	b = entry_of(page);
	ok = b && !b->dying && !b->isolated && !owner.refuse_isolate;
	if (ok) {
		b->isolated = true;
		owner.isolates++;
	}
	owner_unlock();
	return ok;
}

static void owner_unmap(struct page *page)
{
	check_context();
	owner_lock();
	if (entry_of(page))
		owner.unmaps++;
	owner_unlock();
}

/* The checksum of the 2^order frames at page. */
static uint32_t block_sum(struct page *page, unsigned int order)
{
	const uint32_t *w = page_address(page);
	uint32_t sum = 0x811c9dc5u;

	for (size_t i = 0; i < (PAGE_SIZE << order) / sizeof(*w); i++)
		sum = (sum ^ w[i]) * 0x01000193u;
	return sum;
}

/*
 * migrate_page() with src frozen: a reference on it must be refused. dst is isolated, with the
 * owner's reference and the migration's: a second isolation must be refused.
 */
static void probe_frozen(struct page *dst, struct page *src)
{
	owner.src_ref_taken = get_page_unless_zero(src);
	owner.src_isolated_again = isolate_movable_page(src) == 0;
	owner.dst_isolated_again = isolate_movable_page(dst) == 0;
}

/*
 * The owner lets entry b's new block dst go the moment its switch is done, as another CPU may
 * once migrate_page() let access resume (before the migration returns).
 */
static void let_go_after_switch(struct owned_block *b, struct page *dst)
{
	owner_lock();
	b->dying = true;
	clear_page_movable(dst);
	b->page = NULL;
	owner_unlock();
	put_page(dst);
}

static int owner_migrate(struct page *dst, struct page *src)
{
	struct owned_block *b;

	check_context();
	if (owner.probe_frozen)
		probe_frozen(dst, src);
	owner_lock();
	b = entry_of(src);
	if (!b || !b->isolated || owner.fail_migrate) {
		owner_unlock();
		return owner.fail_migrate ? owner.fail_migrate : -EINVAL;
	}
	if (block_sum(dst, b->order) != b->sum || dst->private != src->private)
		owner.bad_calls++;
	b->page = dst;
	b->isolated = false;
	owner.migrates++;
	owner_unlock();
	if (owner.free_on_switch)
		let_go_after_switch(b, dst);
	return 0;
}

static void owner_putback(struct page *page)
{
	struct owned_block *b;

	check_context();
	owner_lock();
	b = entry_of(page);
	if (b && b->isolated) {
		b->isolated = false;
		owner.putbacks++;
	} else {
		owner.bad_calls++;
	}
	owner_unlock();
}

static const struct movable_operations owner_ops = {
	.name = "migrate-test",
	.isolate_page = owner_isolate,
	.unmap_page = owner_unmap,
	.migrate_page = owner_migrate,
	.putback_page = owner_putback,
};

static void owner_reset(void)
{
	memset(&owner, 0, sizeof(owner));
}

/* Fills the block with a pattern of seed and records its checksum. */
static void fill_block(struct owned_block *b, unsigned int seed)
{
	uint32_t *w = page_address(b->page);

	for (size_t i = 0; i < (PAGE_SIZE << b->order) / sizeof(*w); i++)
		w[i] = (uint32_t)(i * 2654435761u) ^ (seed * 0x9e3779b9u);
	b->sum = block_sum(b->page, b->order);
}

/* A new movable block in entry i, of order, compound or plain; NULL if no memory. */
static struct page *owner_add(unsigned int i, unsigned int order, bool compound)
{
	gfp_t gfp = GFP_HIGHUSER_MOVABLE | __GFP_NOWARN | (compound ? __GFP_COMP : 0);
	struct owned_block *b = &owner.blocks[i];
	struct page *page = alloc_pages(gfp, order);

	if (!page)
		return NULL;
	*b = (struct owned_block){ .page = page, .order = order, .compound = compound };
	fill_block(b, i + 1);
	page->private = i;
	set_page_movable(page, &owner_ops);
	return page;
}

/* The owner lets entry i's block go: no more migrations, then its reference dropped. */
static void owner_free(unsigned int i)
{
	struct owned_block *b = &owner.blocks[i];

	owner_lock();
	b->dying = true;
	clear_page_movable(b->page);
	owner_unlock();
	put_page(b->page);
	b->page = NULL;
}

/* Free pages with every CPU's lists drained. */
static unsigned long free_pages_now(void)
{
	drain_pcp_lists();
	return nr_free_pages();
}

/* Expects entry i intact: its contents' checksum, count 1, movable by the owner, not isolated. */
static void expect_intact(struct ktest *t, unsigned int i)
{
	struct owned_block *b = &owner.blocks[i];

	KT_EXPECT(t, block_sum(b->page, b->order) == b->sum, "block %u: contents changed", i);
	KT_EXPECT_EQ(t, page_count(b->page), 1);
	KT_EXPECT(t, page_movable_ops(b->page) == &owner_ops, "block %u: not movable by the owner", i);
	KT_EXPECT(t, !PageIsolated(b->page) && !b->isolated, "block %u still isolated", i);
	KT_EXPECT_EQ(t, b->page->private, i);
}

static void expect_no_bad_calls(struct ktest *t)
{
	KT_EXPECT(t, owner.bad_calls == 0, "%u operations called with a lock held, interrupts off or "
		  "on a block the owner does not have", owner.bad_calls);
}

/* ---- moves -------------------------------------------------------------------------------- */

/* Moves one block of order (compound or plain) and checks everything a move promises. */
static void expect_move(struct ktest *t, unsigned int order, bool compound)
{
	unsigned long reports = mm_bad_page_reports, success = vm_event_count(PGMIGRATE_SUCCESS);
	unsigned long before = free_pages_now(), held;
	struct page *old, *new;

	owner_reset();
	old = owner_add(0, order, compound);
	KT_ASSERT(t, old != NULL, "no block of order %u", order);
	held = free_pages_now();
	KT_ASSERT(t, migrate_page_to_new(old, GFP_KERNEL) == 0, "order %u %s: not moved", order,
		  compound ? "compound" : "plain");
	new = owner.blocks[0].page;
	KT_EXPECT(t, new != old, "the owner still points at the old block");
	expect_intact(t, 0);
	KT_EXPECT(t, page_ref(old) == 0 && !page_movable(old), "the old block is not free (count %d)",
		  page_ref(old));
	KT_EXPECT_EQ(t, free_pages_now(), held);
	KT_EXPECT(t, PageHead(new) == compound && (!compound || compound_order(new) == order),
		  "the new block's shape: head %d order %u", PageHead(new), compound_order(new));
	KT_EXPECT(t, !compound || compound_check(new, order) == NULL, "new compound page: %s",
		  compound_check(new, order));
	KT_EXPECT_EQ(t, owner.isolates, 1);
	KT_EXPECT_EQ(t, owner.unmaps, 1);
	KT_EXPECT_EQ(t, owner.migrates, 1);
	KT_EXPECT_EQ(t, owner.putbacks, 0);
	KT_EXPECT_EQ(t, vm_event_count(PGMIGRATE_SUCCESS) - success, 1UL << order);
	owner_free(0);
	KT_EXPECT_EQ(t, mm_bad_page_reports, reports);
	KT_EXPECT_EQ(t, free_pages_now(), before);
	expect_no_bad_calls(t);
}

static void moves_a_plain_block_of_order_0_1_3(struct ktest *t)
{
	expect_move(t, 0, false);
	expect_move(t, 1, false);
	expect_move(t, 3, false);
}

static void moves_a_compound_page_of_order_1_3(struct ktest *t)
{
	expect_move(t, 1, true);
	expect_move(t, 3, true);
}

/* A block moved again and again stays the owner's, intact, and costs nothing. */
static void moves_the_same_block_many_times(struct ktest *t)
{
	unsigned long before = free_pages_now();

	owner_reset();
	KT_ASSERT(t, owner_add(0, 2, true) != NULL, "no order-2 block");
	for (int n = 0; n < 50 && !t->failures; n++) {
		KT_EXPECT_EQ(t, migrate_page_to_new(owner.blocks[0].page, GFP_KERNEL), 0);
		expect_intact(t, 0);
	}
	KT_EXPECT_EQ(t, owner.migrates, 50);
	owner_free(0);
	KT_EXPECT_EQ(t, free_pages_now(), before);
	expect_no_bad_calls(t);
}

/* ---- moves that must not happen ----------------------------------------------------------- */

/*
 * Expects migrate_page_to_new() on entry 0 to fail with want, leaving the block where it was,
 * intact, put back once, the target freed, and the failure counted.
 */
static void expect_not_moved(struct ktest *t, int want, unsigned int putbacks)
{
	struct page *page = owner.blocks[0].page;
	unsigned long fail = vm_event_count(PGMIGRATE_FAIL), held = free_pages_now();
	int count = page_count(page);

	KT_EXPECT_EQ(t, migrate_page_to_new(page, GFP_KERNEL), want);
	KT_EXPECT(t, owner.blocks[0].page == page, "the block moved");
	KT_EXPECT_EQ(t, page_count(page), count);
	KT_EXPECT(t, block_sum(page, owner.blocks[0].order) == owner.blocks[0].sum, "contents changed");
	KT_EXPECT(t, !PageIsolated(page) && page_movable(page), "flags %#x: want movable, not isolated",
		  page_flags(page));
	KT_EXPECT_EQ(t, owner.putbacks, putbacks);
	KT_EXPECT_EQ(t, owner.migrates, 0);
	KT_EXPECT_EQ(t, free_pages_now(), held);
	KT_EXPECT_EQ(t, vm_event_count(PGMIGRATE_FAIL) - fail, putbacks ? 1UL << owner.blocks[0].order : 0);
}

static void a_pinned_block_is_not_moved(struct ktest *t)
{
	unsigned long before = free_pages_now();

	for (int compound = 0; compound <= 1; compound++) {
		struct page *page;

		owner_reset();
		page = owner_add(0, 1, compound);
		KT_ASSERT(t, page != NULL, "no order-1 block");
		get_page(compound ? &page[1] : page); /* a pin, through a tail for the compound page */
		expect_not_moved(t, -EAGAIN, 1);
		put_page(compound ? &page[1] : page);
		KT_EXPECT_EQ(t, migrate_page_to_new(page, GFP_KERNEL), 0); /* unpinned, it moves */
		expect_intact(t, 0);
		owner_free(0);
		expect_no_bad_calls(t);
	}
	KT_EXPECT_EQ(t, free_pages_now(), before);
}

static void an_owner_that_refuses_isolation_gets_ebusy(struct ktest *t)
{
	unsigned long before = free_pages_now();

	owner_reset();
	KT_ASSERT(t, owner_add(0, 0, false) != NULL, "no page");
	owner.refuse_isolate = true;
	expect_not_moved(t, -EBUSY, 0);
	KT_EXPECT_EQ(t, owner.unmaps, 0);
	expect_intact(t, 0);
	owner_free(0);
	KT_EXPECT_EQ(t, free_pages_now(), before);
	expect_no_bad_calls(t);
}

static void a_failed_switch_puts_the_block_back(struct ktest *t)
{
	unsigned long before = free_pages_now();

	owner_reset();
	KT_ASSERT(t, owner_add(0, 3, true) != NULL, "no order-3 block");
	owner.fail_migrate = -ENOSPC_TEST;
	expect_not_moved(t, -ENOSPC_TEST, 1);
	expect_intact(t, 0);
	owner.fail_migrate = 0;
	KT_EXPECT_EQ(t, migrate_page_to_new(owner.blocks[0].page, GFP_KERNEL), 0);
	owner_free(0);
	KT_EXPECT_EQ(t, free_pages_now(), before);
	expect_no_bad_calls(t);
}

static void a_block_is_isolated_once(struct ktest *t)
{
	unsigned long before = free_pages_now();
	struct page *page;

	owner_reset();
	page = owner_add(0, 0, false);
	KT_ASSERT(t, page != NULL, "no page");
	KT_EXPECT_EQ(t, isolate_movable_page(page), 0);
	KT_EXPECT_EQ(t, page_count(page), 2);
	KT_EXPECT_EQ(t, isolate_movable_page(page), -EBUSY);
	KT_EXPECT_EQ(t, page_count(page), 2);
	KT_EXPECT_EQ(t, owner.isolates, 1);
	putback_movable_page(page);
	KT_EXPECT_EQ(t, owner.putbacks, 1);
	expect_intact(t, 0);
	KT_EXPECT_EQ(t, isolate_movable_page(page), 0); /* put back, it can be isolated again */
	putback_movable_page(page);
	owner_free(0);
	KT_EXPECT_EQ(t, free_pages_now(), before);
	expect_no_bad_calls(t);
}

/* A block that is not movable is no migration's: -EINVAL, no report, its count untouched. */
static void only_movable_blocks_are_isolated(struct ktest *t)
{
	unsigned long reports = mm_bad_page_reports;
	struct page *page = alloc_pages(GFP_KERNEL, 0);

	KT_ASSERT(t, page != NULL, "no page");
	KT_EXPECT_EQ(t, isolate_movable_page(page), -EINVAL);
	KT_EXPECT_EQ(t, page_count(page), 1);
	__free_pages(page, 0);
	KT_EXPECT_EQ(t, isolate_movable_page(page), -EINVAL); /* free */
	KT_EXPECT_EQ(t, migrate_page_to_new(page, GFP_KERNEL), -EINVAL);
	KT_EXPECT_EQ(t, page_ref(page), 0);
	KT_EXPECT_EQ(t, mm_bad_page_reports, reports);
}

/*
 * While migrate_page() runs, the block being moved is frozen (no reference, no second
 * isolation) and its target isolated (no second isolation).
 */
static void get_page_unless_zero_fails_on_a_frozen_block(struct ktest *t)
{
	unsigned long before = free_pages_now();
	struct page *page = alloc_pages(GFP_KERNEL, 0);

	KT_ASSERT(t, page != NULL, "no page");
	KT_EXPECT(t, get_page_unless_zero(page), "no reference taken on an allocated page");
	KT_EXPECT_EQ(t, page_count(page), 2);
	put_page(page);
	__free_pages(page, 0);
	KT_EXPECT(t, !get_page_unless_zero(page), "a reference taken on a free page");
	KT_EXPECT_EQ(t, page_ref(page), 0);

	owner_reset();
	KT_ASSERT(t, owner_add(0, 1, false) != NULL, "no order-1 block");
	owner.probe_frozen = true;
	KT_EXPECT_EQ(t, migrate_page_to_new(owner.blocks[0].page, GFP_KERNEL), 0);
	KT_EXPECT(t, !owner.src_ref_taken, "a reference taken on the block being moved");
	KT_EXPECT(t, !owner.src_isolated_again, "the block being moved isolated a second time");
	KT_EXPECT(t, !owner.dst_isolated_again, "the target isolated a second time before the switch ended");
	expect_intact(t, 0);
	owner_free(0);
	KT_EXPECT_EQ(t, free_pages_now(), before);
	expect_no_bad_calls(t);
}

/*
 * The owner's switch lets access to the new block resume, so the owner may let it go before the
 * migration returns: the block is freed once both have let go, with no report and no leak.
 */
static void an_owner_may_let_the_new_block_go_as_soon_as_it_switched(struct ktest *t)
{
	static const struct { unsigned int order; bool compound; } shapes[] = { { 0, false }, { 2, true } };
	unsigned long before = free_pages_now(), reports = mm_bad_page_reports;

	for (unsigned int i = 0; i < ARRAY_SIZE(shapes); i++) {
		owner_reset();
		KT_ASSERT(t, owner_add(0, shapes[i].order, shapes[i].compound) != NULL, "no order-%u block",
			  shapes[i].order);
		owner.free_on_switch = true;
		KT_EXPECT_EQ(t, migrate_page_to_new(owner.blocks[0].page, GFP_KERNEL), 0);
		KT_EXPECT_EQ(t, owner.migrates, 1);
		KT_EXPECT(t, owner.blocks[0].page == NULL, "the owner did not let the new block go");
		KT_EXPECT(t, mm_bad_page_reports == reports, "order %u: %lu reports, want none", shapes[i].order,
			  mm_bad_page_reports - reports);
		KT_EXPECT(t, free_pages_now() == before, "order %u: %lu free pages, %lu before: a block leaked",
			  shapes[i].order, free_pages_now(), before);
		expect_no_bad_calls(t);
	}
}

/* ---- migrate_pages() ---------------------------------------------------------------------- */

struct targets {
	unsigned int given, put, refuse_index; /* new_page() returns NULL for this call */
};

static struct page *test_new_page(struct page *src, unsigned int order, void *data)
{
	struct targets *tg = data;

	if (tg->given++ == tg->refuse_index)
		return NULL;
	return alloc_pages(GFP_HIGHUSER_MOVABLE | (PageHead(src) ? __GFP_COMP : 0), order);
}

static void test_put_new(struct page *dst, unsigned int order, void *data)
{
	((struct targets *)data)->put++;
	__free_pages(dst, order);
}

/*
 * Four isolated blocks: one gets no target, one is pinned, two move. The moved ones' slots are
 * NULL, the others are put back, the pinned one's target goes back through put_new.
 */
static void migrate_pages_moves_what_it_can(struct ktest *t)
{
	unsigned long before = free_pages_now();
	struct targets tg = { .refuse_index = 1 };
	struct page *pages[4];

	owner_reset();
	for (unsigned int i = 0; i < 4; i++) {
		pages[i] = owner_add(i, i, i & 1);
		KT_ASSERT(t, pages[i] != NULL, "no order-%u block", i);
		KT_ASSERT(t, isolate_movable_page(pages[i]) == 0, "block %u not isolated", i);
	}
	get_page(pages[2]);
	KT_EXPECT_EQ(t, migrate_pages(pages, 4, test_new_page, test_put_new, &tg), 2);
	KT_EXPECT(t, !pages[0] && pages[1] && pages[2] && !pages[3], "slots %p %p %p %p", (void *)pages[0],
		  (void *)pages[1], (void *)pages[2], (void *)pages[3]);
	KT_EXPECT_EQ(t, tg.given, 4);
	KT_EXPECT_EQ(t, tg.put, 1);
	KT_EXPECT_EQ(t, owner.putbacks, 2);
	put_page(pages[2]);
	for (unsigned int i = 0; i < 4; i++) {
		expect_intact(t, i);
		owner_free(i);
	}
	KT_EXPECT_EQ(t, free_pages_now(), before);
	expect_no_bad_calls(t);
}

/* ---- misuse ------------------------------------------------------------------------------- */

/* Expects set_page_movable(page) refused: one report, no PG_movable, the count unchanged. */
static void expect_refused(struct ktest *t, struct page *page, const char *what)
{
	unsigned long reports = mm_bad_page_reports;
	uint32_t flags = page_flags(page);
	int count = page_ref(page);

	set_page_movable(page, &owner_ops);
	KT_EXPECT(t, mm_bad_page_reports == reports + 1, "%s: %lu reports, want 1", what, mm_bad_page_reports - reports);
	KT_EXPECT(t, page_flags(page) == flags, "%s: flags %#x, were %#x", what, page_flags(page), flags);
	KT_EXPECT(t, page_ref(page) == count, "%s: count %d, was %d", what, page_ref(page), count);
}

static void set_page_movable_refuses_what_is_not_a_block(struct ktest *t)
{
	unsigned long before = slab_test_free_pages();
	struct page *comp = alloc_pages(GFP_KERNEL | __GFP_COMP, 2);
	struct page *page = alloc_pages(GFP_KERNEL, 0);
	void *obj = kmalloc(64, GFP_KERNEL);
	static const struct movable_operations no_putback = { "broken", owner_isolate, NULL, owner_migrate, NULL };

	KT_ASSERT(t, comp && page && obj, "no memory");
	expect_refused(t, &comp[1], "a tail page");
	expect_refused(t, compound_head(virt_to_page(obj)), "a slab's page");
	__free_pages(page, 0);
	expect_refused(t, page, "a free page");
	page = alloc_pages(GFP_KERNEL, 0);
	KT_ASSERT(t, page != NULL, "no page");
	set_page_movable(page, &no_putback);
	KT_EXPECT(t, !page_movable(page), "movable without putback_page");
	set_page_movable(page, &owner_ops);
	KT_EXPECT(t, page_movable(page), "an allocated page not made movable");
	expect_refused(t, page, "a movable page");
	clear_page_movable(page);
	KT_EXPECT(t, !page_movable(page), "still movable after clear_page_movable()");
	__free_pages(page, 0);
	__free_pages(comp, 2);
	kfree(obj);
	if (mm_free_blocks(PAGEBLOCK_ORDER, GFP_KERNEL)) { /* a whole pageblock: compaction's unit */
		page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, PAGEBLOCK_ORDER);
		KT_ASSERT(t, page != NULL, "no order-%d block", PAGEBLOCK_ORDER);
		expect_refused(t, page, "a block of PAGEBLOCK_ORDER");
		__free_pages(page, PAGEBLOCK_ORDER);
	}
	KT_EXPECT_EQ(t, slab_test_free_pages(), before);
}

/*
 * The owner's bug: clear_page_movable() after its isolate_page() said yes. migrate_pages()
 * reports the block and puts it back; nothing moves, nothing leaks.
 */
static void a_block_cleared_while_isolated_is_put_back(struct ktest *t)
{
	unsigned long before = free_pages_now(), reports = mm_bad_page_reports;
	struct page *page, *pages[1];
	struct targets tg = { .refuse_index = ~0u };

	owner_reset();
	page = owner_add(0, 0, false);
	KT_ASSERT(t, page != NULL, "no page");
	KT_ASSERT(t, isolate_movable_page(page) == 0, "not isolated");
	clear_page_movable(page);
	pages[0] = page;
	KT_EXPECT_EQ(t, migrate_pages(pages, 1, test_new_page, test_put_new, &tg), 0);
	KT_EXPECT_EQ(t, mm_bad_page_reports - reports, 1);
	KT_EXPECT(t, pages[0] == page && owner.blocks[0].page == page, "the block moved");
	KT_EXPECT_EQ(t, owner.putbacks, 1);
	KT_EXPECT_EQ(t, tg.given, 0);
	KT_EXPECT(t, !PageIsolated(page) && !page_movable(page), "flags %#x", page_flags(page));
	KT_EXPECT_EQ(t, page_count(page), 1);
	put_page(page);
	KT_EXPECT_EQ(t, free_pages_now(), before);
}

/*
 * Freeing a block that is still movable (or isolated) is refused: a migration could be copying
 * it, or be about to. __free_pages() and the last put_page() are reported and change nothing;
 * the owner's clear_page_movable() and put_page() then free it silently.
 */
static void a_movable_block_is_not_freed(struct ktest *t)
{
	unsigned long before = free_pages_now(), reports = mm_bad_page_reports;
	struct page *page;

	owner_reset();
	page = owner_add(0, 1, false);
	KT_ASSERT(t, page != NULL, "no order-1 block");
	__free_pages(page, 1);
	put_page(page);
	KT_EXPECT_EQ(t, mm_bad_page_reports - reports, 2);
	expect_intact(t, 0);
	KT_EXPECT_EQ(t, isolate_movable_page(page), 0);
	put_page(page);
	put_page(page);
	KT_EXPECT_EQ(t, mm_bad_page_reports - reports, 3);
	KT_EXPECT_EQ(t, page_count(page), 1); /* the last put refused: the isolation's reference stays */
	get_page(page);
	putback_movable_page(page);
	expect_intact(t, 0);
	reports = mm_bad_page_reports;
	owner_free(0);
	KT_EXPECT_EQ(t, mm_bad_page_reports, reports);
	KT_EXPECT_EQ(t, free_pages_now(), before);
}

static void clear_page_movable_refuses_a_block_that_is_not_movable(struct ktest *t)
{
	unsigned long reports = mm_bad_page_reports;
	struct page *page = alloc_pages(GFP_KERNEL, 0);

	KT_ASSERT(t, page != NULL, "no page");
	clear_page_movable(page);
	KT_EXPECT_EQ(t, mm_bad_page_reports - reports, 1);
	putback_movable_page(page);
	KT_EXPECT_EQ(t, mm_bad_page_reports - reports, 2);
	KT_EXPECT_EQ(t, page_count(page), 1);
	__free_pages(page, 0);
}

KTEST_SUITE(migrate,
	    KTEST_CASE(moves_a_plain_block_of_order_0_1_3),
	    KTEST_CASE(moves_a_compound_page_of_order_1_3),
	    KTEST_CASE(moves_the_same_block_many_times),
	    KTEST_CASE(a_pinned_block_is_not_moved),
	    KTEST_CASE(an_owner_that_refuses_isolation_gets_ebusy),
	    KTEST_CASE(a_failed_switch_puts_the_block_back),
	    KTEST_CASE(a_block_is_isolated_once),
	    KTEST_CASE(only_movable_blocks_are_isolated),
	    KTEST_CASE(get_page_unless_zero_fails_on_a_frozen_block),
	    KTEST_CASE(an_owner_may_let_the_new_block_go_as_soon_as_it_switched),
	    KTEST_CASE(migrate_pages_moves_what_it_can),
	    KTEST_MISUSE_CASE(set_page_movable_refuses_what_is_not_a_block),
	    KTEST_MISUSE_CASE(a_movable_block_is_not_freed),
	    KTEST_MISUSE_CASE(a_block_cleared_while_isolated_is_put_back),
	    KTEST_MISUSE_CASE(clear_page_movable_refuses_a_block_that_is_not_movable));
