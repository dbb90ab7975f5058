/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of compaction (mm/compaction.h) on whatever memory the machine has. A test owner
 * holds movable order-0 pages (mm/migrate.h) in a table, each filled with a pattern of its slot;
 * its migrate_page() switches the table's pointer. The fragmented state the cases start from:
 * every free 2 MiB block of memory taken and held, then up to FRAG_PAGEBLOCKS of them in the top
 * zone given back and filled with the owner's pages, and every other page freed: the zone then
 * has free pages for FRAG_PAGEBLOCKS / 2 huge pages and not one free 2 MiB block.
 */
#include "tests/ktest/mm_helpers.h"

#include "kernel/compact_cmdline.h"
#include "lib/string.h"
#include "mm/compaction.h"
#include "mm/migrate.h"
#include "mm/pageblock.h"
#include "mm/vmstat.h"
#include "tests/ktest/text_capture.h"

#define FRAG_PAGEBLOCKS 64UL /* at most: 128 MiB of owner pages, enough to show the effect */
#define FRAG_MIN_PAGEBLOCKS 8UL
#define HUGE_ORDER PAGEBLOCK_ORDER
#define PATTERN_MUL 0x9e3779b97f4a7c15ULL

/* The test owner: slot i holds a movable page whose private is i, or NULL. */
static struct {
	struct page **slot;
	unsigned long nr_slots;
	unsigned long migrated; /* migrate_page() calls */
	unsigned long bad_migrations; /* migrate_page() on a page that is not its slot's */
} owner;

static bool owner_isolate(struct page *page)
{
	(void)page;
	return true;
}

static int owner_migrate(struct page *dst, struct page *src)
{
	unsigned long i = src->private;

	if (i >= owner.nr_slots || owner.slot[i] != src || dst->private != i) {
		owner.bad_migrations++;
		return -EINVAL;
	}
	owner.slot[i] = dst;
	owner.migrated++;
	return 0;
}

static void owner_putback(struct page *page)
{
	(void)page;
}

static const struct movable_operations owner_ops = {
	.name = "compaction test",
	.isolate_page = owner_isolate,
	.migrate_page = owner_migrate,
	.putback_page = owner_putback,
};

static void fill_pattern(struct page *page, unsigned long i)
{
	uint64_t *w = page_address(page);

	for (unsigned int k = 0; k < PAGE_SIZE / sizeof(*w); k++)
		w[k] = (i + 1) * PATTERN_MUL + k;
}

static bool pattern_intact(struct page *page, unsigned long i)
{
	const uint64_t *w = page_address(page);

	for (unsigned int k = 0; k < PAGE_SIZE / sizeof(*w); k++)
		if (w[k] != (i + 1) * PATTERN_MUL + k)
			return false;
	return true;
}

/* The fragmented state and what it holds (see the top of the file). */
struct frag {
	struct zone *zone;
	struct page **held;        /* the 2 MiB blocks held, then room to count obtainable ones */
	unsigned long nr_held, cap_held;
	struct page **slot_copy;   /* room for a copy of the owner's table */
	unsigned long cap_slots;   /* the owner's table's size */
	unsigned int held_order, slot_order; /* of the arrays' blocks */
	unsigned long given_back;  /* 2 MiB blocks of zone given back to be fragmented */
	unsigned long freed_in_zone; /* the owner's pages freed in zone: the free memory compaction can join */
};

/* Allocates an array of n pointers as an unmovable block; its order in *order. */
static void *alloc_array(unsigned long n, unsigned int *order)
{
	unsigned long bytes = n * sizeof(void *);
	struct page *page;

	for (*order = 0; (PAGE_SIZE << *order) < bytes; (*order)++)
		;
	page = *order <= MAX_ORDER ? alloc_pages(GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN, *order) : NULL;
	return page ? page_address(page) : NULL;
}

static void free_array(void *array, unsigned int order)
{
	if (array)
		__free_pages(virt_to_page(array), order);
}

/* Takes every free 2 MiB block (GFP_ATOMIC: the reserve too; it never compacts). */
static void hold_huge_blocks(struct frag *f)
{
	struct page *page;

	drain_pcp_lists();
	while (f->nr_held < f->cap_held &&
	       (page = alloc_pages(__GFP_HIGH | __GFP_MOVABLE | __GFP_NOWARN, HUGE_ORDER)))
		f->held[f->nr_held++] = page;
}

/* Gives back up to FRAG_PAGEBLOCKS held blocks of f->zone (the last ones take their places). */
static void give_back_zone_blocks(struct frag *f)
{
	for (unsigned long i = 0; i < f->nr_held && f->given_back < FRAG_PAGEBLOCKS;) {
		if (&mm_zones[page_zonenum(f->held[i])] != f->zone) {
			i++;
			continue;
		}
		__free_pages(f->held[i], HUGE_ORDER);
		f->held[i] = f->held[--f->nr_held];
		f->given_back++;
	}
}

/*
 * Free pages in blocks smaller than 2 MiB: what the owner's table must hold beyond the blocks
 * given back, so that filling it leaves no free 2 MiB block.
 */
static unsigned long free_fragment_pages(void)
{
	unsigned long pages = 0;

	drain_pcp_lists();
	for (int z = 0; z < (int)mm_nr_zone_ids; z++)
		for (unsigned int o = 0; o < HUGE_ORDER; o++)
			pages += __atomic_load_n(&mm_zones[z].free_area[o].nr_free, __ATOMIC_RELAXED) << o;
	return pages;
}

/*
 * Fills the owner's table with movable pages until memory or the table runs out; the watermark
 * reserve too (__GFP_HIGH), which could otherwise keep a free 2 MiB block.
 */
static void fill_owner(struct frag *f)
{
	struct page *page;

	while (owner.nr_slots < f->cap_slots &&
	       (page = alloc_pages(GFP_HIGHUSER_MOVABLE | __GFP_HIGH | __GFP_NOWARN, 0))) {
		page->private = owner.nr_slots;
		fill_pattern(page, owner.nr_slots);
		set_page_movable(page, &owner_ops);
		owner.slot[owner.nr_slots++] = page;
	}
}

/* As mm/migrate.h asks of an owner: no longer movable, then its reference dropped. */
static void owner_free_slot(unsigned long i)
{
	clear_page_movable(owner.slot[i]);
	put_page(owner.slot[i]);
	owner.slot[i] = NULL;
}

/*
 * Builds the fragmented state; false (the case skipped, saying why, or failed) when the machine
 * cannot give it. The slot table and held array are freed by frag_undo() whatever happened.
 */
static bool frag_setup(struct ktest *t, struct frag *f)
{
	static char reason[160];

	*f = (struct frag){ .zone = &mm_zones[mm_top_zone] };
	owner.nr_slots = owner.migrated = owner.bad_migrations = 0;
	f->cap_held = nr_free_pages() / PAGEBLOCK_NR_PAGES + 16;
	/* The tables' own blocks may split a 2 MiB block: the rest of it is fragments too. */
	f->cap_slots = FRAG_PAGEBLOCKS * PAGEBLOCK_NR_PAGES + free_fragment_pages() + 2 * PAGEBLOCK_NR_PAGES;
	f->held = alloc_array(f->cap_held, &f->held_order);
	owner.slot = alloc_array(f->cap_slots, &f->slot_order);
	f->slot_copy = alloc_array(f->cap_slots, &f->slot_order);
	if (!f->held || !owner.slot || !f->slot_copy) {
		ktest_skip(t, "no room for the test's tables");
		return false;
	}
	hold_huge_blocks(f);
	give_back_zone_blocks(f);
	if (f->given_back < FRAG_MIN_PAGEBLOCKS) {
		snprintf(reason, sizeof(reason), "zone %s has %lu free 2 MiB blocks, the cases need %lu", f->zone->name,
			 f->given_back, FRAG_MIN_PAGEBLOCKS);
		ktest_skip(t, reason);
		return false;
	}
	fill_owner(f);
	for (unsigned long i = 0; i < owner.nr_slots; i += 2) {
		f->freed_in_zone += &mm_zones[page_zonenum(owner.slot[i])] == f->zone;
		owner_free_slot(i);
	}
	drain_pcp_lists();
	return true;
}

/* Frees everything frag_setup() took: the owner's pages, the held blocks, the tables. */
static void frag_undo(struct frag *f)
{
	for (unsigned long i = 0; i < owner.nr_slots; i++)
		if (owner.slot[i])
			owner_free_slot(i);
	while (f->nr_held)
		__free_pages(f->held[--f->nr_held], HUGE_ORDER);
	free_array(owner.slot, f->slot_order);
	free_array(f->slot_copy, f->slot_order);
	free_array(f->held, f->held_order);
	owner.slot = NULL;
	owner.nr_slots = 0;
	drain_pcp_lists();
}

/* The 2 MiB blocks GFP_ATOMIC can take now (given back at once): the fragbench count. */
static unsigned long huge_blocks_obtainable(struct frag *f)
{
	unsigned long n = 0;
	struct page *page;

	drain_pcp_lists();
	while (f->nr_held + n < f->cap_held &&
	       (page = alloc_pages(__GFP_HIGH | __GFP_MOVABLE | __GFP_NOWARN, HUGE_ORDER)))
		f->held[f->nr_held + n++] = page;
	for (unsigned long i = 0; i < n; i++)
		__free_pages(f->held[f->nr_held + i], HUGE_ORDER);
	return n;
}

/* Does any zone have a free block of order or more? */
static bool any_free_block(unsigned int order)
{
	bool found = false;

	drain_pcp_lists();
	for (int z = 0; z < (int)mm_nr_zone_ids; z++) {
		unsigned long flags = zone_lock(&mm_zones[z]);

		found |= (zone_free_orders(&mm_zones[z]) >> order) != 0;
		zone_unlock(&mm_zones[z], flags);
	}
	return found;
}

/* Every live slot's page: its own private, one reference, a movable block, its pattern intact. */
static unsigned long slots_damaged(void)
{
	unsigned long bad = 0;

	for (unsigned long i = 0; i < owner.nr_slots; i++) {
		struct page *page = owner.slot[i];

		if (page && (page->private != i || page_ref(page) != 1 || !page_movable(page) ||
			     !pattern_intact(page, i)))
			bad++;
	}
	return bad;
}

static unsigned long live_slots_moved(struct page **before)
{
	unsigned long moved = 0;

	for (unsigned long i = 0; i < owner.nr_slots; i++)
		moved += owner.slot[i] && owner.slot[i] != before[i];
	return moved;
}

/*
 * The 2 MiB blocks compaction can assemble in f's zone at best: the free frames, in pageblocks, of
 * its movable pageblocks that hold no page but the owner's. A pageblock that also holds another
 * (the kernel's, or the owner's in an unmovable or reclaimable pageblock, where the fill fell back
 * when the movable ones were full) never becomes a free 2 MiB block: counting its free frames too
 * expected more blocks than there can be (3 more with four such pageblocks and two reclaimable
 * ones, which came with per-CPU lists refilled a whole pageblock at a time).
 */
static unsigned long compactable_blocks(const struct frag *f)
{
	unsigned long free = 0;

	drain_pcp_lists(); /* every free frame in a buddy block */
	for (unsigned long pb = ALIGN_UP(f->zone->start_pfn, PAGEBLOCK_NR_PAGES); pb + PAGEBLOCK_NR_PAGES <= f->zone->end_pfn;
	     pb += PAGEBLOCK_NR_PAGES) {
		unsigned long pfn = pb, pfree = 0;

		if (!pfn_valid(pb) || get_pageblock_migratetype(pfn_to_page(pb)) != MIGRATE_MOVABLE)
			continue;
		while (pfn < pb + PAGEBLOCK_NR_PAGES && pfn_valid(pfn)) {
			struct page *page = pfn_to_page(pfn);

			if (PageBuddy(page)) {
				unsigned long n = MIN(1UL << page->private, pb + PAGEBLOCK_NR_PAGES - pfn);

				pfree += n;
				pfn += n;
			} else if (page_ref(page) && page_movable(page)) {
				pfn++;
			} else {
				break; /* another page, a hole, or a block's tail */
			}
		}
		free += pfn == pb + PAGEBLOCK_NR_PAGES ? pfree : 0;
	}
	return free / PAGEBLOCK_NR_PAGES;
}

static void spread_movable_pages_compact_into_huge_blocks(struct ktest *t)
{
	unsigned long before, after, ideal, migrated0 = vm_event_count(PGMIGRATE_SUCCESS);
	struct frag f;

	if (!frag_setup(t, &f)) {
		frag_undo(&f);
		return;
	}
	ideal = compactable_blocks(&f);
	memcpy(f.slot_copy, owner.slot, owner.nr_slots * sizeof(*f.slot_copy));
	before = huge_blocks_obtainable(&f);
	KT_EXPECT(t, before == 0, "%lu 2 MiB blocks free before compaction", before);
	compact_memory();
	after = huge_blocks_obtainable(&f);
	printk("    # zone %s: %lu 2 MiB blocks before compaction, %lu after, %lu pages moved; free pages allow %lu\n",
	       f.zone->name, before, after, owner.migrated, ideal);
	/* Half of each pageblock can move: the scanners meet halfway, give or take a pageblock. */
	KT_EXPECT(t, after >= before + ideal - 2,
		  "%lu 2 MiB blocks after compaction, %lu before; the free pages of zone %s's movable pageblocks "
		  "that hold only the owner's pages allow %lu (%lu of the owner's pages freed there)", after, before,
		  f.zone->name, ideal, f.freed_in_zone);
	KT_EXPECT(t, slots_damaged() == 0, "%lu of the owner's pages lost their contents or state", slots_damaged());
	KT_EXPECT(t, owner.bad_migrations == 0, "%lu migrate_page() calls on pages not in their slot",
		  owner.bad_migrations);
	/* A pageblock emptied held about half a pageblock of the owner's pages. */
	KT_EXPECT(t, owner.migrated >= (after - before) * PAGEBLOCK_NR_PAGES / 4,
		  "%lu pages moved for %lu more 2 MiB blocks", owner.migrated, after - before);
	KT_EXPECT_EQ(t, vm_event_count(PGMIGRATE_SUCCESS) - migrated0, owner.migrated);
	KT_EXPECT_EQ(t, live_slots_moved(f.slot_copy), owner.migrated);
	frag_undo(&f);
}

static void compaction_with_nothing_movable_changes_nothing(struct ktest *t)
{
	unsigned long migrated = vm_event_count(PGMIGRATE_SUCCESS) + vm_event_count(PGMIGRATE_FAIL);
	unsigned long free_scanned = vm_event_count(COMPACT_FREE_SCANNED);
	unsigned long isolated = vm_event_count(COMPACT_ISOLATED);
	struct mm_shape before;

	mm_shape_take(&before);
	KT_EXPECT_EQ(t, compact_memory(), 0);
	mm_expect_shape(t, &before);
	KT_EXPECT_EQ(t, vm_event_count(PGMIGRATE_SUCCESS) + vm_event_count(PGMIGRATE_FAIL), migrated);
	/* Nothing to move: the free scanner never ran and took no target. */
	KT_EXPECT_EQ(t, vm_event_count(COMPACT_FREE_SCANNED), free_scanned);
	KT_EXPECT_EQ(t, vm_event_count(COMPACT_ISOLATED), isolated);
}

static void compact_zone_stops_at_once_when_the_block_is_there(struct ktest *t)
{
	unsigned long scanned = vm_event_count(COMPACT_MIGRATE_SCANNED);
	struct zone *zone = &mm_zones[mm_top_zone];

	if (mm_skip_without_blocks(t, 0, 1, GFP_KERNEL))
		return;
	KT_EXPECT_EQ(t, compact_zone(zone, 0), COMPACT_NOT_NEEDED);
	KT_EXPECT_EQ(t, vm_event_count(COMPACT_MIGRATE_SCANNED), scanned);
	KT_EXPECT_EQ(t, compact_zone(zone, MAX_ORDER + 1), -EINVAL);
}

static void slow_path_compacts_for_a_huge_page(struct ktest *t)
{
	unsigned long stall, success;
	struct page *page;
	struct frag f;

	compact_memory(); /* forgets earlier slow-path failures, which would defer this one */
	if (!frag_setup(t, &f)) {
		frag_undo(&f);
		return;
	}
	stall = vm_event_count(COMPACT_STALL);
	success = vm_event_count(COMPACT_SUCCESS);
	KT_EXPECT(t, !any_free_block(HUGE_ORDER), "a free 2 MiB block before the request");
	page = alloc_pages(GFP_HIGHUSER_MOVABLE | __GFP_NOWARN, HUGE_ORDER);
	KT_EXPECT(t, page != NULL, "an order-9 request failed with %lu pages of zone %s free to compact",
		  f.freed_in_zone, f.zone->name);
	KT_EXPECT_EQ(t, vm_event_count(COMPACT_STALL) - stall, 1);
	KT_EXPECT_EQ(t, vm_event_count(COMPACT_SUCCESS) - success, 1);
	KT_EXPECT(t, slots_damaged() == 0, "%lu of the owner's pages lost their contents or state", slots_damaged());
	if (page)
		__free_pages(page, HUGE_ORDER);
	frag_undo(&f);
}

#define NR_PINS 16

/*
 * The NR_PINS live slots of zone's movable pageblocks with the lowest frames, where the migration
 * scanner starts.
 */
static unsigned long lowest_live_slots(struct zone *zone, unsigned long *slots)
{
	unsigned long n = 0;

	for (unsigned long i = 0; i < owner.nr_slots; i++) {
		struct page *page = owner.slot[i];
		unsigned long k;

		if (!page || &mm_zones[page_zonenum(page)] != zone || get_pageblock_migratetype(page) != MIGRATE_MOVABLE)
			continue;
		for (k = n; k > 0 && page_to_pfn(owner.slot[slots[k - 1]]) > page_to_pfn(page); k--)
			if (k < NR_PINS)
				slots[k] = slots[k - 1];
		if (k < NR_PINS)
			slots[k] = i;
		n += n < NR_PINS;
	}
	return n;
}

static void pinned_page_stays_put(struct ktest *t)
{
	unsigned long pinned, kept = 0, free_before = nr_free_pages(), failed0 = vm_event_count(PGMIGRATE_FAIL);
	unsigned long pin_slot[NR_PINS];
	struct page *pins[NR_PINS];
	struct frag f;

	if (!frag_setup(t, &f)) {
		frag_undo(&f);
		return;
	}
	pinned = lowest_live_slots(f.zone, pin_slot);
	for (unsigned long k = 0; k < pinned; k++) {
		pins[k] = owner.slot[pin_slot[k]];
		get_page(pins[k]);
	}
	compact_memory();
	for (unsigned long k = 0; k < pinned; k++) {
		kept += owner.slot[pin_slot[k]] == pins[k];
		KT_EXPECT(t, page_ref(pins[k]) == 2 && pattern_intact(pins[k], pin_slot[k]),
			  "pinned page of slot %lu: count %d (2 expected), contents %s", pin_slot[k], page_ref(pins[k]),
			  pattern_intact(pins[k], pin_slot[k]) ? "intact" : "changed");
		put_page(pins[k]);
	}
	KT_EXPECT(t, pinned == NR_PINS, "%lu live pages in zone %s to pin", pinned, f.zone->name);
	KT_EXPECT(t, kept == pinned, "%lu of %lu pinned pages moved", pinned - kept, pinned);
	KT_EXPECT(t, vm_event_count(PGMIGRATE_FAIL) - failed0 >= pinned,
		  "%lu migrations failed, but the %lu pinned pages at the bottom of the zone were tried",
		  vm_event_count(PGMIGRATE_FAIL) - failed0, pinned);
	KT_EXPECT(t, owner.migrated > 0, "nothing moved around the pinned pages");
	KT_EXPECT(t, slots_damaged() == 0, "%lu of the owner's pages lost their contents or state", slots_damaged());
	frag_undo(&f);
	KT_EXPECT_EQ(t, nr_free_pages(), free_before);
}

static void compact_memory_option_compacts_and_prints_the_counters(struct ktest *t)
{
	unsigned long runs = vm_event_count(COMPACT_RUNS), zones_with_memory = 0;

	for (int z = 0; z < (int)mm_nr_zone_ids; z++)
		zones_with_memory += mm_zones[z].managed_pages != 0;
	capture_console_start();
	compact_memory_at_boot("ktest=compaction compact_memory=1 compact_memory_now");
	capture_console_stop();
	KT_EXPECT(t, captured.len == 0 && vm_event_count(COMPACT_RUNS) == runs,
		  "without the bare word: %lu runs, printed \"%s\"", vm_event_count(COMPACT_RUNS) - runs, captured.text);
	capture_console_start();
	compact_memory_at_boot("ktest=compaction compact_memory");
	capture_console_stop();
	KT_EXPECT_EQ(t, vm_event_count(COMPACT_RUNS) - runs, zones_with_memory);
	KT_EXPECT(t, strstr(captured.text, "compact_memory: ") && strstr(captured.text, "\ncompact_runs "),
		  "printed \"%s\"", captured.text);
}

KTEST_SUITE(compaction, KTEST_CASE(compaction_with_nothing_movable_changes_nothing),
	    KTEST_CASE(compact_zone_stops_at_once_when_the_block_is_there),
	    KTEST_CASE(spread_movable_pages_compact_into_huge_blocks), KTEST_CASE(slow_path_compacts_for_a_huge_page),
	    KTEST_CASE(pinned_page_stays_put), KTEST_CASE(compact_memory_option_compacts_and_prints_the_counters));
