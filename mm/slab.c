/* SPDX-License-Identifier: MIT */
/*
 * Slab caches: each cache's layout and free-link secret, slabs from the page allocator and the
 * cache's lists of them, the per-CPU object lists' refills and flushes (their fast paths are
 * inline in mm/slab_cache.h), the debug mode's locked paths, kmem_cache_alloc()/free(), and the
 * caches themselves: the list of every cache, creating, destroying and shrinking them, and the
 * debug switch. kmalloc's classes over these caches are mm/kmalloc.c's. See mm/slab.h for the
 * interface and mm/slab_cache.h for the layout and the per-CPU lists.
 *
 * Names: cache is a struct kmem_cache, slab the head struct page of a slab, slot a CPU's
 * struct slab_cpu.
 */
#include "mm/slab.h"

#include "mm/debug.h"
#include "mm/page_alloc.h"
#include "mm/slab_cache.h"
#include "mm/slab_debug.h"

struct list_head mm_slab_caches;
DEFINE_MM_SPINLOCK(mm_slab_caches_lock, "slab_caches_lock");

/*
 * The locks the comments below say are held (mm/lock_check.h has the order): checked in MM_DEBUG
 * builds, nothing in release builds.
 */
#define assert_cache_locked(cache) \
	MM_BUG_ON(!lock_held(&(cache)->lock), NULL, "slab %s: the cache's lock is not held", (cache)->name)
#define assert_slot_locked(slot) MM_BUG_ON(!slot_locked(slot), NULL, "a slab CPU slot is not locked")

static bool debug_default = MM_DEBUG; /* atomic: slab_set_debug() may run beside a create */
static bool kmalloc_started;          /* a kmalloc cache has had a slab since mm_slab_caches_reset() */

/* ---- layout ------------------------------------------------------------------------------ */

/*
 * Builds cache's layout from size, align, flags (SLAB_DEBUG included or not): stride, objects per
 * slab, order, red zones, the CPU list limit. Returns 0, or -EINVAL when it cannot fit.
 */
static int slab_cache_layout(struct kmem_cache *cache)
{
	unsigned int align = cache->align, size = cache->size, stride, objects = 0, order;

	if (cache->flags & SLAB_HWCACHE_ALIGN)
		align = MAX(align, 64u);
	align = MAX(align, 8u);
	if (cache->flags & SLAB_DEBUG) {
		cache->obj_offset = ALIGN_UP(8u, align);
		cache->rz_end = ALIGN_UP(cache->obj_offset + size + 8, 8u);
		cache->fp_offset = cache->rz_end - cache->obj_offset;
		stride = ALIGN_UP(cache->rz_end + 8, align);
	} else {
		cache->obj_offset = cache->rz_end = cache->fp_offset = 0;
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
	cache->stride = stride;
	cache->objects = objects;
	cache->order = order;
	cache->stride_inv = ((1ULL << 32) + stride - 1) / stride;
	cache->slab_mask = (PAGE_SIZE << order) - 1;
	/* Object i starts where the product is i * (stride_inv * stride - 2^32), below a slab's size. */
	cache->start_max = (cache->flags & SLAB_DEBUG) ? UINT32_MAX
					     : (objects - 1) * (uint32_t)(cache->stride_inv * stride - (1ULL << 32));
	/* A CPU keeps up to two slabs' worth, at most 64 KiB unless one slab is more. */
	cache->cpu_limit = (cache->flags & SLAB_DEBUG)
			       ? 0
			       : MAX(objects, MIN(2 * objects, MAX(16u, (unsigned int)(65536 / stride))));
	/* The lists are empty whenever the layout is made (a new cache, or kmalloc's before their first slab). */
	for (unsigned int i = 0; i < mm_slab_nr_cpus; i++)
		slot_set_count(cache, &cache->cpu[i], 0);
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
	uintptr_t lo = mm_direct_map_offset, hi = lo + PFN_PHYS(mm_max_pfn) - 1;
	unsigned int top = 63 - (unsigned int)__builtin_clzl((lo ^ hi) | 1);

	return (top >= 63 ? 0 : ~0UL << (top + 1)) | 7;
}

/*
 * The free links' secret: the environment's seed mixed with the cache's address, so that caches
 * differ and a boot's secrets are not another's. Bit 0 is set: a zeroed link never decodes.
 */
static uintptr_t link_secret(const struct kmem_cache *cache)
{
	return (uintptr_t)mix64(arch_random_seed() ^ mix64((uintptr_t)cache)) | 1;
}

int mm_slab_cache_setup(struct kmem_cache *cache, struct slab_cpu *cpu, const char *name, size_t size,
		     size_t align, unsigned int flags)
{
	memset(cache, 0, sizeof(*cache));
	memset(cpu, 0, mm_slab_nr_cpus * sizeof(*cpu));
	cache->cpu = cpu;
	cache->name = name;
	cache->size = (unsigned int)size;
	cache->align = (unsigned int)(align ? align : 8);
	cache->flags = flags | (__atomic_load_n(&debug_default, __ATOMIC_RELAXED) ? SLAB_DEBUG : 0);
	lock_set_class(&cache->lock, "kmem_cache->lock");
	for (unsigned int i = 0; i < mm_slab_nr_cpus; i++) {
		lock_set_class(&cache->cpu[i].lock, "slab_cpu->lock");
		cpu_data_lock_init(&cache->cpu[i].lock, i);
	}
	cache->partial.first = cache->empty.first = SLAB_NIL;
	/* The slab lists hold 32-bit frame numbers: on a huge machine, slabs stay below 4 GiB. */
	cache->gfp = mm_max_pfn > SLAB_PFN_MAX ? __GFP_DMA32 : 0;
	cache->random = link_secret(cache);
	cache->link_check = link_check_bits();
	for (unsigned int i = 0; i < mm_slab_nr_cpus; i++)
		cache->cpu[i].freelist = slab_list_end();
	return slab_cache_layout(cache); /* the slots' room too */
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

static void list_add_slab(struct slab_list *l, struct page *slab, unsigned int which)
{
	uint32_t pfn = (uint32_t)page_to_pfn(slab);

	slab->slab_prev = SLAB_NIL;
	slab->slab_next = l->first;
	if (l->first != SLAB_NIL)
		pfn_to_page(l->first)->slab_prev = pfn;
	l->first = pfn;
	l->nr++;
	slab->slab_list = (uint16_t)which;
}

static void list_del_slab(struct slab_list *l, struct page *slab)
{
	if (slab->slab_prev != SLAB_NIL)
		pfn_to_page(slab->slab_prev)->slab_next = slab->slab_next;
	else
		l->first = slab->slab_next;
	if (slab->slab_next != SLAB_NIL)
		pfn_to_page(slab->slab_next)->slab_prev = slab->slab_prev;
	l->nr--;
	slab->slab_list = SLAB_ON_NONE;
}

static struct slab_list *list_of(struct kmem_cache *cache, unsigned int which)
{
	return which == SLAB_ON_PARTIAL ? &cache->partial : which == SLAB_ON_EMPTY ? &cache->empty : NULL;
}

/* cache's lock held: puts slab on the list its count says (full: none). */
static void relist(struct kmem_cache *cache, struct page *slab)
{
	unsigned int want = slab->slab_inuse == 0		 ? SLAB_ON_EMPTY
			    : slab->slab_inuse == cache->objects ? SLAB_ON_NONE
							   : SLAB_ON_PARTIAL;

	assert_cache_locked(cache);
	if (slab->slab_list == want)
		return;
	if (slab->slab_list != SLAB_ON_NONE)
		list_del_slab(list_of(cache, slab->slab_list), slab);
	if (want != SLAB_ON_NONE)
		list_add_slab(list_of(cache, want), slab, want);
}

/* cache's lock held: the counters slabinfo reads without it (atomic stores). */
static void set_nr_slabs(struct kmem_cache *cache, unsigned long n)
{
	assert_cache_locked(cache);
	__atomic_store_n(&cache->nr_slabs, n, __ATOMIC_RELAXED);
}

static void add_free(struct kmem_cache *cache, long n)
{
	__atomic_store_n(&cache->free_in_slabs, cache->free_in_slabs + n, __ATOMIC_RELAXED);
}

/* A slab's pages back to the page allocator (the cache's lock held or not: slab is on no list). */
static void slab_free_pages(struct kmem_cache *cache, struct page *slab)
{
	page_flag_clear(slab, PG_slab);
	__atomic_store_n(&slab->slab_cache, NULL, __ATOMIC_RELAXED); /* private's word: mm/page.h */
	slab->lru.next = slab->lru.prev = NULL;
	__free_pages(slab, cache->order);
}

/* cache's lock held: an empty slab taken off the cache's list and uncounted, to be freed; NULL if none. */
static struct page *take_empty(struct kmem_cache *cache)
{
	struct page *slab;

	assert_cache_locked(cache);
	if (cache->empty.first == SLAB_NIL)
		return NULL;
	slab = pfn_to_page(cache->empty.first);
	list_del_slab(&cache->empty, slab);
	set_nr_slabs(cache, cache->nr_slabs - 1);
	add_free(cache, -(long)cache->objects);
	return slab;
}

/* cache's lock held: if cache keeps too many empty slabs, takes one off its list to be freed. */
static struct page *excess_empty(struct kmem_cache *cache)
{
	assert_cache_locked(cache);
	return cache->empty.nr > SLAB_KEEP_EMPTY ? take_empty(cache) : NULL;
}

/* Makes obj's free link say that next follows it. */
static void set_link(struct kmem_cache *cache, void *obj, void *next)
{
	void **link = slab_link(cache, obj);

	*(uintptr_t *)link = slab_link_encode(cache, link, next);
}

/* The object obj's free link says follows it, or NULL when the link does not decode. */
static void *follow_link(struct kmem_cache *cache, void *obj)
{
	void **link = slab_link(cache, obj);
	uintptr_t mixed = slab_link_mixed(cache, link);

	return slab_link_intact(cache, mixed) ? (void *)(mixed ^ (uintptr_t)link) : NULL;
}

/*
 * A new slab of cache with every object on its free list, not counted yet, on no list; NULL when
 * no pages can be had. Interrupts may be off: nothing here sleeps.
 */
static struct page *slab_new(struct kmem_cache *cache, gfp_t gfp)
{
	/*
	 * No zone modifier: a CPU's list mixes slabs, so the objects' zone could not be kept anyway.
	 * Reclaimable: the slab's shrinker gives empty slabs back. No shrinking for this allocation:
	 * a refill holds a CPU slot's lock, which the slab's shrinker takes (mm/shrinker.h).
	 */
	gfp_t g = (gfp & (__GFP_NOWARN | __GFP_HIGH)) | cache->gfp | __GFP_RECLAIMABLE | __GFP_NORECLAIM |
		  (cache->order ? __GFP_COMP : 0);
	struct page *slab = alloc_pages(g, cache->order);
	char *base;

	if (!slab)
		return NULL;
	if (unlikely(page_to_pfn(slab) > SLAB_PFN_MAX)) { /* not from the zone cache->gfp asked for */
		__free_pages(slab, cache->order);
		return NULL;
	}
	base = slab_base(slab);
	for (unsigned int i = 0; i < cache->objects; i++) {
		char *obj = base + (size_t)i * cache->stride + cache->obj_offset;

		/* The last links to the lists' end (mm/slab_cache.h). */
		set_link(cache, obj, i + 1 < cache->objects ? obj + cache->stride : slab_list_end());
		if (cache->flags & SLAB_DEBUG)
			mm_slab_debug_mark_free(cache, obj);
	}
	slab->slab_free = cache->obj_offset;
	slab->slab_inuse = 0;
	slab->slab_list = SLAB_ON_NONE;
	slab->slab_next = slab->slab_prev = SLAB_NIL;
	__atomic_store_n(&slab->slab_cache, cache, __ATOMIC_RELAXED); /* private's word: mm/page.h */
	page_flag_set(slab, PG_slab);
	if (unlikely(!kmalloc_started) && (cache->flags & SLAB_KMALLOC)) /* kmalloc's modes fixed now */
		__atomic_store_n(&kmalloc_started, true, __ATOMIC_RELEASE);
	return slab;
}

/* cache's lock held: obj (checked) back on its slab's free list; a slab to free, or NULL. */
static struct page *slab_put(struct kmem_cache *cache, struct page *slab, void *obj)
{
	assert_cache_locked(cache);
	set_link(cache, obj, slab->slab_free == SLAB_NIL ? slab_list_end() : slab_obj(slab, slab->slab_free));
	slab->slab_free = (uint32_t)((char *)obj - slab_base(slab));
	slab->slab_inuse--;
	add_free(cache, 1);
	relist(cache, slab);
	return slab->slab_inuse ? NULL : excess_empty(cache);
}

/*
 * cache's lock held: every free object of slab taken (it is full), the first returned and their
 * number in *n. The rest follow it through their links.
 */
static void *slab_take_all(struct kmem_cache *cache, struct page *slab, unsigned int *n)
{
	void *obj = slab_obj(slab, slab->slab_free);

	assert_cache_locked(cache);
	*n = cache->objects - slab->slab_inuse;
	add_free(cache, -(long)*n);
	slab->slab_free = SLAB_NIL;
	slab->slab_inuse = (uint16_t)cache->objects;
	relist(cache, slab);
	return obj;
}

/*
 * cache's lock held: the first free object of slab, off its list. NULL when the link to the next
 * one does not decode to an address in slab: its free objects are then abandoned (counted in
 * use, never handed out) and the caller reports it.
 */
static void *slab_take(struct kmem_cache *cache, struct page *slab)
{
	char *obj = slab_obj(slab, slab->slab_free), *next = NULL;
	unsigned int n;

	assert_cache_locked(cache);
	if (slab->slab_inuse + 1u < cache->objects) {
		next = follow_link(cache, obj);
		if (!next || (uintptr_t)(next - slab_base(slab)) > cache->slab_mask) {
			slab_take_all(cache, slab, &n);
			return NULL;
		}
	}
	slab->slab_free = next ? (uint32_t)(next - slab_base(slab)) : SLAB_NIL;
	slab->slab_inuse++;
	add_free(cache, -1);
	relist(cache, slab);
	return obj;
}

/* cache's lock held: a slab with a free object (a partial one first), or NULL. */
static struct page *slab_with_free(struct kmem_cache *cache)
{
	uint32_t pfn = cache->partial.first != SLAB_NIL ? cache->partial.first : cache->empty.first;

	assert_cache_locked(cache);
	return pfn == SLAB_NIL ? NULL : pfn_to_page(pfn);
}

/* cache's lock held: counts a new slab, its objects free (it is on no list until relist()). */
static void count_new_slab(struct kmem_cache *cache)
{
	assert_cache_locked(cache);
	set_nr_slabs(cache, cache->nr_slabs + 1);
	add_free(cache, cache->objects);
}

/*
 * Takes the cache's lock and returns a slab with a free object (a new one if none has any), the lock
 * held; NULL, unlocked, when no slab page can be had.
 */
static struct page *lock_slab_with_free(struct kmem_cache *cache, gfp_t gfp)
{
	struct page *slab;

	arch_spin_lock(&cache->lock);
	slab = slab_with_free(cache);
	if (slab)
		return slab;
	arch_spin_unlock(&cache->lock);
	slab = slab_new(cache, gfp); /* outside the lock: the page allocator takes its own */
	if (!slab)
		return NULL;
	arch_spin_lock(&cache->lock);
	count_new_slab(cache);
	return slab;
}

/* ---- the per-CPU lists' slow paths ------------------------------------------------------- */

/* The report of a free list that does not decode at obj (the caller holds no slab lock). */
static void report_broken_list(struct kmem_cache *cache, const void *obj, const void *caller)
{
	mm_slab_report(cache->name, "free list broken (a double free, or a write to a freed object) at an", obj,
		    caller);
}

/* slot locked: its list forgotten. Its objects stay counted in use: they are never handed out. */
static void abandon_list(struct kmem_cache *cache, struct slab_cpu *slot)
{
	assert_slot_locked(slot);
	slot->freelist = slab_list_end();
	slot_set_count(cache, slot, 0);
}

/*
 * The object after obj in a list of left objects from obj on, in *next: the list's end
 * (slab_list_end()) when obj is the last, its link not followed: the count decides. Returns
 * false when obj's link does not decode.
 */
static bool next_in_list(struct kmem_cache *cache, void *obj, unsigned int left, void **next)
{
	if (left <= 1) {
		*next = slab_list_end();
		return true;
	}
	*next = follow_link(cache, obj);
	return *next != NULL;
}

/*
 * slot locked and empty: it takes every free object of one slab (a new one if none has any); the
 * first is returned, its link zeroed. NULL when no slab page can be had. A slab whose list does
 * not decode is abandoned, counted in *broken, and the next one taken.
 */
static void *refill(struct kmem_cache *cache, struct slab_cpu *slot, gfp_t gfp, unsigned int *broken)
{
	assert_slot_locked(slot);
	for (;;) {
		struct page *slab = lock_slab_with_free(cache, gfp);
		unsigned int n;
		void **obj;

		if (!slab)
			return NULL;
		obj = slab_take_all(cache, slab, &n);
		arch_spin_unlock(&cache->lock);
		if (next_in_list(cache, obj, n, &slot->freelist)) {
			slot_set_count(cache, slot, n - 1);
			*obj = NULL;
			return obj;
		}
		abandon_list(cache, slot);
		(*broken)++;
	}
}

/*
 * Is obj, taken off a CPU list of cache, an object of cache in slab (its head page) that slab
 * counts in use? Only a list that was tampered with gives one that is not.
 */
static bool slab_holds(struct kmem_cache *cache, struct page *slab, const void *obj)
{
	return slab && PageSlab(slab) && slab->slab_cache == cache && slab->slab_inuse &&
	       slab_obj_starts_at(cache, virt_to_phys(obj));
}

/*
 * slot locked: gives the first n objects of its list back to their slabs. Returns pages freed. A
 * link that does not decode, or an object that is not cache's, stops it: the rest of the list is
 * abandoned and *broken_at says where (else NULL).
 */
static unsigned long flush(struct kmem_cache *cache, struct slab_cpu *slot, unsigned int n, void **broken_at)
{
	unsigned int left = slot_count(cache, slot);
	unsigned long freed = 0;

	assert_slot_locked(slot);
	*broken_at = NULL;
	arch_spin_lock(&cache->lock);
	for (unsigned int i = 0; i < n; i++, left--) {
		void *obj = slot->freelist, *next;
		struct page *slab = slab_obj_head(obj), *empty;

		if (!next_in_list(cache, obj, left, &next) || !slab_holds(cache, slab, obj)) {
			*broken_at = obj;
			left = 0;
			break;
		}
		slot->freelist = next;
		empty = slab_put(cache, slab, obj);
		if (empty) {
			slab_free_pages(cache, empty);
			freed += 1UL << cache->order;
		}
	}
	arch_spin_unlock(&cache->lock);
	if (!left)
		slot->freelist = slab_list_end();
	slot_set_count(cache, slot, left);
	return freed;
}

/* ---- the debug mode: one object at a time under the cache lock ---------------------------- */

static void *debug_alloc(struct kmem_cache *cache, gfp_t gfp, const void *caller)
{
	struct page *slab;
	void *obj;

	do {
		slab = lock_slab_with_free(cache, gfp);
		if (!slab)
			return NULL;
		obj = slab_take(cache, slab);
		arch_spin_unlock(&cache->lock);
		if (!obj)
			report_broken_list(cache, slab_base(slab), caller);
	} while (!obj);
	mm_slab_debug_alloc(cache, obj, caller);
	return obj;
}

static void debug_free(struct kmem_cache *cache, struct page *slab, void *obj, const void *caller)
{
	struct page *empty = NULL;
	const char *problem;
	bool overflow;

	arch_spin_lock(&cache->lock);
	problem = mm_slab_debug_free_problem(cache, slab_base(slab), obj, &overflow);
	if (!problem) {
		mm_slab_debug_mark_free(cache, obj);
		empty = slab_put(cache, slab, obj);
	}
	arch_spin_unlock(&cache->lock);
	if (empty)
		slab_free_pages(cache, empty);
	if (overflow)
		mm_slab_report(cache->name, "write past the end (red zone overwritten) of an", obj, caller);
	if (problem)
		mm_slab_report(cache->name, problem, obj, caller);
}

/*
 * slot locked and empty: an object from the slabs (refill(), or debug_alloc() for a debug cache);
 * unlocks the slot and restores irq.
 */
static void *alloc_from_slabs(struct kmem_cache *cache, struct slab_cpu *slot, gfp_t gfp, unsigned long irq,
			      const void *caller)
{
	unsigned int broken = 0;
	void *obj = NULL;

	assert_slot_locked(slot);
	if (cache->cpu_limit)
		obj = refill(cache, slot, gfp, &broken);
	slot_unlock(slot);
	if (!cache->cpu_limit)
		obj = debug_alloc(cache, gfp, caller);
	arch_irq_restore(irq);
	while (broken--)
		report_broken_list(cache, obj, caller);
	if (obj && (gfp & __GFP_ZERO))
		memset(obj, 0, cache->size);
	return obj;
}

/*
 * The CPU lists' slow paths: a debug cache (cpu_limit 0, its lists always empty) always ends up
 * here. Never inlined into the fast paths of this file: the fast path would save registers for
 * them.
 */
__attribute__((noinline)) void *mm_slab_alloc_slow(struct kmem_cache *cache, gfp_t gfp, struct slab_cpu *slot,
						  void *obj, unsigned long irq, const void *caller)
{
	void *fresh;

	assert_slot_locked(slot);
	if (obj == slab_list_end() && !slot_count(cache, slot)) /* empty, not broken */
		return alloc_from_slabs(cache, slot, gfp, irq, caller);
	abandon_list(cache, slot);
	fresh = alloc_from_slabs(cache, slot, gfp, irq, caller);
	report_broken_list(cache, obj, caller);
	return fresh;
}

__attribute__((noinline)) void mm_slab_free_slow(struct kmem_cache *cache, struct slab_cpu *slot, void *obj,
						unsigned long irq, const void *caller)
{
	void *broken_at = NULL;
	unsigned int count;

	assert_slot_locked(slot);
	cpu_own_add(&slot->room, 1); /* the room the fast path took */
	if (!cache->cpu_limit) {
		slot_unlock(slot);
		debug_free(cache, slab_obj_head(obj), obj, caller);
		arch_irq_restore(irq);
		return;
	}
	if (obj == slot->freelist) { /* never the lists' end: obj is an object */
		slot_unlock(slot);
		arch_irq_restore(irq);
		mm_slab_report(cache->name, "double free of an", obj, caller);
		return;
	}
	if (slot_count(cache, slot) >= cache->cpu_limit)
		flush(cache, slot, slot_count(cache, slot) / 2, &broken_at);
	count = slot_count(cache, slot);
	*(uintptr_t *)obj = slab_link_encode(cache, obj, slot->freelist); /* the lists' end when empty */
	slot->freelist = obj;
	slot_set_count(cache, slot, count + 1);
	slot_unlock(slot);
	arch_irq_restore(irq);
	if (broken_at)
		report_broken_list(cache, broken_at, caller);
}

__attribute__((noinline)) void *mm_slab_alloc_saving(struct kmem_cache *cache, gfp_t gfp, const void *caller)
{
	return slab_alloc_off(cache, gfp, fast_irq_saved(), caller);
}

__attribute__((noinline)) void mm_slab_free_saving(struct kmem_cache *cache, void *obj, const void *caller)
{
	slab_free_off(cache, obj, fast_irq_saved(), caller);
}

/* ---- the interface ------------------------------------------------------------------------ */

void *kmem_cache_alloc(struct kmem_cache *cache, gfp_t gfp)
{
	return slab_alloc_fast(cache, gfp);
}

/* The report of obj, a slab object of another cache, freed to cache. */
static __attribute__((noinline, cold)) void report_wrong_cache(struct kmem_cache *cache, struct page *slab,
								 const void *obj, const void *caller)
{
	char what[80];

	snprintf(what, sizeof(what), "free to the wrong cache (it is %s's) of an", slab->slab_cache->name);
	mm_slab_report(cache->name, what, obj, caller);
}

/*
 * kmem_cache_free()'s caller, for the reports: read where they need it, so that the fast path does
 * not pay for it.
 */
#define FREE_CALLER __builtin_return_address(0)

/*
 * As kfree() (mm/kmalloc.c): NULL takes the test that refuses addresses without a struct page (it
 * is no address of the direct map's RAM), and PG_slab marks a slab's first page only.
 */
void kmem_cache_free(struct kmem_cache *cache, void *obj)
{
	uintptr_t phys = virt_to_phys(obj);
	struct page *slab;

	if (unlikely(!pfn_valid(PFN_DOWN(phys)))) {
		if (obj)
			mm_slab_report(cache->name, "free of a pointer no slab holds, not an", obj, FREE_CALLER);
		return;
	}
	slab = pfn_to_page(PFN_DOWN(phys));
	if (unlikely(!PageSlab(slab))) { /* not a slab's first page: a larger slab's other pages, or no slab's */
		slab = compound_head(slab);
		if (!PageSlab(slab)) {
			mm_slab_report(cache->name, "free of a pointer no slab holds, not an", obj, FREE_CALLER);
			return;
		}
	}
	if (unlikely(slab->slab_cache != cache)) {
		report_wrong_cache(cache, slab, obj, FREE_CALLER);
		return;
	}
	if (unlikely(!slab_obj_starts_at(cache, phys))) {
		mm_slab_report(cache->name, "free of a pointer inside (not the start of) an", obj, FREE_CALLER);
		return;
	}
	slab_free_fast(cache, obj);
}

/*
 * CPU cpu's list of cache back to the slabs, on that CPU (or where its slot has a lock);
 * pages freed. A broken list is reported (for caller).
 */
static unsigned long flush_cpu_slot(struct kmem_cache *cache, unsigned int cpu, const void *caller)
{
	struct slab_cpu *slot = &cache->cpu[cpu];
	void *broken_at = NULL;
	unsigned long freed, irq;

	if (!slot_count(cache, slot))
		return 0;
	irq = arch_irq_save();
	slot_lock(slot);
	freed = flush(cache, slot, slot_count(cache, slot), &broken_at);
	slot_unlock(slot);
	arch_irq_restore(irq);
	if (broken_at)
		report_broken_list(cache, broken_at, caller);
	return freed;
}

/* What flush_cpu() is asked to flush, and what it adds its pages to (CPUs may run it at once). */
struct flush_request {
	struct kmem_cache *cache; /* NULL: every cache */
	const void *caller;
	unsigned long freed;
};

/* arch_run_on_cpus()'s function: cpu's slot of the cache asked for, or of every cache. */
static void flush_cpu(unsigned int cpu, void *arg)
{
	struct flush_request *req = arg;
	unsigned long freed = 0;

	if (cpu >= mm_slab_nr_cpus)
		return;
	if (req->cache) {
		freed = flush_cpu_slot(req->cache, cpu, req->caller);
	} else {
		unsigned long irq = mm_spin_lock_irqsave(&mm_slab_caches_lock);
		for (struct list_head *l = mm_slab_caches.next; l != &mm_slab_caches; l = l->next)
			freed += flush_cpu_slot(cache_of_list(l), cpu, req->caller);
		mm_spin_unlock_irqrestore(&mm_slab_caches_lock, irq);
	}
	__atomic_fetch_add(&req->freed, freed, __ATOMIC_RELAXED);
}

/*
 * Every CPU's list of cache (NULL: of every cache) back to the slabs, each flushed on its CPU
 * (arch_run_on_cpus()); only the caller's when it may not wait for the others
 * (may_wait_for_other_cpus()). Pages freed.
 */
static unsigned long flush_cpu_lists(struct kmem_cache *cache, const void *caller)
{
	struct flush_request req = { .cache = cache, .caller = caller };

	if (may_wait_for_other_cpus())
		arch_run_on_cpus(flush_cpu, &req);
	else
		flush_cpu(arch_cpu_id(), &req);
	return __atomic_load_n(&req.freed, __ATOMIC_RELAXED);
}

/* cache's empty slabs freed; pages freed. */
static unsigned long free_empty_slabs(struct kmem_cache *cache)
{
	unsigned long freed = 0;

	for (;;) {
		unsigned long irq = mm_spin_lock_irqsave(&cache->lock);
		struct page *slab = take_empty(cache);

		mm_spin_unlock_irqrestore(&cache->lock, irq);
		if (!slab)
			return freed;
		slab_free_pages(cache, slab);
		freed += 1UL << cache->order;
	}
}

/* Every CPU's list of c back to the slabs (flush_cpu_lists()); then c's empty slabs freed. Pages freed. */
int kmem_cache_shrink(struct kmem_cache *cache)
{
	unsigned long freed = flush_cpu_lists(cache, __builtin_return_address(0));

	return (int)(freed + free_empty_slabs(cache));
}

/* Other CPUs' counts are read racily (atomic loads): approximate while they allocate and free. */
unsigned long mm_slab_active_objects(struct kmem_cache *cache)
{
	unsigned long total = __atomic_load_n(&cache->nr_slabs, __ATOMIC_RELAXED) * cache->objects, idle;

	idle = __atomic_load_n(&cache->free_in_slabs, __ATOMIC_RELAXED);
	for (unsigned int i = 0; i < mm_slab_nr_cpus; i++)
		idle += slot_count(cache, &cache->cpu[i]);
	return total > idle ? total - idle : 0;
}

size_t kmem_cache_size(const struct kmem_cache *cache)
{
	return cache->size;
}

bool slab_debug_enabled(const struct kmem_cache *cache)
{
	return cache && (cache->flags & SLAB_DEBUG);
}

/* ---- caches: the list of them, creating, destroying, shrinking, the debug switch --------- */

void mm_slab_caches_reset(void)
{
	mm_slab_caches.next = mm_slab_caches.prev = &mm_slab_caches;
	kmalloc_started = false;
}

void mm_slab_add_cache(struct kmem_cache *cache)
{
	unsigned long irq = mm_spin_lock_irqsave(&mm_slab_caches_lock);
	list_add(&cache->caches, &mm_slab_caches);
	mm_spin_unlock_irqrestore(&mm_slab_caches_lock, irq);
}

static void remove_cache(struct kmem_cache *cache)
{
	unsigned long irq = mm_spin_lock_irqsave(&mm_slab_caches_lock);
	list_del(&cache->caches);
	mm_spin_unlock_irqrestore(&mm_slab_caches_lock, irq);
}

struct kmem_cache *kmem_cache_create(const char *name, size_t size, size_t align, unsigned int flags)
{
	struct kmem_cache *cache;

	if (!size || size > KMALLOC_MAX_CACHE_SIZE || (align & (align - 1)) || align > PAGE_SIZE) {
		char what[120];

		snprintf(what, sizeof(what),
			 "kmem_cache_create refused: size %zu (1..%d), align %zu (a power of two up to %lu)",
			 size, KMALLOC_MAX_CACHE_SIZE, align, PAGE_SIZE);
		mm_slab_report(name ? name : "?", what, NULL, NULL);
		return NULL;
	}
	/* The descriptor and its CPUs' slots after it: one kmalloc object (a large one on big machines). */
	cache = kmalloc(sizeof(*cache) + mm_slab_nr_cpus * sizeof(struct slab_cpu), GFP_KERNEL);
	if (!cache)
		return NULL;
	if (mm_slab_cache_setup(cache, (struct slab_cpu *)(cache + 1), name, size, align, flags & ~SLAB_KMALLOC)) {
		kfree(cache);
		return NULL;
	}
	mm_slab_add_cache(cache);
	return cache;
}

void kmem_cache_destroy(struct kmem_cache *cache)
{
	const void *caller = __builtin_return_address(0);
	unsigned long active;

	if (!cache)
		return;
	if (cache->flags & SLAB_KMALLOC) {
		mm_slab_report(cache->name, "kmem_cache_destroy of a kmalloc cache refused,", NULL, caller);
		return;
	}
	kmem_cache_shrink(cache);
	active = mm_slab_active_objects(cache);
	if (active || __atomic_load_n(&cache->nr_slabs, __ATOMIC_RELAXED)) {
		char what[120];

		snprintf(what, sizeof(what), "kmem_cache_destroy with %lu objects still allocated: the cache is kept,",
			 active);
		mm_slab_report(cache->name, what, NULL, caller);
		return;
	}
	remove_cache(cache);
	kfree(cache);
}

unsigned long mm_slab_shrink_caches(void)
{
	unsigned long freed = flush_cpu_lists(NULL, __builtin_return_address(0)), irq;

	/* Created caches' descriptors are kmalloc objects: shrink those caches before kmalloc's. */
	irq = mm_spin_lock_irqsave(&mm_slab_caches_lock);
	for (struct list_head *l = mm_slab_caches.next; l != &mm_slab_caches; l = l->next)
		freed += free_empty_slabs(cache_of_list(l));
	mm_spin_unlock_irqrestore(&mm_slab_caches_lock, irq);
	return freed;
}

/* The pages cache's free objects would fill, no more than its slabs hold. */
static unsigned long cache_idle_pages(struct kmem_cache *cache)
{
	unsigned long slabs = __atomic_load_n(&cache->nr_slabs, __ATOMIC_RELAXED);
	unsigned long idle = slabs * cache->objects - MIN(mm_slab_active_objects(cache), slabs * cache->objects);

	return MIN(slabs, (idle + cache->objects - 1) / cache->objects) << cache->order;
}

unsigned long mm_slab_idle_pages(void)
{
	unsigned long pages = 0, irq;

	irq = mm_spin_lock_irqsave(&mm_slab_caches_lock);
	for (struct list_head *l = mm_slab_caches.next; l != &mm_slab_caches; l = l->next)
		pages += cache_idle_pages(cache_of_list(l));
	mm_spin_unlock_irqrestore(&mm_slab_caches_lock, irq);
	return pages;
}

unsigned long nr_slab_pages(void)
{
	unsigned long pages = 0, irq;

	irq = mm_spin_lock_irqsave(&mm_slab_caches_lock);
	for (struct list_head *l = mm_slab_caches.next; l != &mm_slab_caches; l = l->next) {
		struct kmem_cache *cache = cache_of_list(l);

		pages += __atomic_load_n(&cache->nr_slabs, __ATOMIC_RELAXED) << cache->order;
	}
	mm_spin_unlock_irqrestore(&mm_slab_caches_lock, irq);
	return pages;
}

/*
 * Boot only (no kmalloc cache has had a slab yet, so no other CPU can be in one): the kmalloc
 * caches take the mode. Rewriting a cache's flags and layout is safe only while nothing uses it.
 */
static void switch_kmalloc_caches(bool on)
{
	for (struct list_head *l = mm_slab_caches.next; l != &mm_slab_caches; l = l->next) {
		struct kmem_cache *cache = cache_of_list(l);

		if (!(cache->flags & SLAB_KMALLOC))
			continue;
		cache->flags = on ? cache->flags | SLAB_DEBUG : cache->flags & ~SLAB_DEBUG;
		slab_cache_layout(cache);
	}
}

void slab_set_debug(bool on)
{
	__atomic_store_n(&debug_default, on, __ATOMIC_RELAXED);
	if (!__atomic_load_n(&kmalloc_started, __ATOMIC_ACQUIRE))
		switch_kmalloc_caches(on);
}
