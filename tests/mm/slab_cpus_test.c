/* SPDX-License-Identifier: MIT */
/*
 * Host tests of the slab allocator's per-CPU lists, the calling thread playing one CPU after
 * another (host_mm_set_cpu()): objects allocated on one CPU and freed on another, a shrink run on
 * a third that empties both CPUs' lists, and the slabs all back to the page allocator at the end.
 */
#include "kernel/ktest.h"
#include "mm/hot_pages.h"
#include "mm/page_alloc.h"
#include "mm/slab.h"
#include "tests/mm/host_mm.h"

#define N 2000

/* A cache without debug (the host build starts with it on): the per-CPU lists are in use. */
static struct kmem_cache *plain_cache(size_t size)
{
	bool was = slab_debug_enabled(kmalloc_cache(8));
	void *hold = kmalloc(2048, GFP_KERNEL); /* the descriptor's class keeps its mode: it holds this */
	struct kmem_cache *c;

	slab_set_debug(false);
	c = kmem_cache_create("cpus-test", size, 0, 0);
	slab_set_debug(was);
	kfree(hold);
	return c;
}

static unsigned long free_now(void)
{
	kmem_cache_shrink_all();
	drain_hot_pages();
	return nr_free_pages();
}

static void objects_freed_on_another_cpu_come_back(struct ktest *t)
{
	static void *obj[N];
	unsigned long free = free_now(), reports = slab_reports;
	struct kmem_cache *c = plain_cache(48);
	char line[128];

	KT_ASSERT(t, c != NULL, "kmem_cache_create");
	host_mm_set_cpu(0);
	for (int i = 0; i < N; i++) {
		obj[i] = kmem_cache_alloc(c, GFP_KERNEL);
		KT_ASSERT(t, obj[i] != NULL, "object %d", i);
		*(int *)obj[i] = i;
	}
	host_mm_set_cpu(1);
	for (int i = 0; i < N; i += 2) /* CPU 1 frees the even ones */
		kmem_cache_free(c, obj[i]);
	host_mm_set_cpu(0);
	for (int i = 0; i < N; i += 2) { /* CPU 0 takes as many again: its list, then the slabs */
		obj[i] = kmem_cache_alloc(c, GFP_KERNEL);
		KT_ASSERT(t, obj[i] != NULL, "object %d again", i);
		*(int *)obj[i] = i;
	}
	for (int i = 1; i < N; i += 2)
		KT_EXPECT(t, *(int *)obj[i] == i, "object %d was handed out twice", i);
	host_mm_set_cpu(1);
	for (int i = 0; i < N; i++)
		kmem_cache_free(c, obj[i]);
	host_mm_set_cpu(2); /* a shrink on a third CPU empties CPU 1's list too */
	kmem_cache_shrink(c);
	slabinfo_line(c, line, sizeof(line));
	KT_EXPECT(t, nr_slab_pages() < 100, "%lu slab pages left", nr_slab_pages());
	host_mm_set_cpu(0);
	kmem_cache_destroy(c);
	KT_EXPECT_EQ(t, slab_reports, reports);
	KT_EXPECT_EQ(t, free_now(), free);
}

static void kmalloc_freed_on_another_cpu(struct ktest *t)
{
	static void *obj[N];
	unsigned long free = free_now(), reports = slab_reports;

	for (int i = 0; i < N; i++) {
		host_mm_set_cpu((unsigned int)i % HOST_MM_CPUS);
		obj[i] = kmalloc(8 + (size_t)(i % 300), GFP_ATOMIC);
		KT_ASSERT(t, obj[i] != NULL, "kmalloc %d", i);
	}
	for (int i = 0; i < N; i++) {
		host_mm_set_cpu((unsigned int)(i + 1) % HOST_MM_CPUS);
		kfree(obj[i]);
	}
	host_mm_set_cpu(0);
	KT_EXPECT_EQ(t, slab_reports, reports);
	KT_EXPECT_EQ(t, free_now(), free);
}

KTEST_SUITE(slab_cpus_host, KTEST_CASE(objects_freed_on_another_cpu_come_back),
	    KTEST_CASE(kmalloc_freed_on_another_cpu));
