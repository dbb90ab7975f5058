/* SPDX-License-Identifier: MIT */
/*
 * MM_BUG_ON(): internal invariants of mm/, asserted the FreeBSD way: the report names the
 * function, the condition, the page and what was expected, then the kernel stops. They are
 * compiled in when MM_DEBUG is 1 (the default kernel and the host tests) and compile to nothing
 * otherwise (the release kernel), so a release build pays nothing for them.
 *
 * An invariant is something mm/ itself guarantees (a block on a free list is marked PG_buddy,
 * aligned to its order ...); when one breaks, mm/ has a bug or memory was overwritten. Mistakes a
 * caller can make (double free, wrong order) are not invariants: bad_page() reports those and
 * goes on.
 *
 *   MM_BUG_ON(order > MAX_ORDER, page, "order %u", order);
 */
#ifndef MM_DEBUG_H
#define MM_DEBUG_H

#include "mm/page.h"

#ifndef MM_DEBUG
#define MM_DEBUG 0
#endif

/* Prints "mm: BUG in func: cond: message", dumps page (when not NULL) and panics. */
void mm_bug(const char *func, const char *cond, struct page *page, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 4, 5)));

#if MM_DEBUG
#define MM_BUG_ON(cond, page, ...)                                                \
	do {                                                                      \
		if (__builtin_expect(!!(cond), 0))                                \
			mm_bug(__func__, #cond, (page), __VA_ARGS__);             \
	} while (0)
#else
/* Not evaluated, but still compiled: a release build catches a check that no longer builds. */
#define MM_BUG_ON(cond, page, ...)                                                \
	do {                                                                      \
		if (0 && (cond))                                                  \
			mm_bug(__func__, #cond, (page), __VA_ARGS__);             \
	} while (0)
#endif

#endif
