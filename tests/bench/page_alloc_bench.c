/* SPDX-License-Identifier: MIT */
/*
 * The page-allocator benchmark (see tests/bench/page_alloc_bench.h): cycles and instructions
 * per alloc_pages() + __free_pages() pair at orders 0, 1, 3, 9, 10, in two shapes, each beside
 * the same pairs with the per-CPU lists off, beside Linux 6.1's figures and those of this
 * allocator before it had locks, and the cost of the measuring harness itself.
 */
#include "tests/bench/page_alloc_bench.h"

#include "kernel/kbench.h"
#include "lib/printk.h"
#include "mm/pcp.h"
#include "mm/init.h"
#include "mm/page_alloc.h"
#include "mm/page_owner.h"
#include "mm/poison.h"

#define BATCH 1024

uint64_t (*bench_instructions)(void);
bool bench_quick;
unsigned int bench_runs = 1;

/* Allocates and frees one block at a time, rounds times. */
static struct bench_sample one_at_a_time(unsigned int order, unsigned long rounds)
{
	struct bench_sample s = { .batch = 1 };
	struct page *page;

	page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, order); /* warm up */
	if (!page)
		return s;
	__free_pages(page, order);
	bench_start(&s);
	for (; s.pairs < rounds; s.pairs++) {
		page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, order);
		if (!page)
			break;
		__free_pages(page, order);
	}
	bench_stop(&s);
	return s;
}

/* Allocates up to BATCH blocks, then frees them in the same order; a warm-up, then rounds times. */
static struct bench_sample batched(unsigned int order, unsigned long rounds)
{
	static struct page *pages[BATCH];
	struct bench_sample s = { .batch = 0 };

	for (unsigned long r = 0; r <= rounds; r++) {
		unsigned long n = 0;

		if (r == 1)
			bench_start(&s);
		while (n < BATCH && (pages[n] = alloc_pages(GFP_KERNEL | __GFP_NOWARN, order)))
			n++;
		for (unsigned long i = 0; i < n; i++)
			__free_pages(pages[i], order);
		s.pairs += r ? n : 0;
		s.batch = n;
	}
	bench_stop(&s);
	return s;
}

typedef struct bench_sample (*shape_fn)(unsigned int order, unsigned long rounds);

/* The harness alone: the one-at-a-time loop with nothing in it, timed the same way (no order). */
static struct bench_sample empty_loop(unsigned int order, unsigned long rounds)
{
	struct bench_sample s = { .batch = 1 };

	(void)order;
	bench_start(&s);
	for (; s.pairs < rounds; s.pairs++)
		__asm__ volatile("" ::: "memory"); /* keeps the loop */
	bench_stop(&s);
	return s;
}

/* Keeps s in *best if it is run 0 or has fewer cycles per pair. */
static void keep_fastest(struct bench_sample *best, const struct bench_sample *s, unsigned int run)
{
	if (!run || s->cycles * best->pairs < best->cycles * s->pairs)
		*best = *s;
}

/* The fastest of bench_runs runs of shape at order. */
static struct bench_sample fastest(shape_fn shape, unsigned int order, unsigned long rounds)
{
	struct bench_sample best = { 0 }, s;

	for (unsigned int run = 0; run == 0 || run < bench_runs; run++) {
		s = shape(order, rounds);
		keep_fastest(&best, &s, run);
	}
	return best;
}

/*
 * shape at order with the per-CPU lists as they are (*ours), then off (*base: the plain buddy path,
 * the baseline), in turn, bench_runs times; keeps the fastest run of each. Leaves the per-CPU lists
 * on or off as it found them.
 */
static void measure(shape_fn shape, unsigned int order, unsigned long rounds, struct bench_sample *ours,
		    struct bench_sample *base)
{
	for (unsigned int run = 0; run == 0 || run < bench_runs; run++) {
		struct bench_sample s = shape(order, rounds);
		bool was;

		keep_fastest(ours, &s, run);
		was = set_pcp_lists(false);
		s = shape(order, rounds);
		set_pcp_lists(was);
		keep_fastest(base, &s, run);
	}
}

/* "123.4" from a total and a count, without floating point. */
static void per_pair(char *buf, size_t size, uint64_t total, unsigned long pairs)
{
	uint64_t tenths = pairs ? total * 10 / pairs : 0;

	snprintf(buf, size, "%llu.%llu", (unsigned long long)(tenths / 10), (unsigned long long)(tenths % 10));
}

/* "0.123": a / b to three decimals, rounded; "n/a" when b is 0. */
static void ratio(char *buf, size_t size, uint64_t a, uint64_t b)
{
	uint64_t thousandths = b ? (a * 1000 + b / 2) / b : 0;

	if (!b)
		snprintf(buf, size, "n/a");
	else
		snprintf(buf, size, "%llu.%03llu", (unsigned long long)(thousandths / 1000),
			 (unsigned long long)(thousandths % 1000));
}

/*
 * Reference figures, in instructions per pair, one pair at a time unless said: what the kernel
 * benchmark (under QEMU -icount, where a cycle is an instruction) measured of Linux 6.1, and of
 * this allocator on one CPU before it took locks and masked interrupts (one list of pcp blocks
 * per zone, no watermarks). Tenths, so that the table prints them as it prints ours.
 */
struct reference {
	unsigned int order;
	unsigned long linux_one;             /* Linux 6.1, one at a time */
	unsigned long before_one, before_batch; /* single-CPU, unlocked: tenths */
};

static const struct reference references[] = {
	{ 0, 706, 1360, 1400 }, { 1, 784, 1360, 1400 }, { 3, 892, 1360, 2452 },
	{ 9, 10106, 2730, 3040 }, { 10, 33674, 2390, 2484 },
};

static const struct reference *reference_of(unsigned int order)
{
	for (size_t i = 0; i < sizeof(references) / sizeof(references[0]); i++)
		if (references[i].order == order)
			return &references[i];
	return NULL;
}

/*
 * A table row: order, shape, blocks per batch, pairs, cycles and instructions per pair[, ratio,
 * and the reference figures: Linux 6.1 (one at a time only), the single-CPU allocator before].
 */
static void row(const char *order, const char *shape, const struct bench_sample *s, const char *rat,
		const struct reference *ref, bool one)
{
	char cyc[24], ins[24] = "n/a", before[24];

	per_pair(cyc, sizeof(cyc), s->cycles, s->pairs);
	if (bench_instructions)
		per_pair(ins, sizeof(ins), s->instructions, s->pairs);
	printk("bench: %5s  %-14s %5lu %9lu %12s %12s", order, shape, s->batch, s->pairs, cyc, ins);
	if (rat)
		printk(" %7s", rat);
	if (rat && ref) {
		per_pair(before, sizeof(before), one ? ref->before_one : ref->before_batch, 10);
		if (one)
			printk(" %9lu", ref->linux_one);
		else
			printk(" %9s", "-");
		printk(" %10s", before);
	}
	printk("\n");
}

/*
 * Single-stepped (bench_quick with instructions counted), the cycles are mostly the tracer's:
 * the ratio is then of instructions.
 */
static bool ratio_of_instructions(void)
{
	return bench_quick && bench_instructions;
}

/* Our row, with the ratio ours / baseline per pair, then the baseline's row under it. */
static void report(unsigned int order, const char *shape, const struct bench_sample *ours,
		   const struct bench_sample *base)
{
	bool ins = ratio_of_instructions();
	char o[8], rat[16];

	snprintf(o, sizeof(o), "%u", order);
	ratio(rat, sizeof(rat), (ins ? ours->instructions : ours->cycles) * base->pairs,
	      (ins ? base->instructions : base->cycles) * ours->pairs);
	row(o, shape, ours, rat, reference_of(order), ours->batch == 1);
	row("", "  no pcp lists", base, NULL, NULL, false);
}

static void report_harness(void)
{
	struct bench_sample timing = fastest(empty_loop, 0, 0);
	struct bench_sample loop = fastest(empty_loop, 0, bench_quick ? 200 : 100000);
	char cyc[24], ins[24] = "n/a";

	per_pair(cyc, sizeof(cyc), loop.cycles, loop.pairs);
	if (bench_instructions)
		per_pair(ins, sizeof(ins), loop.instructions, loop.pairs);
	printk("bench: harness, not subtracted below: timing calls %llu cycles once per row;\n"
	       "bench:   an empty loop timed alike %s cycles, %s instructions per round\n",
	       (unsigned long long)timing.cycles, cyc, ins);
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
	printk("bench: memmap init: %llu cycles for %lu struct pages: %s cycles/page,\n"
	       "bench:   %llu cycles per GiB; hand-off %llu cycles\n", (unsigned long long)m->memmap_cycles,
	       m->memmap_pages, per_page,
	       (unsigned long long)(m->memmap_cycles * (1UL << (30 - PAGE_SHIFT)) / m->memmap_pages),
	       (unsigned long long)m->handoff_cycles);
}

void page_alloc_bench(void)
{
	static const unsigned int orders[] = { 0, 1, 3, 9, 10 };
	bool poison = mm_debug_poison;

	set_page_poisoning(false);
	printk("bench: per alloc_pages + __free_pages pair, locks taken and interrupts masked as on\n"
	       "bench: many CPUs (mm/ set up for %u here); cycles (rdtsc)%s\n", mm_pcp_nr_cpus,
	       bench_instructions ? " and instructions" : "");
	printk("bench: under each row, the same pairs with the per-CPU lists off: the plain buddy\n"
	       "bench: path, a split on every alloc and a merge on every free. ratio: ours /\n"
	       "bench: lists off, %s per pair (below 1: the per-CPU lists are faster)\n",
	       ratio_of_instructions() ? "instructions" : "cycles");
	printk("bench: Linux 6.1 and 1-CPU before: instructions per pair (kernel, QEMU -icount), of\n"
	       "bench: Linux one at a time, and of this allocator on one CPU without locks\n");
	report_harness();
	printk("bench: page_owner %s\n", mm_page_owner_on ? "on (page_owner=on): every pair also writes and "
	       "clears its block's record"
	       : "off: it shares the alloc fast path's test for poison, and costs the free nothing");
	printk("bench: order  shape          batch     pairs  cycles/pair   instr/pair   ratio Linux 6.1 1-CPU before\n");
	for (unsigned int i = 0; i < sizeof(orders) / sizeof(orders[0]); i++) {
		unsigned int o = orders[i];
		unsigned long rounds = (o < 9 ? 100000 : 10000) / (bench_quick ? 500 : 1);
		unsigned long batches = bench_quick ? 1 : o < 9 ? 100 : 4;
		struct bench_sample one, one_base, many, many_base;

		measure(one_at_a_time, o, rounds, &one, &one_base);
		measure(batched, o, batches, &many, &many_base);
		report(o, "one-at-a-time", &one, &one_base);
		report(o, "batch-1024", &many, &many_base);
	}
	report_memmap_init();
	set_page_poisoning(poison);
}

/* In the kernel, kmain() runs it when the command line says "bench". */
KBENCH(page_alloc, page_alloc_bench);
