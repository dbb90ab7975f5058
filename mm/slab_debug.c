/* SPDX-License-Identifier: MIT */
/* Slab misuse reports, red zones and poison: see mm/slab_debug.h and mm/slab_cache.h. */
#include "mm/slab_debug.h"

#include "mm/debug.h"


unsigned long mm_slab_reports;

void mm_slab_report(const char *cache, const char *what, const void *obj, const void *caller)
{
	__atomic_fetch_add(&mm_slab_reports, 1, __ATOMIC_RELAXED);
	if (obj && caller)
		printk("BUG: slab %s: %s object %p caller %pS\n", cache, what, obj, caller);
	else if (caller)
		printk("BUG: slab %s: %s caller %pS\n", cache, what, caller);
	else
		printk("BUG: slab %s: %s\n", cache, what);
}

/* The red zones of obj: left [obj - obj_offset, obj), right [obj + size, obj - obj_offset + rz_end). */
static unsigned char *left_rz(const struct kmem_cache *c, const void *obj)
{
	return (unsigned char *)obj - c->obj_offset;
}

static unsigned char *right_rz(const struct kmem_cache *c, const void *obj)
{
	return (unsigned char *)obj + c->size;
}

static unsigned int right_rz_len(const struct kmem_cache *c)
{
	return c->rz_end - c->obj_offset - c->size;
}

static void set_rz(const struct kmem_cache *c, void *obj, int v)
{
	memset(left_rz(c, obj), v, c->obj_offset);
	memset(right_rz(c, obj), v, right_rz_len(c));
}

/* Do both red zones of obj hold v everywhere? */
static bool rz_is(const struct kmem_cache *c, const void *obj, unsigned char v)
{
	const unsigned char *l = left_rz(c, obj), *r = right_rz(c, obj);

	for (unsigned int i = 0; i < c->obj_offset; i++)
		if (l[i] != v)
			return false;
	for (unsigned int i = 0; i < right_rz_len(c); i++)
		if (r[i] != v)
			return false;
	return true;
}

static void poison(const struct kmem_cache *c, void *obj)
{
	memset(obj, POISON_FREE, c->size - 1);
	((unsigned char *)obj)[c->size - 1] = POISON_END;
}

static bool poison_intact(const struct kmem_cache *c, const void *obj)
{
	const unsigned char *p = obj;

	for (unsigned int i = 0; i + 1 < c->size; i++)
		if (p[i] != POISON_FREE)
			return false;
	return p[c->size - 1] == POISON_END;
}

void mm_slab_debug_alloc(const struct kmem_cache *c, void *obj, const void *caller)
{
	if (!poison_intact(c, obj))
		mm_slab_report(c->name, "write to a freed (poison overwritten)", obj, caller);
	else if (!rz_is(c, obj, RZ_FREE))
		mm_slab_report(c->name, "write around a freed (red zone overwritten)", obj, caller);
	set_rz(c, obj, RZ_ACTIVE);
}

const char *mm_slab_debug_free_problem(const struct kmem_cache *c, const char *base, const void *obj,
				    bool *overflow)
{
	unsigned long offset = (unsigned long)((const char *)obj - base);
	unsigned int i = slab_obj_index(c, offset);

	MM_BUG_ON(!lock_held(&c->lock), NULL, "slab %s: the cache's lock is not held", c->name);
	*overflow = false;
	if (i >= c->objects || offset != (unsigned long)i * c->stride + c->obj_offset)
		return "free of a pointer inside an";
	if (rz_is(c, obj, RZ_FREE) && !rz_is(c, obj, RZ_ACTIVE))
		return "double free of an";
	if (!rz_is(c, obj, RZ_ACTIVE)) {
		*overflow = true;
		set_rz(c, (void *)obj, RZ_ACTIVE);
	}
	return NULL;
}

void mm_slab_debug_mark_free(const struct kmem_cache *c, void *obj)
{
	set_rz(c, obj, RZ_FREE);
	poison(c, obj);
}
