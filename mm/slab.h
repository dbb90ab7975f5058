/* SPDX-License-Identifier: MIT */
/*
 * Slab caches and kmalloc: objects of one size carved out of pages of the page allocator.
 *
 *   struct kmem_cache *c = kmem_cache_create("inode", sizeof(struct inode), 0, SLAB_HWCACHE_ALIGN);
 *   struct inode *i = kmem_cache_alloc(c, GFP_KERNEL | __GFP_ZERO);
 *   kmem_cache_free(c, i);
 *   char *buf = kmalloc(100, GFP_ATOMIC);     // the 128-byte class
 *   kfree(buf);
 *
 * A slab is one page or a compound page of a small order chosen per cache; its head struct page
 * carries PG_slab, the cache in slab_cache (the word tails use for first_page) and its free list
 * and object count (mm/page.h). kfree() finds everything from the address: virt_to_page(),
 * compound_head(), then PageSlab() ? slab_cache : a large kmalloc's compound page.
 *
 * Every call may be made on any CPU and from interrupt handlers; nothing sleeps. Each CPU keeps a
 * list of free objects per cache behind its own lock (taken with interrupts off, so uncontended
 * unless another CPU drains it); slabs with free objects are on the cache's lists behind the
 * cache's lock (the lock order: mm/lock_check.h). An object may be freed on any CPU.
 *
 * Misuse is reported ("BUG: slab CACHE: WHAT object ADDR caller FUNCTION", counted in
 * slab_reports) and the bad free refused: nothing is corrupted. Without debug: a double free of
 * the object this CPU freed last, a pointer no slab or large kmalloc handed out, a pointer inside
 * an object, a free to the wrong cache; and, when allocation reaches it on a CPU's list, an
 * object freed twice or a freed object whose free link was overwritten (the links are hardened,
 * mm/README.md): reported before the object is handed out again, the rest of that list abandoned
 * (counted in use, never handed out). With debug (SLAB_DEBUG, slab_set_debug(), MM_DEBUG=1 builds,
 * slub_debug on the kernel's command line): any double free and pointer inside an object at the
 * free, a write past the end of an object (red zones, checked at free) and a write to a freed
 * object (poison, checked when it is allocated again).
 */
#ifndef MM_SLAB_H
#define MM_SLAB_H

#include "mm/gfp.h"
#include "mm/types.h"
#include "mm/zone.h"

#define SLAB_HWCACHE_ALIGN 0x1u /* align objects to 64 bytes */
#define SLAB_DEBUG 0x2u         /* this cache: red zones, poison, every free checked */

#define KMALLOC_MIN_SIZE 8
#define KMALLOC_MAX_CACHE_SIZE 8192 /* larger: a compound page of its own */
#define KMALLOC_MAX_SIZE (PAGE_SIZE << MAX_ORDER)
#define ZERO_SIZE_PTR ((void *)16) /* kmalloc(0); kfree() and ksize() accept it */

struct kmem_cache; /* opaque to users (mm/slab_cache.h) */

/*
 * A cache of objects of size bytes aligned to align (0: 8; SLAB_HWCACHE_ALIGN: 64), debug when
 * flags has SLAB_DEBUG or slab_set_debug(true) was the last call. name is kept, not copied. NULL
 * (reported) for size 0, size above KMALLOC_MAX_CACHE_SIZE, align not a power of two (or above
 * a page), or no memory for the cache's descriptor.
 */
struct kmem_cache *kmem_cache_create(const char *name, size_t size, size_t align, unsigned int flags);

/* Frees the cache and its slabs. Objects still allocated: reported, the cache kept (leaked). */
void kmem_cache_destroy(struct kmem_cache *c);

/* An object of c (__GFP_ZERO: zeroed), or NULL when no slab page can be had. */
void *kmem_cache_alloc(struct kmem_cache *c, gfp_t gfp);

/* Gives obj back to c; misuse is reported and refused (above). NULL is ignored. */
void kmem_cache_free(struct kmem_cache *c, void *obj);

/* Every CPU's free objects back to their slabs and c's empty slabs to the page allocator: pages freed. */
int kmem_cache_shrink(struct kmem_cache *c);

/*
 * kmem_cache_shrink() of every cache, and kmalloc's cached large pages: pages freed. The slab's
 * shrinker (mm/shrinker.h) calls it when an allocation is about to fail.
 */
unsigned long kmem_cache_shrink_all(void);

/* The object size users of c may use. */
size_t kmem_cache_size(const struct kmem_cache *c);

/*
 * size bytes from the kmalloc class that serves it (8, 16, 32, 64, 96, 128, 192, 256, 512, 1024,
 * 2048, 4096, 8192), aligned to 8 (a power-of-two class to its size, up to a page); larger, a
 * compound page of its own (alloc_pages(gfp | __GFP_COMP, order)), freed through its destructor.
 * kmalloc(0) is ZERO_SIZE_PTR; above KMALLOC_MAX_SIZE, NULL (reported). gfp's zone modifiers
 * (__GFP_DMA, __GFP_DMA32) are honoured above 8192 only: slab objects come from any zone (ask
 * alloc_pages() for DMA buffers). __GFP_HIGH (GFP_ATOMIC) may take a zone's reserve for new slabs.
 */
void *kmalloc(size_t size, gfp_t gfp);
void *kzalloc(size_t size, gfp_t gfp);

/* Frees what kmalloc() or kmem_cache_alloc() returned; NULL and ZERO_SIZE_PTR: nothing. */
void kfree(const void *p);

/* The usable size of p: its class size, or PAGE_SIZE << order for a large one; 0 for NULL. */
size_t ksize(const void *p);

/* Reports of slab misuse since boot (atomic adds: read with __atomic_load_n()). */
extern unsigned long slab_reports;

/*
 * Debug (on) or not for caches created afterwards (on at boot in MM_DEBUG=1 builds); at any time.
 * The kmalloc caches follow only at boot, before the first of them has a slab (the slub_debug
 * switch): later, other CPUs may be in them and their layout cannot change under them, so they
 * keep their mode (slab_debug_enabled() says which).
 */
void slab_set_debug(bool on);
bool slab_debug_enabled(const struct kmem_cache *c);

/*
 * slabinfo: "name active_objs total_objs objsize objperslab pagesperslab", one line per cache
 * (slabinfo_line(NULL, ...) writes the header). Returns the length snprintf() would write.
 */
int slabinfo_line(const struct kmem_cache *c, char *buf, size_t size);
void slabinfo_show(void);

/* Pages held by slabs (show_mem()'s Slab: line). */
unsigned long nr_slab_pages(void);

/* The kmalloc cache that serves size (1..8192), NULL above (or for 0). */
struct kmem_cache *kmalloc_cache(size_t size);

/*
 * Boot, before memblock retires (mm_init()): the slab's per-CPU memory for nr_cpus CPUs (0 means
 * 1) from memblock: kmalloc's caches' slots and its kept large pages. Returns 0, or -ENOMEM
 * saying how much it needed.
 */
int slab_cpu_init(unsigned int nr_cpus);

/*
 * Boot, from mm_init() once the page allocator works (again, after a rebuild: every cache is
 * forgotten): sets up the kmalloc caches. Allocates nothing until the first kmalloc().
 */
void slab_init(void);

#endif
