/* SPDX-License-Identifier: MIT */
/*
 * The library test's user of mm/: a file of a kernel that has its own heap (heap.c, with its own
 * kmalloc, kfree and alloc_pages) and also links libmm.a built with MM_PREFIX. It is compiled
 * with -include mm/prefix.h, so kmalloc() here is mm's PREFIXkmalloc(); the heap's calls are reached
 * through the pointers heap.c hands out (heap_api.h). Prints each
 * check and "N passed, N failed".
 */
#include <stdio.h>
#include <string.h>

#include "mm/page_alloc.h"
#include "mm/slab.h"
#include "mm/version.h"

#include "heap_api.h"

#ifndef MM_PREFIX /* built against a library without one: tests/lib/check.sh shows it cannot link */
#define MM_PREFIX ""
#endif

int env_boot(void); /* tests/port/env.c, compiled with mm/prefix.h too */

static unsigned int passed, failed;

static void check(bool ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAILED", what);
	if (ok)
		passed++;
	else
		failed++;
}

/* mm's kmalloc() and the heap's side by side: each pointer from its own allocator. */
static void both_kmallocs(const struct heap_api *heap)
{
	unsigned int calls = *heap->calls;
	char *ours = kmalloc(100, GFP_KERNEL);
	char *theirs = heap->alloc(100, 0);

	check(ours && !heap->owns(ours) && *heap->calls == calls + 1,
	      "kmalloc() through mm/prefix.h is mm's: its pointer is not the heap's, the heap was called once");
	check(theirs && heap->owns(theirs), "the heap's own kmalloc() still answers, from the heap");
	if (ours) {
		memset(ours, 0x5a, 100);
		check(ksize(ours) >= 100, "mm's ksize() knows mm's object");
		kfree(ours);
	}
	heap->free(theirs);
}

/* mm's alloc_pages() returns a struct page, the heap's a plain address: both live. */
static void both_alloc_pages(const struct heap_api *heap)
{
	unsigned long before = nr_free_pages();
	struct page *page = alloc_pages(GFP_KERNEL, 2);
	void *theirs = heap->pages(0, 0);

	check(page && nr_free_pages() == before - 4, "mm's alloc_pages(order 2): 4 fewer free pages in mm");
	check(theirs && heap->owns(theirs), "the heap's own alloc_pages() still answers, from the heap");
	if (page)
		__free_pages(page, 2);
	check(nr_free_pages() == before, "mm's __free_pages(): mm's free pages back");
}

/* mm_init() filled in mm's own layout, not the kernel's variables of the same generic names. */
static void own_globals_untouched(const struct heap_api *heap)
{
	const int *own = heap->own_zones;

	check(*heap->own_max_pfn == 0x1234 && own[0] == 1 && own[1] == 2 && own[2] == 3,
	      "the kernel's own max_pfn and zones[] keep their values after mm_init()");
}

int main(void)
{
	struct heap_api heap = heap_api();

	printf("mm %s, symbols prefixed %s\n", MM_VERSION_STRING, MM_PREFIX);
	check(env_boot() == 0, "mm_init() over the example's 64 MiB, through the prefixed names");
	both_kmallocs(&heap);
	both_alloc_pages(&heap);
	own_globals_untouched(&heap);
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
