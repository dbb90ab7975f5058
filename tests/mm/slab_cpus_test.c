/* SPDX-License-Identifier: MIT */
/*
 * Host tests of the slab allocator's per-CPU lists, the calling thread playing one CPU after
 * another (host_mm_set_cpu()): objects allocated on one CPU and freed on another, a shrink run on
 * a third that empties both CPUs' lists, and the slabs all back to the page allocator at the end;
 * then threads playing every CPU at once, trading objects through a shared table
 * (tests/ktest/slab_trade.h, which the kernel's slab_irq suite runs on real CPUs).
 */
#include <pthread.h>

#include "tests/ktest/slab_trade.h"
#include "tests/mm/host_mm.h"

#define N 2000

static void objects_freed_on_another_cpu_come_back(struct ktest *t)
{
	static void *obj[N];
	unsigned long free = slab_test_free_pages(), reports = slab_reports;
	/* Without debug (the host build starts with it on): the per-CPU lists are in use. */
	struct kmem_cache *c = slab_test_cache("cpus-test", 48, 0, 0, false);
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
	KT_EXPECT_EQ(t, slab_test_free_pages(), free);
}

static void kmalloc_freed_on_another_cpu(struct ktest *t)
{
	static void *obj[N];
	unsigned long free = slab_test_free_pages(), reports = slab_reports;

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
	KT_EXPECT_EQ(t, slab_test_free_pages(), free);
}

#define ROUNDS 20000

static struct slab_trade trade;

/* Half the threads allocate as interrupt handlers would (GFP_ATOMIC), half with GFP_KERNEL. */
static void *thread_cpu(void *arg)
{
	unsigned int cpu = (unsigned int)(uintptr_t)arg;

	host_mm_set_cpu(cpu);
	slab_trade_run(&trade, cpu * 7919UL + 1, ROUNDS, cpu & 1 ? GFP_ATOMIC : GFP_KERNEL);
	return NULL;
}

static void threads_playing_every_cpu_trade_objects(struct ktest *t)
{
	unsigned long free = slab_test_free_pages(), reports = slab_reports;
	pthread_t th[HOST_MM_CPUS];

	KT_ASSERT(t, slab_trade_start(&trade, "cpus-trade"), "kmem_cache_create");
	for (uintptr_t i = 0; i < HOST_MM_CPUS; i++)
		KT_ASSERT(t, pthread_create(&th[i], NULL, thread_cpu, (void *)i) == 0, "pthread_create");
	for (unsigned int i = 0; i < HOST_MM_CPUS; i++)
		pthread_join(th[i], NULL);
	slab_trade_finish(t, &trade, reports);
	KT_EXPECT_EQ(t, slab_test_free_pages(), free);
}

KTEST_SUITE(slab_cpus_host, KTEST_CASE(objects_freed_on_another_cpu_come_back),
	    KTEST_CASE(kmalloc_freed_on_another_cpu), KTEST_CASE(threads_playing_every_cpu_trade_objects));
