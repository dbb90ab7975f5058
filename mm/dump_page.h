/* SPDX-License-Identifier: MIT */
/* dump_page(): a human-readable report of one struct page, for misuse reports and debugging. */
#ifndef MM_DUMP_PAGE_H
#define MM_DUMP_PAGE_H

#include "mm/page.h"

/**
 * dump_page() - Print one struct page, readable.
 * @page: the page.
 * @reason: printed last, as "page dumped because: reason".
 *
 * Prints page's pfn, reference count, zone, node (as Linux's flags line gives "node=N"), flags
 * by name and, for a page of a compound page, the
 * head's pfn, the order and the destructor's name. Never follows a tail's head pointer that could
 * not belong to the same compound page.
 */
void dump_page(struct page *page, const char *reason);

/**
 * page_flags_name() - A page's flags as names.
 * @page: the page.
 * @buf: where to write them, joined by '|' ("head|hugetlb"; "none" for 0).
 * @size: buf's size.
 *
 * Return: the length, as snprintf() returns it.
 */
int page_flags_name(const struct page *page, char *buf, size_t size);

#endif
