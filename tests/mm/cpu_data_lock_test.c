/* SPDX-License-Identifier: MIT */
/*
 * Host test of the locks of one CPU's data (cpu_data_lock(), mm/lock_check.h): a thread playing
 * CPU 1 allocates and frees pages and slab objects in a loop, the owner's cheap way of its lists'
 * lock (tests/mm/mm_env.h), while the main thread, playing CPU 0, reaches CPU 1's lists and slot
 * the other way: it walks them under their lock, drains them, turns the lists off and on, and
 * shrinks the cache, which flushes CPU 1's slot. Checked meanwhile: no block is on a list twice,
 * or on a list while CPU 1 holds it; each list's count is its length; no page or object is
 * handed out twice. At the end every page is back. Where the harness has no owner's way (the
 * ThreadSanitizer build, or no membarrier) the same race runs on the real lock.
 */
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "mm/bad_page.h"
#include "mm/page_alloc.h"
#include "mm/pcp.h"
#include "tests/ktest/ktest.h"
#include "tests/ktest/slab_helpers.h"
#include "tests/mm/host_mm.h"

#define OWNER_CPU 1
#define OTHER_CPU 0
#define ROUNDS 30000  /* the owner's rounds of allocations, then frees */
#define MAX_HELD 48   /* pages the owner holds at most in a round */
#define OBJ_SIZE 64
#define HELD_STAMP 0x484f4c44484f4c44UL /* an object's second word while the owner holds it */

static struct {
	uint8_t *held;       /* per frame: 1 while the owner holds the block (relaxed atomics) */
	uint32_t *seen;      /* per frame: the walk that last saw it on a list (main thread only) */
	struct kmem_cache *cache;
	bool done;           /* the owner finished its rounds */
	unsigned long errors; /* problems found by either thread */
	char first[160];     /* the first of them */
} race;

static __attribute__((format(printf, 1, 2))) void race_error(const char *fmt, ...)
{
	va_list ap;

	if (__atomic_fetch_add(&race.errors, 1, __ATOMIC_RELAXED))
		return;
	va_start(ap, fmt);
	vsnprintf(race.first, sizeof(race.first), fmt, ap);
	va_end(ap);
}

static unsigned long next_random(unsigned long *state)
{
	*state = *state * 6364136223846793005UL + 1442695040888963407UL;
	return *state >> 33;
}

/* The owner takes a block: it must be on no list and not held already. */
static void owner_took(struct page *page)
{
	unsigned long pfn = page_to_pfn(page);

	if (__atomic_exchange_n(&race.held[pfn], 1, __ATOMIC_RELAXED))
		race_error("pfn %#lx handed out twice", pfn);
}

static void owner_gives_back(struct page *page)
{
	__atomic_store_n(&race.held[page_to_pfn(page)], 0, __ATOMIC_RELAXED);
	__free_pages(page, 0);
}

static void *owner_object(void)
{
	uint64_t *obj = kmem_cache_alloc(race.cache, GFP_KERNEL);

	if (!obj)
		return NULL;
	if (obj[1] == HELD_STAMP)
		race_error("object %p handed out twice", (void *)obj);
	obj[1] = HELD_STAMP;
	return obj;
}

static void owner_frees_object(uint64_t *obj)
{
	obj[1] = 0;
	kmem_cache_free(race.cache, obj);
}

/* CPU 1: rounds of up to MAX_HELD order-0 pages and as many objects, freed in either order. */
static void *owner_thread(void *arg)
{
	unsigned long state = 0x6f776e6572UL;
	struct page *page[MAX_HELD];
	void *obj[MAX_HELD];

	(void)arg;
	host_mm_set_cpu(OWNER_CPU);
	for (unsigned long r = 0; r < ROUNDS; r++) {
		unsigned int n = 1 + (unsigned int)(next_random(&state) % MAX_HELD), got = 0;
		bool lifo = next_random(&state) & 1;

		for (; got < n; got++) {
			if (!(page[got] = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0)))
				break;
			owner_took(page[got]);
			obj[got] = owner_object();
		}
		for (unsigned int i = 0; i < got; i++) {
			unsigned int k = lifo ? got - 1 - i : i;

			owner_gives_back(page[k]);
			if (obj[k])
				owner_frees_object(obj[k]);
		}
	}
	__atomic_store_n(&race.done, true, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * CPU 0, CPU 1's lists of zone z locked (the other thread's way): each list as long as its
 * count says, no block on two lists or twice on one, none that CPU 1 holds.
 */
static void check_lists_locked(struct per_cpu_pages *pcp, uint32_t walk)
{
	for (unsigned int slot = 0; slot < PCP_NR_SLOTS; slot++) {
		unsigned long count = pcp_count_locked(pcp, slot), blocks = 0, limit = count + PCP_HIGH_BLOCKS;

		for (unsigned int mt = 0; mt < MIGRATE_PCPTYPES; mt++)
			for (struct list_head *l = pcp_list_next(pcp, slot, mt, NULL); l && blocks <= limit;
			     l = pcp_list_next(pcp, slot, mt, l), blocks++) {
				unsigned long pfn = page_to_pfn(lru_to_page(l));

				if (pfn >= mm_max_pfn) {
					race_error("a list of CPU 1 links to pfn %#lx, past the end (slot %u)", pfn, slot);
					return;
				}
				if (race.seen[pfn] == walk)
					race_error("pfn %#lx twice on CPU 1's lists (slot %u)", pfn, slot);
				race.seen[pfn] = walk;
				if (__atomic_load_n(&race.held[pfn], __ATOMIC_RELAXED))
					race_error("pfn %#lx on CPU 1's list of slot %u while CPU 1 holds it", pfn, slot);
			}
		if (blocks != count)
			race_error("CPU 1's lists of slot %u hold %lu blocks, not their count", slot, blocks);
	}
}

static void check_cpu1_lists(uint32_t walk)
{
	for (unsigned int z = 0; z < mm_nr_zone_ids; z++) {
		struct per_cpu_pages *pcp = cpu_pcp(OWNER_CPU, z);
		unsigned long irq = pcp_lock(pcp);

		check_lists_locked(pcp, walk);
		pcp_unlock(pcp, irq);
	}
}

/*
 * Lists broken by a race can send mm/ round a circle forever: after RACE_SECONDS the case
 * stops the binary, saying so (a correct run takes a few seconds, even under ASan).
 */
#define RACE_SECONDS 120

static void race_hung(int sig)
{
	static const char msg[] = "mm_cpu_data_lock: the race did not end in time: CPU 1's lists broken into a circle?\n";

	(void)sig;
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	abort();
}

/* CPU 0: reaches CPU 1's lists and slot every way mm/ does, until the owner is done; returns the walks. */
static uint32_t other_loop(void)
{
	uint32_t walk = 0;

	while (!__atomic_load_n(&race.done, __ATOMIC_ACQUIRE)) {
		check_cpu1_lists(++walk);
		if (walk % 4 == 0)
			drain_pcp_lists();
		if (walk % 8 == 0)
			kmem_cache_shrink(race.cache);
		if (walk % 16 == 0) {
			set_pcp_lists(false);
			set_pcp_lists(true);
		}
	}
	return walk;
}

/* Does CPU 1 take its locks its own way (tests/mm/mm_env.h), or the real lock as everyone? */
static bool owners_way_on(void)
{
#ifdef ARCH_HAS_CPU_DATA_LOCK
	return host_mm_cpu_data_biased;
#else
	return false;
#endif
}

static void another_cpu_reaches_a_cpus_lists_while_it_allocates(struct ktest *t)
{
	unsigned long bad_pages = mm_bad_page_reports, slab_reports = mm_slab_reports, free0;
	pthread_t owner;
	uint32_t walks;

	host_mm_set_cpu(OTHER_CPU);
	drain_pcp_lists();
	free0 = slab_test_free_pages();
	race.cache = slab_test_cache("cpu-data-race", OBJ_SIZE, 0, 0, false);
	KT_ASSERT(t, race.cache != NULL, "kmem_cache_create");
	race.held = calloc(mm_max_pfn, sizeof(*race.held));
	race.seen = calloc(mm_max_pfn, sizeof(*race.seen));
	KT_ASSERT(t, race.held && race.seen, "no memory for the frame tables");
	race.done = false;
	race.errors = 0;
	KT_ASSERT(t, pthread_create(&owner, NULL, owner_thread, NULL) == 0, "pthread_create");
	signal(SIGALRM, race_hung);
	alarm(RACE_SECONDS);
	walks = other_loop();
	pthread_join(owner, NULL);
	alarm(0);
	printk("    # %u walks of CPU 1's lists during %u rounds of its allocations (%s)\n", walks, ROUNDS,
	       owners_way_on() ? "CPU 1's way in without a locked instruction" : "the real lock");
	check_cpu1_lists(UINT32_MAX);
	KT_EXPECT(t, race.errors == 0, "%lu problems, the first: %s", race.errors, race.first);
	KT_EXPECT_EQ(t, mm_bad_page_reports, bad_pages);
	KT_EXPECT_EQ(t, mm_slab_reports, slab_reports);
	kmem_cache_destroy(race.cache);
	drain_pcp_lists();
	KT_EXPECT_EQ(t, slab_test_free_pages(), free0);
	free(race.held);
	free(race.seen);
}

KTEST_SUITE(mm_cpu_data_lock, KTEST_CASE(another_cpu_reaches_a_cpus_lists_while_it_allocates));
