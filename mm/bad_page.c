/* SPDX-License-Identifier: MIT */
/*
 * bad_page(): the report of a page a caller left in a state that must not happen; mm_bug(): the
 * report of a broken internal invariant (mm/debug.h), after which nothing can be trusted.
 */
#include "mm/page_alloc.h"

#include "mm/arch.h"
#include "mm/debug.h"
#include "mm/dump_page.h"

unsigned long bad_page_reports;

void bad_page(struct page *page, const char *reason)
{
	unsigned int order = PageBuddy(page) ? (unsigned int)page->private
					     : (page->flags & PAGE_ORDER_MASK) >> PAGE_ORDER_SHIFT;
	char flags[96];

	bad_page_reports++;
	page_flags_name(page, flags, sizeof(flags));
	printk("BUG: Bad page state: pfn %#lx flags %#x (%s) refcount %d order %u: %s\n",
	       page_to_pfn(page), (unsigned int)page->flags & ((1u << NR_PAGEFLAGS) - 1), flags,
	       (int)page->_refcount, order, reason);
	dump_page(page, reason);
}

void mm_bug(const char *func, const char *cond, struct page *page, const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printk("mm: BUG in %s: %s: %s\n", func, cond, msg);
	if (page)
		dump_page(page, "internal invariant broken");
	panic("mm: BUG in %s: %s", func, cond);
}
