/* SPDX-License-Identifier: MIT */
/* dump_page(): a human-readable report of one struct page, for misuse reports and debugging. */
#ifndef MM_DUMP_PAGE_H
#define MM_DUMP_PAGE_H

#include "mm/page.h"

/*
 * Prints page's pfn, reference count, zone, flags by name and, for a page of a compound page, the
 * head's pfn, the order and the destructor's name; then "page dumped because: reason". Never
 * follows a tail's head pointer that could not belong to the same compound page.
 */
void dump_page(struct page *page, const char *reason);

/* Writes page->flags as names joined by '|' ("head|hugetlb"; "none" for 0) into buf. */
int page_flags_name(const struct page *page, char *buf, size_t size);

#endif
