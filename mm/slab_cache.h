/* SPDX-License-Identifier: MIT */
/*
 * Internal to the slab allocator (mm/slab.h is the interface): the cache descriptor, its per-CPU
 * object lists and the layout of objects in a slab.
 *
 * Layout. A slab of 2^order pages holds objects at stride bytes, the first at offset 0. Without
 * debug an object is its size rounded up to its alignment and a free object's first word links
 * it to the next free one. With debug each stride is
 *
 *     [left red zone: obj_offset bytes][object: size][right red zone: up to rz_end][free link: 8]
 *
 * so poison and red zones cover every byte of the object and the link survives a write to a freed
 * object. Red zones hold RZ_ACTIVE while the object is allocated, RZ_FREE while it is free.
 *
 * Free links are hardened: a link does not hold the next free object's address but that address
 * XOR the link's own address XOR the cache's secret (random). Decoded, next ^ link has zeros where
 * link_check has ones (two direct-map addresses agree in their high bits, and objects are 8-byte
 * aligned); a link overwritten after the free, or one that was never set, decodes to something
 * else with high probability and is reported instead of followed. An object leaving a CPU list
 * has its link zeroed, which never decodes (random has a bit of link_check), so an object freed
 * twice is caught when the list reaches it a second time: its link was zeroed or overwritten.
 * Every list (a CPU's, a slab's) ends in a link to slab_list_end(), a direct-map word that stays
 * zero: the last object's link decodes, and an empty CPU list's freelist points at a word that
 * never decodes, so the allocation fast path needs no count: its side exit for a link that does
 * not decode (mm_slab_alloc_slow()) tells an empty list from a broken one.
 *
 * Free objects. Each CPU has a LIFO list of free objects per cache (struct slab_cpu): allocation
 * pops, free pushes, with interrupts off (and the slot's lock where the environment has no
 * ARCH_CPU_CALLS_BY_IPI: slot_lock()); only the CPU itself flushes its list for a shrink
 * (arch_run_on_cpus()). An empty list takes every free
 * object of one slab at once (the slab's list becomes the CPU's); a list at cpu_limit gives half
 * back to their slabs. A slot counts the room left below cpu_limit, not its objects: the free
 * fast path takes one (a decrement and a branch on its sign), the allocation fast path gives one
 * back. A slab's inuse counts the objects not on its own free list, so a slab is
 * empty when it is 0 whichever CPU holds its objects. Debug caches have cpu_limit 0: every
 * allocation and free goes to the slabs under the cache lock, where each one is checked.
 */
#ifndef MM_SLAB_CACHE_H
#define MM_SLAB_CACHE_H

#include "mm/arch.h"
#include "mm/gfp.h"
#include "mm/list.h"
#include "mm/lock_check.h"
#include "mm/memmap.h"
#include "mm/page.h"

/*
 * Per-CPU slots: each cache has one for each CPU (mm_slab_nr_cpus, mm_init_params.nr_cpus), which
 * CPU n finds at cpu[n]. slab_cpu_init() sizes them at boot: a kmalloc cache's from memblock, a
 * created cache's right after its descriptor (kmem_cache_create()).
 */
extern unsigned int mm_slab_nr_cpus;

/* Ends a slab list or a slab's free list (struct page's slab fields, mm/page.h). */
#define SLAB_NIL 0xffffffffu
/* The largest frame number a slab list can hold: caches ask for ZONE_DMA32 above it. */
#define SLAB_PFN_MAX 0xfffffffeUL

enum { SLAB_ON_NONE, SLAB_ON_PARTIAL, SLAB_ON_EMPTY };

/* Internal flag (beside mm/slab.h's): one of kmalloc's caches, static, never destroyed. */
#define SLAB_KMALLOC 0x80000000u

/* Empty slabs a cache keeps for its next allocations; more go back to the page allocator. */
#define SLAB_KEEP_EMPTY 2

#define SLAB_MAX_ORDER 3

/* Debug patterns. */
#define RZ_ACTIVE 0xcc
#define RZ_FREE 0xbb
#define POISON_FREE 0x6b
#define POISON_END 0xa5

struct slab_cpu {
	mm_spinlock_t lock; /* taken only without ARCH_CPU_CALLS_BY_IPI (slot_lock()): else interrupts off is enough */
	/*
	 * The cache's cpu_limit minus the objects on freelist (slot_count()): below 0 after the free
	 * fast path took one, the list was full (always, with debug's cpu_limit 0). Atomic stores
	 * where other CPUs can reach the slot: slabinfo reads it.
	 */
	int room;
	/*
	 * The first free object, linked to the next through its first word (hardened, above); the
	 * last one links to slab_list_end(), which freelist is when the list is empty.
	 */
	void *freelist;
};

/* A cache's lists of slabs that have free objects, linked by frame number (mm/page.h). */
struct slab_list {
	uint32_t first;
	unsigned long nr;
};

struct kmem_cache {
	/* Read by the fast paths. */
	unsigned int cpu_limit; /* a CPU list this long gives half back; 0: no CPU lists (debug) */
	unsigned int size;      /* object size users may use */
	unsigned int stride;    /* bytes from one object to the next */
	unsigned int objects;   /* per slab */
	unsigned int order;     /* of a slab */
	unsigned int flags;     /* SLAB_* given, plus SLAB_DEBUG when debug */
	unsigned int align;
	unsigned int obj_offset; /* debug: left red zone before each object */
	unsigned int rz_end;     /* debug: end of the right red zone, where the free link is */
	unsigned int fp_offset;  /* offset of the free link from the object's start */
	uint64_t stride_inv;     /* 2^32 / stride rounded up: offset -> index without a division */
	unsigned long slab_mask; /* bytes in a slab - 1: an address's offset in its slab (aligned) */
	uint32_t start_max;      /* the largest (offset * stride_inv) mod 2^32 of an object's start */
	uintptr_t random;        /* the free links' secret (mixed from arch_random_seed()) */
	uintptr_t link_check;    /* bits that are 0 in a decoded link (next ^ link) */
	gfp_t gfp;               /* added to every slab allocation (__GFP_DMA32 on huge machines) */
	const char *name;
	struct list_head caches; /* on the list of every cache */

	/* Behind lock. */
	mm_spinlock_t lock;
	struct slab_list partial, empty;
	unsigned long nr_slabs;    /* atomic stores: nr_slab_pages() and slabinfo read them */
	unsigned long free_in_slabs; /* objects on the slabs' own free lists */

	struct slab_cpu *cpu;      /* mm_slab_nr_cpus slots, one per CPU */
};

/* The cache whose caches link is l. */
static inline struct kmem_cache *cache_of_list(struct list_head *l)
{
	return (struct kmem_cache *)((char *)l - offsetof(struct kmem_cache, caches));
}

/*
 * The slot the calling CPU uses (interrupts off). The empty asm hands the compiler the slot as one
 * register: else it addresses each field from the cache and the CPU number separately, which takes
 * a register more on the fast paths and makes them save one (measured in make bench-kernel).
 */
static inline struct slab_cpu *slab_cpu_slot(struct kmem_cache *c)
{
	struct slab_cpu *slot = &c->cpu[arch_cpu_id()];

	__asm__("" : "+r"(slot));
	return slot;
}

/*
 * A slot is its CPU's own data (cpu_data_lock(), mm/lock_check.h): another CPU that must flush it
 * asks its CPU, and reads of its count elsewhere are approximate.
 */
static inline void slot_lock(struct slab_cpu *slot) { cpu_data_lock(&slot->lock); }
static inline void slot_unlock(struct slab_cpu *slot) { cpu_data_unlock(&slot->lock); }
static inline bool slot_locked(const struct slab_cpu *slot) { return cpu_data_locked(&slot->lock); }

/* The index of the object (stride) that offset bytes into a slab falls in. */
static inline unsigned int slab_obj_index(const struct kmem_cache *c, unsigned long offset)
{
	return (unsigned int)((offset * c->stride_inv) >> 32);
}

/* The free link of obj. */
static inline void **slab_link(const struct kmem_cache *c, void *obj)
{
	return (void **)((char *)obj + c->fp_offset);
}

/* What a free link at link holds to say that next follows it. */
static inline uintptr_t slab_link_encode(const struct kmem_cache *c, const void *link, const void *next)
{
	return (uintptr_t)next ^ (uintptr_t)link ^ c->random;
}

/* A link's content without the secret: next ^ link when the link is intact. */
static inline uintptr_t slab_link_mixed(const struct kmem_cache *c, const void *link)
{
	return *(const uintptr_t *)link ^ c->random;
}

/* Could mixed (slab_link_mixed()) come from an intact link? */
static inline bool slab_link_intact(const struct kmem_cache *c, uintptr_t mixed)
{
	return !(mixed & c->link_check);
}

/*
 * Where every free list ends (above): a word of the direct map that stays zero, set up by
 * slab_cpu_init().
 */
extern uintptr_t *mm_slab_list_end;

static inline void *slab_list_end(void)
{
	return mm_slab_list_end;
}

/*
 * The objects on slot's list of c: exact for the slot's holder, an approximate figure elsewhere
 * (atomic load; 0 rather than below).
 */
static inline unsigned int slot_count(const struct kmem_cache *c, const struct slab_cpu *slot)
{
	int n = (int)c->cpu_limit - __atomic_load_n(&slot->room, __ATOMIC_RELAXED);

	return n > 0 ? (unsigned int)n : 0;
}

/* slot locked: n objects on its list of c (atomic store: other CPUs read it). */
static inline void slot_set_count(const struct kmem_cache *c, struct slab_cpu *slot, unsigned int n)
{
	__atomic_store_n(&slot->room, (int)c->cpu_limit - (int)n, __ATOMIC_RELAXED);
}

/*
 * slot locked: takes room for one more object on its list; was there room below cpu_limit? When
 * not, the caller goes to mm_slab_free_slow(), which gives the room back. In the kernel a
 * decrement in memory and a branch on its sign.
 */
static inline __attribute__((always_inline)) bool slot_take_room(struct slab_cpu *slot)
{
	return cpu_own_take(&slot->room);
}

/*
 * Is phys, in a slab of c, where an object starts? One multiply: (offset in the slab) * stride_inv
 * is, mod 2^32, i * (stride_inv * stride - 2^32) at the start of object i, small and growing with
 * i, and at least stride_inv anywhere else (mm/README.md). Debug caches pass everything here (their
 * start_max is the largest value): their locked free path checks the exact offset.
 */
static inline bool slab_obj_starts_at(const struct kmem_cache *c, uintptr_t phys)
{
	uint32_t offset = (uint32_t)(phys & c->slab_mask);

	return offset * (uint32_t)c->stride_inv <= c->start_max;
}

/*
 * Sets up c (zeroed by the caller or not) with no slabs and its CPUs' slots at cpu (mm_slab_nr_cpus
 * of them, initialized here), debug when flags has SLAB_DEBUG or the default is on
 * (slab_set_debug()); the cache list is the caller's (mm_slab_add_cache()).
 */
int mm_slab_cache_setup(struct kmem_cache *c, struct slab_cpu *cpu, const char *name, size_t size, size_t align,
		     unsigned int flags);


/* Boot (slab_init()): every cache forgotten, and slab_set_debug() may switch kmalloc's again. */
void mm_slab_caches_reset(void);

/* Puts cache on the list of every cache (slabinfo, shrinking). */
void mm_slab_add_cache(struct kmem_cache *cache);

/* kmem_cache_shrink() of every cache: pages freed. */
unsigned long mm_slab_shrink_caches(void);

/*
 * Pages that shrinking every cache could give back at most: per cache, the slabs its free objects
 * (in slabs and on CPU lists) would fill, no more than it has. An atomic-read estimate.
 */
unsigned long mm_slab_idle_pages(void);

/* mm/slab.h's count of reports, declared here too for mm_slab_report() below mm/slab.h. */
extern unsigned long mm_slab_reports;

/* Every cache (kmalloc's and created ones), behind mm_slab_caches_lock. */
extern struct list_head mm_slab_caches;
extern mm_spinlock_t mm_slab_caches_lock;

/* Objects of c allocated now (not free in a slab nor on a CPU list); an atomic-read snapshot. */
unsigned long mm_slab_active_objects(struct kmem_cache *c);

/*
 * The head page of the block obj is in (a slab's or not), or NULL when obj is no address of the
 * direct map's RAM. An address below the direct map wraps to a frame number above them all.
 */
static inline struct page *slab_obj_head(const void *obj)
{
	unsigned long pfn = PFN_DOWN((uintptr_t)obj - mm_direct_map_offset);

	if (unlikely(!pfn_valid(pfn)))
		return NULL;
	return compound_head(pfn_to_page(pfn));
}

/*
 * The slow halves of the fast paths below, entered with slot locked and interrupts off (irq:
 * what to restore); they unlock. The allocation's is entered when obj, the list's first, has a
 * link that does not decode: an empty list (obj is its end, slab_list_end()) is refilled; a
 * broken one (a double free or a write to a freed object) is reported, abandoned and refilled.
 * The free's is entered with the room taken (slot_take_room()), which it gives back. The
 * allocation's takes gfp second, where its callers (kmalloc(), kmem_cache_alloc()) have it: the
 * fast path then does not move it (one instruction, make bench-kernel).
 */
void *mm_slab_alloc_slow(struct kmem_cache *c, gfp_t gfp, struct slab_cpu *slot, void *obj, unsigned long irq,
			 const void *caller);
void mm_slab_free_slow(struct kmem_cache *c, struct slab_cpu *slot, void *obj, unsigned long irq,
		       const void *caller);

/*
 * The fast paths below when interrupts are not known to be on (fast_irq_off(), mm/lock_check.h):
 * the same, out of line, with arch_irq_save(); caller is the fast path's caller, for the reports.
 */
void *mm_slab_alloc_saving(struct kmem_cache *c, gfp_t gfp, const void *caller);
void mm_slab_free_saving(struct kmem_cache *c, void *obj, const void *caller);

/*
 * The reports' caller in the two below: the one the saving way was given, or (NULL, the fast
 * path) the interface's caller, read only where a slow path needs it, so that the fast path
 * does not pay for it.
 */
#define SLAB_CALLER(caller) ((caller) ? (caller) : __builtin_return_address(0))

/* slab_alloc_fast() with interrupts off (irq: fast_irq_off()). */
static inline __attribute__((always_inline)) void *slab_alloc_off(struct kmem_cache *c, gfp_t gfp,
								   struct fast_irq irq, const void *caller)
{
	struct slab_cpu *slot = slab_cpu_slot(c);
	uintptr_t mixed;
	void **obj;

	slot_lock(slot);
	obj = slot->freelist;
	mixed = slab_link_mixed(c, obj);
	/* !slab_link_intact(), which the compiler tests less well; an empty list's end never decodes */
	if (unlikely(mixed & c->link_check))
		return mm_slab_alloc_slow(c, gfp, slot, obj, fast_irq_keep(irq), SLAB_CALLER(caller));
	slot->freelist = (void *)(mixed ^ (uintptr_t)obj);
	*obj = NULL; /* never decodes: a second trip through the list is caught */
	cpu_own_add(&slot->room, 1);
	slot_unlock(slot);
	fast_irq_restore(irq);
	if (unlikely(gfp & __GFP_ZERO))
		return memset(obj, 0, c->size);
	return obj;
}

/*
 * An object of c: the first of this CPU's list. Inlined into the interface: the reports name its
 * caller (__builtin_return_address(0) where it is inlined).
 */
static inline __attribute__((always_inline)) void *slab_alloc_fast(struct kmem_cache *c, gfp_t gfp)
{
	struct fast_irq irq;

	if (unlikely(!fast_irq_off(&irq)))
		return mm_slab_alloc_saving(c, gfp, __builtin_return_address(0));
	return slab_alloc_off(c, gfp, irq, NULL);
}

/* slab_free_fast() with interrupts off (irq: fast_irq_off()). */
static inline __attribute__((always_inline)) void slab_free_off(struct kmem_cache *c, void *obj,
								 struct fast_irq irq, const void *caller)
{
	struct slab_cpu *slot = slab_cpu_slot(c);
	void *head;

	slot_lock(slot);
	head = slot->freelist;
	/* Two tests, not one ||: the compiler then keeps the decrement and its branch together. */
	if (unlikely(!slot_take_room(slot))) {
		mm_slab_free_slow(c, slot, obj, fast_irq_keep(irq), SLAB_CALLER(caller));
		return;
	}
	if (unlikely(obj == head)) {
		mm_slab_free_slow(c, slot, obj, fast_irq_keep(irq), SLAB_CALLER(caller));
		return;
	}
	*(uintptr_t *)obj = slab_link_encode(c, obj, head);
	slot->freelist = obj;
	slot_unlock(slot);
	fast_irq_restore(irq);
}

/*
 * Frees obj, the start of an object in a slab of c (the caller checked both): pushed on this
 * CPU's list. The object this CPU freed last again (a double free), a full list and debug caches
 * go slow.
 */
static inline __attribute__((always_inline)) void slab_free_fast(struct kmem_cache *c, void *obj)
{
	struct fast_irq irq;

	if (unlikely(!fast_irq_off(&irq))) {
		mm_slab_free_saving(c, obj, __builtin_return_address(0));
		return;
	}
	slab_free_off(c, obj, irq, NULL);
}

#endif
