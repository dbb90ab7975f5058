/* SPDX-License-Identifier: MIT */
/* bad_page(): reporting a page a caller left in a state that must not happen. */
#ifndef MM_BAD_PAGE_H
#define MM_BAD_PAGE_H

#include "mm/page.h"

/**
 * bad_page() - Report a page in a state that must not happen.
 * @page: the page.
 * @reason: what is wrong, printed after the page's pfn, count, order, flags by name and compound
 *          details.
 *
 * Counts the report in mm_bad_page_reports. Never changes the page.
 */
void bad_page(struct page *page, const char *reason);

/*
 * Number of bad_page() reports since boot (tests check that misuse was noticed). Atomic: read it
 * with __atomic_load_n() where other CPUs may be reporting.
 */
extern unsigned long mm_bad_page_reports;

/**
 * count_bad_page_report() - Count one report of misuse that bad_page() does not print.
 *
 * For misuse with no page to show (an address that is no page's).
 */
static inline void count_bad_page_report(void)
{
	__atomic_fetch_add(&mm_bad_page_reports, 1, __ATOMIC_RELAXED);
}

#endif
