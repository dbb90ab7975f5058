/* SPDX-License-Identifier: MIT */
/*
 * Randomized self-test of the page allocator against a reference model: random orders and zones,
 * allocations and frees in random order with fixed seeds, each block checked against a bitmap of
 * the frames the model says are allocated (no overlap, right zone, alignment, counts), and a
 * token written in each block checked when it is freed. Freeing everything must restore the free
 * lists' shape.
 */
#include "tests/ktest/mm_helpers.h"

#define MAX_HELD 256
#define STEPS 6000

struct held_block {
	struct page *page;
	unsigned int order;
	unsigned long token;
};

struct model {
	unsigned long *bitmap; /* one bit per frame up to mm_max_pfn: allocated by the test */
	struct page *bitmap_page;
	unsigned int bitmap_order;
	struct held_block held[MAX_HELD];
	unsigned int nheld;
	unsigned long pages; /* frames held */
};

static struct model model;

#define BITS (8 * sizeof(unsigned long))

/* Sets (or clears) the model's bits of a block; false if one already had that value. */
static bool model_mark(unsigned long pfn, unsigned long n, bool set)
{
	for (unsigned long p = pfn; p < pfn + n; p++) {
		unsigned long *w = &model.bitmap[p / BITS], bit = 1UL << (p % BITS);

		if (!!(*w & bit) == set)
			return false;
		*w ^= bit;
	}
	return true;
}

/* A bitmap for mm_max_pfn frames, from the allocator itself. */
static bool model_init(void)
{
	unsigned long bytes = (mm_max_pfn + BITS) / 8;

	model.nheld = 0;
	model.pages = 0;
	for (model.bitmap_order = 0; (PAGE_SIZE << model.bitmap_order) < bytes; model.bitmap_order++)
		;
	if (model.bitmap_order > MAX_ORDER)
		return false;
	model.bitmap_page = alloc_pages(GFP_KERNEL | __GFP_ZERO, model.bitmap_order);
	model.bitmap = model.bitmap_page ? page_address(model.bitmap_page) : NULL;
	return model.bitmap != NULL;
}

/* Low orders are common, high ones rare, as in a real kernel. */
static unsigned int random_order(unsigned long *seed)
{
	unsigned long r = mm_test_rand(seed) % 100;

	return r < 50 ? 0 : r < 70 ? 1 : r < 85 ? (unsigned int)(2 + r % 3) : (unsigned int)(r % (MAX_ORDER + 1));
}

static gfp_t random_gfp(unsigned long *seed)
{
	static const gfp_t choices[] = { GFP_KERNEL, GFP_KERNEL, GFP_KERNEL, __GFP_DMA32, __GFP_DMA };

	return choices[mm_test_rand(seed) % 5] | __GFP_NOWARN;
}

static unsigned long zone_limit(gfp_t gfp)
{
	return gfp & __GFP_DMA ? ZONE_DMA_END_PFN : gfp & __GFP_DMA32 ? ZONE_DMA32_END_PFN : ~0UL;
}

static void random_alloc(struct ktest *t, unsigned long *seed)
{
	unsigned int order = random_order(seed);
	gfp_t gfp = random_gfp(seed);
	struct page *page = alloc_pages(gfp, order);
	unsigned long pfn, n = 1UL << order;

	if (!page)
		return; /* a small zone may be out of blocks this large */
	pfn = page_to_pfn(page);
	KT_EXPECT(t, (pfn & (n - 1)) == 0 && pfn + n <= zone_limit(gfp) && pfn + n <= mm_max_pfn,
		  "order %u gfp %#x: block at pfn %#lx", order, gfp, pfn);
	KT_EXPECT(t, page_count(page) == 1 && !PageBuddy(page) && !PageReserved(page),
		  "order %u block at pfn %#lx: count %d flags %#x", order, pfn, page_count(page),
		  (unsigned int)page->flags);
	KT_EXPECT(t, model_mark(pfn, n, true), "order %u block at pfn %#lx overlaps a held block", order, pfn);
	model.held[model.nheld++] = (struct held_block){ page, order, mm_test_rand(seed) };
	*(unsigned long *)page_address(page) = model.held[model.nheld - 1].token;
	model.pages += n;
}

static void random_free(struct ktest *t, unsigned long *seed)
{
	unsigned int i = (unsigned int)(mm_test_rand(seed) % model.nheld);
	struct held_block b = model.held[i];
	unsigned long pfn = page_to_pfn(b.page), n = 1UL << b.order;

	KT_EXPECT(t, *(unsigned long *)page_address(b.page) == b.token,
		  "order %u block at pfn %#lx: token overwritten", b.order, pfn);
	KT_EXPECT(t, model_mark(pfn, n, false), "order %u block at pfn %#lx not in the model", b.order, pfn);
	__free_pages(b.page, b.order);
	model.held[i] = model.held[--model.nheld];
	model.pages -= n;
}

static void run_seed(struct ktest *t, unsigned long seed)
{
	struct mm_shape before;
	unsigned long free0, reports = mm_bad_page_reports;

	mm_shape_take(&before);
	free0 = before.free_pages;
	for (int step = 0; step < STEPS && !t->failures; step++) {
		bool alloc = model.nheld == 0 || (model.nheld < MAX_HELD && mm_test_rand(&seed) % 100 < 55);

		if (alloc)
			random_alloc(t, &seed);
		else
			random_free(t, &seed);
		KT_EXPECT(t, nr_free_pages() + model.pages == free0, "step %d: %lu free + %lu held != %lu",
			  step, nr_free_pages(), model.pages, free0);
	}
	while (model.nheld)
		random_free(t, &seed);
	mm_expect_shape(t, &before);
	KT_EXPECT_EQ(t, mm_bad_page_reports, reports);
}

static void random_sequences_match_the_bitmap_model(struct ktest *t)
{
	static const unsigned long seeds[] = { 0x6d6d5f72616e64UL, 0x1234567UL, 0xdeadbeefcafeUL };
	bool poison = mm_debug_poison;

	if (!model_init()) {
		ktest_skip(t, "no block large enough for the model's bitmap");
		return;
	}
	set_page_poisoning(false); /* poisoning has its own test; keep this one quick under emulation */
	for (unsigned int s = 0; s < sizeof(seeds) / sizeof(seeds[0]) && !t->failures; s++)
		run_seed(t, seeds[s]);
	set_page_poisoning(poison);
	__free_pages(model.bitmap_page, model.bitmap_order);
}

KTEST_SUITE(mm_random, KTEST_CASE(random_sequences_match_the_bitmap_model));
