/* SPDX-License-Identifier: MIT */
/*
 * The model test's operations on the page allocator itself: alloc_pages() and __get_free_pages()
 * at every order with every sensible gfp combination, the three ways of giving a block back
 * (__free_pages, free_pages, the last put_page), get_page()/put_page() on any sub-page of a
 * compound page, split_huge_page(), the pcp lists, and the calls that must be refused.
 */
#include "tests/model/model.h"

#include "mm/pageblock.h"
#include "mm/vmstat.h"

#include <string.h>

/* Low orders are common, as in a kernel; every order up to MAX_ORDER comes up. */
static unsigned int random_order(void)
{
	unsigned long r = rnd_below(100);

	if (r < 30)
		return 0;
	if (r < 45)
		return 1;
	if (r < 57)
		return 2;
	if (r < 67)
		return 3;
	if (r < 87)
		return 4 + (unsigned int)rnd_below(5);
	return r < 93 ? 9 : 10;
}

/*
 * A zone modifier (or none), a mobility (unmovable, movable or reclaimable), and any of
 * __GFP_ZERO, __GFP_COMP, __GFP_NOWARN.
 */
static gfp_t random_gfp(unsigned int order)
{
	unsigned long r = rnd_below(100);
	gfp_t gfp = r < 60 ? GFP_KERNEL : r < 85 ? __GFP_DMA32 : __GFP_DMA;

	if (chance(order < 6 ? 20 : 4)) /* zeroing 4 MiB is slow: keep it rare for large blocks */
		gfp |= __GFP_ZERO;
	if (chance(30))
		gfp |= __GFP_COMP;
	if (chance(50))
		gfp |= __GFP_NOWARN;
	if (chance(30)) /* GFP_ATOMIC: into the reserve below the min watermark */
		gfp |= __GFP_HIGH;
	r = rnd_below(100);
	gfp |= r < 40 ? __GFP_MOVABLE : r < 60 ? __GFP_RECLAIMABLE : 0;
	return gfp;
}

/* Words of each page that must be zero after __GFP_ZERO: where tokens were, and between. */
static void expect_zeroed(const char *op, struct page *page, unsigned int order)
{
	static const unsigned int words[] = { 0, 1, PAGE_SIZE / 16, PAGE_SIZE / 8 - 2, PAGE_SIZE / 8 - 1 };

	for (unsigned long i = 0; i < (1UL << order); i++) {
		const uint64_t *w = page_address(page + i);

		for (size_t k = 0; k < ARRAY_SIZE(words); k++)
			if (w[words[k]])
				model_fail("%s(__GFP_ZERO, order %u): page %lu (pfn %#lx) has %#llx at offset %#x",
					   op, order, i, page_to_pfn(page) + i, (unsigned long long)w[words[k]],
					   words[k] * 8);
	}
}

/*
 * Checks an allocation's outcome against the model: failure exactly when no zone allowed has a
 * free block gfp may take without going below its watermark (a block already on a CPU's list
 * may be handed out below it: success needs only a free block).
 */
static void expect_outcome(const char *op, gfp_t gfp, unsigned int order, struct page *page)
{
	unsigned int mask = gfp_zones(gfp);
	int top = model_top_zone(mask, order), may = model_top_zone_for(gfp, order);
	char g[64];

	if (!page && may >= 0)
		model_fail("%s(gfp %s, order %u) returned NULL, but the model has %lu free aligned blocks of "
			   "2^%u frames it may take in the zones allowed (zone %s: %lu free pages, min %lu)", op,
			   gfp_name(gfp, g, sizeof(g)), order, model_blocks_for(gfp, order), order, zone_name(may),
			   model.zone_free[may], mm_zones[may].watermark[WMARK_MIN]);
	if (page && top < 0)
		model_fail("%s(gfp %s, order %u) returned pfn %#lx, but the model has no free aligned block of "
			   "2^%u frames in the zones allowed", op, gfp_name(gfp, g, sizeof(g)), order,
			   page_to_pfn(page), order);
	if (page && !model.pcp_on && (int)pfn_zone(page_to_pfn(page)) != may)
		model_fail("%s(gfp %s, order %u) with the pcp lists off took pfn %#lx from zone %s, but zone %s "
			   "is higher and has a free block it may take", op, gfp_name(gfp, g, sizeof(g)), order,
			   page_to_pfn(page), zone_name(pfn_zone(page_to_pfn(page))), may < 0 ? "?" : zone_name(may));
}

/*
 * With the pcp lists off, did zone z have a free block of order or more in pageblocks of gfp's
 * mobility type? Then the allocation must come from one (mm/buddy.h: the fallback is for when
 * there is none).
 */
static bool own_type_has_room(int z, gfp_t gfp, unsigned int order)
{
	return !model.pcp_on && z >= 0 && (mm_zones[z].free_orders[gfp_migratetype(gfp)] >> order);
}

/* The type of the pageblocks of a block handed out, against own_type_has_room() before it. */
static void expect_pageblock_type(const char *op, gfp_t gfp, unsigned int order, struct page *page, bool had_room)
{
	char g[64];

	for (unsigned long i = 0; page && had_room && i < (1UL << order); i += PAGEBLOCK_NR_PAGES)
		if (get_pageblock_migratetype(page + i) != gfp_migratetype(gfp))
			model_fail("%s(gfp %s, order %u) took pfn %#lx from a %s pageblock, but its zone had a free "
				   "block in a %s one", op, gfp_name(gfp, g, sizeof(g)), order, page_to_pfn(page + i),
				   migratetype_name(get_pageblock_migratetype(page + i)),
				   migratetype_name(gfp_migratetype(gfp)));
}

/*
 * Compaction is the slow path's last resort for a costly allocation that may wait (order >= 3,
 * not __GFP_HIGH): it must not have run (stalls counted, or blocks moved) for any other, nor when
 * the model had a free block the allocation could take (may_before >= 0). What it moved is in the
 * model already (the owner's migrate_page), so expect_outcome() judges the state it left.
 */
static void expect_compaction_needed(const char *op, gfp_t gfp, unsigned int order, int may_before,
				     unsigned long stalls, unsigned long moved)
{
	unsigned long stalls_now = vm_event_count(COMPACT_STALL), moved_now = external_moved_pages();
	bool may_compact = order >= PAGE_ALLOC_COSTLY_ORDER && !(gfp & __GFP_HIGH) && may_before < 0;
	char g[64];

	if (!may_compact && (stalls_now != stalls || moved_now != moved))
		model_fail("%s(gfp %s, order %u) compacted (%lu stalls, %lu pages moved), but %s", op,
			   gfp_name(gfp, g, sizeof(g)), order, stalls_now - stalls, moved_now - moved,
			   may_before >= 0 ? "the model had a free block it could take" : "it may not compact");
}

void op_alloc(void)
{
	unsigned int order = random_order();
	gfp_t gfp = random_gfp(order);
	bool by_address = chance(15);
	const char *op = by_address ? "__get_free_pages" : "alloc_pages";
	enum zone_type highest = (enum zone_type)model_top_zone(gfp_zones(gfp), 0);
	struct page *page;
	struct block *b;
	int may_before = model_top_zone_for(gfp, order);
	bool had_room = own_type_has_room(may_before, gfp, order);
	unsigned long stalls = vm_event_count(COMPACT_STALL), moved = external_moved_pages();

	note(op, 0, order, gfp);
	if (by_address) {
		unsigned long addr = __get_free_pages(gfp, order);
		page = addr ? virt_to_page((void *)addr) : NULL;
	} else {
		page = alloc_pages(gfp, order);
	}
	expect_compaction_needed(op, gfp, order, may_before, stalls, moved);
	expect_outcome(op, gfp, order, page);
	expect_pageblock_type(op, gfp, order, page, had_room);
	stats.allocs++;
	if (!page) {
		stats.alloc_failures++;
		stats.exhausted += order == 0;
		return;
	}
	stats.fallbacks += pfn_zone(page_to_pfn(page)) != highest;
	if ((gfp & __GFP_ZERO) && model_frames_are(page_to_pfn(page), order, FRAME_FREE))
		expect_zeroed(op, page, order); /* (a block that was not free fails in block_add) */
	b = block_add(op, page, order, (gfp & __GFP_COMP) && order ? BLOCK_COMPOUND : BLOCK_PLAIN, FRAME_FREE,
		      gfp_zones(gfp));
	/* Most movable allocations get an owner that lets them move: compaction then has work. */
	if ((gfp & __GFP_MOVABLE) && order < PAGEBLOCK_ORDER && chance(60))
		movable_adopt(b);
}

/* Expects the count the model has for b on b's first page. */
static void expect_count(const char *op, const struct block *b)
{
	if (page_count(b->page) != b->refs)
		model_fail("%s: order-%u block at pfn %#lx has count %d, the model %d", op, b->order, b->pfn,
			   page_count(b->page), b->refs);
}

/* The page a reference is taken or dropped through: any sub-page of a compound page, else the first. */
static struct page *ref_target(const struct block *b)
{
	return b->kind == BLOCK_PLAIN ? b->page : b->page + rnd_below(1UL << b->order);
}

/* put_page() through a sub-page of b; at the last reference b goes back (and is forgotten). */
static void put_one(struct block *b)
{
	struct page *target = ref_target(b);

	if (b->refs == 1)
		movable_let_go(b);
	note("put_page", page_to_pfn(target), b->order, (unsigned long)b->refs);
	if (b->refs == 1)
		block_check_tokens("put_page", b);
	put_page(target);
	stats.puts++;
	if (--b->refs) {
		expect_count("put_page", b);
		return;
	}
	if (b->kind == BLOCK_HUGE)
		hugetlb_huge_freed(b);
	else
		block_drop("put_page", b, FRAME_FREE);
}

/* The block's only reference goes with __free_pages() or free_pages(). */
static void free_one(struct block *b, bool by_address)
{
	movable_let_go(b);
	note(by_address ? "free_pages" : "__free_pages", b->pfn, b->order, 0);
	block_check_tokens(by_address ? "free_pages" : "__free_pages", b);
	if (by_address)
		free_pages((unsigned long)page_address(b->page), b->order);
	else
		__free_pages(b->page, b->order);
	block_drop(by_address ? "free_pages" : "__free_pages", b, FRAME_FREE);
}

void op_free(void)
{
	struct block *b = block_random();
	unsigned long r = rnd_below(100);

	if (!b)
		return op_alloc();
	stats.frees++;
	if (b->kind == BLOCK_HUGE || b->refs > 1 || r < 35)
		put_one(b);
	else
		free_one(b, r >= 75);
}

void op_get(void)
{
	struct block *b = block_random();
	struct page *target;

	if (!b || b->refs >= 8)
		return;
	target = ref_target(b);
	note("get_page", page_to_pfn(target), b->order, (unsigned long)b->refs);
	get_page(target);
	b->refs++;
	stats.gets++;
	expect_count("get_page", b);
}

void op_put(void)
{
	struct block *b = block_random();

	if (b)
		put_one(b);
}

void block_release(struct block *b)
{
	for (int refs = b->refs; refs > 0; refs--)
		put_one(b); /* the last one forgets b */
}

/* After a successful split: every page of b is an independent order-0 page with one reference. */
static void expect_split(const struct block *b)
{
	for (unsigned long i = 0; i < (1UL << b->order); i++) {
		struct page *page = b->page + i;

		if (page_count(page) != 1 || PageCompound(page) || page->private)
			model_fail("split_huge_page: page %lu of the order-%u block at pfn %#lx: count %d, "
				   "flags %#x, private %#lx", i, b->order, b->pfn, page_count(page),
				   (unsigned int)page->flags, page->private);
	}
}

void op_split(void)
{
	struct block *b = block_random();
	struct page *target;
	int want, got;

	if (!b)
		return;
	target = b->page + rnd_below(1UL << b->order);
	want = b->kind != BLOCK_COMPOUND || b->movable ? -EINVAL : b->refs > 1 ? -EBUSY : 0;
	note("split_huge_page", page_to_pfn(target), b->order, (unsigned long)b->kind);
	block_check_tokens("split_huge_page", b);
	got = split_huge_page(target);
	if (got != want)
		model_fail("split_huge_page(pfn %#lx) of a %s order-%u block with %d references returned %d, "
			   "expected %d", page_to_pfn(target),
			   b->kind == BLOCK_PLAIN ? "plain" : b->kind == BLOCK_HUGE ? "hugetlb" : "compound",
			   b->order, b->refs, got, want);
	stats.splits += got == 0;
	stats.split_busy += got == -EBUSY;
	if (got == 0) {
		expect_split(b);
		block_split("split_huge_page", b);
	} else
		expect_count("refused split_huge_page", b);
}

/* Blocks on the pcp lists, all zones and slots (orders, whole pageblocks). */
static unsigned long pcp_blocks(void)
{
	unsigned long n = 0;

	for (unsigned int cpu = 0; cpu < mm_pcp_nr_cpus; cpu++)
		for (unsigned int z = 0; z < MAX_NR_ZONES; z++)
			for (unsigned int slot = 0; slot < PCP_NR_SLOTS; slot++)
				n += pcp_count(cpu_pcp(cpu, z), slot);
	for (unsigned int z = 0; z < MAX_NR_ZONES; z++) /* and the whole pageblocks waiting for a refill */
		n += mm_pcp_handoff_pages(&mm_zones[z]) >> PAGEBLOCK_ORDER;
	return n;
}

static void drain(void)
{
	unsigned long before = pcp_blocks(), moved;

	note("drain_pcp_lists", 0, 0, before);
	moved = drain_pcp_lists();
	if (moved != before || pcp_blocks())
		model_fail("drain_pcp_lists() moved %lu blocks of %lu, %lu are left", moved, before, pcp_blocks());
}

static void switch_pcp_lists(bool on)
{
	bool was;

	note("set_pcp_lists", 0, 0, on);
	was = set_pcp_lists(on);
	if (was != model.pcp_on || (!on && pcp_blocks()))
		model_fail("set_pcp_lists(%d) returned %d (model %d); %lu pcp blocks left", on, was,
			   model.pcp_on, pcp_blocks());
	model.pcp_on = on;
}

void op_pcp(void)
{
	if (chance(50))
		drain();
	else
		switch_pcp_lists(chance(70));
}

/* A gfp alloc_pages() must refuse: an unknown bit, or both mobility bits at once. */
static gfp_t refused_gfp(unsigned int order, const char **why)
{
	gfp_t gfp = random_gfp(order) & ~__GFP_MOBILITY;

	if (chance(25)) {
		*why = "__GFP_MOVABLE and __GFP_RECLAIMABLE at once";
		return gfp | __GFP_MOBILITY;
	}
	unsigned int above = 32 - (unsigned int)__builtin_clz(__GFP_ALL); /* the first bit no flag uses */

	*why = "unknown gfp bits";
	return gfp | 1u << (above + rnd_below(32 - above));
}

/* Calls that must fail and change nothing: orders above MAX_ORDER, refused gfp bits. */
void op_refused(void)
{
	bool bad_order = chance(50);
	unsigned int order = bad_order ? MAX_ORDER + 1 + (unsigned int)rnd_below(22) : random_order();
	const char *why = "order above MAX_ORDER";
	gfp_t gfp = bad_order ? random_gfp(order) : refused_gfp(order, &why);
	bool by_address = chance(30), got;
	char g[64];

	note(by_address ? "__get_free_pages (refused)" : "alloc_pages (refused)", 0, order, gfp);
	got = by_address ? __get_free_pages(gfp, order) != 0 : alloc_pages(gfp, order) != NULL;
	stats.refused++;
	if (got)
		model_fail("alloc_pages(gfp %s, order %u) succeeded; it must be refused (%s)",
			   gfp_name(gfp, g, sizeof(g)), order, why);
}
