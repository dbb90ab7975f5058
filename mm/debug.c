/* SPDX-License-Identifier: MIT */
/* mm_bug(): the report of a broken internal invariant (mm/debug.h), after which nothing can be trusted. */
#include "mm/debug.h"

#include "mm/arch.h"
#include "mm/dump_page.h"

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
