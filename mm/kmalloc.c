/* SPDX-License-Identifier: MIT */
/*
 * kmalloc: the size classes over slab caches, large sizes as compound pages of their own (with a
 * small per-CPU reuse of them), kfree() and ksize() from the address alone, caches created at run
 * time, slab_init(), slab_set_debug() and kmem_cache_shrink_all(). See mm/slab.h.
 */
#include "mm/slab.h"

#include "mm/compound.h"
#include "mm/debug.h"
#include "mm/page_alloc.h"
#include "mm/page_owner.h"
#include "mm/poison.h"
#include "mm/slab_cache.h"
#include "mm/slab_debug.h"

#define NR_KMALLOC 13
static const unsigned int kmalloc_sizes[NR_KMALLOC] = { 8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192 };
static const char *const kmalloc_names[NR_KMALLOC] = {
	"kmalloc-8",   "kmalloc-16",  "kmalloc-32", "kmalloc-64", "kmalloc-96", "kmalloc-128", "kmalloc-192",
	"kmalloc-256", "kmalloc-512", "kmalloc-1k", "kmalloc-2k", "kmalloc-4k", "kmalloc-8k",
};
static struct kmem_cache kmalloc_caches[NR_KMALLOC];

/* The class of sizes 1..192 by (size + 7) / 8; above, by the bit length of size - 1. */
static const uint8_t small_index[25] = { 0, 0, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5,
					 6, 6, 6, 6, 6, 6, 6, 6 };
static const uint8_t large_index[14] = { [8] = 7, [9] = 8, [10] = 9, [11] = 10, [12] = 11, [13] = 12 };

static bool debug_default = MM_DEBUG;

static inline unsigned int kmalloc_index(size_t size)
{
	if (size <= 192)
		return small_index[(size + 7) >> 3];
	return large_index[64 - __builtin_clzl(size - 1)];
}

struct kmem_cache *kmalloc_cache(size_t size)
{
	return size && size <= KMALLOC_MAX_CACHE_SIZE ? &kmalloc_caches[kmalloc_index(size)] : NULL;
}

/* ---- large sizes: compound pages, a few kept per CPU --------------------------------------- */

/*
 * Each CPU keeps up to LARGE_KEEP freed pages of each order 1..LARGE_MAX_ORDER (up to 64 KiB), so
 * a kmalloc()/kfree() pair of such a size does not go to the page allocator each time. The
 * pages keep their compound metadata and this destructor, their count 0.
 */
#define LARGE_MAX_ORDER 4
#define LARGE_KEEP 2
struct large_cpu {
	mm_spinlock_t lock;
	unsigned int nr[LARGE_MAX_ORDER + 1];
	struct page *page[LARGE_MAX_ORDER + 1][LARGE_KEEP];
};
static struct large_cpu large_cpu[SLAB_CPU_SLOTS];

static struct large_cpu *large_slot(void)
{
	return &large_cpu[arch_cpu_id() % SLAB_CPU_SLOTS];
}

/* May freed pages be kept? Not while they must be poisoned or their owners recorded as freed. */
static bool large_keep_ok(void)
{
	return !__atomic_load_n(&mm_debug_poison, __ATOMIC_RELAXED);
}

/*
 * The destructor of a large kmalloc's compound page (the last put_page(), from kfree()): kept on
 * this CPU when there is room, else given back.
 */
static void kmalloc_large_dtor(struct page *head)
{
	unsigned int order = compound_order(head);

	if (order <= LARGE_MAX_ORDER && large_keep_ok()) {
		unsigned long irq = arch_irq_save();
		struct large_cpu *l = large_slot();
		bool kept = false;

		arch_spin_lock(&l->lock);
		if (l->nr[order] < LARGE_KEEP) {
			l->page[order][l->nr[order]++] = head;
			kept = true;
		}
		arch_spin_unlock(&l->lock);
		arch_irq_restore(irq);
		if (kept)
			return;
	}
	free_compound_page(head);
}

/*
 * A page of order that slot l keeps, taken off it, or NULL. Whichever CPU's slot l is: the lock
 * makes it right (kmalloc takes from its own CPU's, kmem_cache_shrink_all() from every one).
 */
static struct page *large_pop(struct large_cpu *l, unsigned int order)
{
	unsigned long irq = arch_irq_save();
	struct page *page = NULL;

	arch_spin_lock(&l->lock);
	if (l->nr[order])
		page = l->page[order][--l->nr[order]];
	arch_spin_unlock(&l->lock);
	arch_irq_restore(irq);
	return page;
}

static __attribute__((noinline)) void *kmalloc_large(size_t size, gfp_t gfp, const void *caller)
{
	struct page *page = NULL;
	unsigned int order;

	if (size > KMALLOC_MAX_SIZE) {
		if (!(gfp & __GFP_NOWARN))
			printk("kmalloc: %zu bytes refused: the largest is %lu\n", size, (unsigned long)KMALLOC_MAX_SIZE);
		return NULL;
	}
	order = 64 - __builtin_clzl((size - 1) >> PAGE_SHIFT); /* size > 8 KiB: order 2 or more */
	if (order <= LARGE_MAX_ORDER && !(gfp & __GFP_ZONEMASK))
		page = large_pop(large_slot(), order); /* any zone: gfp asks for none */
	if (page) {
		set_page_ref(page, 1);
		if (page_owner_on)
			page_owner_alloc(page_to_pfn(page), order, gfp | __GFP_COMP, (uintptr_t)caller);
		if (gfp & __GFP_ZERO)
			memset(page_address(page), 0, PAGE_SIZE << order);
		return page_address(page);
	}
	page = alloc_pages(gfp | __GFP_COMP, order);
	if (!page)
		return NULL;
	set_compound_page_dtor(page, kmalloc_large_dtor);
	return page_address(page);
}

/* Gives back every kept large page: pages freed. */
static unsigned long large_drain(void)
{
	unsigned long freed = 0;

	for (unsigned int i = 0; i < SLAB_CPU_SLOTS; i++) {
		for (unsigned int o = 1; o <= LARGE_MAX_ORDER; o++) {
			for (struct page *page; (page = large_pop(&large_cpu[i], o));) {
				free_compound_page(page);
				freed += 1UL << o;
			}
		}
	}
	return freed;
}

/* kfree() of p, which is not in a slab: a large kmalloc's page, or a report. */
static __attribute__((noinline)) void kfree_large(struct page *head, const void *p, const void *caller)
{
	if (!head || !PageHead(head) || get_compound_page_dtor(head) != kmalloc_large_dtor) {
		slab_report("kmalloc", "free of a pointer kmalloc never returned: not an", p, caller);
		return;
	}
	if (p != page_address(head)) {
		slab_report("kmalloc", "free of a pointer inside a large", p, caller);
		return;
	}
	if (page_ref(head) <= 0) {
		slab_report("kmalloc", "double free of a large", p, caller);
		return;
	}
	/*
	 * The only reference (the usual case): nobody else can take one, so the destructor is called
	 * directly, without put_page()'s atomic and destroy_compound_page()'s lookup.
	 */
	if (page_ref(head) == 1) {
		set_page_ref(head, 0);
		kmalloc_large_dtor(head);
		return;
	}
	put_page(head);
}

/* ---- the interface ------------------------------------------------------------------------ */

void *kmalloc(size_t size, gfp_t gfp)
{
	if (likely(size - 1 < KMALLOC_MAX_CACHE_SIZE))
		return slab_alloc_fast(&kmalloc_caches[kmalloc_index(size)], gfp);
	if (!size)
		return ZERO_SIZE_PTR;
	return kmalloc_large(size, gfp, __builtin_return_address(0));
}

void *kzalloc(size_t size, gfp_t gfp)
{
	return kmalloc(size, gfp | __GFP_ZERO);
}

void kfree(const void *p)
{
	const void *caller = __builtin_return_address(0);
	struct page *head;

	if (unlikely((uintptr_t)p <= (uintptr_t)ZERO_SIZE_PTR))
		return;
	head = slab_obj_head(p);
	if (likely(head && PageSlab(head))) {
		slab_free_fast(head->slab_cache, (void *)p, caller);
		return;
	}
	kfree_large(head, p, caller);
}

size_t ksize(const void *p)
{
	struct page *head;

	if ((uintptr_t)p <= (uintptr_t)ZERO_SIZE_PTR)
		return 0;
	head = slab_obj_head(p);
	if (head && PageSlab(head))
		return head->slab_cache->size;
	if (head && PageHead(head) && get_compound_page_dtor(head) == kmalloc_large_dtor)
		return PAGE_SIZE << compound_order(head);
	slab_report("kmalloc", "ksize() of a pointer kmalloc never returned: not an", p, __builtin_return_address(0));
	return 0;
}

/* ---- caches ------------------------------------------------------------------------------- */

static bool is_kmalloc_cache(const struct kmem_cache *c)
{
	return c >= kmalloc_caches && c < kmalloc_caches + NR_KMALLOC;
}

static void add_cache(struct kmem_cache *c)
{
	unsigned long irq = arch_irq_save();

	arch_spin_lock(&slab_caches_lock);
	list_add(&c->caches, &slab_caches);
	arch_spin_unlock(&slab_caches_lock);
	arch_irq_restore(irq);
}

struct kmem_cache *kmem_cache_create(const char *name, size_t size, size_t align, unsigned int flags)
{
	struct kmem_cache *c;

	if (!size || size > KMALLOC_MAX_CACHE_SIZE || (align & (align - 1)) || align > PAGE_SIZE) {
		__atomic_fetch_add(&slab_reports, 1, __ATOMIC_RELAXED);
		printk("BUG: slab %s: kmem_cache_create refused: size %zu (1..%d), align %zu (a power of two up to %lu)\n",
		       name ? name : "?", size, KMALLOC_MAX_CACHE_SIZE, align, PAGE_SIZE);
		return NULL;
	}
	c = kmalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return NULL;
	if (slab_cache_setup(c, name, size, align, flags | (debug_default ? SLAB_DEBUG : 0))) {
		kfree(c);
		return NULL;
	}
	add_cache(c);
	return c;
}

void kmem_cache_destroy(struct kmem_cache *c)
{
	unsigned long irq, active;

	if (!c)
		return;
	if (is_kmalloc_cache(c)) {
		__atomic_fetch_add(&slab_reports, 1, __ATOMIC_RELAXED);
		printk("BUG: slab %s: kmem_cache_destroy of a kmalloc cache refused, caller %pS\n", c->name,
		       __builtin_return_address(0));
		return;
	}
	kmem_cache_shrink(c);
	active = slab_active_objects(c);
	if (active || __atomic_load_n(&c->nr_slabs, __ATOMIC_RELAXED)) {
		__atomic_fetch_add(&slab_reports, 1, __ATOMIC_RELAXED);
		printk("BUG: slab %s: kmem_cache_destroy with %lu objects still allocated: the cache is kept, caller %pS\n",
		       c->name, active, __builtin_return_address(0));
		return;
	}
	irq = arch_irq_save();
	arch_spin_lock(&slab_caches_lock);
	list_del(&c->caches);
	arch_spin_unlock(&slab_caches_lock);
	arch_irq_restore(irq);
	kfree(c);
}

unsigned long kmem_cache_shrink_all(void)
{
	unsigned long freed = large_drain(), irq;

	/* Created caches' descriptors are kmalloc objects: shrink those caches before kmalloc's. */
	irq = arch_irq_save();
	arch_spin_lock(&slab_caches_lock);
	for (struct list_head *l = slab_caches.next; l != &slab_caches; l = l->next)
		freed += (unsigned long)kmem_cache_shrink(cache_of_list(l));
	arch_spin_unlock(&slab_caches_lock);
	arch_irq_restore(irq);
	return freed;
}

unsigned long nr_slab_pages(void)
{
	unsigned long pages = 0, irq = arch_irq_save();

	arch_spin_lock(&slab_caches_lock);
	for (struct list_head *l = slab_caches.next; l != &slab_caches; l = l->next) {
		struct kmem_cache *c = cache_of_list(l);

		pages += __atomic_load_n(&c->nr_slabs, __ATOMIC_RELAXED) << c->order;
	}
	arch_spin_unlock(&slab_caches_lock);
	arch_irq_restore(irq);
	return pages;
}

void slab_set_debug(bool on)
{
	debug_default = on;
	for (unsigned int i = 0; i < NR_KMALLOC; i++) {
		struct kmem_cache *c = &kmalloc_caches[i];

		if (!c->name) /* before slab_init(): it applies the default */
			continue;
		kmem_cache_shrink(c);
		if (__atomic_load_n(&c->nr_slabs, __ATOMIC_RELAXED))
			continue; /* it holds objects: their layout stays */
		c->flags = on ? c->flags | SLAB_DEBUG : c->flags & ~SLAB_DEBUG;
		slab_cache_layout(c);
	}
}

void slab_init(void)
{
	slab_caches.next = slab_caches.prev = &slab_caches;
	memset(large_cpu, 0, sizeof(large_cpu));
	for (unsigned int i = 0; i < SLAB_CPU_SLOTS; i++)
		lock_set_class(&large_cpu[i].lock, "large_cpu->lock");
	register_compound_dtor(kmalloc_large_dtor, "kmalloc_large");
	for (unsigned int i = NR_KMALLOC; i-- > 0;) { /* the list in size order */
		/*
		 * A power-of-two class is aligned to its size (up to a page), as mm/slab.h promises.
		 * Asking for it here, not relying on the stride, keeps it in debug mode too, where
		 * the left red zone grows to the alignment instead of shifting every object by 8.
		 */
		size_t size = kmalloc_sizes[i];
		size_t align = (size & (size - 1)) ? 8 : MIN(size, (size_t)PAGE_SIZE);

		slab_cache_setup(&kmalloc_caches[i], kmalloc_names[i], size, align,
				 debug_default ? SLAB_DEBUG : 0);
		list_add(&kmalloc_caches[i].caches, &slab_caches);
	}
}
