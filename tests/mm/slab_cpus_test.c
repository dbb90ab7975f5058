/* SPDX-License-Identifier: MIT */
/*
 * Host tests of the slab allocator's per-CPU lists, the calling thread playing one CPU after
 * another (host_mm_set_cpu()): objects allocated on one CPU and freed on another, a shrink run on
 * a third that empties both CPUs' lists, and the slabs all back to the page allocator at the end;
 * then threads playing every CPU at once, trading objects through a shared table
 * (tests/ktest/slab_trade.h, which the kernel's slab_irq suite runs on real CPUs); and a machine
 * of more CPUs than the slab once had slots for (64), where each still has its own.
 */
#include <pthread.h>

#include "tests/ktest/slab_trade.h"
#include "tests/mm/host_mm.h"
#include "tests/mm/mm_rebuild.h"

#define N 2000

static void objects_freed_on_another_cpu_come_back(struct ktest *t)
{
	static void *obj[N];
	unsigned long free = slab_test_free_pages(), reports = mm_slab_reports;
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
	KT_EXPECT_EQ(t, mm_slab_reports, reports);
	KT_EXPECT_EQ(t, slab_test_free_pages(), free);
}

static void kmalloc_freed_on_another_cpu(struct ktest *t)
{
	static void *obj[N];
	unsigned long free = slab_test_free_pages(), reports = mm_slab_reports;

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
	KT_EXPECT_EQ(t, mm_slab_reports, reports);
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
	unsigned long free = slab_test_free_pages(), reports = mm_slab_reports;
	pthread_t th[HOST_MM_CPUS];

	KT_ASSERT(t, slab_trade_start(&trade, "cpus-trade"), "kmem_cache_create");
	for (uintptr_t i = 0; i < HOST_MM_CPUS; i++)
		KT_ASSERT(t, pthread_create(&th[i], NULL, thread_cpu, (void *)i) == 0, "pthread_create");
	for (unsigned int i = 0; i < HOST_MM_CPUS; i++)
		pthread_join(th[i], NULL);
	slab_trade_finish(t, &trade, reports);
	KT_EXPECT_EQ(t, slab_test_free_pages(), free);
}

#define MANY_CPUS 130 /* past 64 and 128: CPUs 64 and 128 once shared CPU 0's slot */

/* The CPU that allocates next from c after cpu freed obj: the same object only on the same list. */
static bool freed_object_stays_on_its_cpu(struct kmem_cache *c, unsigned int cpu, unsigned int other)
{
	void *obj, *next;

	host_mm_set_cpu(cpu);
	obj = kmem_cache_alloc(c, GFP_KERNEL);
	kmem_cache_free(c, obj);
	host_mm_set_cpu(other);
	next = kmem_cache_alloc(c, GFP_KERNEL);
	kmem_cache_free(c, next);
	host_mm_set_cpu(cpu);
	return next != obj;
}

static void each_of_many_cpus_has_its_own_slot(struct ktest *t)
{
	static struct fw_map map;
	unsigned long reports = mm_slab_reports;
	struct kmem_cache *c;
	void *kept[MANY_CPUS];

	if (hugetlb_pools_in_use())
		return ktest_skip(t, hugetlb_pools_in_use());
	host_mm_nr_cpus = MANY_CPUS;
	KT_ASSERT(t, rebuild_default(&map) == 0, "mm_init with %u CPUs", MANY_CPUS);
	c = slab_test_cache("many-cpus", 64, 0, 0, false);
	KT_ASSERT(t, c != NULL, "kmem_cache_create");
	for (unsigned int cpu = 64; cpu < MANY_CPUS; cpu += 64)
		KT_EXPECT(t, freed_object_stays_on_its_cpu(c, cpu, 0),
			  "an object CPU %u freed went next to CPU 0: they share a slot", cpu);
	KT_EXPECT(t, freed_object_stays_on_its_cpu(c, MANY_CPUS - 1, MANY_CPUS - 2),
		  "CPUs %u and %u share a slot", MANY_CPUS - 1, MANY_CPUS - 2);
	for (unsigned int cpu = 0; cpu < MANY_CPUS; cpu++) { /* every CPU's list holds one */
		host_mm_set_cpu(cpu);
		kept[cpu] = kmalloc(100, GFP_KERNEL);
		KT_EXPECT(t, kept[cpu] != NULL, "kmalloc on CPU %u", cpu);
		kfree(kept[cpu]);
	}
	host_mm_set_cpu(0);
	kmem_cache_destroy(c);
	KT_EXPECT(t, kmem_cache_shrink_all() > 0, "shrinking gave nothing back from the CPUs' lists");
	KT_EXPECT_EQ(t, mm_slab_reports, reports);
	host_mm_nr_cpus = HOST_MM_CPUS;
	KT_EXPECT_EQ(t, rebuild_default(&map), 0);
}

KTEST_SUITE(slab_cpus_host, KTEST_CASE(objects_freed_on_another_cpu_come_back),
	    KTEST_CASE(kmalloc_freed_on_another_cpu), KTEST_CASE(threads_playing_every_cpu_trade_objects),
	    KTEST_CASE(each_of_many_cpus_has_its_own_slot));
