/* SPDX-License-Identifier: MIT */
/* bad_page(): the report of a page a caller left in a state that must not happen. */
#include "mm/bad_page.h"

#include "mm/arch.h"
#include "mm/dump_page.h"
#include "mm/memmap.h"

unsigned long mm_bad_page_reports;

void bad_page(struct page *page, const char *reason)
{
	unsigned int order = PageBuddy(page) ? (unsigned int)page->private
					     : (page_flags(page) & PAGE_ORDER_MASK) >> PAGE_ORDER_SHIFT;
	char flags[96];

	count_bad_page_report();
	page_flags_name(page, flags, sizeof(flags));
	printk("BUG: Bad page state: pfn %#lx flags %#x (%s) refcount %d order %u: %s\n",
	       page_to_pfn(page), (unsigned int)page_flags(page) & ((1u << NR_PAGEFLAGS) - 1), flags,
	       page_ref(page), order, reason);
	dump_page(page, reason);
}
