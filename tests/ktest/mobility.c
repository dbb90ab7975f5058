/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of grouping pages by mobility (mm/pageblock.h, mm/buddy.h) that hold whatever ran
 * before: the pageblock arrays cover the zones, a movable allocation lands in a movable
 * pageblock while one has room, the per-CPU lists keep the types apart, both mobility bits at
 * once are refused, and pagetypeinfo's lines add up to buddyinfo's. The cases that need a known
 * memory (the types after boot, claims, isolation) boot a small map on the host
 * (tests/mm/mobility_test.c).
 */
#include "tests/ktest/mm_helpers.h"
#include "tests/ktest/text_capture.h"

#include "lib/string.h"
#include "mm/pageblock.h"

/* Free pages on zone's buddy lists of type mt (under its lock). */
static unsigned long type_free_pages(struct zone *zone, unsigned int mt)
{
	unsigned long flags = zone_lock(zone), pages = 0;

	for (unsigned int o = 0; o < NR_ORDERS; o++)
		for (struct list_head *l = zone->free_area[o].free_list[mt].next;
		     l != &zone->free_area[o].free_list[mt]; l = l->next)
			pages += 1UL << o;
	zone_unlock(zone, flags);
	return pages;
}

static void pageblock_arrays_cover_every_zone(struct ktest *t)
{
	for (int z = 0; z < (int)mm_nr_zone_ids; z++) {
		struct zone *zone = &mm_zones[z];
		unsigned long total = 0;

		if (!zone->present_pages)
			continue;
		KT_EXPECT_EQ(t, zone->first_pageblock, zone->start_pfn >> PAGEBLOCK_ORDER);
		KT_EXPECT_EQ(t, zone->nr_pageblocks, ((zone->end_pfn - 1) >> PAGEBLOCK_ORDER) - zone->first_pageblock + 1);
		for (unsigned int mt = 0; mt < MIGRATE_TYPES; mt++)
			total += zone_pageblocks_of_type(zone, mt);
		KT_EXPECT(t, total == zone->nr_pageblocks, "zone %s: %lu pageblocks of a known type, %lu in all",
			  zone->name, total, zone->nr_pageblocks);
	}
}

static void movable_allocation_lands_in_a_movable_pageblock_while_one_has_room(struct ktest *t)
{
	struct zone *zone = &mm_zones[mm_top_zone];
	struct mm_held held;
	unsigned long want = 64;

	drain_pcp_lists();
	if (type_free_pages(zone, MIGRATE_MOVABLE) < 4 * want) {
		static char reason[120]; /* the runner prints it as soon as the case returns */

		snprintf(reason, sizeof(reason), "zone %s has %lu free pages in movable pageblocks, the case needs %lu",
			 zone->name, type_free_pages(zone, MIGRATE_MOVABLE), 4 * want);
		ktest_skip(t, reason);
		return;
	}
	mm_held_init(&held);
	for (unsigned long i = 0; i < want; i++) {
		unsigned int order = (unsigned int)(i % (PCP_MAX_ORDER + 1));
		struct page *page = alloc_pages(GFP_HIGHUSER_MOVABLE, order);

		if (!KT_EXPECT(t, page != NULL, "movable allocation %lu of order %u failed", i, order))
			break;
		mm_held_add(&held, page, order);
		KT_EXPECT(t, get_pageblock_migratetype(page) == MIGRATE_MOVABLE,
			  "movable block at pfn %#lx (order %u) in a %s pageblock", page_to_pfn(page), order,
			  migratetype_name(get_pageblock_migratetype(page)));
	}
	mm_held_free_all(&held);
	drain_pcp_lists();
}

/*
 * A movable page and an unmovable one, freed in that order: each goes on the list of its
 * pageblock's type, so when those differ (the movable page in a movable pageblock, the other not)
 * a movable allocation gets the movable page back, not the more recently freed one.
 */
static void per_cpu_lists_keep_types_apart(struct ktest *t)
{
	struct page *movable, *other, *again;
	unsigned int movable_mt, other_mt;
	bool bypassed, other_bypassed;
	unsigned long irq = arch_irq_save(); /* stay on this CPU */

	drain_pcp_lists();
	movable = alloc_pages(GFP_HIGHUSER_MOVABLE, 0);
	other = alloc_pages(GFP_KERNEL, 0);
	if (!KT_EXPECT(t, movable && other, "order-0 allocations failed")) {
		if (movable)
			__free_pages(movable, 0);
		if (other)
			__free_pages(other, 0);
		arch_irq_restore(irq);
		return;
	}
	movable_mt = get_pageblock_migratetype(movable);
	other_mt = get_pageblock_migratetype(other);
	bypassed = mm_pcp_free_bypasses(movable);
	__free_pages(movable, 0);
	KT_EXPECT(t, page_pcptype(movable) == movable_mt, "the movable page's list type is %u, its pageblock's %s",
		  page_pcptype(movable), migratetype_name(movable_mt));
	mm_expect_freed_to(t, movable, bypassed);
	other_bypassed = mm_pcp_free_bypasses(other);
	__free_pages(other, 0);
	KT_EXPECT(t, page_pcptype(other) == other_mt, "the GFP_KERNEL page's list type is %u, its pageblock's %s",
		  page_pcptype(other), migratetype_name(other_mt));
	mm_expect_freed_to(t, other, other_bypassed);
	again = alloc_pages(GFP_HIGHUSER_MOVABLE, 0);
	/* Off the lists (a busy zone gave it back) the movable page is one free block among many. */
	if (movable_mt == MIGRATE_MOVABLE && other_mt != MIGRATE_MOVABLE && !bypassed)
		KT_EXPECT(t, again == movable, "a movable allocation got pfn %#lx, not the movable page %#lx",
			  again ? page_to_pfn(again) : 0, page_to_pfn(movable));
	if (again)
		__free_pages(again, 0);
	arch_irq_restore(irq);
	drain_pcp_lists();
}

static void both_mobility_bits_are_refused(struct ktest *t)
{
	static const unsigned int orders[] = { 0, PCP_MAX_ORDER, PCP_MAX_ORDER + 1 };

	for (unsigned int i = 0; i < ARRAY_SIZE(orders); i++) {
		struct page *page;

		capture_console_start();
		page = alloc_pages(__GFP_MOVABLE | __GFP_RECLAIMABLE, orders[i]);
		capture_console_stop();
		KT_EXPECT(t, page == NULL, "order %u: a block with both mobility bits", orders[i]);
		KT_EXPECT(t, strstr(captured.text, "refused") != NULL, "order %u: no refusal printed: \"%s\"",
			  orders[i], captured.text);
		if (page)
			__free_pages(page, orders[i]);
	}
}

/* The numbers after the label of a pagetypeinfo line, into n[] (up to max); how many there were. */
static unsigned int line_numbers(const char *line, const char *after, unsigned long *n, unsigned int max)
{
	const char *p = strstr(line, after);
	unsigned int count = 0;

	for (p = p ? p + strlen(after) : line + strlen(line); *p && count < max;) {
		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			break;
		n[count] = 0;
		while (*p >= '0' && *p <= '9')
			n[count] = n[count] * 10 + (unsigned long)(*p++ - '0');
		count++;
	}
	return count;
}

static void pagetypeinfo_adds_up_to_buddyinfo(struct ktest *t)
{
	char line[200], label[40], node[24];
	unsigned long n[NR_ORDERS + 1];

	drain_pcp_lists();
	for (int z = 0; z < (int)mm_nr_zone_ids; z++) {
		unsigned long sum[NR_ORDERS] = { 0 }, blocks = 0;
		struct zone *zone = &mm_zones[z];

		if (!zone->present_pages)
			continue;
		snprintf(node, sizeof(node), "Node %u, zone ", zone_to_nid(zone));
		for (unsigned int mt = 0; mt < MIGRATE_TYPES; mt++) {
			pagetypeinfo_free_line(zone, mt, line, sizeof(line));
			snprintf(label, sizeof(label), "type %12s", migratetype_name(mt));
			KT_EXPECT(t, !strncmp(line, node, strlen(node)) && strstr(line, label), "line \"%s\"", line);
			KT_EXPECT_EQ(t, line_numbers(line, label, n, NR_ORDERS + 1), NR_ORDERS);
			for (unsigned int o = 0; o < NR_ORDERS; o++)
				sum[o] += n[o];
		}
		for (unsigned int o = 0; o < NR_ORDERS; o++)
			KT_EXPECT(t, sum[o] == zone->free_area[o].nr_free, "zone %s order %u: %lu blocks by type, nr_free %lu",
				  zone->name, o, sum[o], zone->free_area[o].nr_free);
		pagetypeinfo_blocks_line(zone, line, sizeof(line));
		KT_EXPECT_EQ(t, line_numbers(line, zone->name, n, NR_ORDERS + 1), MIGRATE_TYPES);
		for (unsigned int mt = 0; mt < MIGRATE_TYPES; mt++)
			blocks += n[mt];
		KT_EXPECT_EQ(t, blocks, zone->nr_pageblocks);
	}
}

KTEST_SUITE(mobility, KTEST_CASE(pageblock_arrays_cover_every_zone),
	    KTEST_CASE(movable_allocation_lands_in_a_movable_pageblock_while_one_has_room),
	    KTEST_CASE(per_cpu_lists_keep_types_apart), KTEST_CASE(both_mobility_bits_are_refused),
	    KTEST_CASE(pagetypeinfo_adds_up_to_buddyinfo));
