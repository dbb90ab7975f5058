/* SPDX-License-Identifier: MIT */
/*
 * Internal to the slab allocator: misuse reports, and the debug mode's red zones and poison
 * (the layout is in mm/slab_cache.h).
 */
#ifndef MM_SLAB_DEBUG_H
#define MM_SLAB_DEBUG_H

#include "mm/slab_cache.h"

/*
 * The one reporter of slab misuse: prints "BUG: slab CACHE: WHAT object ADDR caller FUNCTION"
 * (without " object ADDR" when obj is NULL, without " caller FUNCTION" when caller is NULL too)
 * and counts it in mm_slab_reports. Allocates nothing; call it with no slab lock held.
 */
void mm_slab_report(const char *cache, const char *what, const void *obj, const void *caller);

/*
 * A debug object leaving its slab: checks its poison and red zones (a write to the freed object
 * is reported, and repaired), then marks it allocated (red zones RZ_ACTIVE).
 */
void mm_slab_debug_alloc(const struct kmem_cache *c, void *obj, const void *caller);

/*
 * A debug object being freed (cache lock held): what is wrong with freeing obj, an address in
 * the slab at base, or NULL. A damaged red zone (a write past the end) is not a reason to
 * refuse: *overflow is set, the red zone is repaired and the free goes on.
 */
const char *mm_slab_debug_free_problem(const struct kmem_cache *c, const char *base, const void *obj,
				    bool *overflow);

/* A debug object freed, or new in its slab: red zones RZ_FREE, the object poisoned. */
void mm_slab_debug_mark_free(const struct kmem_cache *c, void *obj);

#endif
