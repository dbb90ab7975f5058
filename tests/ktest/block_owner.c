/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of blocks that an owner above the page allocator gives back itself (mm/block_owner.h):
 * a slab's pages, a large kmalloc's page, a compound page with a destructor of its own. Splitting
 * one, freeing one with __free_pages(), or dropping a slab's last reference with put_page() must
 * be refused with a report and change nothing, so that the owner's own free later goes through
 * without a report and every page comes back. A get_page()/put_page() pair that is not the last
 * reference stays allowed.
 */
#include "mm/bad_page.h"
#include "mm/hugetlb.h"
#include "tests/ktest/compound_helpers.h"
#include "tests/ktest/slab_helpers.h"

#define BIG_OBJ 3000       /* a cache of these has slabs of order 3 */
#define LARGE_SIZE 20000   /* kmalloc gives an order-3 compound page of its own */

static unsigned long bad_before, slab_before;

/* Starts counting the reports of either kind, and capturing what printk prints. */
static void watch(void)
{
	bad_before = mm_bad_page_reports;
	slab_before = mm_slab_reports;
	capture_console_start();
}

/* Stops capturing; expects bad bad_page reports, no slab report, and word in what was printed. */
static void expect_reports(struct ktest *t, const char *what, unsigned long bad, const char *word)
{
	capture_console_stop();
	KT_EXPECT(t, mm_bad_page_reports - bad_before == bad, "%s: %lu bad_page reports, want %lu", what,
		  mm_bad_page_reports - bad_before, bad);
	KT_EXPECT(t, mm_slab_reports == slab_before, "%s: %lu slab reports, want none", what,
		  mm_slab_reports - slab_before);
	KT_EXPECT(t, !word || strstr(captured.text, word), "%s: nothing printed says \"%s\":\n%s", what,
		  word ? word : "", captured.text);
}

/* The first page of the slab or compound page that holds p. */
static struct page *head_of(const void *p)
{
	return compound_head(virt_to_page(p));
}

/* The order of the slab whose first page is head. */
static unsigned int slab_order(const struct page *head)
{
	return compound_order(head);
}

/* Expects head to be an intact compound page of order with count references. */
static void expect_whole(struct ktest *t, struct page *head, unsigned int order, int count)
{
	KT_EXPECT(t, compound_check(head, order) == NULL, "the unit changed: %s", compound_check(head, order));
	KT_EXPECT_EQ(t, page_count(head), count);
}

/* A cache of BIG_OBJ-byte objects and one object of it, in a slab of order >= 1. */
static struct kmem_cache *big_cache_with_object(struct ktest *t, void **obj)
{
	struct kmem_cache *c = kmem_cache_create("ownertest-3000", BIG_OBJ, 8, 0);

	*obj = c ? kmem_cache_alloc(c, GFP_KERNEL) : NULL;
	if (!KT_EXPECT(t, *obj != NULL, "no cache of %d-byte objects or no object", BIG_OBJ)) {
		kmem_cache_destroy(c);
		return NULL;
	}
	KT_EXPECT(t, PageSlab(head_of(*obj)) && PageHead(head_of(*obj)), "the slab is not a compound page");
	return c;
}

/* ---- split_huge_page() ------------------------------------------------------------------- */

static void split_refuses_a_slab_page(struct ktest *t)
{
	unsigned long before = slab_test_free_pages();
	struct kmem_cache *c;
	struct page *head;
	void *obj;

	c = big_cache_with_object(t, &obj);
	if (!c)
		return;
	head = head_of(obj);
	watch();
	KT_EXPECT_EQ(t, split_huge_page(head), -EINVAL);
	KT_EXPECT_EQ(t, split_huge_page(&head[1]), -EINVAL);
	expect_reports(t, "split of a slab", 0, "slab");
	expect_whole(t, head, slab_order(head), 1);
	KT_EXPECT(t, PageSlab(head), "PG_slab lost");
	watch();
	kmem_cache_free(c, obj);
	kmem_cache_destroy(c);
	expect_reports(t, "the slab freed by its cache", 0, NULL);
	slab_expect_free_pages(t, before);
}

/* kmalloc(size) split through a sub-page: refused, and kfree() then takes it back silently. */
static void expect_large_kmalloc_not_split(struct ktest *t, size_t size)
{
	unsigned int order = slab_test_large_order(size);
	char *p = kmalloc(size, GFP_KERNEL);
	struct page *head;

	if (!KT_EXPECT(t, p != NULL, "kmalloc(%zu) failed", size))
		return;
	head = head_of(p);
	watch();
	KT_EXPECT_EQ(t, split_huge_page(&head[1]), -EINVAL);
	KT_EXPECT_EQ(t, split_huge_page(head), -EINVAL);
	expect_reports(t, "split of a large kmalloc", 0, "kmalloc_large");
	expect_whole(t, head, order, 1);
	KT_EXPECT_EQ(t, ksize(p), PAGE_SIZE << order);
	watch();
	kfree(p);
	expect_reports(t, "kfree after the refused split", 0, NULL);
}

static void split_refuses_a_large_kmalloc_page(struct ktest *t)
{
	unsigned long before = slab_test_free_pages();

	expect_large_kmalloc_not_split(t, LARGE_SIZE);
	if (mm_free_blocks(9, GFP_KERNEL) >= 1)
		expect_large_kmalloc_not_split(t, PAGE_SIZE << 9);
	slab_expect_free_pages(t, before);
}

/*
 * A compound page given a registered destructor other than the default one: free_huge_page, the
 * only other one every kernel registers (the page is not the pool's: it is never called here).
 */
static struct page *compound_with_own_dtor(struct ktest *t)
{
	struct page *head = alloc_pages(GFP_KERNEL | __GFP_COMP, 3);

	if (!KT_EXPECT(t, head != NULL, "alloc_pages(__GFP_COMP, 3) failed"))
		return NULL;
	KT_EXPECT_EQ(t, set_compound_page_dtor(head, free_huge_page), 0);
	return head;
}

/* Gives back a page from compound_with_own_dtor(), its destructor the default one again. */
static void free_own_dtor_page(struct ktest *t, struct page *head)
{
	KT_EXPECT(t, get_compound_page_dtor(head) == free_huge_page, "the destructor changed");
	KT_EXPECT_EQ(t, set_compound_page_dtor(head, default_compound_dtor()), 0);
	put_page(head);
}

static void split_refuses_a_page_with_a_destructor_of_its_own(struct ktest *t)
{
	unsigned long before = test_free_pages();
	struct page *head = compound_with_own_dtor(t);

	if (!head)
		return;
	watch();
	KT_EXPECT_EQ(t, split_huge_page(&head[5]), -EINVAL);
	expect_reports(t, "split of a page with its own destructor", 0, "free_huge_page");
	expect_whole(t, head, 3, 1);
	free_own_dtor_page(t, head);
	KT_EXPECT_EQ(t, test_free_pages(), before);
}

/* ---- put_page() on a slab's page --------------------------------------------------------- */

/* A stray put_page() through page (of obj's slab, in c): one report, no count changes. */
static void expect_stray_put_refused(struct ktest *t, void *obj, struct page *page)
{
	struct page *head = head_of(obj);

	watch();
	put_page(page);
	expect_reports(t, "a stray put_page on a slab", 1, "slab");
	KT_EXPECT_EQ(t, page_count(head), 1);
	KT_EXPECT(t, PageSlab(head), "PG_slab lost");
	if (slab_order(head))
		expect_whole(t, head, slab_order(head), 1);
}

/* Stray put_page() calls on obj's slab (via its head, and a tail when it has one), then frees. */
static void stray_puts_then_free(struct ktest *t, struct kmem_cache *c, void *obj)
{
	struct page *head = head_of(obj);
	unsigned int order = slab_order(head);

	expect_stray_put_refused(t, obj, head);
	if (order)
		expect_stray_put_refused(t, obj, &head[(1UL << order) - 1]);
	watch();
	get_page(&head[order ? 1 : 0]); /* a reference that is not the last: allowed */
	put_page(head);
	expect_reports(t, "get_page and put_page on a slab", 0, NULL);
	KT_EXPECT_EQ(t, page_count(head), 1);
	watch();
	kmem_cache_free(c, obj);
	kmem_cache_destroy(c);
	expect_reports(t, "the slab freed by its cache after stray puts", 0, NULL);
}

static void stray_put_page_on_a_slab_of_order_3_is_refused(struct ktest *t)
{
	unsigned long before = slab_test_free_pages();
	struct kmem_cache *c;
	void *obj;

	c = big_cache_with_object(t, &obj);
	if (!c)
		return;
	stray_puts_then_free(t, c, obj);
	slab_expect_free_pages(t, before);
}

static void stray_put_page_on_a_slab_of_order_0_is_refused(struct ktest *t)
{
	unsigned long before = slab_test_free_pages();
	struct kmem_cache *c = kmem_cache_create("ownertest-100", 100, 8, 0);
	void *obj = c ? kmem_cache_alloc(c, GFP_KERNEL) : NULL;

	if (!KT_EXPECT(t, obj != NULL, "no cache of 100-byte objects or no object")) {
		kmem_cache_destroy(c);
		return;
	}
	KT_EXPECT_EQ(t, slab_order(head_of(obj)), 0);
	stray_puts_then_free(t, c, obj);
	slab_expect_free_pages(t, before);
}

/* ---- __free_pages() on a block with an owner ---------------------------------------------- */

static void free_pages_refuses_a_large_kmalloc_page(struct ktest *t)
{
	unsigned long before = slab_test_free_pages(), free_now;
	unsigned int order = slab_test_large_order(LARGE_SIZE);
	char *p = kmalloc(LARGE_SIZE, GFP_KERNEL);
	struct page *head;

	KT_ASSERT(t, p != NULL, "kmalloc(%d) failed", LARGE_SIZE);
	head = head_of(p);
	free_now = nr_free_pages();
	watch();
	__free_pages(head, order);
	free_pages((unsigned long)p, order);
	expect_reports(t, "__free_pages of a large kmalloc", 2, "kmalloc_large");
	KT_EXPECT_EQ(t, nr_free_pages(), free_now);
	expect_whole(t, head, order, 1);
	watch();
	kfree(p);
	expect_reports(t, "kfree after the refused frees", 0, NULL);
	/* A page kmalloc keeps for reuse (count 0) is still kmalloc's: refused again. */
	watch();
	__free_pages(head, order);
	expect_reports(t, "__free_pages of a page kmalloc keeps", 1, NULL);
	slab_expect_free_pages(t, before);
}

static void free_pages_refuses_a_page_with_a_destructor_of_its_own(struct ktest *t)
{
	unsigned long before = test_free_pages();
	struct page *head = compound_with_own_dtor(t);

	if (!head)
		return;
	watch();
	__free_pages(head, 3);
	expect_reports(t, "__free_pages of a page with its own destructor", 1, "free_huge_page");
	KT_EXPECT_EQ(t, test_free_pages(), before - 8);
	expect_whole(t, head, 3, 1);
	free_own_dtor_page(t, head);
	KT_EXPECT_EQ(t, test_free_pages(), before);
}

KTEST_SUITE(block_owner,
	    KTEST_MISUSE_CASE(split_refuses_a_slab_page),
	    KTEST_MISUSE_CASE(split_refuses_a_large_kmalloc_page),
	    KTEST_MISUSE_CASE(split_refuses_a_page_with_a_destructor_of_its_own),
	    KTEST_MISUSE_CASE(stray_put_page_on_a_slab_of_order_3_is_refused),
	    KTEST_MISUSE_CASE(stray_put_page_on_a_slab_of_order_0_is_refused),
	    KTEST_MISUSE_CASE(free_pages_refuses_a_large_kmalloc_page),
	    KTEST_MISUSE_CASE(free_pages_refuses_a_page_with_a_destructor_of_its_own));
