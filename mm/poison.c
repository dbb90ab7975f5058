/* SPDX-License-Identifier: MIT */
/*
 * MM_DEBUG page poisoning: a freed page is filled with PAGE_POISON and marked PG_poisoned; when
 * it is allocated again the pattern is checked, so a write to a free page (use after free) is
 * caught with its address and the bytes found.
 */
#include "mm/poison.h"

#include "mm/arch.h"
#include "mm/memmap.h"
#include "mm/zone.h"

#ifndef MM_DEBUG
#define MM_DEBUG 0
#endif

#define POISON_WORD (0x0101010101010101ULL * PAGE_POISON)

bool mm_debug_poison = MM_DEBUG;
unsigned long mm_poison_errors;
unsigned long mm_nr_poisoned_pages;
union mm_alloc_gate mm_alloc_gate;

void alloc_slow_reasons_add(int delta)
{
	uint64_t old = __atomic_load_n(&mm_alloc_gate.word, __ATOMIC_RELAXED), new;

	do {
		uint32_t reasons = (uint32_t)(old >> 32) + (uint32_t)delta;

		new = (uint64_t)reasons << 32 | (reasons ? 0u : PCP_MAX_ORDER + 1u);
	} while (!__atomic_compare_exchange_n(&mm_alloc_gate.word, &old, new, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
}

void poison_pages(struct page *page, unsigned long nr)
{
	for (unsigned long i = 0; i < nr; i++) {
		if (page_flag_test(&page[i], PG_poisoned))
			continue;
		memset(page_address(&page[i]), PAGE_POISON, PAGE_SIZE);
		page_flag_set(&page[i], PG_poisoned);
		__atomic_fetch_add(&mm_nr_poisoned_pages, 1, __ATOMIC_RELAXED);
		alloc_slow_reasons_add(1);
	}
}

/* Reports the first corrupted byte of the poisoned frame at mem (word w differs). */
static void report_poison(struct page *page, const uint8_t *mem, size_t w)
{
	size_t off = w * 8, len = MIN((size_t)16, PAGE_SIZE - off);
	char bytes[16 * 3 + 1];

	while (mem[off] == PAGE_POISON)
		off++;
	len = MIN(len, PAGE_SIZE - off);
	for (size_t i = 0; i < len; i++)
		snprintf(bytes + 3 * i, sizeof(bytes) - 3 * i, " %02x", mem[off + i]);
	printk("mm: poison overwritten in free page pfn %#lx at %p (offset %#zx), expected %#x:%s\n",
	       page_to_pfn(page), (void *)(mem + off), off, PAGE_POISON, bytes);
	__atomic_fetch_add(&mm_poison_errors, 1, __ATOMIC_RELAXED);
}

/* Checks one poisoned frame; returns true when the pattern is intact. */
static bool check_page(struct page *page)
{
	const uint64_t *w = page_address(page);

	for (size_t i = 0; i < PAGE_SIZE / 8; i++)
		if (w[i] != POISON_WORD) {
			report_poison(page, (const uint8_t *)w, i);
			return false;
		}
	return true;
}

void unpoison_pages(struct page *page, unsigned long nr)
{
	for (unsigned long i = 0; i < nr; i++) {
		if (!page_flag_test(&page[i], PG_poisoned))
			continue;
		check_page(&page[i]);
		page_flag_clear(&page[i], PG_poisoned);
		__atomic_fetch_sub(&mm_nr_poisoned_pages, 1, __ATOMIC_RELAXED);
		alloc_slow_reasons_add(-1);
	}
}
