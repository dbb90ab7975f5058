/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of slab misuse (mm/slab.h): double free, a pointer inside an object, the wrong
 * cache, pointers no allocator handed out (stack, bss, a plain page, outside the direct map), a
 * red zone overwritten, a freed object written to, a cache destroyed with objects in it. Each
 * must give exactly one report ("BUG: slab ..." naming what happened), refuse the bad free, and
 * leave the cache working: many objects allocated and freed afterwards, all distinct, counts
 * right. First with a SLAB_DEBUG cache (and kmalloc when its caches are in debug mode, as in
 * MM_DEBUG builds), then the cases a cache without debugging still reports: the last freed object
 * freed again, the wrong cache, a pointer no slab holds or inside an object, an earlier object
 * freed again and a freed object's link overwritten (both when the list reaches them), even
 * when the overwritten link says the list ends there.
 */
#include "tests/ktest/slab_helpers.h"

#include "mm/slab_cache.h" /* the free links' encoding and the lists' end: one forged below */

#define OBJ_SIZE 100
#define WORKS_N 300

static void *objs[WORKS_N];
static char bss_bytes[256];
static unsigned long reports_before;

/* Starts watching: the report count, and what printk prints. */
static void watch(void)
{
	reports_before = mm_slab_reports;
	capture_console_start();
}

/*
 * Stops watching; expects exactly one report, a "BUG: slab" line, and one of the words (a
 * NULL-terminated list) in it, so that the report says what happened.
 */
static void expect_one_report(struct ktest *t, const char *what, const char *const *words)
{
	bool named = false;

	capture_console_stop();
	KT_EXPECT(t, mm_slab_reports - reports_before == 1, "%s: %lu reports, want 1", what, mm_slab_reports - reports_before);
	KT_EXPECT(t, strstr(captured.text, "BUG: slab") != NULL, "%s: no \"BUG: slab\" line in:\n%s", what, captured.text);
	for (const char *const *w = words; *w; w++)
		named |= strstr(captured.text, *w) != NULL;
	KT_EXPECT(t, named, "%s: the report does not say \"%s\":\n%s", what, words[0], captured.text);
}

static const char *const DOUBLE_FREE[] = { "double free", NULL };
static const char *const INSIDE[] = { "not the start of an object", "inside", "not an object", NULL };
static const char *const WRONG_CACHE[] = { "wrong cache", NULL };
static const char *const NOT_SLAB[] = { "never returned", "no slab holds", "not a slab", "no allocator", NULL };
static const char *const RED_ZONE[] = { "red zone", "redzone", NULL };
static const char *const POISON[] = { "poison", "after free", "use-after-free", NULL };
/* A large block freed twice: a double free while kmalloc keeps it, else no longer kmalloc's. */
static const char *const LARGE_AGAIN[] = { "double free", "never returned", NULL };
static const char *const KMALLOC_CACHE[] = { "kmalloc", NULL };
static const char *const DESTROY[] = { "still allocated", "objects remaining", "in use", NULL };

/* The active objects of c, from its slabinfo line. */
static unsigned long active_objects(struct ktest *t, const struct kmem_cache *c)
{
	struct slab_test_info info;

	return slab_test_info_of(t, c, &info) ? info.active : ~0UL;
}

/*
 * After a report: c (NULL: kmalloc of size) hands out WORKS_N distinct objects that keep their
 * bytes and takes them back without a report; its active count is what it was.
 */
static void expect_still_works(struct ktest *t, struct kmem_cache *c, size_t size)
{
	struct kmem_cache *counted = c ? c : kmalloc_cache(size);
	unsigned long reports = mm_slab_reports, active = active_objects(t, counted);
	size_t n = 0;

	for (; n < WORKS_N; n++) {
		objs[n] = c ? kmem_cache_alloc(c, GFP_KERNEL) : kmalloc(size, GFP_KERNEL);
		if (!KT_EXPECT(t, objs[n] != NULL, "allocation %zu after the report failed", n))
			break;
		slab_test_fill(objs[n], size, n);
	}
	KT_EXPECT_EQ(t, active_objects(t, counted), active + n);
	for (size_t i = 0; i < n; i++)
		KT_EXPECT(t, slab_test_check(objs[i], size, i) == size, "object %zu (%p) overwritten", i, objs[i]);
	for (size_t i = 0; i < n; i++)
		c ? kmem_cache_free(c, objs[i]) : kfree(objs[i]);
	slab_test_sort(objs, n);
	for (size_t i = 1; i < n; i++)
		if (!KT_EXPECT(t, (uintptr_t)objs[i - 1] + size <= (uintptr_t)objs[i], "objects %p and %p overlap",
			       objs[i - 1], objs[i]))
			break;
	KT_EXPECT_EQ(t, active_objects(t, counted), active);
	KT_EXPECT(t, mm_slab_reports == reports, "%lu reports while using the cache normally", mm_slab_reports - reports);
}

/* A cache of OBJ_SIZE bytes, with debugging or without, whatever the default. */
static struct kmem_cache *make_cache(struct ktest *t, const char *name, size_t size, bool debug)
{
	struct kmem_cache *c = slab_test_cache(name, size, 0, 0, debug);

	if (KT_EXPECT(t, c != NULL, "kmem_cache_create(%s) failed", name))
		KT_EXPECT(t, slab_debug_enabled(c) == debug, "%s: debug %d, want %d", name, slab_debug_enabled(c), debug);
	return c;
}

/*
 * Each misuse is a function of the cache (NULL: kmalloc) and the case; run once with a debug
 * cache, once with kmalloc when its caches are in debug mode.
 */
typedef void misuse_fn(struct ktest *t, struct kmem_cache *c);

static void *get(struct kmem_cache *c)
{
	return c ? kmem_cache_alloc(c, GFP_KERNEL) : kmalloc(OBJ_SIZE, GFP_KERNEL);
}

static void put(struct kmem_cache *c, void *p)
{
	c ? kmem_cache_free(c, p) : kfree(p);
}

static void run_debug(struct ktest *t, misuse_fn *fn)
{
	unsigned long before = slab_test_free_pages();
	struct kmem_cache *c = make_cache(t, "slabtest-dbg", OBJ_SIZE, true);

	if (c) {
		fn(t, c);
		expect_still_works(t, c, OBJ_SIZE);
		kmem_cache_destroy(c);
	}
	if (slab_debug_enabled(kmalloc_cache(OBJ_SIZE))) {
		fn(t, NULL);
		expect_still_works(t, NULL, OBJ_SIZE);
	}
	slab_expect_free_pages(t, before);
}

static void double_free(struct ktest *t, struct kmem_cache *c)
{
	void *p = get(c), *q = get(c);

	KT_ASSERT(t, p && q, "allocation failed");
	put(c, p);
	put(c, q);
	watch();
	put(c, p); /* not the most recently freed: only the debug mode can know */
	expect_one_report(t, "double free", DOUBLE_FREE);
	/* Two allocations must not hand out the same object twice. */
	p = get(c);
	q = get(c);
	KT_EXPECT(t, p && q && p != q, "after a double free: %p and %p", p, q);
	put(c, p);
	put(c, q);
}

static void free_inside_an_object(struct ktest *t, struct kmem_cache *c)
{
	uint8_t *p = get(c);

	KT_ASSERT(t, p != NULL, "allocation failed");
	slab_test_fill(p, OBJ_SIZE, 7);
	watch();
	put(c, p + 8);
	expect_one_report(t, "free inside an object", INSIDE);
	KT_EXPECT(t, slab_test_check(p, OBJ_SIZE, 7) == OBJ_SIZE, "the object was changed by the refused free");
	watch();
	put(c, p + OBJ_SIZE - 1);
	expect_one_report(t, "free at an object's last byte", INSIDE);
	put(c, p); /* still allocated: the bad frees were refused */
}

static void free_to_the_wrong_cache(struct ktest *t, struct kmem_cache *c)
{
	struct kmem_cache *other = make_cache(t, "slabtest-other", 64, true);
	void *p = get(c), *q = other ? kmem_cache_alloc(other, GFP_KERNEL) : NULL;

	KT_ASSERT(t, p && q, "allocation failed");
	watch();
	kmem_cache_free(other, p);
	expect_one_report(t, "free to the wrong cache", WRONG_CACHE);
	watch();
	if (c)
		kmem_cache_free(c, q);
	else
		kmem_cache_free(kmalloc_cache(64), q);
	expect_one_report(t, "free of another cache's object", WRONG_CACHE);
	put(c, p);
	kmem_cache_free(other, q);
	kmem_cache_destroy(other);
}

static void red_zone_overwrite_found_at_free(struct ktest *t, struct kmem_cache *c)
{
	uint8_t *p = get(c);
	size_t usable = c ? kmem_cache_size(c) : ksize(p);
	uint8_t saved;

	KT_ASSERT(t, p != NULL, "allocation failed");
	saved = p[usable];
	p[usable] = (uint8_t)~saved; /* one byte past the end: the red zone */
	watch();
	put(c, p);
	expect_one_report(t, "red zone overwritten", RED_ZONE);
	/* The damage was reported; whatever became of the object, the byte is made right again. */
	if (c ? active_objects(t, c) : 0)
		p[usable] = saved, put(c, p);
}

/* A write just before the object (an underflow): the left red zone, found at free. */
static void red_zone_underflow_found_at_free(struct ktest *t, struct kmem_cache *c)
{
	uint8_t *p = get(c), saved;

	KT_ASSERT(t, p != NULL, "allocation failed");
	saved = p[-1];
	p[-1] = (uint8_t)~saved;
	watch();
	put(c, p);
	expect_one_report(t, "write before the object", RED_ZONE);
	if (c ? active_objects(t, c) : 0)
		p[-1] = saved, put(c, p);
}

static void write_after_free_found_at_next_allocation(struct ktest *t, struct kmem_cache *c)
{
	uint8_t *p = get(c), *q;

	KT_ASSERT(t, p != NULL, "allocation failed");
	put(c, p);
	p[OBJ_SIZE / 2] ^= 0x5a; /* into the poison */
	watch();
	q = get(c); /* the most recently freed object first, or the check runs on its way out */
	expect_one_report(t, "write after free", POISON);
	KT_EXPECT(t, q != NULL, "no object after the report");
	if (q)
		put(c, q);
}

static void debug_double_free_is_reported(struct ktest *t) { run_debug(t, double_free); }
static void debug_free_inside_an_object_is_reported(struct ktest *t) { run_debug(t, free_inside_an_object); }
static void debug_free_to_the_wrong_cache_is_reported(struct ktest *t) { run_debug(t, free_to_the_wrong_cache); }
static void debug_red_zone_overwrite_is_found_at_free(struct ktest *t) { run_debug(t, red_zone_overwrite_found_at_free); }
static void debug_red_zone_underflow_is_found_at_free(struct ktest *t) { run_debug(t, red_zone_underflow_found_at_free); }
static void debug_write_after_free_is_found_at_allocation(struct ktest *t)
{
	run_debug(t, write_after_free_found_at_next_allocation);
}

/* kfree() of p that no allocator handed out: one report, nothing freed, kmalloc still works. */
static void expect_kfree_refused(struct ktest *t, const void *p, const char *what)
{
	unsigned long before = slab_test_free_pages();

	watch();
	kfree(p);
	expect_one_report(t, what, NOT_SLAB);
	KT_EXPECT_EQ(t, slab_test_free_pages(), before);
	expect_still_works(t, NULL, 64);
}

static void kfree_of_a_stack_address_is_refused(struct ktest *t)
{
	volatile char on_stack[64] = { 1 };

	expect_kfree_refused(t, (const void *)&on_stack[16], "kfree of a stack address");
}

static void kfree_of_a_bss_address_is_refused(struct ktest *t)
{
	expect_kfree_refused(t, &bss_bytes[64], "kfree of a bss address");
}

/* A plain page (and a plain order-1 block) is neither a slab nor a large kmalloc. */
static void kfree_of_a_plain_page_is_refused(struct ktest *t)
{
	for (unsigned int order = 0; order <= 1; order++) {
		struct page *page = alloc_pages(GFP_KERNEL, order);
		uint8_t *addr;

		KT_ASSERT(t, page != NULL, "alloc_pages failed");
		addr = page_address(page);
		expect_kfree_refused(t, addr, "kfree of a page from alloc_pages");
		expect_kfree_refused(t, addr + 128, "kfree inside a page from alloc_pages");
		KT_EXPECT_EQ(t, page_count(page), 1);
		__free_pages(page, order);
	}
}

/* A compound page of alloc_pages(__GFP_COMP) is not a large kmalloc: kfree() must tell. */
static void kfree_of_a_compound_page_not_from_kmalloc_is_refused(struct ktest *t)
{
	struct page *head = alloc_pages(GFP_KERNEL | __GFP_COMP, 2);

	KT_ASSERT(t, head != NULL, "alloc_pages failed");
	expect_kfree_refused(t, page_address(head), "kfree of a compound page from alloc_pages");
	KT_EXPECT(t, PageHead(head) && compound_order(head) == 2 && page_count(head) == 1,
		  "the compound page was changed by the refused kfree");
	put_page(head);
}

/* Beyond the last frame's direct-map address, and below the direct map. */
static void kfree_outside_the_direct_map_is_refused(struct ktest *t)
{
	expect_kfree_refused(t, phys_to_virt(PFN_PHYS(mm_max_pfn) + 64 * PAGE_SIZE), "kfree beyond the direct map");
	if (mm_direct_map_offset >= 0x100000)
		expect_kfree_refused(t, (const void *)(mm_direct_map_offset - 0x10000), "kfree below the direct map");
}

/* A large kmalloc freed inside (not at its start) and freed twice. */
static void large_kmalloc_misuse_is_refused(struct ktest *t)
{
	unsigned long before = slab_test_free_pages();
	uint8_t *p = kmalloc(20000, GFP_KERNEL);

	KT_ASSERT(t, p != NULL, "kmalloc failed");
	watch();
	kfree(p + PAGE_SIZE);
	expect_one_report(t, "kfree inside a large kmalloc", INSIDE);
	KT_EXPECT(t, PageHead(virt_to_page(p)) && page_count(virt_to_page(p)) == 1,
		  "the large allocation was changed by the refused free");
	kfree(p);
	watch();
	kfree(p); /* freed just now: still in kmalloc's reuse, or back in the buddy allocator */
	expect_one_report(t, "double kfree of a large kmalloc", LARGE_AGAIN);
	p = kmalloc(20000, GFP_KERNEL);
	KT_EXPECT(t, p != NULL && page_count(virt_to_page(p)) == 1, "large kmalloc after a double free: %p", (void *)p);
	kfree(p);
	KT_EXPECT_EQ(t, slab_test_free_pages(), before);
}

static void destroying_a_cache_in_use_is_reported(struct ktest *t)
{
	unsigned long before = slab_test_free_pages(), reports;
	struct kmem_cache *c = make_cache(t, "slabtest-inuse", OBJ_SIZE, false);
	void *p;

	KT_ASSERT(t, c != NULL, "no cache");
	p = kmem_cache_alloc(c, GFP_KERNEL);
	KT_ASSERT(t, p != NULL, "allocation failed");
	slab_test_fill(p, OBJ_SIZE, 3);
	watch();
	kmem_cache_destroy(c);
	expect_one_report(t, "destroy with an object allocated", DESTROY);
	/* The cache was kept: its object is intact, it still works, and it can be destroyed empty. */
	KT_EXPECT(t, slab_test_check(p, OBJ_SIZE, 3) == OBJ_SIZE, "the object was changed by the destroy");
	expect_still_works(t, c, OBJ_SIZE);
	kmem_cache_free(c, p);
	reports = mm_slab_reports;
	kmem_cache_destroy(c);
	KT_EXPECT_EQ(t, mm_slab_reports, reports);
	slab_expect_free_pages(t, before);
}

/* kmalloc's own caches cannot be destroyed: refused with a report, kmalloc goes on. */
static void destroying_a_kmalloc_cache_is_refused(struct ktest *t)
{
	unsigned long before = slab_test_free_pages();

	watch();
	kmem_cache_destroy(kmalloc_cache(64));
	expect_one_report(t, "kmem_cache_destroy of a kmalloc cache", KMALLOC_CACHE);
	KT_EXPECT(t, kmalloc_cache(64) != NULL, "the kmalloc cache is gone");
	expect_still_works(t, NULL, 64);
	slab_expect_free_pages(t, before);
}

/* Without debugging: the double free of the most recently freed object, the wrong cache. */
static void nodebug_double_free_of_the_last_freed_is_reported(struct ktest *t)
{
	unsigned long before = slab_test_free_pages();
	struct kmem_cache *c = make_cache(t, "slabtest-nodbg", OBJ_SIZE, false);
	void *p, *q;

	KT_ASSERT(t, c != NULL, "no cache");
	p = kmem_cache_alloc(c, GFP_KERNEL);
	KT_ASSERT(t, p != NULL, "allocation failed");
	kmem_cache_free(c, p);
	watch();
	kmem_cache_free(c, p);
	expect_one_report(t, "double free without debug", DOUBLE_FREE);
	p = kmem_cache_alloc(c, GFP_KERNEL);
	q = kmem_cache_alloc(c, GFP_KERNEL);
	KT_EXPECT(t, p && q && p != q, "after a double free: %p and %p", p, q);
	kmem_cache_free(c, p);
	kmem_cache_free(c, q);
	expect_still_works(t, c, OBJ_SIZE);
	kmem_cache_destroy(c);
	slab_expect_free_pages(t, before);
}

static void nodebug_free_to_the_wrong_cache_is_reported(struct ktest *t)
{
	unsigned long before = slab_test_free_pages();
	struct kmem_cache *a = make_cache(t, "slabtest-nodbg-a", OBJ_SIZE, false);
	struct kmem_cache *b = make_cache(t, "slabtest-nodbg-b", 200, false);
	void *p;

	KT_ASSERT(t, a && b, "no cache");
	p = kmem_cache_alloc(a, GFP_KERNEL);
	KT_ASSERT(t, p != NULL, "allocation failed");
	watch();
	kmem_cache_free(b, p);
	expect_one_report(t, "free to the wrong cache without debug", WRONG_CACHE);
	kmem_cache_free(a, p);
	expect_still_works(t, a, OBJ_SIZE);
	expect_still_works(t, b, 200);
	kmem_cache_destroy(a);
	kmem_cache_destroy(b);
	slab_expect_free_pages(t, before);
}

static void nodebug_free_of_a_non_slab_pointer_is_reported(struct ktest *t)
{
	unsigned long before = slab_test_free_pages();
	struct kmem_cache *c = make_cache(t, "slabtest-nodbg", OBJ_SIZE, false);
	struct page *page = alloc_pages(GFP_KERNEL, 0);

	KT_ASSERT(t, c && page, "no cache or page");
	watch();
	kmem_cache_free(c, page_address(page));
	expect_one_report(t, "kmem_cache_free of a plain page", NOT_SLAB);
	KT_EXPECT_EQ(t, page_count(page), 1);
	__free_pages(page, 0);
	expect_still_works(t, c, OBJ_SIZE);
	kmem_cache_destroy(c);
	slab_expect_free_pages(t, before);
}

/*
 * A cache of OBJ_SIZE bytes without debug, and its CPU list emptied: every object of its first
 * slab allocated, into objs[0..*n). Frees after that build the list from nothing, so a case knows
 * exactly what is on it. NULL (failed) when the layout is not the one the cases expect.
 */
static struct kmem_cache *nodebug_cache_drained(struct ktest *t, size_t *n)
{
	struct kmem_cache *c = make_cache(t, "slabtest-hard", OBJ_SIZE, false);
	struct slab_test_info info;

	*n = 0;
	if (!c)
		return NULL;
	objs[(*n)++] = kmem_cache_alloc(c, GFP_KERNEL); /* the first slab: its objects go to this CPU */
	if (!slab_test_info_of(t, c, &info) ||
	    !KT_EXPECT(t, objs[0] && info.objperslab <= WORKS_N, "%lu objects per slab", info.objperslab))
		return NULL;
	while (*n < info.objperslab && (objs[*n] = kmem_cache_alloc(c, GFP_KERNEL)))
		(*n)++;
	KT_EXPECT_EQ(t, *n, (size_t)info.objperslab);
	return c;
}

/* Gives back objs[from..n) and destroys c (no report: nothing of c is left allocated). */
static void release_drained(struct ktest *t, struct kmem_cache *c, size_t from, size_t n)
{
	unsigned long reports = mm_slab_reports;

	for (size_t i = from; i < n; i++)
		kmem_cache_free(c, objs[i]);
	kmem_cache_destroy(c);
	KT_EXPECT(t, mm_slab_reports == reports, "%lu reports giving the objects back", mm_slab_reports - reports);
}

/*
 * Without debug, a pointer that is not where an object starts is refused (one multiply against
 * the layout), through kmem_cache_free() and kfree(): a byte in, the last byte, and the spare bytes
 * after a slab's last object. 100-byte objects go every 104 bytes, 39 in a page, 40 bytes spare.
 */
static void nodebug_free_inside_an_object_is_refused(struct ktest *t)
{
	static const size_t offsets[] = { 1, 8, OBJ_SIZE / 2, OBJ_SIZE - 1, OBJ_SIZE + 3 };
	unsigned long before = slab_test_free_pages();
	struct kmem_cache *c = make_cache(t, "slabtest-nodbg", OBJ_SIZE, false);
	struct slab_test_info info;
	uint8_t *p, *spare;

	KT_ASSERT(t, c != NULL, "no cache");
	p = kmem_cache_alloc(c, GFP_KERNEL);
	KT_ASSERT(t, p != NULL, "allocation failed");
	slab_test_fill(p, OBJ_SIZE, 9);
	for (size_t i = 0; i < sizeof(offsets) / sizeof(offsets[0]); i++) {
		watch();
		kmem_cache_free(c, p + offsets[i]);
		expect_one_report(t, "kmem_cache_free inside an object without debug", INSIDE);
		watch();
		kfree(p + offsets[i]);
		expect_one_report(t, "kfree inside an object without debug", INSIDE);
	}
	KT_EXPECT(t, slab_test_check(p, OBJ_SIZE, 9) == OBJ_SIZE, "the object was changed by the refused frees");
	if (slab_test_info_of(t, c, &info) && KT_EXPECT(t, info.objperslab == 39 && info.pagesperslab == 1,
							  "layout %lu objects in %lu pages, the case expects 39 in 1",
							  info.objperslab, info.pagesperslab)) {
		spare = (uint8_t *)page_address(compound_head(virt_to_page(p))) + 39 * 104;
		watch();
		kmem_cache_free(c, spare);
		expect_one_report(t, "free of the spare bytes after the last object", INSIDE);
	}
	kmem_cache_free(c, p); /* still allocated: the bad frees were refused */
	expect_still_works(t, c, OBJ_SIZE);
	kmem_cache_destroy(c);
	slab_expect_free_pages(t, before);
}

/*
 * Without debug, a, b, a: the list is a, b, a, ... The second time allocation reaches a, its link
 * (zeroed when a was handed out) does not decode: one report, and a is not handed out twice.
 */
static void nodebug_double_free_of_an_earlier_object_is_caught(struct ktest *t)
{
	unsigned long before = slab_test_free_pages();
	struct kmem_cache *c;
	void *a, *b, *got[3];
	size_t n;

	c = nodebug_cache_drained(t, &n);
	KT_ASSERT(t, c && n > 2, "no cache");
	a = objs[0];
	b = objs[1];
	kmem_cache_free(c, a);
	kmem_cache_free(c, b);
	watch();
	kmem_cache_free(c, a); /* not the last freed: the list cannot tell yet */
	for (size_t i = 0; i < 3; i++)
		got[i] = kmem_cache_alloc(c, GFP_KERNEL);
	expect_one_report(t, "a, b, a freed, then three allocations", DOUBLE_FREE);
	KT_EXPECT(t, got[0] == a && got[1] == b, "the list gave %p, %p; want a %p, b %p", got[0], got[1], a, b);
	KT_EXPECT(t, got[2] && got[2] != a && got[2] != b, "third allocation %p: a is %p, b %p", got[2], a, b);
	objs[0] = got[0];
	objs[1] = got[1];
	kmem_cache_free(c, got[2]);
	release_drained(t, c, 0, n);
	slab_expect_free_pages(t, before);
}

/*
 * Without debug, a freed object's link overwritten (a write after free, or an attack aiming the
 * next allocation at the bss): reported when the list reaches it, never followed. The object
 * itself is abandoned (it may be in use): it stays counted, and is given back here.
 */
static void nodebug_overwritten_free_link_is_not_followed(struct ktest *t)
{
	unsigned long before = slab_test_free_pages();
	struct kmem_cache *c;
	void *q, *x, *y;
	size_t n;

	c = nodebug_cache_drained(t, &n);
	KT_ASSERT(t, c && n > 1, "no cache");
	q = objs[0];
	kmem_cache_free(c, q);
	*(void **)q = bss_bytes; /* the free link, as it was before it was hardened */
	watch();
	x = kmem_cache_alloc(c, GFP_KERNEL);
	y = kmem_cache_alloc(c, GFP_KERNEL);
	expect_one_report(t, "a freed object's link overwritten", DOUBLE_FREE);
	KT_EXPECT(t, x && y && x != q && y != q && x != y, "allocations %p %p, the overwritten object %p", x, y, q);
	KT_EXPECT(t, x != (void *)bss_bytes && y != (void *)bss_bytes, "an allocation returned the bss at %p",
		  (void *)bss_bytes);
	kmem_cache_free(c, x);
	kmem_cache_free(c, y);
	release_drained(t, c, 0, n); /* objs[0] is q, abandoned on the list: still counted, so freed again */
	slab_expect_free_pages(t, before);
}

/*
 * Without debug, a freed object's link overwritten with one that decodes to the lists' end
 * (mm/slab_cache.h) while objects follow it: the allocation fast path takes the end for an empty
 * list, and its slow path, seeing the slot still count objects, reports the list broken instead
 * of refilling as if it were empty. The objects after it are abandoned (counted in use) and
 * given back here.
 */
static void nodebug_free_link_to_the_lists_end_is_caught(struct ktest *t)
{
	unsigned long before = slab_test_free_pages();
	struct kmem_cache *c;
	void *a, *b, *got[2];
	size_t n;

	c = nodebug_cache_drained(t, &n);
	KT_ASSERT(t, c && n > 1, "no cache");
	a = objs[0];
	b = objs[1];
	kmem_cache_free(c, a);
	kmem_cache_free(c, b); /* the list: b, a, its end */
	*(uintptr_t *)b = slab_link_encode(c, b, slab_list_end()); /* forged: b the last */
	watch();
	got[0] = kmem_cache_alloc(c, GFP_KERNEL);
	got[1] = kmem_cache_alloc(c, GFP_KERNEL);
	expect_one_report(t, "a link to the lists' end with a still on the list", DOUBLE_FREE);
	KT_EXPECT(t, got[0] == b, "the list gave %p first; want b %p", got[0], b);
	KT_EXPECT(t, got[1] && got[1] != a && got[1] != b, "second allocation %p: a is %p, b %p", got[1], a, b);
	kmem_cache_free(c, got[1]);
	release_drained(t, c, 0, n); /* objs[0] is a, abandoned on the list: still counted, so freed again */
	slab_expect_free_pages(t, before);
}

KTEST_SUITE(slab_misuse,
	    KTEST_MISUSE_CASE(debug_double_free_is_reported),
	    KTEST_MISUSE_CASE(debug_free_inside_an_object_is_reported),
	    KTEST_MISUSE_CASE(debug_free_to_the_wrong_cache_is_reported),
	    KTEST_MISUSE_CASE(debug_red_zone_overwrite_is_found_at_free),
	    KTEST_MISUSE_CASE(debug_red_zone_underflow_is_found_at_free),
	    KTEST_MISUSE_CASE(debug_write_after_free_is_found_at_allocation),
	    KTEST_MISUSE_CASE(kfree_of_a_stack_address_is_refused),
	    KTEST_MISUSE_CASE(kfree_of_a_bss_address_is_refused),
	    KTEST_MISUSE_CASE(kfree_of_a_plain_page_is_refused),
	    KTEST_MISUSE_CASE(kfree_of_a_compound_page_not_from_kmalloc_is_refused),
	    KTEST_MISUSE_CASE(kfree_outside_the_direct_map_is_refused),
	    KTEST_MISUSE_CASE(large_kmalloc_misuse_is_refused),
	    KTEST_MISUSE_CASE(destroying_a_cache_in_use_is_reported),
	    KTEST_MISUSE_CASE(destroying_a_kmalloc_cache_is_refused),
	    KTEST_MISUSE_CASE(nodebug_double_free_of_the_last_freed_is_reported),
	    KTEST_MISUSE_CASE(nodebug_free_to_the_wrong_cache_is_reported),
	    KTEST_MISUSE_CASE(nodebug_free_of_a_non_slab_pointer_is_reported),
	    KTEST_MISUSE_CASE(nodebug_free_inside_an_object_is_refused),
	    KTEST_MISUSE_CASE(nodebug_double_free_of_an_earlier_object_is_caught),
	    KTEST_MISUSE_CASE(nodebug_overwritten_free_link_is_not_followed),
	    KTEST_MISUSE_CASE(nodebug_free_link_to_the_lists_end_is_caught));
