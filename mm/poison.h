/* SPDX-License-Identifier: MIT */
/*
 * MM_DEBUG page poisoning (internal to mm/; the switch and counters are in mm/page_alloc.h).
 * Loops over every page of a block: used only when mm_debug_poison is on, or while poisoned
 * pages remain from a time it was on.
 */
#ifndef MM_POISON_H
#define MM_POISON_H

#include "mm/page_alloc.h"

/* Fills each of the nr frames at page with PAGE_POISON and marks it PG_poisoned. */
void poison_pages(struct page *page, unsigned long nr);

/* Checks and unmarks each PG_poisoned frame of the nr at page, reporting any overwritten byte. */
void unpoison_pages(struct page *page, unsigned long nr);

#endif
