/* SPDX-License-Identifier: MIT */
/* A quick measure of kmalloc+kfree pairs (TSC ticks: guest instructions under -icount shift=0). */
#include "kernel/kbench.h"
#include "lib/printk.h"
#include "mm/slab.h"
#include "tests/bench/page_alloc_bench.h"

static void *held[1024];

static void one(size_t size)
{
	unsigned long rounds = 20000;
	uint64_t t;
	void *p = kmalloc(size, GFP_KERNEL);

	kfree(p);
	t = bench_cycles();
	for (unsigned long i = 0; i < rounds; i++) {
		p = kmalloc(size, GFP_KERNEL);
		__asm__ volatile("" : : "r"(p) : "memory");
		kfree(p);
	}
	t = bench_cycles() - t;
	printk("bench: kmalloc one %6zu: %lu per pair\n", size, (unsigned long)(t / rounds));
}

static void batch(size_t size)
{
	uint64_t t = 0;
	unsigned long rounds = 20;

	for (unsigned long r = 0; r <= rounds; r++) {
		uint64_t t0 = bench_cycles();

		for (int i = 0; i < 1024; i++)
			held[i] = kmalloc(size, GFP_KERNEL);
		for (int i = 0; i < 1024; i++)
			kfree(held[i]);
		if (r)
			t += bench_cycles() - t0;
	}
	printk("bench: kmalloc batch %6zu: %lu per pair\n", size, (unsigned long)(t / rounds / 1024));
}

static void cache_one(void)
{
	struct kmem_cache *c = kmem_cache_create("bench-64", 64, 0, 0);
	unsigned long rounds = 20000;
	uint64_t t;

	t = bench_cycles();
	for (unsigned long i = 0; i < rounds; i++) {
		void *p = kmem_cache_alloc(c, GFP_KERNEL);

		__asm__ volatile("" : : "r"(p) : "memory");
		kmem_cache_free(c, p);
	}
	t = bench_cycles() - t;
	printk("bench: kmem_cache one 64: %lu per pair\n", (unsigned long)(t / rounds));
	kmem_cache_destroy(c);
}

static void run(void)
{
	static const size_t one_sizes[] = { 8, 64, 256, 1024, 4096, 16384, 65536 };
	static const size_t batch_sizes[] = { 8, 64, 256, 1024, 4096 };

	for (unsigned int i = 0; i < sizeof(one_sizes) / sizeof(one_sizes[0]); i++)
		one(one_sizes[i]);
	for (unsigned int i = 0; i < sizeof(batch_sizes) / sizeof(batch_sizes[0]); i++)
		batch(batch_sizes[i]);
	cache_one();
}

KBENCH(kmalloc_quick, run);
