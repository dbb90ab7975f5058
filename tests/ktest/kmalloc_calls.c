/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of the calls built on kmalloc() (mm/kmalloc_util.c): krealloc() keeps contents when
 * it grows or shrinks an object, small or page-backed, keeps the object when it is big enough,
 * leaves it alone when it fails; kmalloc_array() and kcalloc() refuse a product that overflows
 * without allocating; kmemdup(), kstrdup() and kstrndup() copy. Nothing is freed twice: no slab
 * report appears unless a case misuses on purpose, and every page comes back.
 */
#include "tests/ktest/slab_helpers.h"

/* Fills n bytes at p with a pattern that depends on the offset. */
static void fill(void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		((unsigned char *)p)[i] = (unsigned char)(i * 7 + 3);
}

/* Is the pattern of fill() still in the first n bytes at p? The first offset that differs, or n. */
static size_t pattern_intact(const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (((const unsigned char *)p)[i] != (unsigned char)(i * 7 + 3))
			return i;
	return n;
}

static void krealloc_grows_and_keeps_contents(struct ktest *t)
{
	unsigned long free_before = slab_test_free_pages(), reports = mm_slab_reports;
	char *p = kmalloc(100, GFP_KERNEL), *q;

	KT_ASSERT(t, p != NULL, "kmalloc(100) failed");
	fill(p, 100);
	q = krealloc(p, 300, GFP_KERNEL);
	KT_ASSERT(t, q != NULL, "krealloc to 300 failed");
	KT_EXPECT(t, q != p, "300 bytes cannot fit the 128-byte object: it should have moved");
	KT_EXPECT_EQ(t, pattern_intact(q, 100), 100);
	fill(q, 300);
	p = krealloc(q, 20000, GFP_KERNEL); /* to a page-backed object */
	KT_ASSERT(t, p != NULL, "krealloc to 20000 failed");
	KT_EXPECT_EQ(t, ksize(p), PAGE_SIZE << slab_test_large_order(20000));
	KT_EXPECT_EQ(t, pattern_intact(p, 300), 300);
	fill(p, 20000);
	q = krealloc(p, 70000, GFP_KERNEL); /* page-backed to a larger page-backed one */
	KT_ASSERT(t, q != NULL, "krealloc to 70000 failed");
	KT_EXPECT_EQ(t, pattern_intact(q, 20000), 20000);
	kfree(q);
	KT_EXPECT_EQ(t, mm_slab_reports, reports);
	KT_EXPECT_EQ(t, slab_test_free_pages(), free_before);
}

static void krealloc_keeps_an_object_that_is_big_enough(struct ktest *t)
{
	unsigned long reports = mm_slab_reports;
	char *p = kmalloc(100, GFP_KERNEL), *big;

	KT_ASSERT(t, p != NULL, "kmalloc(100) failed");
	fill(p, 100);
	KT_EXPECT(t, krealloc(p, 128, GFP_KERNEL) == p, "128 bytes fit ksize() %zu: p should stay", ksize(p));
	KT_EXPECT(t, krealloc(p, 10, GFP_KERNEL) == p, "shrinking to 10 bytes should keep p");
	KT_EXPECT_EQ(t, pattern_intact(p, 100), 100);
	big = kmalloc(40000, GFP_KERNEL);
	KT_ASSERT(t, big != NULL, "kmalloc(40000) failed");
	fill(big, 40000);
	KT_EXPECT(t, krealloc(big, 33000, GFP_KERNEL) == big, "a page-backed object that fits should stay");
	KT_EXPECT_EQ(t, pattern_intact(big, 33000), 33000);
	kfree(big);
	kfree(p);
	KT_EXPECT_EQ(t, mm_slab_reports, reports);
}

static void krealloc_of_null_allocates_and_to_zero_frees(struct ktest *t)
{
	unsigned long free_before = slab_test_free_pages(), reports = mm_slab_reports;
	char *p = krealloc(NULL, 40, GFP_KERNEL), *big;

	KT_ASSERT(t, p != NULL, "krealloc(NULL, 40) failed");
	KT_EXPECT_EQ(t, ksize(p), 64);
	KT_EXPECT(t, krealloc(p, 0, GFP_KERNEL) == ZERO_SIZE_PTR, "krealloc(p, 0) should give ZERO_SIZE_PTR");
	p = krealloc(ZERO_SIZE_PTR, 16, GFP_KERNEL);
	KT_EXPECT(t, p != NULL && p != ZERO_SIZE_PTR, "krealloc(ZERO_SIZE_PTR, 16) should allocate");
	kfree(p);
	big = krealloc(NULL, 50000, GFP_KERNEL);
	KT_ASSERT(t, big != NULL, "krealloc(NULL, 50000) failed");
	KT_EXPECT(t, krealloc(big, 0, GFP_KERNEL) == ZERO_SIZE_PTR, "krealloc(big, 0) should free it");
	KT_EXPECT_EQ(t, mm_slab_reports, reports); /* a second free of p or big would be reported */
	KT_EXPECT_EQ(t, slab_test_free_pages(), free_before);
}

static void krealloc_that_fails_leaves_the_object(struct ktest *t)
{
	unsigned long reports = mm_slab_reports;
	char *p = kmalloc(200, GFP_KERNEL);

	KT_ASSERT(t, p != NULL, "kmalloc(200) failed");
	fill(p, 200);
	KT_EXPECT(t, krealloc(p, KMALLOC_MAX_SIZE + 1, GFP_KERNEL | __GFP_NOWARN) == NULL,
		  "more than KMALLOC_MAX_SIZE should fail");
	KT_EXPECT_EQ(t, pattern_intact(p, 200), 200);
	KT_EXPECT_EQ(t, ksize(p), 256);
	kfree(p); /* still the caller's: freed once, no report */
	KT_EXPECT_EQ(t, mm_slab_reports, reports);
}

static char not_from_kmalloc[64];

static void krealloc_of_a_pointer_kmalloc_never_returned_is_refused(struct ktest *t)
{
	unsigned long reports = mm_slab_reports, free_before = slab_test_free_pages();

	KT_EXPECT(t, krealloc(not_from_kmalloc, 200, GFP_KERNEL) == NULL, "krealloc of a static array");
	KT_EXPECT_EQ(t, mm_slab_reports, reports + 1);
	KT_EXPECT_EQ(t, slab_test_free_pages(), free_before);
}

static void kmalloc_array_and_kcalloc_refuse_an_overflow(struct ktest *t)
{
	unsigned long free_before = slab_test_free_pages();
	unsigned char *a;

	KT_EXPECT(t, kmalloc_array(SIZE_MAX / 2 + 1, 2, GFP_KERNEL) == NULL, "(SIZE_MAX/2+1) * 2 overflows");
	KT_EXPECT(t, kmalloc_array(2, SIZE_MAX / 2 + 1, GFP_KERNEL) == NULL, "2 * (SIZE_MAX/2+1) overflows");
	KT_EXPECT(t, kcalloc(SIZE_MAX, SIZE_MAX, GFP_KERNEL) == NULL, "SIZE_MAX * SIZE_MAX overflows");
	KT_EXPECT(t, kcalloc((size_t)1 << 33, (size_t)1 << 31, GFP_KERNEL) == NULL, "2^33 * 2^31 overflows");
	KT_EXPECT_EQ(t, slab_test_free_pages(), free_before);
	a = kmalloc_array(3, 40, GFP_KERNEL);
	KT_ASSERT(t, a != NULL, "kmalloc_array(3, 40) failed");
	KT_EXPECT_EQ(t, ksize(a), 128);
	memset(a, 0xAA, 128);
	kfree(a);
	a = kcalloc(3, 40, GFP_KERNEL); /* most likely the object just freed: zeroed again */
	KT_ASSERT(t, a != NULL, "kcalloc(3, 40) failed");
	for (size_t i = 0; i < 120; i++)
		if (!KT_EXPECT(t, a[i] == 0, "kcalloc byte %zu is %#x", i, a[i]))
			break;
	kfree(a);
	KT_EXPECT(t, kcalloc(0, 8, GFP_KERNEL) == ZERO_SIZE_PTR, "kcalloc(0, 8) is kmalloc(0)");
	KT_EXPECT_EQ(t, slab_test_free_pages(), free_before);
}

static void kmemdup_and_kstrdup_copy(struct ktest *t)
{
	static const char text[] = "a page is 4096 bytes";
	char *s = kstrdup(text, GFP_KERNEL), *n = kstrndup(text, 6, GFP_KERNEL);
	char *whole = kstrndup(text, 1000, GFP_KERNEL);
	unsigned char *m = kmemdup(text, 5, GFP_KERNEL);

	KT_ASSERT(t, s && n && whole && m, "allocations failed");
	KT_EXPECT(t, strcmp(s, text) == 0 && s != text, "kstrdup gave \"%s\"", s);
	KT_EXPECT(t, strcmp(n, "a page") == 0, "kstrndup(6) gave \"%s\"", n);
	KT_EXPECT(t, strcmp(whole, text) == 0, "kstrndup(1000) gave \"%s\"", whole);
	KT_EXPECT(t, memcmp(m, text, 5) == 0, "kmemdup changed the bytes");
	KT_EXPECT(t, kstrdup(NULL, GFP_KERNEL) == NULL, "kstrdup(NULL) is NULL");
	KT_EXPECT(t, kstrndup(NULL, 4, GFP_KERNEL) == NULL, "kstrndup(NULL) is NULL");
	KT_EXPECT(t, kmemdup(text, 0, GFP_KERNEL) == ZERO_SIZE_PTR, "kmemdup of 0 bytes is kmalloc(0)");
	kfree(s);
	kfree(n);
	kfree(whole);
	kfree(m);
}

KTEST_SUITE(kmalloc_calls, KTEST_CASE(krealloc_grows_and_keeps_contents),
	    KTEST_CASE(krealloc_keeps_an_object_that_is_big_enough),
	    KTEST_CASE(krealloc_of_null_allocates_and_to_zero_frees),
	    KTEST_CASE(krealloc_that_fails_leaves_the_object),
	    KTEST_MISUSE_CASE(krealloc_of_a_pointer_kmalloc_never_returned_is_refused),
	    KTEST_CASE(kmalloc_array_and_kcalloc_refuse_an_overflow), KTEST_CASE(kmemdup_and_kstrdup_copy));
