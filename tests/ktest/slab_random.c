/* SPDX-License-Identifier: MIT */
/*
 * Randomized self-test of kmalloc and slab caches against a model: with a fixed seed (printed,
 * so a failure can be replayed), random sizes from every class and some large ones, from kmalloc
 * and from three caches of odd sizes, allocated and freed in random order. The model holds every
 * live object with its size and fill pattern: each new object must be aligned, of the right
 * ksize and overlap no live one; each freed object must still hold its pattern; and at the end,
 * everything freed and the caches shrunk, the free page count is back where it started.
 */
#include "tests/ktest/slab_helpers.h"

#define MAX_LIVE 384
#define STEPS 6000
#define NCACHES 3

struct live {
	uint8_t *p;
	size_t size;     /* what was asked for */
	size_t usable;   /* ksize or kmem_cache_size: the bytes filled */
	int cache;       /* -1: kmalloc; else an index into caches[] */
	unsigned long seed;
};

static struct live live[MAX_LIVE];
static size_t nlive;
static struct kmem_cache *caches[NCACHES];
static const size_t cache_sizes[NCACHES] = { 24, 200, 3000 };
static const size_t cache_aligns[NCACHES] = { 8, 64, 0 };
/* kmalloc objects not at their class's alignment: counted, reported once at the end. */
static unsigned long misaligned;
/*
 * Large kmallocs that failed when the free lists held no block of their order for that gfp (the
 * allocator's slow path, shrinkers included, had run): the memory was not there, nothing was lost.
 * Any other failure is the allocator's, and fails the case.
 */
static unsigned long short_of_blocks;
static void *first_misaligned;
static size_t first_misaligned_size;

/* Mostly small sizes (every class, boundaries most), sometimes zero, sometimes large. */
static size_t random_size(unsigned long *rng)
{
	unsigned long r = mm_test_rand(rng) % 100, k = mm_test_rand(rng);

	if (r < 2)
		return 0;
	if (r < 6)
		return 8193 + k % (128 * 1024);
	if (r < 40) { /* a class boundary, or one past it */
		size_t c = slab_test_classes[k % SLAB_TEST_NCLASSES];

		return (k >> 8) & 1 && c < KMALLOC_MAX_CACHE_SIZE ? c + 1 : c;
	}
	if (r < 80)
		return 1 + k % 256;
	return 1 + k % KMALLOC_MAX_CACHE_SIZE;
}

/* Does [p, p + n) overlap a live object? Returns its index, or nlive. */
static size_t overlapping(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < nlive; i++)
		if (p < live[i].p + live[i].usable && live[i].p < p + n)
			return i;
	return nlive;
}

static void random_alloc(struct ktest *t, unsigned long *rng)
{
	struct live o = { .cache = (int)(mm_test_rand(rng) % (NCACHES + 3)) - 3, .seed = mm_test_rand(rng) };
	gfp_t gfp = mm_test_rand(rng) % 4 ? GFP_KERNEL : GFP_ATOMIC;
	bool zero = mm_test_rand(rng) % 8 == 0;
	size_t at;

	if (o.cache < 0) {
		o.cache = -1;
		o.size = random_size(rng);
		o.p = zero ? kzalloc(o.size, gfp) : kmalloc(o.size, gfp);
		if (o.size == 0) {
			KT_EXPECT(t, o.p == ZERO_SIZE_PTR, "kmalloc(0) = %p", (void *)o.p);
			return;
		}
		if (!o.p && o.size > KMALLOC_MAX_CACHE_SIZE &&
		    !mm_free_blocks(slab_test_large_order(o.size), gfp)) {
			short_of_blocks++; /* a small machine with no free block of the order (bios-7m) */
			return;
		}
		if (!KT_EXPECT(t, o.p != NULL, "kmalloc(%zu) failed", o.size))
			return;
		o.usable = ksize(o.p);
		if (o.size <= KMALLOC_MAX_CACHE_SIZE) {
			KT_EXPECT(t, o.usable == slab_test_class_of(o.size), "ksize %zu for kmalloc(%zu)", o.usable, o.size);
			if (!slab_test_aligned(o.p, slab_test_class_align(o.usable)) && !misaligned++)
				first_misaligned = o.p, first_misaligned_size = o.size;
		} else {
			KT_EXPECT(t, o.usable == PAGE_SIZE << slab_test_large_order(o.size), "ksize %zu for kmalloc(%zu)",
				  o.usable, o.size);
			KT_EXPECT(t, slab_test_aligned(o.p, PAGE_SIZE), "kmalloc(%zu) = %p misaligned", o.size, (void *)o.p);
		}
	} else {
		struct kmem_cache *c = caches[o.cache];

		o.size = cache_sizes[o.cache];
		o.p = kmem_cache_alloc(c, gfp | (zero ? __GFP_ZERO : 0));
		if (!KT_EXPECT(t, o.p != NULL, "kmem_cache_alloc(%zu) failed", o.size))
			return;
		o.usable = kmem_cache_size(c);
		KT_EXPECT(t, slab_test_aligned(o.p, cache_aligns[o.cache] ? cache_aligns[o.cache] : 8),
			  "cache of %zu: %p misaligned", o.size, (void *)o.p);
	}
	if (zero)
		KT_EXPECT(t, slab_test_zeroed(o.p, o.size), "zeroed allocation of %zu at %p is not zero", o.size, (void *)o.p);
	at = overlapping(o.p, o.usable);
	if (!KT_EXPECT(t, at == nlive, "new object %p (%zu bytes) overlaps live %p (%zu bytes)", (void *)o.p, o.usable,
		       at < nlive ? (void *)live[at].p : NULL, at < nlive ? live[at].usable : 0)) {
		/* Keep the model true: it is in use twice now, so leak it rather than free it twice. */
		return;
	}
	slab_test_fill(o.p, o.usable, o.seed);
	live[nlive++] = o;
}

/* Checks and frees live object i (the last one moves into its place). */
static void free_live(struct ktest *t, size_t i)
{
	struct live *o = &live[i];
	size_t bad = slab_test_check(o->p, o->usable, o->seed);

	KT_EXPECT(t, bad == o->usable, "object %p (%zu bytes of %s %zu) changed at byte %zu", (void *)o->p, o->usable,
		  o->cache < 0 ? "kmalloc" : "cache", o->size, bad);
	if (o->cache < 0)
		kfree(o->p);
	else
		kmem_cache_free(caches[o->cache], o->p);
	live[i] = live[--nlive];
}

static void run(struct ktest *t, unsigned long seed, bool debug)
{
	unsigned long rng = seed, before = slab_test_free_pages(), reports = mm_slab_reports;

	printk("    # slab_random: seed %#lx, %d steps, caches %s debugging, kmalloc %s\n", seed, STEPS,
	       debug ? "with" : "without", slab_debug_enabled(kmalloc_cache(8)) ? "with" : "without");
	for (int i = 0; i < NCACHES; i++) {
		caches[i] = slab_test_cache("slabtest-random", cache_sizes[i], cache_aligns[i],
					    i == 1 ? SLAB_HWCACHE_ALIGN : 0, debug);
		KT_ASSERT(t, caches[i] != NULL, "kmem_cache_create(%zu) failed", cache_sizes[i]);
	}
	nlive = 0;
	misaligned = 0;
	short_of_blocks = 0;
	for (int step = 0; step < STEPS && !t->failures; step++) {
		unsigned long r = mm_test_rand(&rng) % 100;
		/* Phases: fill up for a while, then drain, so slabs fill, go partial and go empty. */
		bool filling = (step / 1000) % 2 == 0;

		if (nlive < MAX_LIVE && (nlive == 0 || r < (filling ? 70u : 30u)))
			random_alloc(t, &rng);
		else
			free_live(t, mm_test_rand(&rng) % nlive);
		if (step % 997 == 0)
			kmem_cache_shrink_all(); /* empty slabs go back while objects are live */
	}
	while (nlive)
		free_live(t, mm_test_rand(&rng) % nlive);
	for (int i = 0; i < NCACHES; i++)
		kmem_cache_destroy(caches[i]);
	KT_EXPECT_EQ(t, mm_slab_reports - reports, 0);
	KT_EXPECT(t, !misaligned, "%lu kmalloc objects not at their class's alignment, the first kmalloc(%zu) = %p",
		  misaligned, first_misaligned_size, first_misaligned);
	if (short_of_blocks)
		printk("    # slab_random: %lu large kmallocs found no free block of their order\n", short_of_blocks);
	if (t->failures)
		printk("    # slab_random: failed with seed %#lx\n", seed);
	slab_expect_free_pages(t, before);
}

static void random_sequence_seed_1(struct ktest *t) { run(t, 0x51ab0001, true); }
static void random_sequence_seed_2(struct ktest *t) { run(t, 0x9e3779b97f4a7c15, true); }
static void random_sequence_seed_3(struct ktest *t) { run(t, 0x1234567887654321, true); }

/* Is every kmalloc cache without debug? */
/*
 * The same with the caches it creates without debugging, so that the per-CPU lists users ship run
 * under the model's checks in every build. The kmalloc caches keep the mode they had at boot
 * (slab_set_debug(): debug in MM_DEBUG=1 builds and with slub_debug), which run() prints; the
 * stress test runs kmalloc's own lists without debug.
 */
static void random_sequence_caches_without_debug(struct ktest *t)
{
	run(t, 0x0ddba11c0ffee, false);
	kmem_cache_shrink_all();
}

KTEST_SUITE(slab_random,
	    KTEST_CASE(random_sequence_seed_1),
	    KTEST_CASE(random_sequence_seed_2),
	    KTEST_CASE(random_sequence_seed_3),
	    KTEST_CASE(random_sequence_caches_without_debug));
