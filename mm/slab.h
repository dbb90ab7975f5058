/* SPDX-License-Identifier: MIT */
/*
 * Slab caches and kmalloc: objects of one size carved out of pages of the page allocator.
 *
 *   struct kmem_cache *c = kmem_cache_create("inode", sizeof(struct inode), 0, SLAB_HWCACHE_ALIGN);
 *   struct inode *i = kmem_cache_alloc(c, GFP_KERNEL | __GFP_ZERO);
 *   kmem_cache_free(c, i);
 *   char *buf = kmalloc(100, GFP_ATOMIC);     // the 128-byte class
 *   buf = krealloc(buf, 300, GFP_ATOMIC);     // moved to the 512-byte class, contents kept
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
 * mm_slab_reports) and the bad free refused: nothing is corrupted. Without debug: a double free of
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

/**
 * kmem_cache_create() - Create a cache of objects of one size.
 * @name: the cache's name in reports and slabinfo; kept, not copied.
 * @size: the object size, 1..KMALLOC_MAX_CACHE_SIZE.
 * @align: the objects' alignment, a power of two up to a page (0: 8; SLAB_HWCACHE_ALIGN: 64).
 * @flags: SLAB_HWCACHE_ALIGN, SLAB_DEBUG.
 *
 * The cache is debug when flags has SLAB_DEBUG or slab_set_debug(true) was the last call.
 *
 * Return: the cache; NULL (reported) for size 0, size above KMALLOC_MAX_CACHE_SIZE, align not a
 * power of two (or above a page), or no memory for the cache's descriptor.
 */
struct kmem_cache *kmem_cache_create(const char *name, size_t size, size_t align, unsigned int flags);

/**
 * kmem_cache_destroy() - Free a cache and its slabs.
 * @c: the cache.
 *
 * Objects still allocated: reported, the cache kept (leaked).
 */
void kmem_cache_destroy(struct kmem_cache *c);

/**
 * kmem_cache_alloc() - Allocate an object of a cache.
 * @c: the cache.
 * @gfp: __GFP_ZERO: zeroed; the rest as for the slab's pages (mm/gfp.h).
 *
 * Return: the object, or NULL when no slab page can be had.
 */
void *kmem_cache_alloc(struct kmem_cache *c, gfp_t gfp);

/**
 * kmem_cache_free() - Give an object back to its cache.
 * @c: the cache it came from.
 * @obj: the object; NULL is ignored.
 *
 * Misuse is reported and refused (above).
 */
void kmem_cache_free(struct kmem_cache *c, void *obj);

/**
 * kmem_cache_shrink() - Give a cache's spare memory back.
 * @c: the cache.
 *
 * Every CPU's free objects go back to their slabs and c's empty slabs to the page allocator.
 * Each CPU gives back its own, asked through arch_run_on_cpus() (mm/arch.h); called with
 * interrupts off or from an interrupt handler, where it cannot wait for the other CPUs, only the
 * calling CPU's objects go back.
 *
 * Return: pages freed.
 */
int kmem_cache_shrink(struct kmem_cache *c);

/**
 * kmem_cache_shrink_all() - kmem_cache_shrink() of every cache, and kmalloc's cached large pages.
 *
 * The slab's shrinker (mm/shrinker.h) calls it when an allocation is about to fail.
 *
 * Return: pages freed.
 */
unsigned long kmem_cache_shrink_all(void);

/**
 * kmem_cache_size() - The object size users of a cache may use.
 * @c: the cache.
 *
 * Return: that size in bytes.
 */
size_t kmem_cache_size(const struct kmem_cache *c);

/**
 * kmalloc() - Allocate size bytes.
 * @size: bytes, 0..KMALLOC_MAX_SIZE.
 * @gfp: __GFP_ZERO zeroes; zone modifiers count above 8192 only; __GFP_HIGH (GFP_ATOMIC) may take
 *       a zone's reserve for new slabs.
 *
 * The bytes come from the kmalloc class that serves size (8, 16, 32, 64, 96, 128, 192, 256, 512,
 * 1024, 2048, 4096, 8192), aligned to 8 (a power-of-two class to its size, up to a page); larger,
 * a compound page of its own (alloc_pages(gfp | __GFP_COMP, order)), freed through its destructor.
 * gfp's zone modifiers (__GFP_DMA, __GFP_DMA32) are honoured above 8192 only: slab objects come
 * from any zone (ask alloc_pages() for DMA buffers).
 *
 * Return: the object; ZERO_SIZE_PTR for size 0; NULL when there is no memory, or (reported)
 * above KMALLOC_MAX_SIZE.
 */
void *kmalloc(size_t size, gfp_t gfp);

/**
 * kzalloc() - kmalloc() of zeroed bytes.
 * @size: as kmalloc()'s.
 * @gfp: as kmalloc()'s (__GFP_ZERO is added).
 *
 * Return: as kmalloc().
 */
void *kzalloc(size_t size, gfp_t gfp);

/**
 * kfree() - Free what kmalloc() or kmem_cache_alloc() returned.
 * @p: the object; NULL and ZERO_SIZE_PTR: nothing.
 */
void kfree(const void *p);

/**
 * ksize() - The usable size of a kmalloc'd object.
 * @p: what kmalloc() returned.
 *
 * Return: its class size, or PAGE_SIZE << order for a large one; 0 for NULL and ZERO_SIZE_PTR,
 * and 0 (reported) for a pointer kmalloc never returned.
 */
size_t ksize(const void *p);

/**
 * krealloc() - Resize a kmalloc'd object, keeping its contents.
 * @p: what kmalloc() (or krealloc()) returned; NULL or ZERO_SIZE_PTR: as kmalloc(new_size, gfp).
 * @new_size: the bytes wanted; 0 frees p.
 * @gfp: as kmalloc()'s; with __GFP_ZERO the bytes of a new object beyond ksize(p) are zeroed.
 *
 * "Big enough" is ksize(p), the object's real size: when new_size fits, p is kept as it is (a
 * shrink never moves, nor gives memory back). Otherwise a new object of new_size bytes is
 * allocated, ksize(p) bytes are copied and p is freed. Works for large (page-backed) objects.
 *
 * Return: the object holding the contents (p or a new one); ZERO_SIZE_PTR for new_size 0 (p
 * freed); NULL when no memory, p then untouched and still the caller's; NULL (reported by
 * ksize()) for a p kmalloc never returned, nothing freed.
 */
void *krealloc(const void *p, size_t new_size, gfp_t gfp);

/**
 * kmalloc_array() - kmalloc() of n elements, the product checked.
 * @n: how many elements.
 * @size: bytes per element.
 * @gfp: as kmalloc()'s.
 *
 * Return: as kmalloc(n * size, gfp); NULL (reported, nothing allocated) when n * size overflows
 * a size_t.
 */
void *kmalloc_array(size_t n, size_t size, gfp_t gfp);

/**
 * kcalloc() - kmalloc_array() of zeroed elements.
 * @n: how many elements.
 * @size: bytes per element.
 * @gfp: as kmalloc()'s (__GFP_ZERO is added).
 *
 * Return: as kmalloc_array().
 */
void *kcalloc(size_t n, size_t size, gfp_t gfp);

/**
 * kmemdup() - A kmalloc'd copy of a buffer.
 * @src: the bytes to copy.
 * @len: how many; 0 gives ZERO_SIZE_PTR.
 * @gfp: as kmalloc()'s.
 *
 * Return: the copy, or NULL when kmalloc() fails.
 */
void *kmemdup(const void *src, size_t len, gfp_t gfp);

/**
 * kstrdup() - A kmalloc'd copy of a string.
 * @s: the NUL-terminated string; NULL gives NULL.
 * @gfp: as kmalloc()'s.
 *
 * Return: the copy, NUL-terminated, or NULL.
 */
char *kstrdup(const char *s, gfp_t gfp);

/**
 * kstrndup() - A kmalloc'd copy of at most max bytes of a string.
 * @s: the string; NULL gives NULL.
 * @max: the most bytes copied (the terminating NUL is added after them).
 * @gfp: as kmalloc()'s.
 *
 * Return: the copy, NUL-terminated, or NULL.
 */
char *kstrndup(const char *s, size_t max, gfp_t gfp);

/* Reports of slab misuse since boot (atomic adds: read with __atomic_load_n()). */
extern unsigned long mm_slab_reports;

/**
 * slab_set_debug() - Debug (on) or not for caches created afterwards.
 * @on: true: red zones, poison, every free checked.
 *
 * On at boot in MM_DEBUG=1 builds; may be called at any time. The kmalloc caches follow only at
 * boot, before the first of them has a slab (the slub_debug switch): later, other CPUs may be in
 * them and their layout cannot change under them, so they keep their mode (slab_debug_enabled()
 * says which).
 */
void slab_set_debug(bool on);

/**
 * slab_debug_enabled() - Is a cache in debug mode?
 * @c: the cache.
 *
 * Return: true when c has red zones and poison.
 */
bool slab_debug_enabled(const struct kmem_cache *c);

/**
 * slabinfo_line() - One slabinfo line.
 * @c: the cache; NULL writes the header.
 * @buf: where to write.
 * @size: buf's size.
 *
 * "name active_objs total_objs objsize objperslab pagesperslab", one line per cache.
 *
 * Return: the length snprintf() would write.
 */
int slabinfo_line(const struct kmem_cache *c, char *buf, size_t size);

/**
 * slabinfo_show() - Print the slabinfo header and every cache's line.
 */
void slabinfo_show(void);

/**
 * nr_slab_pages() - Pages held by slabs (show_mem()'s Slab: line).
 *
 * Return: that count.
 */
unsigned long nr_slab_pages(void);

/**
 * kmalloc_cache() - The kmalloc cache that serves a size.
 * @size: bytes, 1..8192.
 *
 * Return: the cache, NULL above 8192 (or for 0).
 */
struct kmem_cache *kmalloc_cache(size_t size);

/**
 * slab_cpu_init() - Boot: the slab's per-CPU memory, from memblock.
 * @nr_cpus: the CPUs to serve (0 means 1).
 *
 * Called before memblock retires (mm_init()): kmalloc's caches' slots and its kept large pages.
 *
 * Return: 0, or -ENOMEM saying how much it needed.
 */
int slab_cpu_init(unsigned int nr_cpus);

/**
 * slab_init() - Boot: set up the kmalloc caches.
 *
 * Called by mm_init() once the page allocator works (again, after a rebuild: every cache is
 * forgotten). Allocates nothing until the first kmalloc().
 */
void slab_init(void);

#endif
