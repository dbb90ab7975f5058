/* SPDX-License-Identifier: MIT */
/*
 * The threaded part of the host benchmark (tests/bench/smp_bench.h): real threads, each pinned to
 * its own host core and playing its own CPU of mm/, measure alloc_pages() + __free_pages() pairs
 * per second at orders 0 and 9, one block at a time and in batches (BATCH_BLOCKS allocated, then
 * all freed), with one thread and with two (and the ratio: 2 means perfect scaling), the TSC
 * cycles of a pair on one thread, and blocks allocated on one CPU and freed on the other, handed
 * over through a queue, at orders 0 and 9. Three gauges of the host come from the same threads:
 * an empty loop's ratio and a busy loop's (which the allocator's cannot beat), and a cache line's
 * round trip between the cores (which the cross-CPU rows follow). Figures only; nothing is asserted.
 * Poisoning is off while it runs.
 */
#define _GNU_SOURCE
#include "tests/bench/smp_bench.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

#include "mm/page_alloc.h"
#include "mm/poison.h"
#include "tests/bench/page_alloc_bench.h"
#include "tests/mm/host_mm.h"

#define RUN_SECONDS 0.25
#define RUNS 5          /* each figure is the best of this many runs (other processes share the cores) */
#define QUEUE_SLOTS 256 /* the cross-CPU queue */
#define BATCH_BLOCKS 1024 /* a batch: this many blocks allocated, then all freed */

static int cores[2];       /* the host cores the two threads are pinned to */
static unsigned int stop;  /* set by the timer: the threads finish their round and return */

/*
 * One thread's figures. Each on a cache line of its own, and written once at the end of a run: two
 * threads writing their counters into one line would make the line bounce between the cores, and
 * the empty loop, which does nothing else, would then measure that instead of the host.
 */
struct job {
	unsigned int cpu, order;
	bool batch; /* pairs in batches of BATCH_BLOCKS, not one at a time */
	unsigned long pairs;
	uint64_t cycles;
} __attribute__((aligned(64)));
_Static_assert(sizeof(struct job) == 64, "each thread's figures fill one cache line");

/* The cross-CPU queue: single producer (CPU 0), single consumer (CPU 1). */
static struct {
	struct page *slot[QUEUE_SLOTS];
	unsigned long head __attribute__((aligned(64)));
	unsigned long tail __attribute__((aligned(64)));
} queue;

static void pin(unsigned int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cores[cpu], &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	host_mm_set_cpu(cpu);
}

static bool stopped(void) { return __atomic_load_n(&stop, __ATOMIC_RELAXED); }

/* One round of 256 alloc + free pairs, one block at a time; false when an allocation failed. */
static bool one_at_a_time_round(unsigned int order)
{
	for (int i = 0; i < 256; i++) {
		struct page *p = alloc_pages(GFP_KERNEL | __GFP_NOWARN, order);

		if (!p)
			return false;
		__free_pages(p, order);
	}
	return true;
}

/* One round of BATCH_BLOCKS allocations, then their frees; false when an allocation failed. */
static bool batch_round(unsigned int order, struct page **held)
{
	int n = 0;

	while (n < BATCH_BLOCKS && (held[n] = alloc_pages(GFP_KERNEL | __GFP_NOWARN, order)))
		n++;
	for (int i = 0; i < n; i++)
		__free_pages(held[i], order);
	return n == BATCH_BLOCKS;
}

/* Alloc + free pairs in rounds (one_at_a_time_round() or batch_round()) until stopped. */
static void *pairs_thread(void *arg)
{
	struct job *j = arg;
	unsigned int order = j->order;
	unsigned long pairs = 0;
	struct page *held[BATCH_BLOCKS];
	uint64_t c0;

	pin(j->cpu);
	c0 = bench_cycles();
	while (!stopped()) {
		if (j->batch ? !batch_round(order, held) : !one_at_a_time_round(order))
			break;
		pairs += j->batch ? BATCH_BLOCKS : 256;
	}
	j->pairs = pairs;
	j->cycles = bench_cycles() - c0;
	return NULL;
}

/* The host's own scaling: an empty loop in the same rounds, counted as pairs. */
static void *empty_loop_thread(void *arg)
{
	struct job *j = arg;
	unsigned long pairs = 0;

	pin(j->cpu);
	while (!stopped()) {
		for (int i = 0; i < 256; i++)
			__asm__ volatile("" ::: "memory");
		pairs += 256;
	}
	j->pairs = pairs;
	return NULL;
}

/*
 * A second gauge: a loop that keeps a core's execution units as busy as the allocator's fast
 * path does (eight independent additions an iteration: several instructions a cycle, where the
 * empty loop retires about one). Two threads on two real cores scale it like the empty loop; two
 * hardware threads of one core (as a virtual machine's "cores" can be) share those units, and it
 * scales less: the allocator's ratio cannot beat it either.
 */
static void *busy_loop_thread(void *arg)
{
	struct job *j = arg;
	unsigned long pairs = 0;
	uint64_t a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0;

	pin(j->cpu);
	while (!stopped()) {
		for (int i = 0; i < 256; i++)
			__asm__ volatile("add $1, %0\n\tadd $1, %1\n\tadd $1, %2\n\tadd $1, %3\n\t"
					 "add $1, %4\n\tadd $1, %5\n\tadd $1, %6\n\tadd $1, %7"
					 : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f), "+r"(g), "+r"(h));
		pairs += 256;
	}
	j->pairs = pairs + ((a + b + c + d + e + f + g + h) & 0); /* the sums stay live */
	return NULL;
}

/* CPU 0's side of the cross-CPU pairs: allocates blocks of the job's order into the queue. */
static void *producer_thread(void *arg)
{
	struct job *j = arg;

	pin(j->cpu);
	while (!stopped()) {
		unsigned long tail = queue.tail;
		struct page *p;

		if (tail - __atomic_load_n(&queue.head, __ATOMIC_ACQUIRE) == QUEUE_SLOTS) {
			__builtin_ia32_pause();
			continue;
		}
		if (!(p = alloc_pages(GFP_KERNEL | __GFP_NOWARN, j->order)))
			break;
		queue.slot[tail % QUEUE_SLOTS] = p;
		__atomic_store_n(&queue.tail, tail + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

/* CPU 1's side: frees what the queue brings, and what is left in it at the end. */
static void *consumer_thread(void *arg)
{
	struct job *j = arg;
	unsigned long pairs = 0;

	pin(j->cpu);
	for (;;) {
		unsigned long head = queue.head;

		if (head == __atomic_load_n(&queue.tail, __ATOMIC_ACQUIRE)) {
			if (stopped() && head == __atomic_load_n(&queue.tail, __ATOMIC_ACQUIRE))
				break;
			__builtin_ia32_pause();
			continue;
		}
		__free_pages(queue.slot[head % QUEUE_SLOTS], j->order);
		__atomic_store_n(&queue.head, head + 1, __ATOMIC_RELEASE);
		pairs++;
	}
	j->pairs = pairs;
	return NULL;
}

/*
 * The third gauge: how long a cache line takes to go to the other core and back. Cross-CPU frees
 * move every block's struct page lines between the cores, so their rate follows this time, which
 * the host decides (two cores sharing a last-level cache or not; a virtual machine's cores may move),
 * not the allocator.
 */
#define PING_ROUNDS 200000
static struct {
	unsigned long turn __attribute__((aligned(64)));
} ping;

static void *pong_thread(void *arg)
{
	pin(((struct job *)arg)->cpu);
	for (unsigned long i = 0; i < PING_ROUNDS; i++) {
		while (__atomic_load_n(&ping.turn, __ATOMIC_ACQUIRE) != 2 * i + 1)
			__builtin_ia32_pause();
		__atomic_store_n(&ping.turn, 2 * i + 2, __ATOMIC_RELEASE);
	}
	return NULL;
}

/* The round trip in nanoseconds: the calling thread, pinned to core 0, plays the other side. */
static double line_round_trip_ns(void)
{
	struct job other = { .cpu = 1 };
	pthread_t tid;
	double t;

	ping.turn = 0;
	pin(0);
	pthread_create(&tid, NULL, pong_thread, &other);
	t = host_seconds();
	for (unsigned long i = 0; i < PING_ROUNDS; i++) {
		__atomic_store_n(&ping.turn, 2 * i + 1, __ATOMIC_RELEASE);
		while (__atomic_load_n(&ping.turn, __ATOMIC_ACQUIRE) != 2 * i + 2)
			__builtin_ia32_pause();
	}
	t = host_seconds() - t;
	pthread_join(tid, NULL);
	return t / PING_ROUNDS * 1e9;
}

/* Runs fn on n threads for RUN_SECONDS; returns pairs per second, all threads together. */
static double timed_run(void *(*fn[])(void *), unsigned int n, unsigned int order, bool batch, struct job *jobs)
{
	pthread_t tid[2];
	unsigned long pairs = 0;
	double t;

	stop = 0;
	queue.head = queue.tail = 0;
	t = host_seconds();
	for (unsigned int i = 0; i < n; i++) {
		jobs[i] = (struct job){ .cpu = i, .order = order, .batch = batch };
		pthread_create(&tid[i], NULL, fn[i], &jobs[i]);
	}
	usleep((useconds_t)(RUN_SECONDS * 1e6));
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (unsigned int i = 0; i < n; i++) {
		pthread_join(tid[i], NULL);
		pairs += jobs[i].pairs;
	}
	return (double)pairs / (host_seconds() - t);
}

static double best_of_runs(void *(*fn[])(void *), unsigned int n, unsigned int order, bool batch,
			   uint64_t *cycles_per_pair)
{
	double best = 0;
	struct job jobs[2];

	for (int r = 0; r < RUNS; r++) {
		double rate = timed_run(fn, n, order, batch, jobs);

		if (rate > best) {
			best = rate;
			if (cycles_per_pair && jobs[0].pairs)
				*cycles_per_pair = jobs[0].cycles / jobs[0].pairs;
		}
	}
	return best;
}

/* The first two cores this process may run on; false when there is only one. */
static bool find_cores(void)
{
	cpu_set_t set;
	unsigned int found = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return false;
	for (int c = 0; c < CPU_SETSIZE && found < 2; c++)
		if (CPU_ISSET(c, &set))
			cores[found++] = c;
	return found == 2;
}

/* One row of the scaling table: pairs/s with one thread and two, their ratio, a pair's cycles. */
static void scaling_row(unsigned int order, bool batch)
{
	void *(*pairs[])(void *) = { pairs_thread, pairs_thread };
	uint64_t cycles = 0;
	double one = best_of_runs(pairs, 1, order, batch, &cycles);
	double two = best_of_runs(pairs, 2, order, batch, NULL);

	printf("bench: %5u %-8s %11.0f %11.0f   %.2f   %6llu\n", order, batch ? "batch" : "single", one, two,
	       one > 0 ? two / one : 0, (unsigned long long)cycles);
}

void smp_bench(void)
{
	void *(*cross[])(void *) = { producer_thread, consumer_thread };
	void *(*empty[])(void *) = { empty_loop_thread, empty_loop_thread };
	void *(*busy[])(void *) = { busy_loop_thread, busy_loop_thread };
	static const unsigned int orders[] = { 0, 9 };
	bool poison = mm_debug_poison;

	if (!find_cores()) {
		printf("bench: SMP: this host lets the benchmark run on one core only; skipped\n");
		return;
	}
	printf("bench: SMP: threads pinned to host cores %d and %d, each playing one CPU; alloc_pages +\n"
	       "bench:   __free_pages pairs per second, all threads together, best of %d runs of %.2f s;\n"
	       "bench:   single: one block at a time; batch: %d blocks allocated, then freed\n",
	       cores[0], cores[1], RUNS, RUN_SECONDS, BATCH_BLOCKS);
	set_page_poisoning(false); /* as in page_alloc_bench(): the allocator's cost alone */
	printf("bench: order mode        1 thread   2 threads   ratio   cycles/pair (1 thread, rdtsc)\n");
	for (size_t i = 0; i < sizeof(orders) / sizeof(orders[0]); i++) {
		scaling_row(orders[i], false);
		scaling_row(orders[i], true);
	}
	{
		double one = best_of_runs(empty, 1, 0, false, NULL), two = best_of_runs(empty, 2, 0, false, NULL);

		printf("bench: the host's own ratio (an empty loop, same threads): %.2f; below 2 when other\n"
		       "bench:   processes keep the cores busy\n", one > 0 ? two / one : 0);
		one = best_of_runs(busy, 1, 0, false, NULL);
		two = best_of_runs(busy, 2, 0, false, NULL);
		printf("bench: the host's ratio for a loop that fills a core's execution units (8 independent\n"
		       "bench:   additions an iteration): %.2f; below the empty loop's when the two cores share\n"
		       "bench:   them (hardware threads of one core)\n", one > 0 ? two / one : 0);
	}
	printf("bench: a cache line's round trip between the two cores (the host's, for the cross-CPU\n"
	       "bench:   rows below): %.0f ns\n", line_round_trip_ns());
	for (size_t i = 0; i < sizeof(orders) / sizeof(orders[0]); i++)
		printf("bench: cross-CPU frees (order %u allocated on CPU 0, freed on CPU 1 through a queue): "
		       "%.0f blocks/s\n", orders[i], best_of_runs(cross, 2, orders[i], false, NULL));
	set_page_poisoning(poison);
}
