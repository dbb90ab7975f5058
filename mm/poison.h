/* SPDX-License-Identifier: MIT */
/*
 * Page poisoning: the switch and counters (for everyone), and the loops over every page of a
 * block (mm/'s own, used only when mm_debug_poison is on, or while poisoned pages remain from a
 * time it was on).
 */
#ifndef MM_POISON_H
#define MM_POISON_H

#include "mm/page.h"

/*
 * MM_DEBUG: when true, freed pages are filled with PAGE_POISON and checked on allocation; a
 * mismatch (someone wrote to a free page) is reported with the address and the bytes. On by
 * default in MM_DEBUG builds; the map replay and the benchmark turn it off.
 */
#define PAGE_POISON 0xaa
extern bool mm_debug_poison; /* read it; change it with set_page_poisoning() */
/* Counted atomically: read them with __atomic_load_n() where other CPUs allocate and free. */
extern unsigned long mm_poison_errors;  /* poison mismatches found so far */
extern unsigned long mm_nr_poisoned_pages; /* free pages holding poison, checked when allocated */
/*
 * What sends every alloc_pages() to its slow side, in one 64-bit word that changes atomically
 * (alloc_slow_reasons_add()): slow_reasons counts mm_nr_poisoned_pages plus 1 while page_owner
 * keeps records (mm_init() adds it); the orders alloc_pages()'s fast path serves are those below
 * fast_orders, PCP_MAX_ORDER + 1 while slow_reasons is 0, else 0, so that the fast path's test of
 * the order is its test of poison and page_owner too. 0 (all slow) until mm_init() opens it.
 */
union mm_alloc_gate {
	uint64_t word;
	struct {
		uint32_t fast_orders; /* the low half: every machine mm/ runs on is little-endian */
		uint32_t slow_reasons;
	};
};
extern union mm_alloc_gate mm_alloc_gate;

/**
 * alloc_slow_reasons_add() - Count reasons for alloc_pages() to take its slow side.
 * @delta: added to mm_alloc_gate's slow_reasons (0: only sets fast_orders from it).
 *
 * One atomic update of the word: fast_orders follows slow_reasons in the same step, however
 * many CPUs add and take away at once.
 */
void alloc_slow_reasons_add(int delta);

/**
 * set_page_poisoning() - Turn page poisoning (mm_debug_poison) on or off.
 * @on: true: every block freed from now on is poisoned, and checked when allocated again.
 *
 * The only writer of mm_debug_poison: while it is on, the fast path of __free_pages() must take
 * the slow one, and the allocator's table of expected page words says so (it is defined with the
 * allocator, mm/page_alloc.c), so that the fast path makes no test of its own for it. Pages
 * poisoned while it was on stay poisoned, and checked, after it is turned off.
 *
 * Return: the previous state.
 */
bool set_page_poisoning(bool on);

/**
 * poison_pages() - Fill frames with PAGE_POISON and mark them PG_poisoned.
 * @page: the first frame's page.
 * @nr: how many frames.
 */
void poison_pages(struct page *page, unsigned long nr);

/**
 * unpoison_pages() - Check and unmark poisoned frames.
 * @page: the first frame's page.
 * @nr: how many frames; each PG_poisoned one is checked, any overwritten byte reported.
 */
void unpoison_pages(struct page *page, unsigned long nr);

#endif
