/* SPDX-License-Identifier: MIT */
/*
 * Internal to the slab allocator: misuse reports, and the debug mode's red zones and poison
 * (the layout is in mm/slab_cache.h).
 */
#ifndef MM_SLAB_DEBUG_H
#define MM_SLAB_DEBUG_H

#include "mm/slab_cache.h"

/*
 * Prints "BUG: slab CACHE: WHAT object ADDR caller FUNCTION" and counts it in slab_reports.
 * Prints nothing that allocates; call it with no slab lock held.
 */
void slab_report(const char *cache, const char *what, const void *obj, const void *caller);

/*
 * A debug object leaving its slab: checks its poison and red zones (a write to the freed object
 * is reported, and repaired), then marks it allocated (red zones RZ_ACTIVE).
 */
void slab_debug_alloc(const struct kmem_cache *c, void *obj, const void *caller);

/*
 * A debug object being freed (cache lock held): what is wrong with freeing obj, which begins
 * offset bytes into the slab at base, or NULL. A damaged red zone (a write past the end) is
 * not a reason to refuse: *overflow is set, the red zone is repaired and the free goes on.
 */
const char *slab_debug_free_problem(const struct kmem_cache *c, const char *base, const void *obj,
				    bool *overflow);

/* A debug object freed, or new in its slab: red zones RZ_FREE, the object poisoned. */
void slab_debug_mark_free(const struct kmem_cache *c, void *obj);

#endif
