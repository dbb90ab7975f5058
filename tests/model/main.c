/* SPDX-License-Identifier: MIT */
/*
 * The long random test of mm/ against a reference model (make test-model): boots mm/ over the
 * host's default simulated machine (128 MiB plus 512 MiB above 4 GiB, every zone), then runs
 * --ops random operations over every public call, checking the allocator against the model
 * (tests/model/model.h) after each one and comparing the whole state every --check-every
 * operations. Memory use swings in phases between light and exhausted. One thread plays all of
 * the harness's CPUs, switching now and then (host_mm_set_cpu()), so blocks are freed on other
 * CPUs than they were allocated on and strand on other CPUs' lists; the model, which knows
 * nothing of CPUs, must still predict every outcome. At the end everything is given back and the
 * free lists must have their first shape again.
 *
 *   mm-model [--seed N] [--ops N] [--check-every N] [--poison] [--verbose]
 *
 * --poison turns mm/'s page poisoning on; --verbose shows mm/'s console messages (the bad_page
 * reports the misuse causes, refused calls), which are dropped otherwise.
 *
 * A failure names the operation number, the seed and what differed, lists the operations before
 * it, prints the command that reproduces it, and exits with status 1.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/ktest/mm_shape.h"
#include "tests/ktest/mm_test_rand.h"
#include "tests/mm/host_mm.h"
#include "tests/mm/mm_check.h"
#include "tests/model/model.h"

#define DEFAULT_SEED 0x6d6f64656cUL /* "model" */
#define HISTORY 16

struct model_stats stats;

static struct {
	unsigned long seed, ops, check_every;
	bool poison, verbose;
	const char *argv0;
} opt = { DEFAULT_SEED, 10000000, 100000, false, false, "mm-model" };

static unsigned long rng_state;
static unsigned long op_number;

/* The last operations, for a failure's report. */
static struct {
	unsigned long n;
	const char *name;
	unsigned long pfn, arg;
	unsigned int order;
} history[HISTORY];

uint64_t rnd(void)
{
	return mm_test_rand(&rng_state);
}

void note(const char *name, unsigned long pfn, unsigned int order, unsigned long arg)
{
	history[op_number % HISTORY].n = op_number;
	history[op_number % HISTORY].name = name;
	history[op_number % HISTORY].pfn = pfn;
	history[op_number % HISTORY].order = order;
	history[op_number % HISTORY].arg = arg;
}

static void print_history(void)
{
	fprintf(stderr, "model: the last operations (pfn, order, argument), oldest first:\n");
	for (unsigned long i = 1; i <= HISTORY; i++) {
		unsigned long slot = (op_number + i) % HISTORY;

		if (history[slot].name && history[slot].n + HISTORY > op_number)
			fprintf(stderr, "    #%lu %s pfn %#lx order %u arg %#lx\n", history[slot].n,
				history[slot].name, history[slot].pfn, history[slot].order, history[slot].arg);
	}
}

void model_fail(const char *fmt, ...)
{
	va_list ap;

	const char *name = history[op_number % HISTORY].n == op_number ? history[op_number % HISTORY].name : NULL;

	fflush(stdout);
	fprintf(stderr, "model: FAILED at operation %lu of %lu (%s; seed %#lx): ", op_number, opt.ops,
		name ? name : "checks", opt.seed);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	print_history();
	fprintf(stderr, "model: reproduce with: %s --seed %#lx --ops %lu%s (--verbose shows mm/'s messages)\n",
		opt.argv0, opt.seed, op_number + 1, opt.poison ? " --poison" : "");
	exit(1);
}

const char *gfp_name(gfp_t gfp, char *buf, size_t size)
{
	static const struct {
		gfp_t bit;
		const char *name;
	} names[] = { { __GFP_DMA, "DMA" }, { __GFP_DMA32, "DMA32" }, { __GFP_ZERO, "ZERO" },
		      { __GFP_NOWARN, "NOWARN" }, { __GFP_COMP, "COMP" }, { __GFP_HIGH, "HIGH" },
		      { __GFP_MOVABLE, "MOVABLE" }, { __GFP_RECLAIMABLE, "RECLAIMABLE" },
		      { __GFP_NORECLAIM, "NORECLAIM" } };
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (gfp & names[i].bit)
			len += (size_t)snprintf(buf + len, size - MIN(len, size), "%s%s", len ? "|" : "", names[i].name);
	if (gfp & ~__GFP_ALL)
		len += (size_t)snprintf(buf + len, size - MIN(len, size), "%s%#x", len ? "|" : "", gfp & ~__GFP_ALL);
	if (!len)
		snprintf(buf, size, "GFP_KERNEL");
	return buf;
}

/* ---- choosing operations --------------------------------------------------------------------- */

/*
 * How full memory should get in the current phase, in per mille of what was free at boot. Above
 * 1000 the test allocates until allocations fail: memory is exhausted and stays near empty.
 */
static unsigned long target_fill;
static unsigned long boot_free;

static void new_phase(void)
{
	static const unsigned long fills[] = { 0, 200, 500, 800, 950, 1100, 1100 };

	target_fill = fills[rnd_below(ARRAY_SIZE(fills))];
}

/* Allocate rather than free while memory is below the phase's target. */
static void alloc_or_free(void)
{
	unsigned long used = (boot_free - model.free_pages) * 1000 / boot_free;

	if (chance(used < target_fill ? 70 : 30))
		op_alloc();
	else
		op_free();
}

/* The operations and how often each runs, in thousandths: a draw below `below` runs op. */
static const struct {
	unsigned int below;
	void (*op)(void);
} mix[] = {
	{ 680, alloc_or_free }, { 760, op_get },     { 840, op_put },     { 880, op_split },
	{ 940, op_hugetlb },    { 945, op_pcp },     { 950, op_refused }, { 975, op_migrate },
	{ 1000, op_misuse },
};

static void run_one(void)
{
	unsigned long r = rnd_below(1000);
	size_t i = 0;

	if (chance(5))
		host_mm_set_cpu((unsigned int)rnd_below(host_mm_nr_cpus));
	while (r >= mix[i].below)
		i++;
	mix[i].op();
}

/* ---- checks ------------------------------------------------------------------------------------ */

/* After every operation: the free counts and the reports. */
static void check_counts(void)
{
	if (mm_bad_page_reports != model.expected_reports)
		model_fail("%lu bad_page reports, the misuse so far accounts for %lu", mm_bad_page_reports,
			   model.expected_reports);
	if (lock_check_report_count())
		model_fail("%lu lock_check reports (mm/lock_check.h)", lock_check_report_count());
	if (nr_free_pages() != model.free_pages)
		model_fail("nr_free_pages() is %lu, the model says %lu", nr_free_pages(), model.free_pages);
	for (int z = 0; z < MAX_NR_ZONES; z++)
		if (zone_free_pages(&mm_zones[z]) != model.zone_free[z])
			model_fail("zone %s has %lu free pages, the model %lu", zone_name(z),
				   zone_free_pages(&mm_zones[z]), model.zone_free[z]);
	if (mm_poison_errors)
		model_fail("%lu poison errors: a free page was written to", mm_poison_errors);
}

static void check_all(const struct fw_map *map)
{
	const char *p = model_compare_all(map);

	if (p)
		model_fail("whole-state comparison: %s", p);
	stats.full_checks++;
}

/* Gives everything back; the free lists must then have their shape after boot. */
static void teardown(const struct fw_map *map, const struct mm_shape *shape0)
{
	struct mm_shape shape;

	note("teardown", 0, 0, nr_blocks);
	while (nr_blocks)
		block_release(&blocks[nr_blocks - 1]);
	hugetlb_teardown();
	if (!model.pcp_on) {
		set_pcp_lists(true);
		model.pcp_on = true;
	}
	check_counts();
	check_all(map);
	mm_shape_take(&shape);
	if (model.free_pages != boot_free || !mm_shape_equal(&shape, shape0, NULL, NULL))
		model_fail("after giving everything back: %lu free pages (%lu at boot), the free lists %s their "
			   "first shape", model.free_pages, boot_free,
			   mm_shape_equal(&shape, shape0, NULL, NULL) ? "have" : "do not have");
}

static void print_stats(double seconds)
{
	printf("model: %lu allocations (%lu failed, %lu of them at order 0; %lu from a lower zone than "
	       "asked first), %lu refused as they must be\n", stats.allocs, stats.alloc_failures,
	       stats.exhausted, stats.fallbacks, stats.refused);
	printf("model: %lu frees, %lu get_page, %lu put_page, %lu splits (%lu refused as busy), most "
	       "frames held at once %lu of %lu\n", stats.frees, stats.gets, stats.puts, stats.splits,
	       stats.split_busy, stats.max_held_frames, boot_free);
	printf("model: %lu hugetlb operations (%lu huge pages handed out; pool up to %lu pages, surplus %lu, "
	       "reserved %lu; %lu resizes short of memory)\n", stats.pool_ops, stats.huge_allocs,
	       stats.max_pool, stats.max_surplus, stats.max_reserved, stats.pool_grow_failures);
	migrate_model_print_stats();
	printf("model: %lu misuses, each reported once:", stats.misuse);
	for (unsigned int i = 0; i < NR_MISUSE_CASES; i++)
		printf("%s %s %lu", i ? "," : "", misuse_name(i), stats.misuse_by_case[i]);
	printf("\nmodel: %lu whole-state comparisons; %.1f s, %.0f operations/s\n", stats.full_checks,
	       seconds, (double)opt.ops / seconds);
}

/* ---- main ------------------------------------------------------------------------------------- */

static void usage(void)
{
	fprintf(stderr, "usage: %s [--seed N] [--ops N] [--check-every N] [--poison] [--verbose]\n", opt.argv0);
	exit(2);
}

static void parse_args(int argc, char **argv)
{
	opt.argv0 = argv[0];
	for (int i = 1; i < argc; i++) {
		unsigned long *v = !strcmp(argv[i], "--seed") ? &opt.seed : !strcmp(argv[i], "--ops") ? &opt.ops
				  : !strcmp(argv[i], "--check-every") ? &opt.check_every : NULL;
		char *end;

		if (!strcmp(argv[i], "--poison") || !strcmp(argv[i], "--verbose")) {
			*(argv[i][2] == 'p' ? &opt.poison : &opt.verbose) = true;
			continue;
		}
		if (!v || i + 1 == argc)
			usage();
		*v = strtoul(argv[++i], &end, 0);
		if (*end || !*argv[i])
			usage();
	}
	if (!opt.check_every)
		opt.check_every = 1;
}

int main(int argc, char **argv)
{
	struct mm_shape shape0;
	static struct fw_map map; /* zeroed: host_default_map() gives it storage */
	double t0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	parse_args(argc, argv);
	rng_state = opt.seed ? opt.seed : DEFAULT_SEED;
	host_default_map(&map);
	host_console_quiet = !opt.verbose; /* the expected bad_page reports would flood the log */
	if (host_mm_init(&map, true)) {
		fprintf(stderr, "model: mm_init failed on the default map\n");
		return 1;
	}
	set_page_poisoning(opt.poison);
	model_init(&map);
	hugetlb_model_init();
	model.expected_reports = mm_bad_page_reports;
	mm_shape_take(&shape0);
	boot_free = model.free_pages;
	printf("model: seed %#lx, %lu operations, poisoning %s, %lu free pages (DMA %lu, DMA32 %lu, Normal %lu)\n",
	       opt.seed, opt.ops, opt.poison ? "on" : "off", boot_free, model.zone_free[ZONE_DMA],
	       model.zone_free[ZONE_DMA32], model.zone_free[ZONE_NORMAL]);
	t0 = host_seconds();
	for (op_number = 0; op_number < opt.ops; op_number++) {
		if (op_number % 65536 == 0)
			new_phase();
		run_one();
		check_counts();
		if ((op_number + 1) % opt.check_every == 0)
			check_all(&map);
	}
	teardown(&map, &shape0);
	print_stats(host_seconds() - t0);
	printf("model: ok: %lu operations matched the model (seed %#lx)\n", opt.ops, opt.seed);
	return 0;
}
