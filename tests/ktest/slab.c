/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of the slab allocator and kmalloc (mm/slab.h): every size class with its alignment,
 * ksize and the whole object writable; kzalloc over a dirtied object; kmalloc(0) and the no-op
 * frees; large kmalloc as compound pages; caches of odd sizes and alignments, and the ones
 * refused; many objects distinct and apart; large blocks kept for reuse; the slab's head page (and
 * the page allocator refusing a page still marked PG_slab); slabinfo's numbers; at most two empty
 * slabs kept; and the free page count back at its start once a workload is freed and the caches
 * shrunk.
 */
#include "tests/ktest/slab_helpers.h"

#define MANY 1024

static void *objs[MANY]; /* the objects a case holds */
static unsigned int misaligned; /* check_one(): objects not at their class's alignment */

/* kmalloc(size): non-NULL, its class's alignment and ksize, every byte writable; then freed. */
static void check_one(struct ktest *t, size_t size, gfp_t gfp)
{
	size_t class_size = slab_test_class_of(size);
	void *p = kmalloc(size, gfp);

	if (!KT_EXPECT(t, p != NULL, "kmalloc(%zu) failed", size))
		return;
	if (!slab_test_aligned(p, slab_test_class_align(class_size)))
		misaligned++; /* counted: one line per class, not one per size */
	KT_EXPECT(t, ksize(p) == class_size, "ksize(kmalloc(%zu)) = %zu, want %zu", size, ksize(p), class_size);
	slab_test_fill(p, class_size, size);
	KT_EXPECT(t, slab_test_check(p, class_size, size) == class_size, "kmalloc(%zu): bytes did not stick", size);
	kfree(p);
}

static void every_class_is_aligned_sized_and_writable(struct ktest *t)
{
	unsigned long before = slab_test_free_pages();
	size_t prev = 0;

	for (size_t i = 0; i < SLAB_TEST_NCLASSES; i++) {
		size_t s = slab_test_classes[i];
		struct kmem_cache *c = kmalloc_cache(s);

		if (KT_EXPECT(t, c != NULL, "no kmalloc cache for %zu", s)) {
			KT_EXPECT_EQ(t, kmem_cache_size(c), s);
			KT_EXPECT(t, kmalloc_cache(prev + 1) == c, "kmalloc_cache(%zu) is not the %zu cache", prev + 1, s);
		}
		misaligned = 0;
		check_one(t, s, GFP_KERNEL);
		check_one(t, prev + 1, GFP_KERNEL); /* the smallest size the class serves */
		check_one(t, (prev + 1 + s) / 2, GFP_KERNEL); /* one in the middle */
		check_one(t, s - 1 ? s - 1 : 1, GFP_ATOMIC);
		KT_EXPECT(t, !misaligned, "class %zu: %u of 4 objects not aligned to %zu (debug %s)", s, misaligned,
			  slab_test_class_align(s), c && slab_debug_enabled(c) ? "on" : "off");
		prev = s;
	}
	KT_EXPECT(t, kmalloc_cache(KMALLOC_MAX_CACHE_SIZE + 1) == NULL, "a cache above %d", KMALLOC_MAX_CACHE_SIZE);
	KT_EXPECT(t, kmalloc_cache(0) == NULL, "a cache for size 0");
	slab_expect_free_pages(t, before);
}

/* Many objects of each class at once: each aligned, apart from the others, and keeps its bytes. */
static void objects_of_a_class_are_distinct_and_apart(struct ktest *t)
{
	unsigned long before = slab_test_free_pages();

	for (size_t k = 0; k < SLAB_TEST_NCLASSES; k++) {
		size_t s = slab_test_classes[k], n = s >= 4096 ? 64 : 512, got = 0;

		if (slab_skip_without_room(t, s, n))
			break;

		for (; got < n; got++) {
			objs[got] = kmalloc(s, GFP_KERNEL);
			if (!KT_EXPECT(t, objs[got] != NULL, "kmalloc(%zu) #%zu failed", s, got))
				break;
			slab_test_fill(objs[got], s, got + s);
		}
		for (size_t i = 0; i < got; i++)
			KT_EXPECT(t, slab_test_check(objs[i], s, i + s) == s, "class %zu object %zu at %p: byte %zu overwritten",
				  s, i, objs[i], slab_test_check(objs[i], s, i + s));
		for (size_t i = 0; i < got; i++)
			kfree(objs[i]);
		slab_test_sort(objs, got);
		for (size_t i = 1; i < got; i++)
			if (!KT_EXPECT(t, (uintptr_t)objs[i - 1] + s <= (uintptr_t)objs[i],
				       "class %zu: objects %p and %p overlap", s, objs[i - 1], objs[i]))
				break;
	}
	slab_expect_free_pages(t, before);
}

/* Objects of every class at once, interleaved: no class's object overlaps another's. */
static void objects_of_all_classes_do_not_overlap(struct ktest *t)
{
	unsigned long before = slab_test_free_pages();
	size_t n = 0;

	for (size_t round = 0; round < 24; round++)
		for (size_t k = 0; k < SLAB_TEST_NCLASSES && n < MANY; k++, n++) {
			objs[n] = kmalloc(slab_test_classes[k], GFP_KERNEL);
			KT_ASSERT(t, objs[n] != NULL, "kmalloc(%zu) failed", slab_test_classes[k]);
			slab_test_fill(objs[n], ksize(objs[n]), n);
		}
	for (size_t i = 0; i < n; i++)
		KT_EXPECT(t, slab_test_check(objs[i], ksize(objs[i]), i) == ksize(objs[i]),
			  "object %zu (%zu bytes at %p) overwritten", i, ksize(objs[i]), objs[i]);
	slab_test_sort(objs, n);
	for (size_t i = 1; i < n; i++)
		KT_EXPECT(t, (uintptr_t)objs[i - 1] + ksize(objs[i - 1]) <= (uintptr_t)objs[i],
			  "%p (%zu bytes) overlaps %p", objs[i - 1], ksize(objs[i - 1]), objs[i]);
	for (size_t i = 0; i < n; i++)
		kfree(objs[i]);
	slab_expect_free_pages(t, before);
}

/*
 * A dirtied object freed and handed out again by kzalloc (GFP_KERNEL or GFP_ATOMIC) or by
 * __GFP_ZERO comes back zeroed, and nothing is reported.
 */
static void kzalloc_zeroes_a_reused_dirty_object(struct ktest *t)
{
	static const char *const ways[] = { "kzalloc", "kmalloc __GFP_ZERO", "kzalloc GFP_ATOMIC" };
	unsigned long reports = mm_slab_reports;

	for (size_t k = 0; k < SLAB_TEST_NCLASSES; k++) {
		size_t s = slab_test_classes[k];
		void *p, *q;

		for (int way = 0; way < 3; way++) {
			p = kmalloc(s, GFP_KERNEL);
			KT_ASSERT(t, p != NULL, "kmalloc(%zu) failed", s);
			memset(p, 0xa5, s);
			kfree(p);
			q = way == 0 ? kzalloc(s, GFP_KERNEL) : way == 1 ? kmalloc(s, GFP_KERNEL | __GFP_ZERO)
								  : kzalloc(s, GFP_ATOMIC);
			KT_ASSERT(t, q != NULL, "%s(%zu) failed", ways[way], s);
			KT_EXPECT(t, slab_test_zeroed(q, s), "%s(%zu) = %p (%s the dirtied object): not zeroed", ways[way], s,
				  q, p == q ? "reusing" : "not reusing");
			kfree(q);
		}
	}
	/* A cache's objects too. */
	{
		struct kmem_cache *c = kmem_cache_create("slabtest-zero", 100, 0, 0);
		void *p, *q;

		KT_ASSERT(t, c != NULL, "kmem_cache_create failed");
		p = kmem_cache_alloc(c, GFP_KERNEL);
		KT_ASSERT(t, p != NULL, "kmem_cache_alloc failed");
		memset(p, 0x5a, kmem_cache_size(c));
		kmem_cache_free(c, p);
		q = kmem_cache_alloc(c, GFP_KERNEL | __GFP_ZERO);
		KT_ASSERT(t, q != NULL, "kmem_cache_alloc __GFP_ZERO failed");
		KT_EXPECT(t, slab_test_zeroed(q, kmem_cache_size(c)), "kmem_cache_alloc __GFP_ZERO: not zeroed");
		kmem_cache_free(c, q);
		kmem_cache_destroy(c);
	}
	/* Large ones. */
	for (size_t s = 8193; s <= 65536; s *= 4) {
		void *p = kmalloc(s, GFP_KERNEL), *q;

		KT_ASSERT(t, p != NULL, "kmalloc(%zu) failed", s);
		memset(p, 0xa5, ksize(p));
		kfree(p);
		q = kzalloc(s, GFP_KERNEL);
		KT_ASSERT(t, q != NULL, "kzalloc(%zu) failed", s);
		KT_EXPECT(t, slab_test_zeroed(q, ksize(q)), "kzalloc(%zu): not zeroed", s);
		kfree(q);
	}
	KT_EXPECT_EQ(t, mm_slab_reports - reports, 0);
}

static void zero_size_and_null_are_special(struct ktest *t)
{
	unsigned long reports = mm_slab_reports, before = slab_test_free_pages();

	KT_EXPECT(t, kmalloc(0, GFP_KERNEL) == ZERO_SIZE_PTR, "kmalloc(0) = %p", kmalloc(0, GFP_KERNEL));
	KT_EXPECT(t, kzalloc(0, GFP_KERNEL) == ZERO_SIZE_PTR, "kzalloc(0) = %p", kzalloc(0, GFP_KERNEL));
	KT_EXPECT_EQ(t, ksize(ZERO_SIZE_PTR), 0);
	kfree(NULL);
	kfree(ZERO_SIZE_PTR);
	kfree(ZERO_SIZE_PTR);
	kmem_cache_free(kmalloc_cache(64), NULL);
	KT_EXPECT_EQ(t, mm_slab_reports - reports, 0);
	KT_EXPECT_EQ(t, slab_test_free_pages(), before);
}

/* Above 8 KiB kmalloc hands out a compound page of its own; kfree gives it back. */
static void large_kmalloc_is_a_compound_page(struct ktest *t)
{
	static const size_t sizes[] = { 8193, 12288, 16384, 65536, 65537, 200000, 1UL << 20 };
	unsigned long before = slab_test_free_pages(), reports = mm_slab_reports;

	/* The largest, 1 MiB, is a block of order 8: a machine whose memory is cut up has none. */
	if (mm_skip_without_blocks(t, slab_test_large_order(sizes[6]), 1, GFP_KERNEL))
		return;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t s = sizes[i];
		unsigned int order = slab_test_large_order(s);
		uint8_t *p = kmalloc(s, GFP_KERNEL);
		struct page *head;

		if (!KT_EXPECT(t, p != NULL, "kmalloc(%zu) failed", s))
			continue;
		head = virt_to_page(p);
		KT_EXPECT(t, slab_test_aligned(p, PAGE_SIZE), "kmalloc(%zu) = %p: not page-aligned", s, p);
		KT_EXPECT(t, PageHead(head), "kmalloc(%zu): page flags %#x, not a compound head", s,
			  (unsigned int)page_flags(head));
		KT_EXPECT(t, !PageSlab(head), "kmalloc(%zu): a large allocation marked as a slab", s);
		KT_EXPECT_EQ(t, compound_order(head), order);
		KT_EXPECT(t, compound_head(virt_to_page(p + s - 1)) == head, "kmalloc(%zu): last byte's page has another head", s);
		KT_EXPECT_EQ(t, ksize(p), PAGE_SIZE << order);
		slab_test_fill(p, PAGE_SIZE << order, s);
		KT_EXPECT(t, slab_test_check(p, PAGE_SIZE << order, s) == PAGE_SIZE << order, "kmalloc(%zu): bytes lost", s);
		kfree(p);
		KT_EXPECT(t, slab_test_free_pages() == before, "kfree(kmalloc(%zu)) left %ld pages out", s,
			  (long)(before - slab_test_free_pages()));
	}
	KT_EXPECT_EQ(t, mm_slab_reports - reports, 0);
}

/*
 * Without page poisoning, a freed 16 KiB or 64 KiB block is kept by its CPU for the next one of
 * its size, handed out again zeroed by kzalloc; freed twice while kept, it is reported once.
 */
static void large_blocks_are_kept_for_reuse(struct ktest *t)
{
	bool poison = mm_debug_poison;
	unsigned long before = slab_test_free_pages(), reports = mm_slab_reports;

	set_page_poisoning(false);
	for (size_t size = 16384; size <= 65536; size *= 4) {
		unsigned char *a = kmalloc(size, GFP_KERNEL), *b;

		KT_ASSERT(t, a != NULL, "kmalloc(%zu)", size);
		kfree(a);
		KT_EXPECT(t, nr_free_pages() < before, "a freed %zu-byte block is kept", size);
		b = kzalloc(size, GFP_KERNEL);
		KT_EXPECT(t, b == a, "kmalloc(%zu) again: %p, first %p", size, b, a);
		KT_EXPECT(t, b && b[0] == 0 && b[size - 1] == 0, "kzalloc(%zu) of a kept block is zeroed", size);
		KT_EXPECT_EQ(t, ksize(b), size);
		kfree(b);
		kfree(b);
		KT_EXPECT_EQ(t, mm_slab_reports, reports + 1); /* a kept block freed again */
		reports = mm_slab_reports;
	}
	set_page_poisoning(poison);
	slab_expect_free_pages(t, before);
	KT_EXPECT_EQ(t, mm_slab_reports, reports);
}

static void too_large_kmalloc_fails(struct ktest *t)
{
	unsigned long before = slab_test_free_pages();

	KT_EXPECT(t, kmalloc(KMALLOC_MAX_SIZE + 1, GFP_KERNEL | __GFP_NOWARN) == NULL, "kmalloc(KMALLOC_MAX_SIZE + 1) succeeded");
	KT_EXPECT(t, kmalloc((size_t)-1, GFP_KERNEL | __GFP_NOWARN) == NULL, "kmalloc(SIZE_MAX) succeeded");
	KT_EXPECT(t, kzalloc((size_t)-1 / 2, GFP_KERNEL | __GFP_NOWARN) == NULL, "kzalloc(SIZE_MAX / 2) succeeded");
	slab_expect_free_pages(t, before);
}

/* Which kmalloc classes are in debug mode, one bit a class. */
static unsigned int kmalloc_debug_modes(void)
{
	unsigned int modes = 0;

	for (size_t i = 0; i < SLAB_TEST_NCLASSES; i++)
		if (slab_debug_enabled(kmalloc_cache(slab_test_classes[i])))
			modes |= 1u << i;
	return modes;
}

/*
 * A cache of size and align: objects aligned, apart, of the promised size and writable; making
 * it in a debug mode other than the default leaves kmalloc's caches in the modes they had.
 */
static void check_cache(struct ktest *t, size_t size, size_t align, unsigned int flags)
{
	unsigned int kmalloc_modes = kmalloc_debug_modes();
	struct kmem_cache *c = slab_test_cache("slabtest-odd", size, align, flags & ~SLAB_DEBUG, flags & SLAB_DEBUG);
	size_t want_align = align > 8 ? align : 8, usable, n = size > 2048 ? 40 : 300;

	KT_EXPECT(t, kmalloc_debug_modes() == kmalloc_modes, "kmalloc classes in debug mode %#x, %#x before the cache",
		  kmalloc_debug_modes(), kmalloc_modes);
	if (flags & SLAB_HWCACHE_ALIGN && want_align < 64)
		want_align = 64;
	if (!KT_EXPECT(t, c != NULL, "kmem_cache_create(%zu, align %zu, flags %#x) failed", size, align, flags))
		return;
	KT_EXPECT(t, slab_debug_enabled(c) == !!(flags & SLAB_DEBUG), "size %zu flags %#x: debug %d", size, flags,
		  slab_debug_enabled(c));
	usable = kmem_cache_size(c);
	KT_EXPECT(t, usable == size, "kmem_cache_size = %zu for size %zu", usable, size);
	for (size_t i = 0; i < n; i++) {
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
		if (!KT_EXPECT(t, objs[i] != NULL, "size %zu: object %zu not allocated", size, i)) {
			n = i;
			break;
		}
		KT_EXPECT(t, slab_test_aligned(objs[i], want_align), "size %zu align %zu flags %#x: %p not aligned to %zu",
			  size, align, flags, objs[i], want_align);
		KT_EXPECT(t, PageSlab(compound_head(virt_to_page(objs[i]))) &&
			     compound_head(virt_to_page(objs[i]))->slab_cache == c,
			  "size %zu: object %p's page is not a slab of this cache", size, objs[i]);
		slab_test_fill(objs[i], usable, i);
	}
	for (size_t i = 0; i < n; i++)
		KT_EXPECT(t, slab_test_check(objs[i], usable, i) == usable, "size %zu: object %zu overwritten", size, i);
	for (size_t i = 0; i < n; i++)
		kmem_cache_free(c, objs[i]);
	slab_test_sort(objs, n);
	for (size_t i = 1; i < n; i++)
		if (!KT_EXPECT(t, (uintptr_t)objs[i - 1] + usable <= (uintptr_t)objs[i], "size %zu: %p and %p overlap",
			       size, objs[i - 1], objs[i]))
			break;
	kmem_cache_destroy(c);
}

static void caches_of_odd_sizes_and_alignments(struct ktest *t)
{
	static const size_t sizes[] = { 1, 7, 24, 100, 200, 1000, 3000, 5000, 8192 };
	static const size_t aligns[] = { 0, 8, 16, 64, 256 };
	unsigned long before = slab_test_free_pages();

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (size_t j = 0; j < sizeof(aligns) / sizeof(aligns[0]); j++)
			check_cache(t, sizes[i], aligns[j], 0);
		check_cache(t, sizes[i], 0, SLAB_HWCACHE_ALIGN);
		/* The debug layout (red zones around each object) keeps the alignment too. */
		check_cache(t, sizes[i], 0, SLAB_DEBUG);
		check_cache(t, sizes[i], 64, SLAB_DEBUG);
		check_cache(t, sizes[i], 0, SLAB_DEBUG | SLAB_HWCACHE_ALIGN);
	}
	slab_expect_free_pages(t, before);
}

/* Without debugging, objects go through the per-CPU lists: many, freed in another order, reused. */
static void per_cpu_lists_hand_out_distinct_objects(struct ktest *t)
{
	unsigned long before = slab_test_free_pages();
	struct kmem_cache *c = slab_test_cache("slabtest-fast", 48, 0, 0, false);

	KT_ASSERT(t, c != NULL, "kmem_cache_create failed");
	for (int round = 0; round < 3; round++) {
		for (size_t i = 0; i < MANY; i++) {
			objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
			KT_ASSERT(t, objs[i] != NULL, "object %zu not allocated", i);
			slab_test_fill(objs[i], 48, i);
		}
		for (size_t i = 0; i < MANY; i++)
			KT_EXPECT(t, slab_test_check(objs[i], 48, i) == 48, "round %d: object %zu overwritten", round, i);
		/* Odd ones first, then even ones backwards: lists grow past their limit and give back. */
		for (size_t i = 1; i < MANY; i += 2)
			kmem_cache_free(c, objs[i]);
		for (size_t i = MANY; i >= 2; i -= 2)
			kmem_cache_free(c, objs[i - 2]);
		slab_test_sort(objs, MANY);
		for (size_t i = 1; i < MANY; i++)
			if (!KT_EXPECT(t, (uintptr_t)objs[i - 1] + 48 <= (uintptr_t)objs[i], "round %d: %p and %p overlap",
				       round, objs[i - 1], objs[i]))
				break;
	}
	kmem_cache_destroy(c);
	slab_expect_free_pages(t, before);
}

/* Size 0, too large, alignment not a power of two: no cache (and a report each). */
static void impossible_caches_are_refused(struct ktest *t)
{
	unsigned long before = slab_test_free_pages(), reports = mm_slab_reports;

	KT_EXPECT(t, kmem_cache_create("slabtest-0", 0, 0, 0) == NULL, "size 0 accepted");
	KT_EXPECT(t, kmem_cache_create("slabtest-big", KMALLOC_MAX_CACHE_SIZE + 1, 0, 0) == NULL, "size %d accepted",
		  KMALLOC_MAX_CACHE_SIZE + 1);
	KT_EXPECT(t, kmem_cache_create("slabtest-align3", 64, 3, 0) == NULL, "align 3 accepted");
	KT_EXPECT(t, kmem_cache_create("slabtest-align24", 64, 24, 0) == NULL, "align 24 accepted");
	KT_EXPECT_EQ(t, mm_slab_reports - reports, 4);
	slab_expect_free_pages(t, before);
}

/* Every object's slab head page is marked PG_slab and names its cache, small or multi-page slab. */
static void slab_head_page_names_its_cache(struct ktest *t)
{
	unsigned long before = slab_test_free_pages();

	for (size_t k = 0; k < SLAB_TEST_NCLASSES; k++) {
		size_t s = slab_test_classes[k];
		uint8_t *p = kmalloc(s, GFP_KERNEL);
		struct page *head;

		KT_ASSERT(t, p != NULL, "kmalloc(%zu) failed", s);
		head = compound_head(virt_to_page(p));
		KT_EXPECT(t, PageSlab(head), "kmalloc(%zu): head page flags %#x without PG_slab", s,
			  (unsigned int)page_flags(head));
		KT_EXPECT(t, head->slab_cache == kmalloc_cache(s), "kmalloc(%zu): slab_cache %p, kmalloc_cache %p", s,
			  (void *)head->slab_cache, (void *)kmalloc_cache(s));
		KT_EXPECT(t, compound_head(virt_to_page(p + s - 1)) == head, "kmalloc(%zu): object spans two slabs", s);
		if (PageHead(head))
			KT_EXPECT(t, virt_to_page(p) == head || PageTail(virt_to_page(p)),
				  "kmalloc(%zu): a multi-page slab's page is not a tail", s);
		kfree(p);
	}
	slab_expect_free_pages(t, before);
}

/*
 * The check: a workload of every class (and a cache of its own, and large ones) takes
 * slab pages; freed and shrunk, the free page count is back where it started.
 */
static void free_pages_come_back_after_a_workload(struct ktest *t)
{
	unsigned long before, slab_before = nr_slab_pages(), n = 0, freed;
	struct kmem_cache *c;
	void *mine[64];

	/* About 1400 pages with debug's red zones and natural alignment; twice that, to be safe. */
	if (slab_skip_without_free_pages(t, 2800))
		return;
	before = slab_test_free_pages();
	c = kmem_cache_create("slabtest-work", 3000, 0, SLAB_HWCACHE_ALIGN);
	KT_ASSERT(t, c != NULL, "kmem_cache_create failed");
	for (size_t i = 0; i < 64; i++) {
		mine[i] = kmem_cache_alloc(c, GFP_KERNEL);
		KT_ASSERT(t, mine[i] != NULL, "kmem_cache_alloc failed");
	}
	for (size_t round = 0; n < MANY; round++)
		for (size_t k = 0; k < SLAB_TEST_NCLASSES && n < MANY; k++, n++) {
			objs[n] = kmalloc(round % 16 == 15 ? 20000 : slab_test_classes[k], GFP_KERNEL);
			KT_ASSERT(t, objs[n] != NULL, "kmalloc failed");
		}
	KT_EXPECT(t, nr_slab_pages() > slab_before + 20, "nr_slab_pages %lu, %lu before the workload", nr_slab_pages(),
		  slab_before);
	KT_EXPECT(t, nr_free_pages() < before, "the workload took no pages");
	/* Free in an order unlike the allocation's, so slabs go partial before they go empty. */
	for (size_t i = 0; i < MANY; i += 2)
		kfree(objs[i]);
	for (size_t i = 1; i < MANY; i += 2)
		kfree(objs[i]);
	for (size_t i = 0; i < 64; i++)
		kmem_cache_free(c, mine[63 - i]);
	kmem_cache_destroy(c);
	freed = kmem_cache_shrink_all();
	KT_EXPECT(t, nr_free_pages() == before, "%lu free pages after the workload and shrinking (%lu freed by it), %lu before",
		  nr_free_pages(), freed, before);
	KT_EXPECT_EQ(t, nr_slab_pages(), slab_before);
	KT_EXPECT_EQ(t, kmem_cache_shrink_all(), 0);
}

/* kmem_cache_shrink gives back a cache's empty slabs and says how many pages. */
static void shrink_returns_empty_slabs(struct ktest *t)
{
	unsigned long before = slab_test_free_pages(), slab_start = nr_slab_pages(), slab_before;
	struct kmem_cache *c = kmem_cache_create("slabtest-shrink", 512, 0, 0);
	struct slab_test_info info;
	unsigned long held, shrunk;

	KT_ASSERT(t, c != NULL, "kmem_cache_create failed");
	slab_before = nr_slab_pages(); /* the descriptor itself may have taken a kmalloc slab */
	for (size_t i = 0; i < 200; i++) {
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
		KT_ASSERT(t, objs[i] != NULL, "kmem_cache_alloc failed");
	}
	held = nr_slab_pages() - slab_before;
	KT_EXPECT(t, held >= 200 * 512 / PAGE_SIZE, "200 objects of 512 bytes on %lu slab pages", held);
	if (slab_test_info_of(t, c, &info))
		KT_EXPECT(t, held == info.total / info.objperslab * info.pagesperslab,
			  "nr_slab_pages grew by %lu, slabinfo says %lu slabs of %lu pages", held,
			  info.total / info.objperslab, info.pagesperslab);
	for (size_t i = 0; i < 200; i++)
		kmem_cache_free(c, objs[i]);
	shrunk = (unsigned long)kmem_cache_shrink(c);
	KT_EXPECT(t, shrunk <= held && nr_slab_pages() == slab_before,
		  "kmem_cache_shrink returned %lu of %lu pages; nr_slab_pages %lu, %lu before", shrunk, held,
		  nr_slab_pages(), slab_before);
	KT_EXPECT_EQ(t, kmem_cache_shrink(c), 0);
	kmem_cache_destroy(c);
	slab_expect_free_pages(t, before);
	KT_EXPECT_EQ(t, nr_slab_pages(), slab_start);
}

/* Freeing every object leaves at most 2 empty slabs in the cache; the others go back at once. */
static void at_most_two_empty_slabs_are_kept(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("slabtest-keep", 100, 0, SLAB_DEBUG); /* no CPU lists */
	unsigned long slab_before, kept;

	KT_ASSERT(t, c != NULL, "kmem_cache_create failed");
	slab_before = nr_slab_pages();
	for (size_t i = 0; i < 400; i++) {
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
		KT_ASSERT(t, objs[i] != NULL, "object %zu", i);
	}
	KT_EXPECT(t, nr_slab_pages() - slab_before >= 10, "400 objects of 100 bytes in %lu pages",
		  nr_slab_pages() - slab_before);
	for (size_t i = 0; i < 400; i++)
		kmem_cache_free(c, objs[i]);
	kept = nr_slab_pages() - slab_before;
	KT_EXPECT(t, kept >= 1 && kept <= 2, "%lu slab pages kept", kept);
	KT_EXPECT_EQ(t, kmem_cache_shrink(c), kept); /* a shrink gives those back */
	KT_EXPECT_EQ(t, nr_slab_pages(), slab_before);
	kmem_cache_destroy(c);
}

/* slabinfo_line's six fields, with known allocations: one slab and one object more. */
static void slabinfo_counts_known_allocations(struct ktest *t)
{
	unsigned long before = slab_test_free_pages(), slab_start = nr_slab_pages(), slab_before;
	struct kmem_cache *c = kmem_cache_create("slabtest-info", 100, 0, 0);
	struct slab_test_info info, first;
	char line[160];
	size_t n;

	KT_ASSERT(t, c != NULL, "kmem_cache_create failed");
	slab_before = nr_slab_pages(); /* the descriptor itself may have taken a kmalloc slab */
	KT_ASSERT(t, slab_test_info_of(t, c, &info), "no slabinfo line");
	slabinfo_line(NULL, line, sizeof(line));
	KT_EXPECT(t, line[0] == '#', "slabinfo header \"%s\"", line);
	KT_EXPECT(t, strcmp(info.name, "slabtest-info") == 0, "slabinfo name \"%s\"", info.name);
	KT_EXPECT_EQ(t, info.active, 0);
	KT_EXPECT_EQ(t, info.total, 0);
	KT_EXPECT(t, info.objsize >= 100 && info.objsize <= 128, "objsize %lu for a 100-byte cache", info.objsize);
	KT_EXPECT(t, info.objperslab * info.objsize <= info.pagesperslab * PAGE_SIZE &&
		     info.objperslab >= info.pagesperslab * PAGE_SIZE / 128 / 2,
		  "%lu objects of %lu bytes per slab of %lu pages", info.objperslab, info.objsize, info.pagesperslab);
	KT_ASSERT(t, info.objperslab >= 2 && info.objperslab + 1 <= MANY, "objperslab %lu", info.objperslab);
	first = info;
	n = info.objperslab + 1; /* one slab full, one more object: two slabs */
	for (size_t i = 0; i < n; i++) {
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
		KT_ASSERT(t, objs[i] != NULL, "kmem_cache_alloc failed");
	}
	if (slab_test_info_of(t, c, &info)) {
		KT_EXPECT_EQ(t, info.active, n);
		KT_EXPECT_EQ(t, info.total, 2 * first.objperslab);
		KT_EXPECT_EQ(t, info.objsize, first.objsize);
		KT_EXPECT_EQ(t, info.objperslab, first.objperslab);
		KT_EXPECT_EQ(t, info.pagesperslab, first.pagesperslab);
		KT_EXPECT_EQ(t, nr_slab_pages() - slab_before, 2 * first.pagesperslab);
	}
	kmem_cache_free(c, objs[0]);
	kmem_cache_free(c, objs[n - 1]);
	if (slab_test_info_of(t, c, &info))
		KT_EXPECT_EQ(t, info.active, n - 2);
	for (size_t i = 1; i + 1 < n; i++)
		kmem_cache_free(c, objs[i]);
	kmem_cache_shrink(c);
	if (slab_test_info_of(t, c, &info)) {
		KT_EXPECT_EQ(t, info.active, 0);
		KT_EXPECT_EQ(t, info.total, 0);
	}
	/* Every line is NUL-terminated and cut short when the buffer is. */
	n = (size_t)slabinfo_line(c, line, 8);
	KT_EXPECT(t, strlen(line) < 8, "slabinfo_line wrote %zu bytes into 8", strlen(line));
	(void)n;
	KT_EXPECT_EQ(t, nr_slab_pages(), slab_before);
	kmem_cache_destroy(c);
	slab_expect_free_pages(t, before);
	KT_EXPECT_EQ(t, nr_slab_pages(), slab_start);
}

/* The kmalloc caches' lines: named after their size, objsize at least the class. */
static void slabinfo_of_kmalloc_caches(struct ktest *t)
{
	void *p = kmalloc(192, GFP_KERNEL);
	struct slab_test_info info, after;

	KT_ASSERT(t, p != NULL, "kmalloc failed");
	for (size_t k = 0; k < SLAB_TEST_NCLASSES; k++) {
		size_t s = slab_test_classes[k];
		char want[32], want_k[32];

		if (!slab_test_info_of(t, kmalloc_cache(s), &info))
			continue;
		snprintf(want, sizeof(want), "%zu", s);
		snprintf(want_k, sizeof(want_k), "%zuk", s >> 10); /* kmalloc-1k, as Linux names them */
		KT_EXPECT(t, strstr(info.name, want) || (s >= 1024 && strstr(info.name, want_k)),
			  "kmalloc cache of %zu named \"%s\"", s, info.name);
		KT_EXPECT(t, info.objsize >= slab_test_classes[k], "%s: objsize %lu", info.name, info.objsize);
		KT_EXPECT(t, info.active <= info.total, "%s: %lu active of %lu", info.name, info.active, info.total);
	}
	slab_test_info_of(t, kmalloc_cache(192), &info);
	kfree(p);
	if (slab_test_info_of(t, kmalloc_cache(192), &after))
		KT_EXPECT_EQ(t, after.active, info.active - 1);
	capture_console_start();
	slabinfo_show();
	capture_console_stop();
	KT_EXPECT(t, strstr(captured.text, info.name) != NULL, "slabinfo_show printed no line for %s:\n%s", info.name,
		  captured.text);
}

/*
 * With every free page taken, kmalloc and kmem_cache_alloc fail cleanly once the slabs they have
 * are full (NULL, no report, nothing half-made) and large sizes fail at once; with the pages
 * back, all works again and every page comes home.
 */
static void allocations_fail_cleanly_without_memory(struct ktest *t)
{
	static void *got[4096];
	unsigned long before = slab_test_free_pages(), reports = mm_slab_reports;
	struct kmem_cache *c = slab_test_cache("slabtest-oom", 200, 0, 0, false);
	struct mm_held held;
	size_t n = 0, from_cache = 0;

	KT_ASSERT(t, c != NULL, "kmem_cache_create failed");
	mm_held_init(&held);
	mm_exhaust(&held, MAX_ORDER, 0, GFP_ATOMIC);
	KT_EXPECT(t, kmalloc(20000, GFP_ATOMIC | __GFP_NOWARN) == NULL, "a large kmalloc with no free page");
	KT_EXPECT(t, kmalloc(16384, GFP_KERNEL | __GFP_NOWARN) == NULL, "a large kmalloc with no free page");
	for (size_t k = 0; n < 4096; k = (k + 1) % SLAB_TEST_NCLASSES) {
		void *p = kmalloc(slab_test_classes[k], GFP_ATOMIC | __GFP_NOWARN);

		if (!p)
			break;
		got[n++] = p;
	}
	while (n < 4096 && (got[n] = kmem_cache_alloc(c, GFP_ATOMIC | __GFP_NOWARN)))
		n++, from_cache++;
	KT_EXPECT(t, n < 4096, "%zu allocations with no free page", n);
	KT_EXPECT(t, kmem_cache_alloc(c, GFP_KERNEL | __GFP_NOWARN) == NULL, "an object of a full cache without memory");
	KT_EXPECT_EQ(t, mm_slab_reports - reports, 0);
	for (size_t i = 0; i < n - from_cache; i++)
		kfree(got[i]);
	for (size_t i = n - from_cache; i < n; i++)
		kmem_cache_free(c, got[i]);
	mm_held_free_all(&held);
	/* Memory again: everything works. */
	for (size_t k = 0; k < SLAB_TEST_NCLASSES; k++)
		check_one(t, slab_test_classes[k], GFP_KERNEL);
	got[0] = kmem_cache_alloc(c, GFP_KERNEL);
	KT_EXPECT(t, got[0] != NULL, "no object after memory came back");
	if (got[0])
		kmem_cache_free(c, got[0]);
	kmem_cache_destroy(c);
	KT_EXPECT_EQ(t, mm_slab_reports - reports, 0);
	slab_expect_free_pages(t, before);
}

/*
 * slab_set_debug() after boot: caches created afterwards follow it, the kmalloc caches keep the
 * mode they booted with (other CPUs may be in them: their layout cannot change under them), even
 * one that holds nothing; an object allocated across the switch keeps its bytes.
 */
static void debug_switch_after_boot_leaves_kmalloc_alone(struct ktest *t)
{
	unsigned long before = slab_test_free_pages(), reports = mm_slab_reports;
	bool was = slab_test_debug_default(), modes[SLAB_TEST_NCLASSES];
	struct kmem_cache *created;
	void *p = kmalloc(96, GFP_KERNEL), *q;

	KT_ASSERT(t, p != NULL, "kmalloc failed");
	kmem_cache_shrink_all();
	for (size_t i = 0; i < SLAB_TEST_NCLASSES; i++)
		modes[i] = slab_debug_enabled(kmalloc_cache(slab_test_classes[i]));
	slab_set_debug(!was);
	created = kmem_cache_create("slabtest-switch", 40, 0, 0);
	q = kmalloc(8000, GFP_KERNEL);
	for (size_t i = 0; i < SLAB_TEST_NCLASSES; i++)
		KT_EXPECT(t, slab_debug_enabled(kmalloc_cache(slab_test_classes[i])) == modes[i],
			  "kmalloc-%zu switched to debug %d after boot", slab_test_classes[i], !modes[i]);
	KT_EXPECT(t, created && slab_debug_enabled(created) == !was, "a cache created after the switch: debug %d, want %d",
		  created ? slab_debug_enabled(created) : -1, !was);
	slab_set_debug(was);
	if (q) {
		slab_test_fill(q, 8000, 5);
		KT_EXPECT(t, slab_test_check(q, 8000, 5) == 8000, "an object changed across a switch");
	}
	KT_EXPECT(t, q != NULL, "kmalloc after the switch failed");
	kfree(p);
	kfree(q);
	kmem_cache_destroy(created);
	KT_EXPECT_EQ(t, mm_slab_reports - reports, 0);
	check_one(t, 96, GFP_KERNEL);
	check_one(t, 8192, GFP_KERNEL);
	slab_expect_free_pages(t, before);
}

/* The page allocator refuses a page that is still marked as a slab's, and takes it once cleared. */
static void a_page_marked_slab_is_not_freed(struct ktest *t)
{
	unsigned long reports = mm_bad_page_reports;
	struct page *page = alloc_pages(GFP_KERNEL, 0);

	KT_ASSERT(t, page != NULL, "alloc_pages");
	page_flag_set(page, PG_slab);
	__free_pages(page, 0);
	KT_EXPECT_EQ(t, mm_bad_page_reports, reports + 1);
	KT_EXPECT_EQ(t, page_ref(page), 1);
	page_flag_clear(page, PG_slab);
	__free_pages(page, 0);
	KT_EXPECT_EQ(t, mm_bad_page_reports, reports + 1);
}

/* A slab cache's objects work after another cache of the same size is destroyed. */
static void caches_of_the_same_size_are_independent(struct ktest *t)
{
	unsigned long before = slab_test_free_pages();
	struct kmem_cache *a = kmem_cache_create("slabtest-a", 64, 0, 0);
	struct kmem_cache *b = kmem_cache_create("slabtest-b", 64, 0, 0);
	void *pa, *pb;

	KT_ASSERT(t, a && b, "kmem_cache_create failed");
	pa = kmem_cache_alloc(a, GFP_KERNEL);
	pb = kmem_cache_alloc(b, GFP_KERNEL);
	KT_ASSERT(t, pa && pb, "kmem_cache_alloc failed");
	KT_EXPECT(t, pa != pb, "two caches handed out the same object");
	slab_test_fill(pa, 64, 1);
	kmem_cache_free(b, pb);
	kmem_cache_destroy(b);
	KT_EXPECT(t, slab_test_check(pa, 64, 1) == 64, "destroying another cache touched an object");
	kmem_cache_free(a, pa);
	kmem_cache_destroy(a);
	slab_expect_free_pages(t, before);
}

KTEST_SUITE(slab,
	    KTEST_CASE(every_class_is_aligned_sized_and_writable),
	    KTEST_CASE(objects_of_a_class_are_distinct_and_apart),
	    KTEST_CASE(objects_of_all_classes_do_not_overlap),
	    KTEST_CASE(kzalloc_zeroes_a_reused_dirty_object),
	    KTEST_CASE(zero_size_and_null_are_special),
	    KTEST_CASE(large_kmalloc_is_a_compound_page),
	    KTEST_MISUSE_CASE(large_blocks_are_kept_for_reuse),
	    KTEST_CASE(too_large_kmalloc_fails),
	    KTEST_CASE(caches_of_odd_sizes_and_alignments),
	    KTEST_CASE(per_cpu_lists_hand_out_distinct_objects),
	    KTEST_MISUSE_CASE(impossible_caches_are_refused),
	    KTEST_CASE(slab_head_page_names_its_cache),
	    KTEST_CASE(free_pages_come_back_after_a_workload),
	    KTEST_CASE(shrink_returns_empty_slabs),
	    KTEST_CASE(at_most_two_empty_slabs_are_kept),
	    KTEST_CASE(slabinfo_counts_known_allocations),
	    KTEST_CASE(slabinfo_of_kmalloc_caches),
	    KTEST_CASE(caches_of_the_same_size_are_independent),
	    KTEST_MISUSE_CASE(a_page_marked_slab_is_not_freed),
	    KTEST_CASE(allocations_fail_cleanly_without_memory),
	    KTEST_CASE(debug_switch_after_boot_leaves_kmalloc_alone));
