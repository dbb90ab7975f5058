/*
 * The page-allocator benchmark (see tests/bench/page_alloc_bench.h): cycles and instructions
 * per alloc_pages() + __free_pages() pair at orders 0, 1, 3, 9, 10, in two shapes.
 */
#include "tests/bench/page_alloc_bench.h"

#include "lib/printk.h"
#include "mm/init.h"
#include "mm/page_alloc.h"

#define BATCH 1024

uint64_t (*bench_instructions)(void);
bool bench_quick;

struct sample {
	uint64_t cycles, instructions;
	unsigned long pairs;
	unsigned long batch; /* blocks per batch actually allocated (memory may not hold 1024) */
};

static uint64_t instructions(void)
{
	return bench_instructions ? bench_instructions() : 0;
}

static void start(struct sample *s)
{
	s->instructions = instructions();
	s->cycles = bench_cycles();
}

static void stop(struct sample *s)
{
	s->cycles = bench_cycles() - s->cycles;
	s->instructions = instructions() - s->instructions;
}

/* Allocates and frees one block at a time, rounds times. */
static struct sample one_at_a_time(unsigned int order, unsigned long rounds)
{
	struct sample s = { .batch = 1 };
	struct page *page;

	page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, order); /* warm up */
	if (!page)
		return s;
	__free_pages(page, order);
	start(&s);
	for (; s.pairs < rounds; s.pairs++) {
		page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, order);
		if (!page)
			break;
		__free_pages(page, order);
	}
	stop(&s);
	return s;
}

/* Allocates up to BATCH blocks, then frees them in the same order; a warm-up, then rounds times. */
static struct sample batched(unsigned int order, unsigned long rounds)
{
	static struct page *pages[BATCH];
	struct sample s = { .batch = 0 };

	for (unsigned long r = 0; r <= rounds; r++) {
		unsigned long n = 0;

		if (r == 1)
			start(&s);
		while (n < BATCH && (pages[n] = alloc_pages(GFP_KERNEL | __GFP_NOWARN, order)))
			n++;
		for (unsigned long i = 0; i < n; i++)
			__free_pages(pages[i], order);
		s.pairs += r ? n : 0;
		s.batch = n;
	}
	stop(&s);
	return s;
}

/* "123.4" from a total and a count, without floating point. */
static void per_pair(char *buf, size_t size, uint64_t total, unsigned long pairs)
{
	uint64_t tenths = pairs ? total * 10 / pairs : 0;

	snprintf(buf, size, "%llu.%llu", (unsigned long long)(tenths / 10), (unsigned long long)(tenths % 10));
}

static void report(unsigned int order, const char *shape, const struct sample *s)
{
	char cyc[24], ins[24] = "n/a";

	per_pair(cyc, sizeof(cyc), s->cycles, s->pairs);
	if (bench_instructions)
		per_pair(ins, sizeof(ins), s->instructions, s->pairs);
	printk("bench: %5u  %-14s %5lu %9lu %12s %12s\n", order, shape, s->batch, s->pairs, cyc, ins);
}

static void report_memmap_init(void)
{
	const struct mm_init_timing *m = &mm_init_timing;
	char per_page[24];

	if (!m->memmap_pages || !m->memmap_cycles) {
		printk("bench: memmap init: not timed (mm_init() was given no cycle counter)\n");
		return;
	}
	per_pair(per_page, sizeof(per_page), m->memmap_cycles, m->memmap_pages);
	printk("bench: memmap init: %llu cycles for %lu struct pages: %s cycles/page, %llu cycles per GiB; "
	       "hand-off %llu cycles\n", (unsigned long long)m->memmap_cycles, m->memmap_pages, per_page,
	       (unsigned long long)(m->memmap_cycles * (1UL << (30 - PAGE_SHIFT)) / m->memmap_pages),
	       (unsigned long long)m->handoff_cycles);
}

void page_alloc_bench(void)
{
	static const unsigned int orders[] = { 0, 1, 3, 9, 10 };
	bool poison = mm_debug_poison;

	mm_debug_poison = false;
	printk("bench: per alloc_pages + __free_pages pair; cycles from rdtsc%s\n",
	       bench_instructions ? ", instructions counted" : "");
	printk("bench: order  shape          batch     pairs  cycles/pair   instr/pair\n");
	for (unsigned int i = 0; i < sizeof(orders) / sizeof(orders[0]); i++) {
		unsigned int o = orders[i];
		unsigned long div = bench_quick ? 500 : 1;
		struct sample one = one_at_a_time(o, (o < 9 ? 100000 : 10000) / div);
		struct sample many = batched(o, bench_quick ? 1 : o < 9 ? 100 : 4);

		report(o, "one-at-a-time", &one);
		report(o, "batch-1024", &many);
	}
	report_memmap_init();
	mm_debug_poison = poison;
}
