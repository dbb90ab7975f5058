/* SPDX-License-Identifier: MIT */
/*
 * Host tests of the slab allocator's per-CPU lists, the calling thread playing one CPU after
 * another (host_mm_set_cpu()): objects allocated on one CPU and freed on another, a shrink run on
 * a third that empties both CPUs' lists, and the slabs all back to the page allocator at the end;
 * then threads playing every CPU at once, trading objects through a shared table.
 */
#include <pthread.h>

#include "tests/ktest/ktest.h"
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

#define ROUNDS 20000
#define TRADE 64
#define MAGIC 0x5a5a1234dead0000UL

static struct kmem_cache *shared;
static void *trade[TRADE];
static unsigned long bad_stamps, failures;

static void check_and_free(void *p)
{
	if (*(unsigned long *)p != ((uintptr_t)p ^ MAGIC))
		__atomic_fetch_add(&bad_stamps, 1, __ATOMIC_RELAXED);
	kfree(p);
}

static void *thread_cpu(void *arg)
{
	unsigned long seed = (uintptr_t)arg * 7919UL + 1;

	host_mm_set_cpu((unsigned int)(uintptr_t)arg);
	for (unsigned long i = 0; i < ROUNDS; i++) {
		void *p = i % 3 ? kmem_cache_alloc(shared, GFP_KERNEL) : kmalloc(16 + (i * 40) % 3000, GFP_ATOMIC);

		if (!p) {
			__atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED);
			continue;
		}
		*(unsigned long *)p = (uintptr_t)p ^ MAGIC;
		seed = seed * 6364136223846793005UL + 1442695040888963407UL;
		if (i & 1) {
			void *old = __atomic_exchange_n(&trade[(seed >> 33) % TRADE], p, __ATOMIC_ACQ_REL);

			if (old)
				check_and_free(old);
		} else {
			check_and_free(p);
		}
	}
	return NULL;
}

static void threads_playing_every_cpu_trade_objects(struct ktest *t)
{
	unsigned long free = free_now(), reports = slab_reports;
	pthread_t th[HOST_MM_CPUS];

	shared = plain_cache(72);
	KT_ASSERT(t, shared != NULL, "kmem_cache_create");
	bad_stamps = failures = 0;
	for (uintptr_t i = 0; i < HOST_MM_CPUS; i++)
		KT_ASSERT(t, pthread_create(&th[i], NULL, thread_cpu, (void *)i) == 0, "pthread_create");
	for (unsigned int i = 0; i < HOST_MM_CPUS; i++)
		pthread_join(th[i], NULL);
	for (unsigned int i = 0; i < TRADE; i++)
		if (trade[i]) {
			check_and_free(trade[i]);
			trade[i] = NULL;
		}
	kmem_cache_destroy(shared);
	KT_EXPECT_EQ(t, bad_stamps, 0);
	KT_EXPECT_EQ(t, failures, 0);
	KT_EXPECT_EQ(t, slab_reports, reports);
	KT_EXPECT_EQ(t, free_now(), free);
}

KTEST_SUITE(slab_cpus_host, KTEST_CASE(objects_freed_on_another_cpu_come_back),
	    KTEST_CASE(kmalloc_freed_on_another_cpu), KTEST_CASE(threads_playing_every_cpu_trade_objects));
