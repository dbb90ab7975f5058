/* SPDX-License-Identifier: MIT */
/*
 * The kmalloc and slab-cache benchmark (see tests/bench/slab_bench.h): cycles and instructions
 * per allocation + free pair, one at a time and in batches of 1024, beside Linux 6.1's SLUB.
 */
#include "tests/bench/slab_bench.h"

#include "kernel/kbench.h"
#include "lib/printk.h"
#include "mm/poison.h"
#include "mm/slab.h"
#include "tests/bench/page_alloc_bench.h"
#include "tests/ktest/slab_shared.h"

#define BATCH 1024

/* What a row allocates from: kmalloc of size, or cache (size is then its object size). */
struct target {
	struct kmem_cache *cache;
	size_t size;
};

/*
 * get() and put() of a target, the cache's kind or kmalloc's as cache says: the shapes below are
 * instantiated once for each (one_kmalloc(), one_cache()...), so that their loops do not test
 * g->cache on every pair and measure the allocator, not the harness (the page benchmark's loop
 * has no such branch either).
 */
static inline __attribute__((always_inline)) void *get(const struct target *g, bool cache)
{
	return cache ? kmem_cache_alloc(g->cache, GFP_KERNEL) : kmalloc(g->size, GFP_KERNEL);
}

static inline __attribute__((always_inline)) void put(const struct target *g, bool cache, void *p)
{
	if (cache)
		kmem_cache_free(g->cache, p);
	else
		kfree(p);
}

/* One object at a time, after a warm-up pair. */
static inline __attribute__((always_inline)) struct bench_sample one_at_a_time(const struct target *g,
										  unsigned long rounds, bool cache)
{
	struct bench_sample s = { .batch = 1 };
	void *p = get(g, cache);

	if (!p)
		return s;
	put(g, cache, p);
	bench_start(&s);
	for (; s.pairs < rounds; s.pairs++) {
		p = get(g, cache);
		if (!p)
			break;
		put(g, cache, p);
	}
	bench_stop(&s);
	return s;
}

/* BATCH objects allocated, then freed in the same order; a warm-up batch, then rounds batches. */
static inline __attribute__((always_inline)) struct bench_sample batched(const struct target *g, unsigned long rounds,
									bool cache)
{
	static void *objs[BATCH];
	struct bench_sample s = { 0 };

	for (unsigned long r = 0; r <= rounds; r++) {
		unsigned long n = 0;

		if (r == 1)
			bench_start(&s);
		while (n < BATCH && (objs[n] = get(g, cache)))
			n++;
		for (unsigned long i = 0; i < n; i++)
			put(g, cache, objs[i]);
		s.pairs += r ? n : 0;
		s.batch = n;
	}
	bench_stop(&s);
	return s;
}

static struct bench_sample one_kmalloc(const struct target *g, unsigned long rounds)
{
	return one_at_a_time(g, rounds, false);
}

static struct bench_sample one_cache(const struct target *g, unsigned long rounds)
{
	return one_at_a_time(g, rounds, true);
}

static struct bench_sample batch_kmalloc(const struct target *g, unsigned long rounds)
{
	return batched(g, rounds, false);
}

static struct bench_sample batch_cache(const struct target *g, unsigned long rounds)
{
	return batched(g, rounds, true);
}

typedef struct bench_sample shape_fn(const struct target *g, unsigned long rounds);

/* The fastest of bench_runs runs. */
static struct bench_sample fastest(shape_fn *shape, const struct target *g, unsigned long rounds)
{
	struct bench_sample best = { 0 };

	for (unsigned int run = 0; run == 0 || run < bench_runs; run++) {
		struct bench_sample s = shape(g, rounds);

		if (!run || s.cycles * best.pairs < best.cycles * s.pairs)
			best = s;
	}
	return best;
}

/* "123.4" from a total and a count, without floating point. */
static void per_pair(char *buf, size_t size, uint64_t total, unsigned long pairs)
{
	uint64_t tenths = pairs ? total * 10 / pairs : 0;

	snprintf(buf, size, "%llu.%llu", (unsigned long long)(tenths / 10), (unsigned long long)(tenths % 10));
}

/*
 * A row: what, size, shape, objects per batch, pairs, cycles and instructions per pair, Linux
 * 6.1's instructions per pair, the ratio (cycles, which are instructions under QEMU -icount) and
 * the target's verdict (ratio at most target_div-th of Linux).
 */
static void row(const char *what, size_t size, const char *shape, const struct bench_sample *s, unsigned long linux_ins,
		unsigned int target_div)
{
	char cyc[24], ins[24] = "n/a", rat[16] = "n/a";
	uint64_t ours = bench_instructions ? s->instructions : s->cycles;
	bool met = s->pairs && ours * target_div <= (uint64_t)linux_ins * s->pairs;

	per_pair(cyc, sizeof(cyc), s->cycles, s->pairs);
	if (bench_instructions)
		per_pair(ins, sizeof(ins), s->instructions, s->pairs);
	if (s->pairs) {
		uint64_t thousandths = (ours * 1000 + (uint64_t)linux_ins * s->pairs / 2) / ((uint64_t)linux_ins * s->pairs);

		snprintf(rat, sizeof(rat), "%llu.%03llu", (unsigned long long)(thousandths / 1000),
			 (unsigned long long)(thousandths % 1000));
	}
	printk("bench: %-7s %6zu %-14s %5lu %9lu %12s %12s %6lu %7s 1/%u %s\n", what, size, shape, s->batch, s->pairs,
	       cyc, ins, linux_ins, rat, target_div, met ? "met" : "NOT MET");
}

/* Linux 6.1 SLUB, guest instructions per kmalloc + kfree pair (QEMU -icount shift=0). */
static unsigned long linux_one(size_t size)
{
	return size <= 4096 ? 272 : size <= 16384 ? 1069 : 1983;
}

static unsigned long linux_batch(size_t size)
{
	return size <= 8 ? 340 : size <= 64 ? 512 : size <= 256 ? 1072 : size <= 1024 ? 1812 : 1831;
}

void slab_bench(void)
{
	static const size_t one_sizes[] = { 8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 16384, 65536 };
	static const size_t batch_sizes[] = { 8, 64, 256, 1024, 4096 };
	static const size_t cache_sizes[] = { 64, 256 };
	unsigned long rounds = bench_quick ? 200 : 100000, batches = bench_quick ? 1 : 50;
	bool poison = mm_debug_poison, debug = slab_test_debug_default();

	/*
	 * The path users ship: no red zones or poison. MM_DEBUG builds (the host's, the test
	 * kernel's) start with debugging on; the kmalloc caches follow slab_set_debug() only at
	 * boot, before their first slab (the bench kernel's are without debug from the start).
	 */
	kmem_cache_shrink_all();
	slab_set_debug(false);
	set_page_poisoning(false);
	if (slab_debug_enabled(kmalloc_cache(64)))
		printk("bench: the kmalloc caches stay in debug mode (set at boot): figures include it\n");
	printk("bench: per kmalloc + kfree pair (and kmem_cache_alloc + kmem_cache_free of a cache of its\n"
	       "bench: own, beside Linux's kmalloc of the size), cycles (rdtsc)%s; Linux 6.1: SLUB's\n"
	       "bench: instructions per pair (kernel, QEMU -icount); ratio: ours / Linux, target: at most\n"
	       "bench: 1/2 of Linux up to 4096 bytes, 1/4 at 16 and 64 KiB; ratio of %s\n",
	       bench_instructions ? " and instructions" : "",
	       bench_instructions ? "instructions" : "cycles (instructions under QEMU -icount; on a host, indicative only)");
	printk("bench: what      size shape          batch     pairs  cycles/pair   instr/pair  Linux   ratio target\n");
	for (size_t i = 0; i < sizeof(one_sizes) / sizeof(one_sizes[0]); i++) {
		struct target g = { NULL, one_sizes[i] };
		struct bench_sample s = fastest(one_kmalloc, &g, g.size > 8192 ? rounds / 10 : rounds);

		row("kmalloc", g.size, "one-at-a-time", &s, linux_one(g.size), g.size > 8192 ? 4 : 2);
	}
	for (size_t i = 0; i < sizeof(batch_sizes) / sizeof(batch_sizes[0]); i++) {
		struct target g = { NULL, batch_sizes[i] };
		struct bench_sample s = fastest(batch_kmalloc, &g, batches);

		row("kmalloc", g.size, "batch-1024", &s, linux_batch(g.size), 2);
	}
	for (size_t i = 0; i < sizeof(cache_sizes) / sizeof(cache_sizes[0]); i++) {
		struct target g = { kmem_cache_create("bench", cache_sizes[i], 0, 0), cache_sizes[i] };
		struct bench_sample one, many;

		if (!g.cache) {
			printk("bench: kmem_cache_create(%zu) failed\n", cache_sizes[i]);
			continue;
		}
		one = fastest(one_cache, &g, rounds);
		many = fastest(batch_cache, &g, batches);
		row("cache", g.size, "one-at-a-time", &one, linux_one(g.size), 2);
		row("cache", g.size, "batch-1024", &many, linux_batch(g.size), 2);
		kmem_cache_destroy(g.cache);
	}
	kmem_cache_shrink_all();
	slab_set_debug(debug);
	set_page_poisoning(poison);
}

/* In the kernel, kmain() runs it when the command line says "bench". */
KBENCH(slab, slab_bench);
