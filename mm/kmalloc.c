/* SPDX-License-Identifier: MIT */
/*
 * kmalloc: the size classes over slab caches, large sizes as compound pages of their own (with a
 * small per-CPU reuse of them), kfree() and ksize() from the address alone, slab_init() (the
 * classes' caches) and kmem_cache_shrink_all() (the slab caches and the kept large pages). Caches
 * themselves (creating, destroying, shrinking, the debug switch) are mm/slab.c's. See mm/slab.h.
 */
#include "mm/slab.h"

#include "mm/compound.h"
#include "mm/memblock.h"
#include "mm/page_alloc.h"
#include "mm/page_owner.h"
#include "mm/poison.h"
#include "mm/shrinker.h"
#include "mm/slab_cache.h"
#include "mm/slab_debug.h"
#include "mm/vmstat.h"

#define NR_KMALLOC 13
static const unsigned int kmalloc_sizes[NR_KMALLOC] = { 8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192 };
static const char *const kmalloc_names[NR_KMALLOC] = {
	"kmalloc-8",   "kmalloc-16",  "kmalloc-32", "kmalloc-64", "kmalloc-96", "kmalloc-128", "kmalloc-192",
	"kmalloc-256", "kmalloc-512", "kmalloc-1k", "kmalloc-2k", "kmalloc-4k", "kmalloc-8k",
};
static struct kmem_cache kmalloc_caches[NR_KMALLOC];

/*
 * The class of sizes 1..CLASS_TABLE_MAX by (size - 1) / 8: one shift and one load, the same for
 * every size up to a page (4 KiB of pointers); larger ones are all kmalloc-8k. Pointers, not
 * indices: the fast path then has the cache in a register, not an index to multiply.
 */
#define CLASS_TABLE_MAX 4096
#define K(i) (&kmalloc_caches[i])
static struct kmem_cache *const class_table[CLASS_TABLE_MAX / 8] = {
	[0] = K(0),		[1] = K(1),	      [2 ... 3] = K(2),	    [4 ... 7] = K(3),
	[8 ... 11] = K(4),	[12 ... 15] = K(5),   [16 ... 23] = K(6),   [24 ... 31] = K(7),
	[32 ... 63] = K(8),	[64 ... 127] = K(9),  [128 ... 255] = K(10), [256 ... 511] = K(11),
};
#undef K
#define KMALLOC_8K (&kmalloc_caches[NR_KMALLOC - 1])
_Static_assert(KMALLOC_MAX_CACHE_SIZE == 2 * CLASS_TABLE_MAX, "one class above the table");

/* The kmalloc cache of size, 1..KMALLOC_MAX_CACHE_SIZE. */
static inline struct kmem_cache *class_of(size_t size)
{
	return size <= CLASS_TABLE_MAX ? class_table[(size - 1) >> 3] : KMALLOC_8K;
}

struct kmem_cache *kmalloc_cache(size_t size)
{
	return size && size <= KMALLOC_MAX_CACHE_SIZE ? class_of(size) : NULL;
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
static struct large_cpu *large_cpu;           /* mm_slab_nr_cpus of them, from slab_cpu_init() */
static struct slab_cpu *kmalloc_cpu;          /* NR_KMALLOC * mm_slab_nr_cpus slots, cache-major */
unsigned int mm_slab_nr_cpus = 1;
uintptr_t *mm_slab_list_end;                  /* mm/slab_cache.h: before the large_cpu slots */

static struct large_cpu *large_slot(void)
{
	return &large_cpu[arch_cpu_id()];
}

/*
 * May freed pages be kept? Not while freed pages must be poisoned: a kept page skips it (and
 * keeps its page_owner record until it is handed out again or given back).
 */
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
 * Always inlined: kmalloc_large() makes no call for it (make bench-kernel: 8 instructions a pair).
 */
static inline __attribute__((always_inline)) struct page *large_pop(struct large_cpu *l, unsigned int order)
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
		if (mm_page_owner_on)
			page_owner_alloc(page_to_pfn(page), order, gfp | __GFP_COMP, (uintptr_t)caller);
		if (gfp & __GFP_ZERO)
			memset(page_address(page), 0, PAGE_SIZE << order);
		return page_address(page);
	}
	page = alloc_pages((gfp & ~__GFP_MOBILITY) | __GFP_COMP, order); /* kmalloc memory stays put: unmovable */
	if (!page)
		return NULL;
	set_compound_page_dtor(page, kmalloc_large_dtor);
	return page_address(page);
}

/* Gives back every kept large page: pages freed. */
static unsigned long large_drain(void)
{
	unsigned long freed = 0;

	for (unsigned int i = 0; i < mm_slab_nr_cpus; i++) {
		for (unsigned int o = 1; o <= LARGE_MAX_ORDER; o++) {
			for (struct page *page; (page = large_pop(&large_cpu[i], o));) {
				free_compound_page(page);
				freed += 1UL << o;
			}
		}
	}
	return freed;
}

/*
 * kfree() of p, which is not in a slab: NULL or ZERO_SIZE_PTR (nothing), a large kmalloc's page,
 * or a report. head is NULL when p is no address of the direct map's RAM.
 */
static __attribute__((noinline)) void kfree_large(struct page *head, const void *p, const void *caller)
{
	if ((uintptr_t)p <= (uintptr_t)ZERO_SIZE_PTR)
		return;
	if (!head || !PageHead(head) || get_compound_page_dtor(head) != kmalloc_large_dtor) {
		mm_slab_report("kmalloc", "free of a pointer kmalloc never returned: not an", p, caller);
		return;
	}
	if (p != page_address(head)) {
		mm_slab_report("kmalloc", "free of a pointer inside a large", p, caller);
		return;
	}
	if (page_ref(head) <= 0) {
		mm_slab_report("kmalloc", "double free of a large", p, caller);
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
	if (likely(size - 1 < CLASS_TABLE_MAX))
		return slab_alloc_fast(class_table[(size - 1) >> 3], gfp);
	if (size - 1 < KMALLOC_MAX_CACHE_SIZE)
		return slab_alloc_fast(KMALLOC_8K, gfp);
	if (!size)
		return ZERO_SIZE_PTR;
	return kmalloc_large(size, gfp, __builtin_return_address(0));
}

void *kzalloc(size_t size, gfp_t gfp)
{
	return kmalloc(size, gfp | __GFP_ZERO);
}

/*
 * kfree()'s caller, for the reports: read where a slow path needs it, not at kfree()'s entry, so
 * that the fast path does not pay for it (kfree_slab_object() is inlined into kfree()).
 */
#define KFREE_CALLER __builtin_return_address(0)

/* Frees p, in a slab of c at physical address phys: checked to start an object. */
static inline __attribute__((always_inline)) void kfree_slab_object(struct kmem_cache *c, const void *p,
								     uintptr_t phys)
{
	if (unlikely(!slab_obj_starts_at(c, phys))) {
		mm_slab_report(c->name, "free of a pointer inside (not the start of) an", p, KFREE_CALLER);
		return;
	}
	slab_free_fast(c, (void *)p);
}

/*
 * NULL and ZERO_SIZE_PTR are no address of the direct map's RAM (below it they wrap to a frame
 * number above every valid one; where it starts at 0, as an identity map, frame 0 is no RAM: else
 * kmalloc() could hand out NULL): they take the test that refuses such addresses, and
 * kfree_large() returns for them. A page is a slab's first page when PG_slab is set: no other
 * page has it (mm/page_alloc.c refuses to free one that has), so a pointer into a larger slab's
 * other pages looks up the head.
 */
void kfree(const void *p)
{
	uintptr_t phys = virt_to_phys(p);
	struct page *page, *head;

	if (unlikely(!pfn_valid(PFN_DOWN(phys)))) {
		kfree_large(NULL, p, KFREE_CALLER);
		return;
	}
	page = pfn_to_page(PFN_DOWN(phys));
	if (likely(PageSlab(page))) {
		kfree_slab_object(page->slab_cache, p, phys);
		return;
	}
	head = compound_head(page);
	if (PageSlab(head)) {
		kfree_slab_object(head->slab_cache, p, phys);
		return;
	}
	kfree_large(head, p, KFREE_CALLER);
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
	mm_slab_report("kmalloc", "ksize() of a pointer kmalloc never returned: not an", p, __builtin_return_address(0));
	return 0;
}

/* ---- shrinking and boot ------------------------------------------------------------------- */

unsigned long kmem_cache_shrink_all(void)
{
	return large_drain() + mm_slab_shrink_caches();
}

/* Pages the CPUs keep of freed large kmallocs. */
static unsigned long large_kept_pages(void)
{
	unsigned long pages = 0;

	for (unsigned int i = 0; i < mm_slab_nr_cpus; i++) {
		unsigned long irq = mm_spin_lock_irqsave(&large_cpu[i].lock);
		for (unsigned int o = 1; o <= LARGE_MAX_ORDER; o++)
			pages += (unsigned long)large_cpu[i].nr[o] << o;
		mm_spin_unlock_irqrestore(&large_cpu[i].lock, irq);
	}
	return pages;
}

/*
 * The slab's shrinker, in pages: it counts what kmem_cache_shrink_all() could give back (the
 * slabs the caches' free objects would fill, the kept large pages), and any call gives all of it
 * back, every CPU's object lists flushed to their slabs first, counted in SLABS_SHRUNK. Safe from
 * mm_shrink(): no mm lock is held there, and the slab allocates its pages with __GFP_NORECLAIM.
 */
static unsigned long slab_shrinker_count(struct shrinker *s, struct shrink_control *sc)
{
	(void)s, (void)sc;
	return mm_slab_idle_pages() + large_kept_pages();
}

static unsigned long slab_shrinker_scan(struct shrinker *s, struct shrink_control *sc)
{
	unsigned long freed = kmem_cache_shrink_all();

	(void)s;
	sc->nr_scanned = MAX(sc->nr_scanned, freed);
	count_vm_events(SLABS_SHRUNK, freed);
	return freed;
}

static struct shrinker slab_shrinker = {
	.count_objects = slab_shrinker_count,
	.scan_objects = slab_shrinker_scan,
	.name = "slab",
};

int slab_cpu_init(unsigned int nr_cpus)
{
	size_t end = sizeof(*mm_slab_list_end);
	size_t large = (size_t)(nr_cpus ? nr_cpus : 1) * sizeof(struct large_cpu);
	size_t slots = (size_t)(nr_cpus ? nr_cpus : 1) * NR_KMALLOC * sizeof(struct slab_cpu);
	phys_addr_t phys = memblock_alloc_named(ALIGN_UP(end + large + slots, PAGE_SIZE), PAGE_SIZE, UINT64_MAX,
						"slab per-CPU slots");

	if (!phys) {
		printk("mm: no memory for the slab's per-CPU slots of %u CPUs (%zu bytes)\n", nr_cpus,
		       end + large + slots);
		return -ENOMEM;
	}
	mm_slab_nr_cpus = nr_cpus ? nr_cpus : 1;
	mm_slab_list_end = phys_to_virt(phys);
	*mm_slab_list_end = 0;
	large_cpu = (struct large_cpu *)((char *)mm_slab_list_end + end);
	kmalloc_cpu = (struct slab_cpu *)((char *)large_cpu + large);
	return 0;
}

void slab_init(void)
{
	mm_slab_caches_reset();
	memset(large_cpu, 0, mm_slab_nr_cpus * sizeof(*large_cpu));
	for (unsigned int i = 0; i < mm_slab_nr_cpus; i++)
		lock_set_class(&large_cpu[i].lock, "large_cpu->lock");
	register_compound_dtor(kmalloc_large_dtor, "kmalloc_large");
	register_shrinker(&slab_shrinker); /* mm_init() forgot the shrinkers of a previous build */
	for (unsigned int i = NR_KMALLOC; i-- > 0;) { /* the list in size order */
		/*
		 * A power-of-two class is aligned to its size (up to a page), as mm/slab.h promises.
		 * Asking for it here, not relying on the stride, keeps it in debug mode too, where
		 * the left red zone grows to the alignment instead of shifting every object by 8.
		 */
		size_t size = kmalloc_sizes[i];
		size_t align = (size & (size - 1)) ? 8 : MIN(size, (size_t)PAGE_SIZE);

		mm_slab_cache_setup(&kmalloc_caches[i], kmalloc_cpu + (size_t)i * mm_slab_nr_cpus, kmalloc_names[i], size,
				 align, SLAB_KMALLOC);
		mm_slab_add_cache(&kmalloc_caches[i]);
	}
}
