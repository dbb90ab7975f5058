/* SPDX-License-Identifier: MIT */
/*
 * Slab caches: slabs from the page allocator, their lists, the per-CPU object lists' refills and
 * flushes, the debug mode's locked paths, and creating, shrinking and destroying caches. See
 * mm/slab.h for the interface and mm/slab_cache.h for the layout and the per-CPU lists.
 */
#include "mm/slab.h"

#include "mm/page_alloc.h"
#include "mm/slab_cache.h"
#include "mm/slab_debug.h"

struct list_head slab_caches;
DEFINE_MM_SPINLOCK(slab_caches_lock, "slab_caches_lock");

/* ---- layout ------------------------------------------------------------------------------ */

int slab_cache_layout(struct kmem_cache *c)
{
	unsigned int align = c->align, size = c->size, stride, objects = 0, order;

	if (c->flags & SLAB_HWCACHE_ALIGN)
		align = MAX(align, 64u);
	align = MAX(align, 8u);
	if (c->flags & SLAB_DEBUG) {
		c->obj_offset = ALIGN_UP(8u, align);
		c->rz_end = ALIGN_UP(c->obj_offset + size + 8, 8u);
		c->fp_offset = c->rz_end - c->obj_offset;
		stride = ALIGN_UP(c->rz_end + 8, align);
	} else {
		c->obj_offset = c->rz_end = c->fp_offset = 0;
		stride = ALIGN_UP(MAX(size, 8u), align);
	}
	/* The smallest order that holds 8 objects, up to SLAB_MAX_ORDER. */
	for (order = 0; order <= SLAB_MAX_ORDER; order++) {
		objects = (unsigned int)((PAGE_SIZE << order) / stride);
		if (objects >= 8)
			break;
	}
	order = MIN(order, (unsigned int)SLAB_MAX_ORDER);
	if (!objects || objects > 0xffff)
		return -EINVAL;
	c->stride = stride;
	c->objects = objects;
	c->order = order;
	c->stride_inv = ((1ULL << 32) + stride - 1) / stride;
	/* A CPU keeps up to two slabs' worth, at most 64 KiB unless one slab is more. */
	c->cpu_limit = (c->flags & SLAB_DEBUG)
			       ? 0
			       : MAX(objects, MIN(2 * objects, MAX(16u, (unsigned int)(65536 / stride))));
	return 0;
}

int slab_cache_setup(struct kmem_cache *c, const char *name, size_t size, size_t align, unsigned int flags)
{
	memset(c, 0, sizeof(*c));
	lock_set_class(&c->lock, "kmem_cache->lock");
	for (unsigned int i = 0; i < SLAB_CPU_SLOTS; i++)
		lock_set_class(&c->cpu[i].lock, "slab_cpu->lock");
	c->name = name;
	c->size = (unsigned int)size;
	c->align = (unsigned int)(align ? align : 8);
	c->flags = flags;
	c->partial.first = c->empty.first = SLAB_NIL;
	/* The slab lists hold 32-bit frame numbers: on a huge machine, slabs stay below 4 GiB. */
	c->gfp = max_pfn > SLAB_PFN_MAX ? __GFP_DMA32 : 0;
	return slab_cache_layout(c);
}

/* ---- slabs and their lists --------------------------------------------------------------- */

static char *slab_base(const struct page *head)
{
	return page_address(head);
}

/* The object offset bytes into slab head, NULL for SLAB_NIL. */
static void *slab_obj(const struct page *head, uint32_t offset)
{
	return offset == SLAB_NIL ? NULL : slab_base(head) + offset;
}

static void list_add_slab(struct slab_list *l, struct page *s, unsigned int which)
{
	uint32_t pfn = (uint32_t)page_to_pfn(s);

	s->slab_prev = SLAB_NIL;
	s->slab_next = l->first;
	if (l->first != SLAB_NIL)
		pfn_to_page(l->first)->slab_prev = pfn;
	l->first = pfn;
	l->nr++;
	s->slab_list = (uint16_t)which;
}

static void list_del_slab(struct slab_list *l, struct page *s)
{
	if (s->slab_prev != SLAB_NIL)
		pfn_to_page(s->slab_prev)->slab_next = s->slab_next;
	else
		l->first = s->slab_next;
	if (s->slab_next != SLAB_NIL)
		pfn_to_page(s->slab_next)->slab_prev = s->slab_prev;
	l->nr--;
	s->slab_list = SLAB_ON_NONE;
}

static struct slab_list *list_of(struct kmem_cache *c, unsigned int which)
{
	return which == SLAB_ON_PARTIAL ? &c->partial : which == SLAB_ON_EMPTY ? &c->empty : NULL;
}

/* c's lock held: puts s on the list its count says (full: none). */
static void relist(struct kmem_cache *c, struct page *s)
{
	unsigned int want = s->slab_inuse == 0		 ? SLAB_ON_EMPTY
			    : s->slab_inuse == c->objects ? SLAB_ON_NONE
							   : SLAB_ON_PARTIAL;

	if (s->slab_list == want)
		return;
	if (s->slab_list != SLAB_ON_NONE)
		list_del_slab(list_of(c, s->slab_list), s);
	if (want != SLAB_ON_NONE)
		list_add_slab(list_of(c, want), s, want);
}

/* c's lock held: the counters slabinfo reads without it (atomic stores). */
static void set_nr_slabs(struct kmem_cache *c, unsigned long n)
{
	__atomic_store_n(&c->nr_slabs, n, __ATOMIC_RELAXED);
}

static void add_free(struct kmem_cache *c, long n)
{
	__atomic_store_n(&c->free_in_slabs, c->free_in_slabs + n, __ATOMIC_RELAXED);
}

/* A slab's pages back to the page allocator (c's lock held or not: s is on no list). */
static void slab_free_pages(struct kmem_cache *c, struct page *s)
{
	page_flag_clear(s, PG_slab);
	s->slab_cache = NULL;
	s->lru.next = s->lru.prev = NULL;
	__free_pages(s, c->order);
}

/* c's lock held: an empty slab taken off c's list and uncounted, to be freed; NULL if none. */
static struct page *take_empty(struct kmem_cache *c)
{
	struct page *s;

	if (c->empty.first == SLAB_NIL)
		return NULL;
	s = pfn_to_page(c->empty.first);
	list_del_slab(&c->empty, s);
	set_nr_slabs(c, c->nr_slabs - 1);
	add_free(c, -(long)c->objects);
	return s;
}

/* c's lock held: if c keeps too many empty slabs, takes one off its list to be freed. */
static struct page *excess_empty(struct kmem_cache *c)
{
	return c->empty.nr > SLAB_KEEP_EMPTY ? take_empty(c) : NULL;
}

/*
 * A new slab of c with every object on its free list, not counted yet, on no list; NULL when no
 * pages can be had. Interrupts may be off: nothing here sleeps.
 */
static struct page *slab_new(struct kmem_cache *c, gfp_t gfp)
{
	/* No zone modifier: a CPU's list mixes slabs, so the objects' zone could not be kept anyway. */
	gfp_t g = (gfp & (__GFP_NOWARN | __GFP_HIGH)) | c->gfp | (c->order ? __GFP_COMP : 0);
	struct page *s = alloc_pages(g, c->order);
	char *base;

	if (!s)
		return NULL;
	if (unlikely(page_to_pfn(s) > SLAB_PFN_MAX)) { /* not from the zone c->gfp asked for */
		__free_pages(s, c->order);
		return NULL;
	}
	base = slab_base(s);
	for (unsigned int i = 0; i < c->objects; i++) {
		void *obj = base + (size_t)i * c->stride + c->obj_offset;

		*slab_link(c, obj) = i + 1 < c->objects ? (char *)obj + c->stride : NULL;
		if (c->flags & SLAB_DEBUG)
			slab_debug_mark_free(c, obj);
	}
	s->slab_free = c->obj_offset;
	s->slab_inuse = 0;
	s->slab_list = SLAB_ON_NONE;
	s->slab_next = s->slab_prev = SLAB_NIL;
	s->slab_cache = c;
	page_flag_set(s, PG_slab);
	return s;
}

/* c's lock held: obj (checked) back on its slab s's free list; a slab to free, or NULL. */
static struct page *slab_put(struct kmem_cache *c, struct page *s, void *obj)
{
	*slab_link(c, obj) = slab_obj(s, s->slab_free);
	s->slab_free = (uint32_t)((char *)obj - slab_base(s));
	s->slab_inuse--;
	add_free(c, 1);
	relist(c, s);
	return s->slab_inuse ? NULL : excess_empty(c);
}

/* c's lock held: the first free object of slab s, off its list. */
static void *slab_take(struct kmem_cache *c, struct page *s)
{
	void *obj = slab_obj(s, s->slab_free);
	void *next = *slab_link(c, obj);

	s->slab_free = next ? (uint32_t)((char *)next - slab_base(s)) : SLAB_NIL;
	s->slab_inuse++;
	add_free(c, -1);
	relist(c, s);
	return obj;
}

/* c's lock held: a slab with a free object (a partial one first), or NULL. */
static struct page *slab_with_free(struct kmem_cache *c)
{
	uint32_t pfn = c->partial.first != SLAB_NIL ? c->partial.first : c->empty.first;

	return pfn == SLAB_NIL ? NULL : pfn_to_page(pfn);
}

/* c's lock held: counts a new slab, its objects free (it is on no list until relist()). */
static void count_new_slab(struct kmem_cache *c)
{
	set_nr_slabs(c, c->nr_slabs + 1);
	add_free(c, c->objects);
}

/*
 * Takes c's lock and returns a slab with a free object (a new one if none has any), the lock
 * held; NULL, unlocked, when no slab page can be had.
 */
static struct page *lock_slab_with_free(struct kmem_cache *c, gfp_t gfp)
{
	struct page *slab;

	arch_spin_lock(&c->lock);
	slab = slab_with_free(c);
	if (slab)
		return slab;
	arch_spin_unlock(&c->lock);
	slab = slab_new(c, gfp); /* outside the lock: the page allocator takes its own */
	if (!slab)
		return NULL;
	arch_spin_lock(&c->lock);
	count_new_slab(c);
	return slab;
}

/* ---- the per-CPU lists' slow paths ------------------------------------------------------- */

/*
 * s locked: an empty list takes every free object of one slab (a new one if none has any); the
 * first is returned. NULL when no slab page can be had.
 */
static void *refill(struct kmem_cache *c, struct slab_cpu *s, gfp_t gfp)
{
	struct page *slab;
	unsigned int n;
	void **obj;

	slab = lock_slab_with_free(c, gfp);
	if (!slab)
		return NULL;
	n = c->objects - slab->slab_inuse;
	add_free(c, -(long)n);
	obj = slab_obj(slab, slab->slab_free);
	slab->slab_free = SLAB_NIL;
	slab->slab_inuse = (uint16_t)c->objects;
	relist(c, slab);
	arch_spin_unlock(&c->lock);
	s->freelist = *obj;
	__atomic_store_n(&s->count, n - 1, __ATOMIC_RELAXED);
	return obj;
}

/* s locked: gives the first n objects of its list back to their slabs. Returns pages freed. */
static unsigned long flush(struct kmem_cache *c, struct slab_cpu *s, unsigned int n)
{
	unsigned long freed = 0;

	arch_spin_lock(&c->lock);
	for (unsigned int i = 0; i < n; i++) {
		void **obj = s->freelist;
		struct page *empty;

		s->freelist = *obj;
		empty = slab_put(c, slab_obj_head(obj), obj);
		if (empty) {
			slab_free_pages(c, empty);
			freed += 1UL << c->order;
		}
	}
	arch_spin_unlock(&c->lock);
	__atomic_store_n(&s->count, s->count - n, __ATOMIC_RELAXED);
	return freed;
}

/* ---- the debug mode: one object at a time under the cache lock ---------------------------- */

static void *debug_alloc(struct kmem_cache *c, gfp_t gfp, const void *caller)
{
	struct page *slab;
	void *obj;

	slab = lock_slab_with_free(c, gfp);
	if (!slab)
		return NULL;
	obj = slab_take(c, slab);
	arch_spin_unlock(&c->lock);
	slab_debug_alloc(c, obj, caller);
	return obj;
}

static void debug_free(struct kmem_cache *c, struct page *slab, void *obj, const void *caller)
{
	struct page *empty = NULL;
	const char *problem;
	bool overflow;

	arch_spin_lock(&c->lock);
	problem = slab_debug_free_problem(c, slab_base(slab), obj, &overflow);
	if (!problem) {
		slab_debug_mark_free(c, obj);
		empty = slab_put(c, slab, obj);
	}
	arch_spin_unlock(&c->lock);
	if (empty)
		slab_free_pages(c, empty);
	if (overflow)
		slab_report(c->name, "write past the end (red zone overwritten) of an", obj, caller);
	if (problem)
		slab_report(c->name, problem, obj, caller);
}

/* The CPU lists' slow paths: a debug cache (cpu_limit 0) always ends up here. */
void *slab_alloc_slow(struct kmem_cache *c, struct slab_cpu *s, gfp_t gfp, unsigned long irq, const void *caller)
{
	void *obj = NULL;

	if (c->cpu_limit)
		obj = refill(c, s, gfp);
	arch_spin_unlock(&s->lock);
	if (!c->cpu_limit)
		obj = debug_alloc(c, gfp, caller);
	arch_irq_restore(irq);
	if (obj && (gfp & __GFP_ZERO))
		memset(obj, 0, c->size);
	return obj;
}

void slab_free_slow(struct kmem_cache *c, struct slab_cpu *s, void *obj, unsigned long irq, const void *caller)
{
	if (!c->cpu_limit) {
		arch_spin_unlock(&s->lock);
		debug_free(c, slab_obj_head(obj), obj, caller);
		arch_irq_restore(irq);
		return;
	}
	if (obj == s->freelist) {
		arch_spin_unlock(&s->lock);
		arch_irq_restore(irq);
		slab_report(c->name, "double free of an", obj, caller);
		return;
	}
	flush(c, s, s->count / 2);
	*(void **)obj = s->freelist;
	s->freelist = obj;
	__atomic_store_n(&s->count, s->count + 1, __ATOMIC_RELAXED);
	arch_spin_unlock(&s->lock);
	arch_irq_restore(irq);
}

/* ---- the interface ------------------------------------------------------------------------ */

void *kmem_cache_alloc(struct kmem_cache *c, gfp_t gfp)
{
	return slab_alloc_fast(c, gfp);
}

void kmem_cache_free(struct kmem_cache *c, void *obj)
{
	const void *caller = __builtin_return_address(0);
	struct page *slab;

	if (!obj)
		return;
	slab = slab_obj_head(obj);
	if (unlikely(!slab || !PageSlab(slab))) {
		slab_report(c->name, "free of a pointer no slab holds, not an", obj, caller);
		return;
	}
	if (unlikely(slab->slab_cache != c)) {
		char what[80];

		snprintf(what, sizeof(what), "free to the wrong cache (it is %s's) of an", slab->slab_cache->name);
		slab_report(c->name, what, obj, caller);
		return;
	}
	slab_free_fast(c, obj, caller);
}

/* Every CPU's list of c back to the slabs; then c's empty slabs freed. Pages freed. */
int kmem_cache_shrink(struct kmem_cache *c)
{
	unsigned long freed = 0;

	for (unsigned int i = 0; i < SLAB_CPU_SLOTS; i++) {
		struct slab_cpu *s = &c->cpu[i];
		unsigned long irq;

		if (!__atomic_load_n(&s->count, __ATOMIC_RELAXED))
			continue;
		irq = arch_irq_save();
		arch_spin_lock(&s->lock);
		freed += flush(c, s, s->count);
		arch_spin_unlock(&s->lock);
		arch_irq_restore(irq);
	}
	for (;;) {
		unsigned long irq = arch_irq_save();
		struct page *s;

		arch_spin_lock(&c->lock);
		s = take_empty(c);
		arch_spin_unlock(&c->lock);
		if (s) {
			slab_free_pages(c, s);
			freed += 1UL << c->order;
		}
		arch_irq_restore(irq);
		if (!s)
			break;
	}
	return (int)freed;
}

unsigned long slab_active_objects(struct kmem_cache *c)
{
	unsigned long total = __atomic_load_n(&c->nr_slabs, __ATOMIC_RELAXED) * c->objects, idle;

	idle = __atomic_load_n(&c->free_in_slabs, __ATOMIC_RELAXED);
	for (unsigned int i = 0; i < SLAB_CPU_SLOTS; i++)
		idle += __atomic_load_n(&c->cpu[i].count, __ATOMIC_RELAXED);
	return total > idle ? total - idle : 0;
}

size_t kmem_cache_size(const struct kmem_cache *c)
{
	return c->size;
}

bool slab_debug_enabled(const struct kmem_cache *c)
{
	return c && (c->flags & SLAB_DEBUG);
}
