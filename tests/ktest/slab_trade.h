/* SPDX-License-Identifier: MIT */
/*
 * Objects traded between CPUs, for the slab tests that run on every CPU at once: slab_irq in the
 * kernel (tests/ktest/kernel/slab_irq.c) and slab_cpus_host on the host (tests/mm/). Each CPU
 * allocates kmalloc objects and objects of a cache without debug (its per-CPU lists in use),
 * swaps every other one into a shared table and frees what it finds there, so many objects are
 * freed on another CPU than the one that allocated them. Every object carries a stamp of its own
 * address, checked before it is freed: an object handed out twice would be overwritten by its
 * other owner. Freestanding.
 */
#ifndef TESTS_KTEST_SLAB_TRADE_H
#define TESTS_KTEST_SLAB_TRADE_H

#include "tests/ktest/slab_helpers.h"

#define SLAB_TRADE_SLOTS 64
#define SLAB_TRADE_MAGIC 0x5a5a1234dead0000UL

struct slab_trade {
	struct kmem_cache *cache;             /* 72-byte objects, no debug (slab_trade_start()) */
	void *slot[SLAB_TRADE_SLOTS];         /* the shared table (atomic exchanges) */
	unsigned long bad_stamps, failures;   /* atomic adds */
};

/* Makes tr's cache (named name) and zeroes its counts; false when the cache cannot be made. */
static inline bool slab_trade_start(struct slab_trade *tr, const char *name)
{
	tr->cache = slab_test_cache(name, 72, 0, 0, false);
	tr->bad_stamps = tr->failures = 0;
	return tr->cache != NULL;
}

/* Object n: two in three from tr's cache, the others kmalloc of 16..3015 bytes; stamped. */
static inline void *slab_trade_alloc(struct slab_trade *tr, unsigned long n, gfp_t gfp)
{
	void *p = n % 3 ? kmem_cache_alloc(tr->cache, gfp) : kmalloc(16 + (n * 40) % 3000, gfp);

	if (!p)
		__atomic_fetch_add(&tr->failures, 1, __ATOMIC_RELAXED);
	else
		*(unsigned long *)p = (uintptr_t)p ^ SLAB_TRADE_MAGIC;
	return p;
}

/* Counts p's stamp when it is not its own, then frees p (kfree() takes a cache's objects too). */
static inline void slab_trade_free(struct slab_trade *tr, void *p)
{
	if (*(unsigned long *)p != ((uintptr_t)p ^ SLAB_TRADE_MAGIC))
		__atomic_fetch_add(&tr->bad_stamps, 1, __ATOMIC_RELAXED);
	kfree(p);
}

/*
 * One CPU's share: rounds objects allocated with gfp; every other one goes to a slot picked by a
 * generator seeded with seed, and what was there is freed here; the others are freed at once.
 */
static inline void slab_trade_run(struct slab_trade *tr, unsigned long seed, unsigned long rounds, gfp_t gfp)
{
	for (unsigned long i = 0; i < rounds; i++) {
		void *p = slab_trade_alloc(tr, i, gfp), *old;

		if (!p)
			continue;
		seed = seed * 6364136223846793005UL + 1442695040888963407UL;
		if (i & 1) {
			old = __atomic_exchange_n(&tr->slot[(seed >> 33) % SLAB_TRADE_SLOTS], p, __ATOMIC_ACQ_REL);
			if (old)
				slab_trade_free(tr, old);
		} else {
			slab_trade_free(tr, p);
		}
	}
}

/*
 * Once every CPU is done: frees what the table still holds, destroys the cache, and expects no
 * bad stamp, no failed allocation and no slab report since reports.
 */
static inline void slab_trade_finish(struct ktest *t, struct slab_trade *tr, unsigned long reports)
{
	for (unsigned int i = 0; i < SLAB_TRADE_SLOTS; i++)
		if (tr->slot[i]) {
			slab_trade_free(tr, tr->slot[i]);
			tr->slot[i] = NULL;
		}
	kmem_cache_destroy(tr->cache);
	tr->cache = NULL;
	KT_EXPECT_EQ(t, tr->bad_stamps, 0);
	KT_EXPECT_EQ(t, tr->failures, 0);
	KT_EXPECT_EQ(t, mm_slab_reports, reports);
}

#endif
