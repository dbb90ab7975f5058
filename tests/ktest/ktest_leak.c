/* SPDX-License-Identifier: MIT */
/* The self-test runner's leak check: free pages before and after a suite, and who holds the rest. */
#include "tests/ktest/ktest_leak.h"

#include "mm/memmap.h"
#include "mm/pcp.h"
#include "mm/page_alloc.h"
#include "mm/page_owner.h"
#include "mm/slab.h"

/* Managed frames, less the memmap's pages: what memory given after boot adds to the free pages. */
static unsigned long managed_less_memmap(void)
{
	unsigned long managed = 0;

	for (unsigned int z = 0; z < mm_nr_zone_ids; z++)
		managed += __atomic_load_n(&mm_zones[z].managed_pages, __ATOMIC_RELAXED);
	return managed - mm_memmap_bytes / PAGE_SIZE;
}

struct ktest_mem_mark ktest_mem_mark(void)
{
	kmem_cache_shrink_all(); /* slabs and pages the slab allocator keeps for reuse are not leaks */
	drain_pcp_lists();
	return (struct ktest_mem_mark){ nr_free_pages(), page_owner_seq(), managed_less_memmap() };
}

struct leak_walk {
	ktest_print_fn *print;
	unsigned long upto;  /* the after mark's sequence number: later blocks are not the suite's */
	unsigned long found; /* blocks of the suite still allocated */
};

/* page_owner_for_each_since() callback: counts a block, and names the first KTEST_LEAK_LINES. */
static bool name_block(unsigned long pfn, const struct page_owner *rec, void *arg)
{
	struct leak_walk *w = arg;

	if (rec->seq > w->upto)
		return true;
	if (w->found++ < KTEST_LEAK_LINES)
		w->print("    # leak: pfn %#lx order %u owner <%pS> seq %lu\n", pfn, rec->order,
			 (void *)rec->site, rec->seq);
	return true;
}

long ktest_leak_check(const struct ktest_mem_mark *before, const struct ktest_mem_mark *after,
		      ktest_print_fn *print)
{
	long missing = (long)(before->free_pages - after->free_pages) + (long)(after->grown - before->grown);
	struct leak_walk w = { print, after->seq, 0 };

	if (!missing)
		return 0;
	if (missing < 0) {
		print("    # leak: %ld pages more free after the suite than before it (%lu, then %lu): "
		      "it freed memory it did not allocate\n", -missing, before->free_pages, after->free_pages);
		return missing;
	}
	if (!mm_page_owner_on) {
		print("    # leak: %ld pages (free %lu before the suite, %lu after); boot with "
		      "page_owner=on to see who holds them\n", missing, before->free_pages, after->free_pages);
		return missing;
	}
	page_owner_for_each_since(before->seq, name_block, &w);
	if (w.found > KTEST_LEAK_LINES)
		print("    # leak: and %lu more blocks\n", w.found - KTEST_LEAK_LINES);
	print("    # leak: %ld pages (free %lu before the suite, %lu after), %lu blocks allocated "
	      "during it still held\n", missing, before->free_pages, after->free_pages, w.found);
	return missing;
}
