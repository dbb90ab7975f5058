/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of vmalloc, vmap and kvmalloc (mm/vmalloc.h), in the kernel and on the host (where
 * the pages are the simulated memory mapped again): sizes from 1 byte to 8 MiB keep what is written
 * and each page is the one vmalloc_to_page() names; a guard page between areas; vmap() of given
 * pages in their order; kvmalloc() picks kmalloc or vmalloc by size; a full range fails cleanly;
 * bad frees are reported and change nothing; a vmalloc page moved by migration keeps its contents
 * at its address and vmalloc_to_page() names the new page; a pinned page is not moved and stays
 * mapped. Faults on guard pages and writers on other CPUs during migration are in
 * tests/ktest/kernel/vmalloc_smp.c (kernel) and tests/mm/vmalloc_host_test.c (host threads).
 */
#include "lib/string.h"
#include "mm/arch.h"
#include "mm/memmap.h"
#include "mm/migrate.h"
#include "mm/page_alloc.h"
#include "mm/slab.h"
#include "mm/vmalloc.h"
#include "mm/vmstat.h"
#include "tests/ktest/ktest.h"
#include "tests/ktest/mm_helpers.h"
#include "tests/ktest/text_capture.h"

/* The word at index i of an area of size bytes: differs per word, per area and per size. */
static uint64_t pattern(const void *area, size_t size, size_t i)
{
	return (uint64_t)i * 0x9e3779b97f4a7c15ull ^ (uintptr_t)area ^ size;
}

static void fill(uint64_t *p, size_t size)
{
	for (size_t i = 0; i < size / 8; i++)
		p[i] = pattern(p, size, i);
}

/* Is every word as fill() left it? Reports the first that is not. */
static bool holds_pattern(struct ktest *t, const uint64_t *p, size_t size)
{
	for (size_t i = 0; i < size / 8; i++)
		if (p[i] != pattern(p, size, i))
			return KT_EXPECT(t, false, "word %zu of %zu bytes at %p: %#llx, expected %#llx", i, size,
					 (const void *)p, (unsigned long long)p[i],
					 (unsigned long long)pattern(p, size, i));
	return true;
}

/* Each page's first word, read through the direct map of the page vmalloc_to_page() names. */
static bool pages_match(struct ktest *t, const uint64_t *p, size_t size)
{
	for (size_t off = 0; off + 8 <= size; off += PAGE_SIZE) {
		struct page *page = vmalloc_to_page((const char *)p + off + 3);
		const uint64_t *direct = page ? page_address(page) : NULL;

		if (!KT_EXPECT(t, direct && *direct == p[off / 8], "page at offset %zu of %p: %p", off,
			       (const void *)p, (void *)page))
			return false;
	}
	return true;
}

static void sizes_from_1_byte_to_8_mib_keep_their_contents(struct ktest *t)
{
	static const size_t sizes[] = { 1, 100, 4095, 4096, 4097, 3 * 4096 + 5, 65536, (1 << 20) + 1, 8 << 20 };
	unsigned long used0 = vmalloc_nr_pages();

	if (mm_skip_without_blocks(t, 0, PFN_UP(10UL << 20), GFP_HIGHUSER_MOVABLE))
		return; /* the largest size and its page array, with room to spare */
	for (size_t k = 0; k < ARRAY_SIZE(sizes); k++) {
		size_t size = sizes[k];
		uint64_t *p = vmalloc(size);

		KT_ASSERT(t, p != NULL, "vmalloc(%zu) failed", size);
		KT_EXPECT(t, is_vmalloc_addr(p) && !((uintptr_t)p & (PAGE_SIZE - 1)), "vmalloc(%zu) = %p", size, (void *)p);
		KT_EXPECT_EQ(t, vmalloc_nr_pages(), used0 + PFN_UP(size));
		((volatile char *)p)[size - 1] = 0x5a; /* the last byte asked for is there */
		fill(p, size);
		holds_pattern(t, p, size);
		pages_match(t, p, size);
		vfree(p);
		KT_EXPECT_EQ(t, vmalloc_nr_pages(), used0);
	}
}

static void vzalloc_gives_zeroes(struct ktest *t)
{
	size_t size = 16 * PAGE_SIZE;
	uint64_t *p = vmalloc(size);

	KT_ASSERT(t, p != NULL, "vmalloc failed");
	memset(p, 0xff, size); /* the pages of the next area are likely these again */
	vfree(p);
	p = vzalloc(size);
	KT_ASSERT(t, p != NULL, "vzalloc failed");
	for (size_t i = 0; i < size / 8; i++)
		if (!KT_EXPECT(t, p[i] == 0, "word %zu is %#llx", i, (unsigned long long)p[i]))
			break;
	vfree(p);
}

static void areas_are_apart_by_a_guard_page(struct ktest *t)
{
	char *a = vmalloc(2 * PAGE_SIZE), *b = vmalloc(PAGE_SIZE);

	KT_ASSERT(t, a && b, "vmalloc failed: %p %p", (void *)a, (void *)b);
	KT_EXPECT(t, b >= a + 3 * PAGE_SIZE || a >= b + 2 * PAGE_SIZE, "areas at %p (2 pages) and %p (1 page)",
		  (void *)a, (void *)b);
	KT_EXPECT(t, vmalloc_to_page(a + 2 * PAGE_SIZE) == NULL, "the guard page after %p maps a page", (void *)a);
	KT_EXPECT(t, vmalloc_to_page(b + PAGE_SIZE) == NULL, "the guard page after %p maps a page", (void *)b);
	KT_EXPECT(t, vmalloc_to_page(&t) == NULL && !is_vmalloc_addr(&t), "a stack address is a vmalloc one");
	vfree(b);
	vfree(a);
	KT_EXPECT(t, vmalloc_to_page(a) == NULL, "a freed area still maps a page");
}

static void vmap_maps_the_given_pages_in_order(struct ktest *t)
{
	struct page *p[3], *order[4];
	unsigned long used0 = vmalloc_nr_pages();
	uint64_t *map;

	for (int i = 0; i < 3; i++) {
		p[i] = alloc_pages(GFP_KERNEL, 0);
		KT_ASSERT(t, p[i] != NULL, "alloc_pages failed");
		*(uint64_t *)page_address(p[i]) = 0x1000 + (uint64_t)i;
	}
	order[0] = p[2], order[1] = p[0], order[2] = p[1], order[3] = p[0];
	map = vmap(order, 4, VM_MAP);
	KT_ASSERT(t, map != NULL, "vmap failed");
	for (int i = 0; i < 4; i++) {
		KT_EXPECT_EQ(t, map[i * PAGE_SIZE / 8], *(uint64_t *)page_address(order[i]));
		KT_EXPECT(t, vmalloc_to_page(&map[i * PAGE_SIZE / 8]) == order[i], "page %d", i);
	}
	((volatile uint64_t *)map)[PAGE_SIZE / 8 + 1] = 0xbeef; /* page 1 is p[0], mapped again as page 3 */
	KT_EXPECT_EQ(t, ((volatile uint64_t *)map)[3 * PAGE_SIZE / 8 + 1], 0xbeef); /* not a copy the compiler kept */
	KT_EXPECT_EQ(t, vmalloc_nr_pages(), used0); /* the pages are the caller's */
	vunmap(map);
	KT_EXPECT(t, vmalloc_to_page(map) == NULL, "vunmap left the mapping");
	KT_EXPECT_EQ(t, ((uint64_t *)page_address(p[0]))[1], 0xbeef);
	for (int i = 0; i < 3; i++)
		__free_pages(p[i], 0);
}

static void vmap_refuses_what_it_cannot_map(struct ktest *t)
{
	struct page *p = alloc_pages(GFP_KERNEL, 0), *with_null[2] = { p, NULL };

	KT_ASSERT(t, p != NULL, "alloc_pages failed");
	capture_console_start();
	KT_EXPECT(t, vmap(&p, 0, VM_MAP) == NULL, "vmap of no page");
	KT_EXPECT(t, vmap(with_null, 2, VM_MAP) == NULL, "vmap of a NULL page");
	KT_EXPECT(t, vmap(&p, 1, 0x100) == NULL, "vmap with an unknown flag");
	capture_console_stop();
	KT_EXPECT(t, strstr(captured.text, "vmap: 0 pages: no pages") && strstr(captured.text, "a NULL page") &&
		     strstr(captured.text, "flags other than VM_MAP"), "reports: %s", captured.text);
	__free_pages(p, 0);
}

static void kvmalloc_takes_kmalloc_when_small_and_vmalloc_when_large(struct ktest *t)
{
	char *small = kvmalloc(100, GFP_KERNEL), *large = kvzalloc(1 << 20, GFP_KERNEL);

	KT_ASSERT(t, small && large, "kvmalloc failed: %p %p", (void *)small, (void *)large);
	KT_EXPECT(t, !is_vmalloc_addr(small) && ksize(small) >= 100, "kvmalloc(100) = %p", (void *)small);
	KT_EXPECT(t, is_vmalloc_addr(large), "kvzalloc(1 MiB) = %p", (void *)large);
	KT_EXPECT(t, large[0] == 0 && large[(1 << 20) - 1] == 0, "kvzalloc memory not zero");
	memset(small, 1, 100);
	memset(large, 2, 1 << 20);
	kvfree(small);
	kvfree(large);
	KT_EXPECT(t, kvmalloc(0, GFP_KERNEL) == ZERO_SIZE_PTR, "kvmalloc(0) is not ZERO_SIZE_PTR");
	kvfree(ZERO_SIZE_PTR);
	kvfree(NULL);
	capture_console_start();
	KT_EXPECT(t, kvmalloc(PAGE_SIZE, __GFP_DMA) == NULL, "kvmalloc took a zone modifier");
	capture_console_stop();
	KT_EXPECT(t, strstr(captured.text, "kvmalloc: gfp 0x1") != NULL, "report: %s", captured.text);
}

/* How many areas of 1 MiB a range of 16 MiB holds, each with its guard page: 15. */
#define SMALL_RANGE (16UL << 20)
#define CHUNK (1UL << 20)

static void a_full_range_fails_cleanly(struct ktest *t)
{
	void *area[SMALL_RANGE / CHUNK];
	unsigned int n = 0;
	unsigned long free0;

	if (mm_skip_without_blocks(t, 0, PFN_UP(SMALL_RANGE + CHUNK), GFP_HIGHUSER_MOVABLE))
		return; /* 15 areas of 1 MiB at once, and their page arrays */
	KT_ASSERT(t, vmalloc_set_range(mm_vmalloc_start, mm_vmalloc_start + SMALL_RANGE) == 0,
		  "another area exists: the range cannot be narrowed");
	while (n < ARRAY_SIZE(area) && (area[n] = __vmalloc(CHUNK, __GFP_NOWARN)) != NULL)
		n++;
	KT_EXPECT_EQ(t, n, SMALL_RANGE / (CHUNK + PAGE_SIZE));
	free0 = nr_free_pages();
	capture_console_start();
	KT_EXPECT(t, vmalloc(CHUNK) == NULL, "a full range gave 1 MiB more"); /* 241 pages are left */
	KT_EXPECT(t, vmalloc(2 * SMALL_RANGE) == NULL, "the range gave more than it holds");
	capture_console_stop();
	KT_EXPECT(t, strstr(captured.text, "vmalloc: no room for 256 pages") != NULL, "report: %s", captured.text);
	KT_EXPECT(t, strstr(captured.text, "larger than the vmalloc range") != NULL, "report: %s", captured.text);
	KT_EXPECT_EQ(t, nr_free_pages(), free0); /* nothing kept by the failures */
	KT_EXPECT_EQ(t, vmalloc_set_range(mm_vmalloc_start, mm_vmalloc_end), -EBUSY);
	for (unsigned int i = 0; i < n; i++)
		vfree(area[i]);
	KT_EXPECT(t, (area[0] = vmalloc(CHUNK * 15)) != NULL, "the freed range does not hold 15 MiB at once");
	vfree(area[0]);
	KT_EXPECT_EQ(t, vmalloc_set_range(mm_vmalloc_start, mm_vmalloc_end), 0);
}

static void bad_frees_are_reported_and_change_nothing(struct ktest *t)
{
	struct page *page = alloc_pages(GFP_KERNEL, 0);
	uint64_t *p = vmalloc(2 * PAGE_SIZE), *m = page ? vmap(&page, 1, VM_MAP) : NULL;
	unsigned long used = vmalloc_nr_pages();

	KT_ASSERT(t, p && m, "vmalloc or vmap failed");
	fill(p, 2 * PAGE_SIZE);
	capture_console_start();
	vfree(NULL);
	KT_EXPECT_EQ(t, captured.len, 0);
	vfree(p + PAGE_SIZE / 8);  /* inside the area */
	vfree(m);                  /* vmap()'d */
	vunmap(p);                 /* vmalloc()'d */
	vfree(&used);              /* not a vmalloc address */
	capture_console_stop();
	KT_EXPECT(t, strstr(captured.text, "vfree: ") && strstr(captured.text, "(vmap()'d: vunmap() it)") &&
		     strstr(captured.text, "(vmalloc()'d: vfree() it)"), "reports: %s", captured.text);
	KT_EXPECT_EQ(t, vmalloc_nr_pages(), used);
	holds_pattern(t, p, 2 * PAGE_SIZE);
	vfree(p);
	capture_console_start();
	vfree(p); /* twice */
	capture_console_stop();
	KT_EXPECT(t, strstr(captured.text, "is not the start of a vmalloc() area") != NULL, "report: %s", captured.text);
	vunmap(m);
	__free_pages(page, 0);
}

static void a_moved_page_keeps_its_contents_at_its_address(struct ktest *t)
{
	size_t size = 4 * PAGE_SIZE;
	uint64_t *p = vmalloc(size);
	unsigned long moved0 = vm_event_count(PGMIGRATE_SUCCESS);

	KT_ASSERT(t, p != NULL, "vmalloc failed");
	fill(p, size);
	for (size_t off = 0; off < size; off += PAGE_SIZE) {
		struct page *old = vmalloc_to_page((char *)p + off), *now;

		KT_EXPECT(t, old && page_movable(old), "page at offset %zu is not movable", off);
		KT_EXPECT_EQ(t, migrate_page_to_new(old, GFP_HIGHUSER_MOVABLE), 0);
		now = vmalloc_to_page((char *)p + off);
		KT_EXPECT(t, now && now != old && page_movable(now), "offset %zu: page %p, was %p", off, (void *)now,
			  (void *)old);
	}
	KT_EXPECT_EQ(t, vm_event_count(PGMIGRATE_SUCCESS), moved0 + 4);
	holds_pattern(t, p, size); /* the same words at the same addresses */
	pages_match(t, p, size);   /* and they are the new pages' */
	((volatile uint64_t *)p)[PAGE_SIZE / 8] = 0xfeed; /* a write after the move lands in the new page */
	KT_EXPECT_EQ(t, *(uint64_t *)page_address(vmalloc_to_page((char *)p + PAGE_SIZE)), 0xfeed);
	vfree(p);
}

static void a_pinned_page_stays_where_it_is_and_mapped(struct ktest *t)
{
	uint64_t *p = vmalloc(PAGE_SIZE);
	struct page *page = p ? vmalloc_to_page(p) : NULL;

	KT_ASSERT(t, page != NULL, "vmalloc failed");
	fill(p, PAGE_SIZE);
	get_page(page); /* a pin: somebody else holds the page */
	KT_EXPECT_EQ(t, migrate_page_to_new(page, GFP_HIGHUSER_MOVABLE), -EAGAIN);
	KT_EXPECT(t, vmalloc_to_page(p) == page, "a pinned page moved");
	holds_pattern(t, p, PAGE_SIZE); /* mapped again: the marker is gone */
	fill(p, PAGE_SIZE);
	put_page(page);
	KT_EXPECT_EQ(t, isolate_movable_page(page), 0);
	KT_EXPECT_EQ(t, isolate_movable_page(page), -EBUSY); /* isolated already */
	putback_movable_page(page);
	KT_EXPECT_EQ(t, page_count(page), 1);
	holds_pattern(t, p, PAGE_SIZE);
	vfree(p);
}

/* An environment may give vmalloc no range (mm/arch.h): then every call fails by design. */
static const char *without_a_vmalloc_range(void)
{
	return mm_vmalloc_end > mm_vmalloc_start ? NULL : "the environment gives vmalloc no range (mm_vmalloc_start, mm/arch.h)";
}

KTEST_SUITE_SKIP_IF(vmalloc, without_a_vmalloc_range, KTEST_CASE(sizes_from_1_byte_to_8_mib_keep_their_contents), KTEST_CASE(vzalloc_gives_zeroes),
	    KTEST_CASE(areas_are_apart_by_a_guard_page), KTEST_CASE(vmap_maps_the_given_pages_in_order),
	    KTEST_CASE(vmap_refuses_what_it_cannot_map),
	    KTEST_CASE(kvmalloc_takes_kmalloc_when_small_and_vmalloc_when_large),
	    KTEST_CASE(a_full_range_fails_cleanly), KTEST_CASE(bad_frees_are_reported_and_change_nothing),
	    KTEST_CASE(a_moved_page_keeps_its_contents_at_its_address),
	    KTEST_CASE(a_pinned_page_stays_where_it_is_and_mapped));
