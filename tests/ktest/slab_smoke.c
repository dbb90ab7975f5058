/* SPDX-License-Identifier: MIT */
/*
 * Smoke tests of the slab allocator and kmalloc (mm/slab.h): every class, alignment, ksize, large
 * sizes, a cache's life, shrinking back to the free pages of the start, and each misuse reported
 * exactly once with the allocator still usable after it. The deep suites are elsewhere.
 */
#include "tests/ktest/ktest.h"
#include "mm/bad_page.h"
#include "mm/hot_pages.h"
#include "mm/page_alloc.h"
#include "mm/poison.h"
#include "mm/slab.h"

static const size_t sizes[] = { 1, 8, 9, 16, 24, 32, 33, 64, 65, 96, 97, 128, 160, 192, 200, 256,
				300, 512, 1000, 1024, 2000, 2048, 4000, 4096, 5000, 8192 };

/* The class kmalloc(size) must give. */
static size_t class_of(size_t size)
{
	static const size_t classes[] = { 8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192 };

	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (size <= classes[i])
			return classes[i];
	return 0;
}

/* Free pages with every cache shrunk and the per-CPU page lists drained. */
static unsigned long free_now(void)
{
	kmem_cache_shrink_all();
	drain_hot_pages();
	return nr_free_pages();
}

static void every_class_allocates_and_frees(struct ktest *t)
{
	void *p[sizeof(sizes) / sizeof(sizes[0])][3];

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (int k = 0; k < 3; k++) {
			unsigned char *q = kmalloc(sizes[i], GFP_KERNEL);

			p[i][k] = q;
			KT_ASSERT(t, q != NULL, "kmalloc(%zu) failed", sizes[i]);
			KT_EXPECT(t, ((uintptr_t)q & 7) == 0, "kmalloc(%zu) = %p: not 8-byte aligned", sizes[i], q);
			KT_EXPECT_EQ(t, ksize(q), class_of(sizes[i]));
			KT_EXPECT(t, kmalloc_cache(sizes[i]) && kmem_cache_size(kmalloc_cache(sizes[i])) == class_of(sizes[i]),
				  "kmalloc_cache(%zu)", sizes[i]);
			for (size_t b = 0; b < ksize(q); b++)
				q[b] = (unsigned char)(i + k);
		}
	}
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (int k = 0; k < 3; k++) {
			const unsigned char *q = p[i][k];

			KT_EXPECT(t, q[0] == (unsigned char)(i + k) && q[ksize(q) - 1] == (unsigned char)(i + k),
				  "kmalloc(%zu) #%d was overwritten", sizes[i], k);
			kfree(q);
		}
	KT_EXPECT(t, kmalloc_cache(8193) == NULL && kmalloc_cache(0) == NULL, "no class above 8192 or for 0");
}

static void zero_size_and_kzalloc(struct ktest *t)
{
	unsigned long reports = slab_reports;
	unsigned char *z;

	KT_EXPECT(t, kmalloc(0, GFP_KERNEL) == ZERO_SIZE_PTR, "kmalloc(0) is ZERO_SIZE_PTR");
	kfree(ZERO_SIZE_PTR);
	kfree(NULL);
	KT_EXPECT_EQ(t, ksize(ZERO_SIZE_PTR), 0);
	for (int round = 0; round < 2; round++) {
		z = kmalloc(200, GFP_KERNEL);
		KT_ASSERT(t, z != NULL, "kmalloc(200)");
		for (int i = 0; i < 200; i++)
			z[i] = 0x5a;
		kfree(z);
	}
	z = kzalloc(200, GFP_ATOMIC);
	KT_ASSERT(t, z != NULL, "kzalloc(200, GFP_ATOMIC)");
	for (int i = 0; i < 200; i++)
		KT_EXPECT(t, z[i] == 0, "kzalloc byte %d is %#x", i, z[i]);
	kfree(z);
	KT_EXPECT_EQ(t, slab_reports, reports);
}

static void large_sizes_are_compound_pages(struct ktest *t)
{
	static const size_t big[] = { 8193, 16384, 65536, 65537, 200000 };
	unsigned long free = free_now(), reports = slab_reports;

	for (int round = 0; round < 3; round++)
		for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
			unsigned char *q = kmalloc(big[i], GFP_KERNEL | __GFP_NOWARN);
			size_t want = PAGE_SIZE;

			while (want < big[i])
				want <<= 1;
			KT_ASSERT(t, q != NULL, "kmalloc(%zu) failed", big[i]);
			KT_EXPECT(t, ((uintptr_t)q & (PAGE_SIZE - 1)) == 0, "kmalloc(%zu) = %p: not page aligned", big[i], q);
			KT_EXPECT_EQ(t, ksize(q), want);
			q[0] = 1;
			q[big[i] - 1] = 2;
			kfree(q);
		}
	KT_EXPECT(t, kmalloc(KMALLOC_MAX_SIZE + 1, GFP_KERNEL | __GFP_NOWARN) == NULL, "above KMALLOC_MAX_SIZE");
	KT_EXPECT_EQ(t, free_now(), free);
	KT_EXPECT_EQ(t, slab_reports, reports);
}

/* Without page poisoning, a freed 16 KiB or 64 KiB block is kept by its CPU for the next one. */
static void large_pages_are_reused(struct ktest *t)
{
	bool poison = mm_debug_poison;
	unsigned long free = free_now(), reports = slab_reports;

	mm_debug_poison = false;
	for (size_t size = 16384; size <= 65536; size *= 4) {
		unsigned char *a = kmalloc(size, GFP_KERNEL), *b;

		KT_ASSERT(t, a != NULL, "kmalloc(%zu)", size);
		kfree(a);
		KT_EXPECT(t, nr_free_pages() < free, "a freed %zu-byte block is kept", size);
		b = kzalloc(size, GFP_KERNEL);
		KT_EXPECT(t, b == a, "kmalloc(%zu) again: %p, first %p", size, b, a);
		KT_EXPECT(t, b && b[0] == 0 && b[size - 1] == 0, "kzalloc(%zu) of a kept block is zeroed", size);
		KT_EXPECT_EQ(t, ksize(b), size);
		kfree(b);
		kfree(b);
		KT_EXPECT_EQ(t, slab_reports, reports + 1); /* a kept block freed again */
		reports = slab_reports;
	}
	mm_debug_poison = poison;
	KT_EXPECT_EQ(t, free_now(), free);
	KT_EXPECT_EQ(t, slab_reports, reports);
}

static void a_cache_lives_and_dies(struct ktest *t)
{
	unsigned long free = free_now(), reports = slab_reports;
	struct kmem_cache *c = kmem_cache_create("smoke-100", 100, 0, SLAB_HWCACHE_ALIGN);
	void *obj[300];
	char line[160];

	KT_ASSERT(t, c != NULL, "kmem_cache_create");
	KT_EXPECT_EQ(t, kmem_cache_size(c), 100);
	for (int i = 0; i < 300; i++) {
		obj[i] = kmem_cache_alloc(c, GFP_KERNEL | (i & 1 ? __GFP_ZERO : 0));
		KT_ASSERT(t, obj[i] != NULL, "object %d", i);
		KT_EXPECT(t, ((uintptr_t)obj[i] & 63) == 0, "object %d at %p: not 64-byte aligned", i, obj[i]);
		if (i & 1)
			KT_EXPECT(t, ((unsigned char *)obj[i])[99] == 0, "__GFP_ZERO object %d", i);
		((unsigned char *)obj[i])[0] = (unsigned char)i;
		((unsigned char *)obj[i])[99] = (unsigned char)i;
	}
	KT_EXPECT(t, nr_slab_pages() > 0, "slab pages while objects are held");
	slabinfo_line(c, line, sizeof(line));
	KT_EXPECT(t, line[0] == 's' && line[1] == 'm', "slabinfo line '%s'", line);
	slabinfo_line(NULL, line, sizeof(line));
	KT_EXPECT(t, line[0] == '#', "slabinfo header '%s'", line);
	for (int i = 0; i < 300; i++) { /* evens, then odds: slabs become partial, then empty */
		int k = i < 150 ? 2 * i : 2 * (i - 150) + 1;

		KT_EXPECT(t, ((unsigned char *)obj[k])[99] == (unsigned char)k, "object %d overwritten", k);
		kmem_cache_free(c, obj[k]);
	}
	kmem_cache_destroy(c);
	KT_EXPECT(t, kmem_cache_create("bad", 0, 0, 0) == NULL, "size 0 refused");
	KT_EXPECT(t, kmem_cache_create("bad", 9000, 0, 0) == NULL, "size 9000 refused");
	KT_EXPECT(t, kmem_cache_create("bad", 64, 24, 0) == NULL, "align 24 refused");
	KT_EXPECT_EQ(t, slab_reports, reports + 3);
	KT_EXPECT_EQ(t, free_now(), free);
}

static void shrink_gives_every_page_back(struct ktest *t)
{
	unsigned long free = free_now();
	static void *held[1500];
	int n = 0;

	/* Up to 1500 objects, as long as half the free memory lasts (a small machine has less). */
	while (n < 1500 && nr_free_pages() > free / 2) {
		held[n] = kmalloc(n % 7 == 6 ? 16384 : 8 << (n % 10), GFP_KERNEL);
		KT_EXPECT(t, held[n] != NULL, "allocation %d (%lu pages free)", n, nr_free_pages());
		if (!held[n])
			break;
		n++;
	}
	KT_EXPECT(t, n >= 100, "only %d objects fit in half of %lu free pages", n, free);
	KT_EXPECT(t, nr_free_pages() < free, "the workload took pages");
	for (int i = 0; i < n; i += 2)
		kfree(held[i]);
	for (int i = 1; i < n; i += 2)
		kfree(held[i]);
	KT_EXPECT_EQ(t, free_now(), free);
}

/* The cache's debug mode off while it is created, then as it was. */
static struct kmem_cache *create_plain(struct ktest *t, const char *name, size_t size)
{
	struct kmem_cache *k = kmalloc_cache(8);
	bool was = slab_debug_enabled(k);
	void *hold = kmalloc(2048, GFP_KERNEL); /* the descriptor's class keeps its mode: it holds this */
	struct kmem_cache *c;

	slab_set_debug(false);
	c = kmem_cache_create(name, size, 0, 0);
	slab_set_debug(was);
	kfree(hold);
	KT_EXPECT(t, slab_debug_enabled(k) == was && slab_debug_enabled(kmalloc_cache(2048)) == was,
		  "kmalloc's debug mode is back");
	return c;
}

/* One report since *reports, and the cache still hands out and takes back objects. */
static void expect_one(struct ktest *t, unsigned long *reports, struct kmem_cache *c, const char *what)
{
	void *o = kmem_cache_alloc(c, GFP_KERNEL);

	KT_EXPECT(t, slab_reports - *reports == 1, "%s: %lu reports, expected 1", what, slab_reports - *reports);
	KT_EXPECT(t, o != NULL, "%s: the cache no longer allocates", what);
	kmem_cache_free(c, o);
	KT_EXPECT(t, slab_reports - *reports == 1, "%s: a report after it", what);
	*reports = slab_reports;
}

static void misuse_is_reported_once(struct ktest *t)
{
	struct kmem_cache *dbg = kmem_cache_create("smoke-dbg", 40, 0, SLAB_DEBUG);
	struct kmem_cache *plain = create_plain(t, "smoke-plain", 40), *other = kmem_cache_create("smoke-other", 40, 0, 0);
	unsigned long reports = slab_reports, stack_word = 0;
	struct page *page;
	unsigned char *o;
	void *p;

	KT_ASSERT(t, dbg && plain && other, "caches");
	KT_EXPECT(t, slab_debug_enabled(dbg) && !slab_debug_enabled(plain), "debug modes");

	o = kmem_cache_alloc(dbg, GFP_KERNEL);
	kmem_cache_free(dbg, o);
	kmem_cache_free(dbg, o);
	expect_one(t, &reports, dbg, "double free (debug)");

	o = kmem_cache_alloc(dbg, GFP_KERNEL);
	kmem_cache_free(dbg, o + 8);
	expect_one(t, &reports, dbg, "pointer inside an object");
	o[40] = 0x11; /* one byte past the end */
	kmem_cache_free(dbg, o);
	expect_one(t, &reports, dbg, "write past the end");

	o = kmem_cache_alloc(dbg, GFP_KERNEL);
	kmem_cache_free(dbg, o);
	o[3] = 0x22; /* a write to the freed object, found when it is handed out again */
	for (int i = 0; i < 64 && slab_reports == reports; i++) {
		void *again = kmem_cache_alloc(dbg, GFP_KERNEL);

		kmem_cache_free(dbg, again);
		if (again == o)
			break;
	}
	expect_one(t, &reports, dbg, "write to a freed object");

	p = kmem_cache_alloc(plain, GFP_KERNEL);
	kmem_cache_free(plain, p);
	kmem_cache_free(plain, p);
	expect_one(t, &reports, plain, "double free (no debug)");

	p = kmem_cache_alloc(plain, GFP_KERNEL);
	kmem_cache_free(other, p);
	expect_one(t, &reports, plain, "wrong cache");
	kmem_cache_free(plain, p);

	kfree(&stack_word);
	expect_one(t, &reports, plain, "kfree of a stack address");
	kfree(&reports);
	expect_one(t, &reports, plain, "kfree of another stack address");
	page = alloc_pages(GFP_KERNEL, 0);
	KT_ASSERT(t, page != NULL, "alloc_pages");
	kfree(page_address(page));
	expect_one(t, &reports, plain, "kfree of a page from alloc_pages");
	__free_pages(page, 0);
	o = kmalloc(20000, GFP_KERNEL);
	KT_ASSERT(t, o != NULL, "kmalloc(20000)");
	kfree(o + 64);
	expect_one(t, &reports, plain, "kfree inside a large kmalloc");
	kfree(o);
	kfree(o);
	expect_one(t, &reports, plain, "double kfree of a large kmalloc");

	kmem_cache_destroy(dbg);
	kmem_cache_destroy(plain);
	kmem_cache_destroy(other);
	KT_EXPECT_EQ(t, slab_reports, reports);
}

static void destroy_with_objects_reports_and_keeps(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("smoke-busy", 24, 0, 0);
	unsigned long reports = slab_reports;
	void *o;

	KT_ASSERT(t, c != NULL, "kmem_cache_create");
	o = kmem_cache_alloc(c, GFP_KERNEL);
	kmem_cache_destroy(c);
	KT_EXPECT_EQ(t, slab_reports, reports + 1);
	kmem_cache_free(c, o); /* the cache is still there */
	kmem_cache_destroy(c);
	KT_EXPECT_EQ(t, slab_reports, reports + 1);
}

/* Freeing every object leaves at most 2 empty slabs in the cache; the others go back at once. */
static void at_most_two_empty_slabs_are_kept(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("smoke-keep", 100, 0, SLAB_DEBUG); /* no CPU lists */
	unsigned long before, kept;
	static void *obj[400];

	KT_ASSERT(t, c != NULL, "kmem_cache_create");
	before = nr_slab_pages();
	for (int i = 0; i < 400; i++) {
		obj[i] = kmem_cache_alloc(c, GFP_KERNEL);
		KT_ASSERT(t, obj[i] != NULL, "object %d", i);
	}
	KT_EXPECT(t, nr_slab_pages() - before >= 10, "400 objects of 100 bytes in %lu pages", nr_slab_pages() - before);
	for (int i = 0; i < 400; i++)
		kmem_cache_free(c, obj[i]);
	kept = nr_slab_pages() - before;
	KT_EXPECT(t, kept >= 1 && kept <= 2, "%lu slab pages kept", kept);
	KT_EXPECT_EQ(t, kmem_cache_shrink(c), kept); /* a shrink gives those back */
	KT_EXPECT_EQ(t, nr_slab_pages(), before);
	kmem_cache_destroy(c);
}

/* The page allocator refuses a page that is still marked as a slab's. */
static void a_page_marked_slab_is_not_freed(struct ktest *t)
{
	unsigned long reports = bad_page_reports;
	struct page *page = alloc_pages(GFP_KERNEL, 0);

	KT_ASSERT(t, page != NULL, "alloc_pages");
	page_flag_set(page, PG_slab);
	__free_pages(page, 0);
	KT_EXPECT_EQ(t, bad_page_reports, reports + 1);
	KT_EXPECT_EQ(t, page_ref(page), 1);
	page_flag_clear(page, PG_slab);
	__free_pages(page, 0);
	KT_EXPECT_EQ(t, bad_page_reports, reports + 1);
}

KTEST_SUITE(slab_smoke, KTEST_CASE(every_class_allocates_and_frees), KTEST_CASE(zero_size_and_kzalloc),
	    KTEST_CASE(large_sizes_are_compound_pages),
	    KTEST_MISUSE_CASE(large_pages_are_reused), KTEST_MISUSE_CASE(a_cache_lives_and_dies),
	    KTEST_CASE(shrink_gives_every_page_back), KTEST_MISUSE_CASE(misuse_is_reported_once),
	    KTEST_MISUSE_CASE(destroy_with_objects_reports_and_keeps), KTEST_CASE(at_most_two_empty_slabs_are_kept),
	    KTEST_MISUSE_CASE(a_page_marked_slab_is_not_freed));
