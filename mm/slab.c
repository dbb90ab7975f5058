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
arch_spinlock_t slab_caches_lock;

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
	c->slab_mask = (PAGE_SIZE << order) - 1;
	/* Object i starts where the product is i * (stride_inv * stride - 2^32), below a slab's size. */
	c->start_max = (c->flags & SLAB_DEBUG) ? UINT32_MAX
					     : (objects - 1) * (uint32_t)(c->stride_inv * stride - (1ULL << 32));
	/* A CPU keeps up to two slabs' worth, at most 64 KiB unless one slab is more. */
	c->cpu_limit = (c->flags & SLAB_DEBUG)
			       ? 0
			       : MAX(objects, MIN(2 * objects, MAX(16u, (unsigned int)(65536 / stride))));
	return 0;
}

/* A multiply-xorshift mixer: every bit of x moves about half the bits of the result. */
static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 29;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 32);
}

/*
 * The bits every decoded free link has clear: those above the highest bit in which two
 * direct-map addresses of RAM can differ, and the three below an object's alignment.
 */
static uintptr_t link_check_bits(void)
{
	uintptr_t lo = mm_direct_map_offset, hi = lo + PFN_PHYS(max_pfn) - 1;
	unsigned int top = 63 - (unsigned int)__builtin_clzl((lo ^ hi) | 1);

	return (top >= 63 ? 0 : ~0UL << (top + 1)) | 7;
}

/*
 * The free links' secret: the environment's seed mixed with the cache's address, so that caches
 * differ and a boot's secrets are not another's. Bit 0 is set: a zeroed link never decodes.
 */
static uintptr_t link_secret(const struct kmem_cache *c)
{
	return (uintptr_t)mix64(arch_random_seed() ^ mix64((uintptr_t)c)) | 1;
}

int slab_cache_setup(struct kmem_cache *c, const char *name, size_t size, size_t align, unsigned int flags)
{
	memset(c, 0, sizeof(*c));
	c->name = name;
	c->size = (unsigned int)size;
	c->align = (unsigned int)(align ? align : 8);
	c->flags = flags;
	c->partial.first = c->empty.first = SLAB_NIL;
	/* The slab lists hold 32-bit frame numbers: on a huge machine, slabs stay below 4 GiB. */
	c->gfp = max_pfn > SLAB_PFN_MAX ? __GFP_DMA32 : 0;
	c->random = link_secret(c);
	c->link_check = link_check_bits();
	for (unsigned int i = 0; i < SLAB_CPU_SLOTS; i++)
		c->cpu[i].freelist = slab_list_end();
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

/* Makes obj's free link say that next follows it. */
static void set_link(struct kmem_cache *c, void *obj, void *next)
{
	void **link = slab_link(c, obj);

	*(uintptr_t *)link = slab_link_encode(c, link, next);
}

/* The object obj's free link says follows it, or NULL when the link does not decode. */
static void *follow_link(struct kmem_cache *c, void *obj)
{
	void **link = slab_link(c, obj);
	uintptr_t mixed = slab_link_mixed(c, link);

	return slab_link_intact(c, mixed) ? (void *)(mixed ^ (uintptr_t)link) : NULL;
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
		char *obj = base + (size_t)i * c->stride + c->obj_offset;

		/* The last links to itself: a list's last link is never followed, but decodes. */
		set_link(c, obj, i + 1 < c->objects ? obj + c->stride : obj);
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
	set_link(c, obj, s->slab_free == SLAB_NIL ? obj : slab_obj(s, s->slab_free));
	s->slab_free = (uint32_t)((char *)obj - slab_base(s));
	s->slab_inuse--;
	add_free(c, 1);
	relist(c, s);
	return s->slab_inuse ? NULL : excess_empty(c);
}

/*
 * c's lock held: slab s's free objects all taken (s is full), the first returned and their
 * number in *n. The rest follow it through their links.
 */
static void *slab_take_all(struct kmem_cache *c, struct page *s, unsigned int *n)
{
	void *obj = slab_obj(s, s->slab_free);

	*n = c->objects - s->slab_inuse;
	add_free(c, -(long)*n);
	s->slab_free = SLAB_NIL;
	s->slab_inuse = (uint16_t)c->objects;
	relist(c, s);
	return obj;
}

/*
 * c's lock held: the first free object of slab s, off its list. NULL when the link to the next
 * one does not decode to an address in s: s's free objects are then abandoned (counted in use,
 * never handed out) and the caller reports it.
 */
static void *slab_take(struct kmem_cache *c, struct page *s)
{
	char *obj = slab_obj(s, s->slab_free), *next = NULL;
	unsigned int n;

	if (s->slab_inuse + 1u < c->objects) {
		next = follow_link(c, obj);
		if (!next || (uintptr_t)(next - slab_base(s)) > c->slab_mask) {
			slab_take_all(c, s, &n);
			return NULL;
		}
	}
	s->slab_free = next ? (uint32_t)(next - slab_base(s)) : SLAB_NIL;
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

/* The report of a free list that does not decode at obj (the caller holds no slab lock). */
static void report_broken_list(struct kmem_cache *c, const void *obj, const void *caller)
{
	slab_report(c->name, "free list broken (a double free, or a write to a freed object) at an", obj, caller);
}

/* slot locked: its list forgotten. Its objects stay counted in use: they are never handed out. */
static void abandon_list(struct slab_cpu *slot)
{
	slot->freelist = slab_list_end();
	__atomic_store_n(&slot->count, 0, __ATOMIC_RELAXED);
}

/*
 * slot locked and empty: it takes every free object of one slab (a new one if none has any); the
 * first is returned, its link zeroed. NULL when no slab page can be had. A slab whose list does
 * not decode is abandoned, counted in *broken, and the next one taken.
 */
static void *refill(struct kmem_cache *c, struct slab_cpu *slot, gfp_t gfp, unsigned int *broken)
{
	for (;;) {
		struct page *slab = lock_slab_with_free(c, gfp);
		unsigned int n;
		void **obj;

		if (!slab)
			return NULL;
		obj = slab_take_all(c, slab, &n);
		arch_spin_unlock(&c->lock);
		slot->freelist = n > 1 ? follow_link(c, obj) : slab_list_end();
		if (slot->freelist) {
			__atomic_store_n(&slot->count, n - 1, __ATOMIC_RELAXED);
			*obj = NULL;
			return obj;
		}
		abandon_list(slot);
		(*broken)++;
	}
}

/*
 * Is obj, taken off a CPU list of c, an object of c in slab (its head page) that the slab counts
 * in use? Only a list that was tampered with gives one that is not.
 */
static bool slab_holds(struct kmem_cache *c, struct page *slab, const void *obj)
{
	return slab && PageSlab(slab) && slab->slab_cache == c && slab->slab_inuse &&
	       slab_obj_starts_at(c, virt_to_phys(obj));
}

/*
 * slot locked: gives the first n objects of its list back to their slabs. Returns pages freed. A
 * link that does not decode, or an object that is not c's, stops it: the rest of the list is
 * abandoned and *broken_at says where (else NULL).
 */
static unsigned long flush(struct kmem_cache *c, struct slab_cpu *slot, unsigned int n, void **broken_at)
{
	unsigned int left = slot->count;
	unsigned long freed = 0;

	*broken_at = NULL;
	arch_spin_lock(&c->lock);
	for (unsigned int i = 0; i < n; i++, left--) {
		void *obj = slot->freelist, *next = left > 1 ? follow_link(c, obj) : slab_list_end();
		struct page *slab = slab_obj_head(obj), *empty;

		if (!next || !slab_holds(c, slab, obj)) {
			*broken_at = obj;
			left = 0;
			break;
		}
		slot->freelist = next;
		empty = slab_put(c, slab, obj);
		if (empty) {
			slab_free_pages(c, empty);
			freed += 1UL << c->order;
		}
	}
	arch_spin_unlock(&c->lock);
	if (!left)
		slot->freelist = slab_list_end();
	__atomic_store_n(&slot->count, left, __ATOMIC_RELAXED);
	return freed;
}

/* ---- the debug mode: one object at a time under the cache lock ---------------------------- */

static void *debug_alloc(struct kmem_cache *c, gfp_t gfp, const void *caller)
{
	struct page *slab;
	void *obj;

	do {
		slab = lock_slab_with_free(c, gfp);
		if (!slab)
			return NULL;
		obj = slab_take(c, slab);
		arch_spin_unlock(&c->lock);
		if (!obj)
			report_broken_list(c, slab_base(slab), caller);
	} while (!obj);
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

/*
 * The CPU lists' slow paths: a debug cache (cpu_limit 0) always ends up here. Never inlined into
 * the fast paths of this file: the fast path would save registers for them.
 */
__attribute__((noinline)) void *slab_alloc_slow(struct kmem_cache *c, struct slab_cpu *slot, gfp_t gfp, unsigned long irq,
		      const void *caller)
{
	unsigned int broken = 0;
	void *obj = NULL;

	if (c->cpu_limit)
		obj = refill(c, slot, gfp, &broken);
	arch_spin_unlock(&slot->lock);
	if (!c->cpu_limit)
		obj = debug_alloc(c, gfp, caller);
	arch_irq_restore(irq);
	while (broken--)
		report_broken_list(c, obj, caller);
	if (obj && (gfp & __GFP_ZERO))
		memset(obj, 0, c->size);
	return obj;
}

__attribute__((noinline)) void *slab_alloc_broken(struct kmem_cache *c, struct slab_cpu *slot, void *obj, gfp_t gfp,
						    unsigned long irq, const void *caller)
{
	void *fresh;

	abandon_list(slot);
	fresh = slab_alloc_slow(c, slot, gfp, irq, caller);
	report_broken_list(c, obj, caller);
	return fresh;
}

__attribute__((noinline)) void slab_free_slow(struct kmem_cache *c, struct slab_cpu *slot, void *obj,
					      unsigned long irq, const void *caller)
{
	void *broken_at = NULL;

	if (!c->cpu_limit) {
		arch_spin_unlock(&slot->lock);
		debug_free(c, slab_obj_head(obj), obj, caller);
		arch_irq_restore(irq);
		return;
	}
	if (obj == slot->freelist && slot->count) {
		arch_spin_unlock(&slot->lock);
		arch_irq_restore(irq);
		slab_report(c->name, "double free of an", obj, caller);
		return;
	}
	if (slot->count >= c->cpu_limit)
		flush(c, slot, slot->count / 2, &broken_at);
	*(uintptr_t *)obj = slab_link_encode(c, obj, slot->count ? slot->freelist : obj);
	slot->freelist = obj;
	__atomic_store_n(&slot->count, slot->count + 1, __ATOMIC_RELAXED);
	arch_spin_unlock(&slot->lock);
	arch_irq_restore(irq);
	if (broken_at)
		report_broken_list(c, broken_at, caller);
}

/* ---- the interface ------------------------------------------------------------------------ */

void *kmem_cache_alloc(struct kmem_cache *c, gfp_t gfp)
{
	return slab_alloc_fast(c, gfp);
}

/* The report of obj, a slab object of another cache, freed to c. */
static __attribute__((noinline, cold)) void report_wrong_cache(struct kmem_cache *c, struct page *slab,
								 const void *obj, const void *caller)
{
	char what[80];

	snprintf(what, sizeof(what), "free to the wrong cache (it is %s's) of an", slab->slab_cache->name);
	slab_report(c->name, what, obj, caller);
}

void kmem_cache_free(struct kmem_cache *c, void *obj)
{
	const void *caller = __builtin_return_address(0);
	uintptr_t phys = virt_to_phys(obj);
	struct page *slab;

	if (!obj)
		return;
	if (unlikely(!pfn_valid(PFN_DOWN(phys)))) {
		slab_report(c->name, "free of a pointer no slab holds, not an", obj, caller);
		return;
	}
	slab = compound_head(pfn_to_page(PFN_DOWN(phys)));
	if (unlikely(!PageSlab(slab))) {
		slab_report(c->name, "free of a pointer no slab holds, not an", obj, caller);
		return;
	}
	if (unlikely(slab->slab_cache != c)) {
		report_wrong_cache(c, slab, obj, caller);
		return;
	}
	if (unlikely(!slab_obj_starts_at(c, phys))) {
		slab_report(c->name, "free of a pointer inside (not the start of) an", obj, caller);
		return;
	}
	slab_free_fast(c, obj, caller);
}

/* Every CPU's list of c back to the slabs; then c's empty slabs freed. Pages freed. */
int kmem_cache_shrink(struct kmem_cache *c)
{
	const void *caller = __builtin_return_address(0);
	unsigned long freed = 0;

	for (unsigned int i = 0; i < SLAB_CPU_SLOTS; i++) {
		struct slab_cpu *slot = &c->cpu[i];
		void *broken_at = NULL;
		unsigned long irq;

		if (!__atomic_load_n(&slot->count, __ATOMIC_RELAXED))
			continue;
		irq = arch_irq_save();
		arch_spin_lock(&slot->lock);
		freed += flush(c, slot, slot->count, &broken_at);
		arch_spin_unlock(&slot->lock);
		arch_irq_restore(irq);
		if (broken_at)
			report_broken_list(c, broken_at, caller);
	}
	for (;;) {
		unsigned long irq = arch_irq_save();
		struct page *slab;

		arch_spin_lock(&c->lock);
		slab = take_empty(c);
		arch_spin_unlock(&c->lock);
		if (slab) {
			slab_free_pages(c, slab);
			freed += 1UL << c->order;
		}
		arch_irq_restore(irq);
		if (!slab)
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
