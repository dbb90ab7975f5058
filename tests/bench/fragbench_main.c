/* SPDX-License-Identifier: MIT */
/*
 * make fragbench: the fragmentation benchmark on the host (tests/bench/fragbench.h). Runs every
 * workload for seeds 1..N and prints, per seed, the order-9 blocks obtained beside the two
 * ideals and both ratios, then each row's mean ratios:
 *
 *   fragbench [--mib N] [--seeds N] [--ops N] [--rounds N] [--workload NAME]
 *
 * The output depends on the arguments alone (tests/bench/fragbench-test.sh checks it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/poison.h"
#include "mm/vmstat.h"
#include "tests/bench/fragbench.h"
#include "tests/mm/host_mm.h"

/* The full size: 1 GiB, 10 seeds, 3 million churn operations, 100 LLFree rounds. */
static struct frag_params params = { .mib = 1024, .ops = 3000000, .rounds = 100 };
static unsigned long nr_seeds = 10;
static int only_workload = -1; /* --workload NAME: that one alone */

static const char *const point_names[FRAG_NR_POINTS] = { [FRAG_LIVE] = "live", [FRAG_AFTER] = "after",
							   [FRAG_GROW] = "grow", [FRAG_GROW_AFTER] = "grow-after" };

/* blocks / ideal; 1 when the ideal is 0 (there was nothing to obtain, and nothing was missed). */
static double frag_ratio(unsigned long blocks, unsigned long ideal)
{
	return ideal ? (double)blocks / (double)ideal : 1.0;
}

static void print_header(void)
{
	printf("fragbench: QEMU pc map of %lu MiB, %u CPUs, seeds 1..%lu, %lu churn operations, %u LLFree rounds\n",
	       params.mib, host_mm_nr_cpus, nr_seeds, params.ops, params.rounds);
	printf("%-20s %4s %8s %10s %10s %7s %13s %7s %8s %10s %7s\n", "row", "seed", "blocks", "free-pages",
	       "ideal-free", "ratio", "ideal-regions", "ratio", "failed", "ideal-peak", "ratio");
}

static void print_count(enum frag_workload w, enum frag_count_point p, uint64_t seed, const struct frag_count *c)
{
	char row[40];
	const char *caveat = frag_workload_caveat(w, &params);

	snprintf(row, sizeof(row), "%s-%s", frag_workload_name(w), point_names[p]);
	printf("%-20s %4llu %8lu %10lu %10lu %7.3f %13lu %7.3f %8lu", row, (unsigned long long)seed, c->blocks,
	       c->free_pages, c->ideal_free, frag_ratio(c->blocks, c->ideal_free), c->ideal_regions,
	       frag_ratio(c->blocks, c->ideal_regions), c->failed);
	if (c->peak_free)
		printf(" %10lu %7.3f", c->ideal_peak, frag_ratio(c->blocks, c->ideal_peak));
	else
		printf(" %10s %7s", "-", "-");
	printf("%s%s\n", caveat ? "  " : "", caveat ? caveat : "");
}

/*
 * The event counters (mm/vmstat.h) that moved since *before, summed over a workload's seeds, in
 * one line "ROW vmstat: name delta ..."; nothing when none did.
 */
static void print_vmstat_delta(enum frag_workload w, const unsigned long *before)
{
	bool any = false;

	for (unsigned int i = 0; i < NR_VM_EVENT_ITEMS; i++) {
		unsigned long delta = vm_event_count(i) - before[i];

		if (!delta)
			continue;
		if (!any)
			printf("%s vmstat:", frag_workload_name(w));
		printf(" %s %lu", vm_event_name(i), delta);
		any = true;
	}
	if (any)
		printf("\n");
}

/*
 * Runs workload w for every seed, printing each count and then each row's mean ratios, then the
 * event counters the workload moved.
 */
static int run_workload(enum frag_workload w)
{
	double sum_free[FRAG_NR_POINTS] = { 0 }, sum_regions[FRAG_NR_POINTS] = { 0 }, sum_peak[FRAG_NR_POINTS] = { 0 };
	struct frag_result r = { 0 };
	unsigned long events[NR_VM_EVENT_ITEMS];

	for (unsigned int i = 0; i < NR_VM_EVENT_ITEMS; i++)
		events[i] = vm_event_count(i);

	for (uint64_t seed = 1; seed <= nr_seeds; seed++) {
		if (frag_run(w, seed, &params, &r))
			return 1;
		for (int p = 0; p < FRAG_NR_POINTS; p++) {
			if (!r.counted[p])
				continue;
			print_count(w, p, seed, &r.count[p]);
			sum_free[p] += frag_ratio(r.count[p].blocks, r.count[p].ideal_free);
			sum_regions[p] += frag_ratio(r.count[p].blocks, r.count[p].ideal_regions);
			if (r.count[p].peak_free)
				sum_peak[p] += frag_ratio(r.count[p].blocks, r.count[p].ideal_peak);
		}
	}
	for (int p = 0; p < FRAG_NR_POINTS; p++) {
		char row[40];

		if (!r.counted[p])
			continue;
		snprintf(row, sizeof(row), "%s-%s", frag_workload_name(w), point_names[p]);
		printf("%-20s mean %*s %7.3f %13s %7.3f", row, 30, "", sum_free[p] / (double)nr_seeds, "",
		       sum_regions[p] / (double)nr_seeds);
		if (r.count[p].peak_free)
			printf(" %8s %10s %7.3f", "", "", sum_peak[p] / (double)nr_seeds);
		printf("\n");
	}
	print_vmstat_delta(w, events);
	return 0;
}

/* Reads the value of option argv[*i] into *value; false (reported) when it is missing or not a number. */
static bool option_value(int argc, char **argv, int *i, unsigned long *value)
{
	char *end;

	if (*i + 1 >= argc) {
		fprintf(stderr, "fragbench: %s needs a value\n", argv[*i]);
		return false;
	}
	*value = strtoul(argv[++*i], &end, 10);
	if (*end || end == argv[*i] || !*value) {
		fprintf(stderr, "fragbench: %s %s: expected a positive number\n", argv[*i - 1], argv[*i]);
		return false;
	}
	return true;
}

/* The workload named name, or -1 (reported). */
static int workload_by_name(const char *name)
{
	for (int w = 0; w < FRAG_NR_WORKLOADS; w++)
		if (!strcmp(frag_workload_name(w), name))
			return w;
	fprintf(stderr, "fragbench: no workload %s (fill, churn, churn-no-pcp, llfree, movable, hugetlb)\n", name);
	return -1;
}

static bool parse_args(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		unsigned long v;

		if (!strcmp(argv[i], "--workload") && i + 1 < argc) {
			only_workload = workload_by_name(argv[++i]);
			if (only_workload < 0)
				return false;
			continue;
		}
		if (!option_value(argc, argv, &i, &v))
			return false;
		if (!strcmp(argv[i - 1], "--mib"))
			params.mib = v;
		else if (!strcmp(argv[i - 1], "--seeds"))
			nr_seeds = v;
		else if (!strcmp(argv[i - 1], "--ops"))
			params.ops = v;
		else if (!strcmp(argv[i - 1], "--rounds") && v <= 100000)
			params.rounds = (unsigned int)v;
		else {
			fprintf(stderr, "fragbench: unknown option %s %s\n", argv[i - 1], argv[i]);
			return false;
		}
	}
	return true;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!parse_args(argc, argv)) {
		fprintf(stderr, "usage: fragbench [--mib N] [--seeds N] [--ops N] [--rounds N] [--workload NAME]\n");
		return 2;
	}
	/*
	 * Poisoning fills every freed page and checks it on allocation: the host test binary checks
	 * that; here it would only cost the time and make the whole simulated memory resident. It
	 * changes no allocation decision.
	 */
	set_page_poisoning(false);
	print_header();
	for (int w = 0; w < FRAG_NR_WORKLOADS; w++)
		if ((only_workload < 0 || w == only_workload) && run_workload(w))
			return 1;
	return 0;
}
