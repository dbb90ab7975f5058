/* SPDX-License-Identifier: MIT */
/*
 * A small memtest: takes every free page of RAM from the allocator (largest blocks first), writes
 * a pattern that differs for every word of every frame, reads it back, and gives everything
 * back. It proves that every free frame is real, distinct memory reachable through the direct
 * map, and that the allocator hands out no frame twice. On the host, whose RAM is simulated, it
 * stops after MEMTEST_HOST_LIMIT pages.
 */
#include "tests/ktest/mm_helpers.h"

#include "lib/printk.h"

#ifdef HOST_BUILD
#define MEMTEST_LIMIT (16UL << (20 - PAGE_SHIFT)) /* 16 MiB of simulated memory */
#else
#define MEMTEST_LIMIT (~0UL)
#endif

/* The word at offset i of frame pfn: unique for every word, never the poison or zero. */
static uint64_t pattern(unsigned long pfn, unsigned long i)
{
	return ((uint64_t)pfn << 20 | i << 3) ^ 0x5555555555555555ULL;
}

static void fill_block(struct page *page, unsigned int order)
{
	for (unsigned long f = 0; f < (1UL << order); f++) {
		uint64_t *w = page_address(&page[f]);
		unsigned long pfn = page_to_pfn(&page[f]);

		for (unsigned long i = 0; i < PAGE_SIZE / 8; i++)
			w[i] = pattern(pfn, i);
	}
}

/* Returns the number of bad words in the block, reporting the first. */
static unsigned long verify_block(struct ktest *t, struct page *page, unsigned int order)
{
	unsigned long bad = 0;

	for (unsigned long f = 0; f < (1UL << order); f++) {
		const uint64_t *w = page_address(&page[f]);
		unsigned long pfn = page_to_pfn(&page[f]);

		for (unsigned long i = 0; i < PAGE_SIZE / 8; i++)
			if (w[i] != pattern(pfn, i) && !bad++)
				(void)KT_EXPECT(t, false, "pfn %#lx word %lu: %#llx, wrote %#llx", pfn, i,
					  (unsigned long long)w[i], (unsigned long long)pattern(pfn, i));
	}
	return bad;
}

static void every_free_page_holds_a_pattern(struct ktest *t)
{
	bool poison = mm_debug_poison;
	struct mm_shape before;
	struct mm_held held;
	struct page *page;
	unsigned long bad = 0;

	set_page_poisoning(false);
	mm_shape_take(&before);
	mm_held_init(&held);
	for (int o = MAX_ORDER; o >= 0; o--)
		while (held.pages < MEMTEST_LIMIT && (page = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, (unsigned int)o))) {
			mm_held_add(&held, page, (unsigned int)o);
			fill_block(page, (unsigned int)o);
		}
	for (struct list_head *l = held.list.next; l != &held.list; l = l->next) {
		page = lru_to_page(l);
		/* The list link lives in the struct page, not in the frame: the pattern is intact. */
		bad += verify_block(t, page, (unsigned int)page->private);
	}
	printk("    # memtest: %lu pages (%lu MiB) written and read back, %lu bad words\n", held.pages,
	       held.pages >> (20 - PAGE_SHIFT), bad);
	KT_EXPECT(t, held.pages == before.free_pages || MEMTEST_LIMIT != ~0UL,
		  "tested %lu pages of %lu free", held.pages, before.free_pages);
	mm_held_free_all(&held);
	mm_expect_shape(t, &before);
	set_page_poisoning(poison);
}

KTEST_SUITE(mm_memtest, KTEST_CASE(every_free_page_holds_a_pattern));
