/* SPDX-License-Identifier: MIT */
/*
 * The stress test's movable blocks (mm/migrate.h): a table of slots, each a movable block behind
 * a lock of its own, that the workers other than worker 0 allocate, write, check, pin and free,
 * while worker 0 migrates them as compaction would: it reads a slot's page without the slot's
 * lock (the page may be freed, or someone else's, by the time it asks) and calls
 * migrate_page_to_new() or isolate_movable_page() and migrate_pages() on it. The last worker
 * also compacts (compact_zone(), compact_memory()) now and then, so that compaction's scanners
 * run against all of that. With one worker, that worker does everything.
 *
 * Each block carries a pattern of its slot's generation in two words of every page; a write
 * (under the slot's lock, only while the block is mapped) sets a new generation, and every
 * write and free first checks the pattern: a write lost by a move, or a copy taken before the
 * last write, shows. The slot's operations keep the owner's side of the contract: an isolated
 * block is neither freed nor rewritten (unmap_page() stops writers until migrate_page() or
 * putback_page()), and a freed one has PG_movable cleared under the lock before its reference
 * is dropped with put_page().
 */
#include "lib/printk.h"
#include "mm/compaction.h"
#include "mm/migrate.h"
#include "mm/page_alloc.h"
#include "tests/stress/stress_state.h"

#define MOVABLE_SLOTS 64
#define PINS 4 /* pins a worker holds at once */

struct movable_slot {
	int lock;            /* test-and-set: the owner's own lock, never held around mm/ calls that move */
	struct page *page;   /* NULL: empty (read without the lock by the migrating worker: atomic) */
	unsigned int order;
	bool compound;
	bool isolated;       /* isolate_page() said yes: no free until migrate_page() or putback_page() */
	bool unmapped;       /* unmap_page() ran: no write until migrate_page() or putback_page() */
	uint64_t generation; /* what the pattern in the block says */
};

static struct movable_slot slots[MOVABLE_SLOTS];
static struct page *pins[STRESS_MAX_WORKERS][PINS];

static void slot_lock(struct movable_slot *s)
{
	while (__atomic_exchange_n(&s->lock, 1, __ATOMIC_ACQUIRE))
		stress_relax();
}

static void slot_unlock(struct movable_slot *s)
{
	__atomic_store_n(&s->lock, 0, __ATOMIC_RELEASE);
}

static struct page *slot_page(const struct movable_slot *s)
{
	return __atomic_load_n(&s->page, __ATOMIC_ACQUIRE);
}

/* The two words of page i of a block that carry the pattern: the first and the last. */
static uint64_t *pattern_word(struct page *page, unsigned long i, unsigned int which)
{
	return (uint64_t *)page_address(page + i) + (which ? PAGE_SIZE / 8 - 1 : 0);
}

static uint64_t pattern(uint64_t generation, unsigned long i, unsigned int which)
{
	return generation * 0x9e3779b97f4a7c15ULL ^ (i << 1 | which) ^ 0x6d6f7661626c65ULL;
}

static void pattern_write(struct movable_slot *s)
{
	for (unsigned long i = 0; i < 1UL << s->order; i++)
		for (unsigned int k = 0; k < 2; k++)
			*pattern_word(s->page, i, k) = pattern(s->generation, i, k);
}

/* Slot lock held: does the block hold its generation's pattern? Reported when not. */
static bool pattern_ok(unsigned int who, struct movable_slot *s, const char *when)
{
	for (unsigned long i = 0; i < 1UL << s->order; i++)
		for (unsigned int k = 0; k < 2; k++)
			if (*pattern_word(s->page, i, k) != pattern(s->generation, i, k)) {
				stress_fail(who, 0, "movable block of slot %ld (pfn %#lx, order %u) %s: page %lu holds "
					    "%#llx, generation %llu's pattern is %#llx", (long)(s - slots),
					    page_to_pfn(s->page), s->order, when, i,
					    (unsigned long long)*pattern_word(s->page, i, k),
					    (unsigned long long)s->generation,
					    (unsigned long long)pattern(s->generation, i, k));
				return false;
			}
	return true;
}

/* ---- the owner's operations -------------------------------------------------------------------- */

/* The slot of a block handed to an operation (its private word), checked. */
static struct movable_slot *slot_of(struct page *page, const char *op)
{
	if (page->private >= MOVABLE_SLOTS) {
		stress_fail(STRESS_CHECKS, 0, "%s on pfn %#lx: private %#lx is no slot", op, page_to_pfn(page),
			    page->private);
		return NULL;
	}
	return &slots[page->private];
}

static bool slot_isolate(struct page *page)
{
	struct movable_slot *s = slot_of(page, "isolate_page");
	bool ok;

	if (!s)
		return false;
	slot_lock(s);
	ok = s->page == page && !s->isolated; /* not freed meanwhile (it clears PG_movable first) */
	if (ok)
		s->isolated = true;
	slot_unlock(s);
	return ok;
}

static void slot_unmap(struct page *page)
{
	struct movable_slot *s = slot_of(page, "unmap_page");

	if (!s)
		return;
	slot_lock(s);
	s->unmapped = true;
	slot_unlock(s);
}

/* dst is a copy of src: the pattern must be there (a write lost or copied too early shows). */
static int slot_migrate(struct page *dst, struct page *src)
{
	struct movable_slot *s = slot_of(src, "migrate_page");

	if (!s)
		return -EINVAL;
	slot_lock(s);
	if (s->page != src || !s->isolated)
		stress_fail(STRESS_CHECKS, 0, "migrate_page on pfn %#lx: the slot has pfn %#lx, isolated %d",
			    page_to_pfn(src), s->page ? page_to_pfn(s->page) : 0, s->isolated);
	__atomic_store_n(&s->page, dst, __ATOMIC_RELEASE);
	pattern_ok(STRESS_CHECKS, s, "after its move");
	s->isolated = s->unmapped = false;
	slot_unlock(s);
	return 0;
}

static void slot_putback(struct page *page)
{
	struct movable_slot *s = slot_of(page, "putback_page");

	if (!s)
		return;
	slot_lock(s);
	if (s->page != page || !s->isolated)
		stress_fail(STRESS_CHECKS, 0, "putback_page on pfn %#lx: not the slot's isolated block",
			    page_to_pfn(page));
	s->isolated = s->unmapped = false;
	slot_unlock(s);
}

static const struct movable_operations slot_ops = {
	.name = "stress",
	.isolate_page = slot_isolate,
	.unmap_page = slot_unmap,
	.migrate_page = slot_migrate,
	.putback_page = slot_putback,
};

/* ---- the owners: allocate, write, pin, free ------------------------------------------------- */

static unsigned long rnd(struct worker *w) { return mm_test_rand(&w->rng); }

/* A new movable block in s (empty, its lock held). */
static void slot_fill(struct worker *w, struct movable_slot *s)
{
	unsigned int order = (unsigned int)(rnd(w) % 4);
	bool compound = order && (rnd(w) & 1);
	struct page *page = alloc_pages(GFP_HIGHUSER_MOVABLE | __GFP_NOWARN | (compound ? __GFP_COMP : 0), order);

	if (!page)
		return;
	s->order = order;
	s->compound = compound;
	s->generation = ++w->seq;
	/* Published at once: until set_page_movable() the migrating worker's isolation is refused. */
	__atomic_store_n(&s->page, page, __ATOMIC_RELEASE);
	pattern_write(s);
	set_page_private(page, (unsigned long)(s - slots)); /* compaction's scanner may read it (mm/page.h) */
	set_page_movable(page, &slot_ops);
	w->t.movable_allocs++;
}

/* A new generation written into s's block (its lock held), unless a migration has it unmapped. */
static void slot_write(struct worker *w, struct movable_slot *s)
{
	if (s->unmapped || !pattern_ok(w->id, s, "before a write"))
		return;
	s->generation = ++w->seq;
	pattern_write(s);
	w->t.movable_writes++;
}

/* The owner lets s's block go (its lock held), unless a migration has it isolated. */
static struct page *slot_empty(struct worker *w, struct movable_slot *s)
{
	struct page *page = s->page;

	if (s->isolated || !pattern_ok(w->id, s, "before its free"))
		return NULL;
	clear_page_movable(page);
	/* private stays: a migration that isolated the block a moment ago reads it in isolate_page() */
	__atomic_store_n(&s->page, NULL, __ATOMIC_RELEASE);
	return page;
}

/*
 * Pins s's block (its lock held) in one of w's pin slots, or drops the pin held there. A block a
 * migration has unmapped is not pinned: its count may be frozen, and a user of the contents
 * waits (mm/migrate.h); a pin taken before the unmap makes the migration fail.
 */
static void pin_toggle(struct worker *w, struct movable_slot *s)
{
	struct page **pin = &pins[w->id][rnd(w) % PINS];

	if (*pin) {
		put_page(*pin); /* the last reference when its owner freed it meanwhile */
		*pin = NULL;
	} else if (!s->unmapped) {
		get_page(s->page);
		*pin = s->page;
	}
}

static void owner_op(struct worker *w)
{
	struct movable_slot *s = &slots[rnd(w) % MOVABLE_SLOTS];
	unsigned long r = rnd(w) % 100;
	struct page *freed = NULL;

	slot_lock(s);
	if (!s->page)
		slot_fill(w, s);
	else if (r < 60)
		slot_write(w, s);
	else if (r < 85)
		freed = slot_empty(w, s);
	else
		pin_toggle(w, s);
	slot_unlock(s);
	if (freed)
		put_page(freed); /* a migration's passing reference may be the last: it frees then */
}

/* ---- the migrating worker -------------------------------------------------------------------- */

/* migrate_pages()'s targets, as compaction's would be: movable, of the block's shape. */
static struct page *new_target(struct page *src, unsigned int order, void *data)
{
	(void)data;
	return alloc_pages(GFP_HIGHUSER_MOVABLE | __GFP_NOWARN | (PageHead(src) ? __GFP_COMP : 0), order);
}

/* Up to four slots' blocks isolated, as a scanner finds them, and moved in one migrate_pages(). */
static void migrate_some(struct worker *w)
{
	struct page *pages[4];
	unsigned int n = 0;

	for (unsigned int i = 0; i < 4; i++) {
		struct page *page = slot_page(&slots[rnd(w) % MOVABLE_SLOTS]);

		if (page && isolate_movable_page(page) == 0)
			pages[n++] = page;
	}
	w->t.migrations += migrate_pages(pages, n, new_target, NULL, NULL);
}

static void migrator_op(struct worker *w)
{
	struct page *page;
	int rc;

	if (rnd(w) & 3) {
		page = slot_page(&slots[rnd(w) % MOVABLE_SLOTS]);
		rc = page ? migrate_page_to_new(page, __GFP_NOWARN) : -EINVAL;
		w->t.migrations += rc == 0;
		w->t.migrate_pinned += rc == -EAGAIN;
	} else {
		migrate_some(w);
	}
}

/* ---- the compacting worker -------------------------------------------------------------------- */

/*
 * compact_zone() on a random zone for a costly order, now and then compact_memory(): the
 * scanners read free blocks without the zone's lock and move the slots' blocks while their owners
 * write, pin and free them and worker 0 migrates them.
 */
static void compactor_op(struct worker *w)
{
	if (rnd(w) % 8 == 0) {
		w->t.compacted_pages += compact_memory();
	} else {
		int r = compact_zone(&mm_zones[rnd(w) % mm_nr_zone_ids],
				     PAGE_ALLOC_COSTLY_ORDER + (unsigned int)(rnd(w) % (MAX_ORDER - 2)));

		if (r < 0)
			stress_fail(w->id, 0, "compact_zone() refused a call from a worker: %d", r);
	}
	w->t.compactions++;
}

void stress_movable_op(struct worker *w)
{
	if (w->id == 0)
		migrator_op(w);
	if (w->id != 0 || stress_cfg.workers == 1)
		owner_op(w);
	if (w->id == stress_cfg.workers - 1 && rnd(w) % 16 == 0)
		compactor_op(w);
}

void stress_movable_release(struct worker *w)
{
	for (unsigned int i = 0; i < PINS; i++)
		if (pins[w->id][i]) {
			put_page(pins[w->id][i]);
			pins[w->id][i] = NULL;
		}
}

void stress_movable_reset(void)
{
	memset(slots, 0, sizeof(slots));
	memset(pins, 0, sizeof(pins));
}

/* One CPU, the workers done: every slot's block freed. */
void stress_movable_finish(void)
{
	for (unsigned int i = 0; i < MOVABLE_SLOTS; i++) {
		struct movable_slot *s = &slots[i];
		struct page *page;

		if (!s->page)
			continue;
		if (s->isolated || s->unmapped)
			stress_fail(STRESS_CHECKS, 0, "slot %u still isolated (%d) or unmapped (%d) at the end", i,
				    s->isolated, s->unmapped);
		page = slot_empty(&stress_workers[0], s);
		if (page)
			put_page(page);
	}
}
