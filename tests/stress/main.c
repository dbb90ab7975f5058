/* SPDX-License-Identifier: MIT */
/*
 * The host driver of the SMP stress test (tests/stress/stress.h): boots mm/ over the host's
 * default simulated machine (128 MiB plus 512 MiB above 4 GiB, every zone) for --cpus CPUs, runs
 * one worker per pthread, each playing its own CPU, then drains every CPU's pcp lists and runs
 * the end checks. Ends with "N passed, N failed"; exit status 1 on a failure.
 *
 *   stress [--threads N] [--ops N] [--seed N] [--cpus N] [--poison] [--page-owner]
 *
 * --ops is per thread; --poison turns mm/'s page poisoning on (a page written after it was freed
 * shows when it is allocated again); --page-owner has mm/ keep its allocation records, written by
 * every CPU at once (mm/page_owner.h).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/pcp.h"
#include "mm/poison.h"
#include "mm/slab.h"
#include "tests/mm/host_mm.h"
#include "tests/stress/stress.h"

static struct {
	unsigned int threads, cpus;
	unsigned long ops;
	unsigned long long seed;
	bool poison, page_owner;
} opt = { 4, 8, 100000, 0x5354524553535eULL, false, false };

void stress_relax(void)
{
	sched_yield();
}

static void *thread_main(void *arg)
{
	unsigned int id = (unsigned int)(uintptr_t)arg;

	host_mm_set_cpu(id);
	stress_worker(id);
	return NULL;
}

static void usage(const char *argv0)
{
	fprintf(stderr, "usage: %s [--threads 1..%d] [--ops N] [--seed N] [--cpus N] [--poison] [--page-owner]\n", argv0,
		STRESS_MAX_WORKERS);
	exit(2);
}

static void parse(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--poison")) {
			opt.poison = true;
			continue;
		}
		if (!strcmp(a, "--page-owner")) {
			opt.page_owner = true;
			continue;
		}
		if (!v)
			usage(argv[0]);
		if (!strcmp(a, "--threads"))
			opt.threads = (unsigned int)strtoul(v, NULL, 0);
		else if (!strcmp(a, "--ops"))
			opt.ops = strtoul(v, NULL, 0);
		else if (!strcmp(a, "--seed"))
			opt.seed = strtoull(v, NULL, 0);
		else if (!strcmp(a, "--cpus"))
			opt.cpus = (unsigned int)strtoul(v, NULL, 0);
		else
			usage(argv[0]);
		i++;
	}
	if (!opt.threads || opt.threads > STRESS_MAX_WORKERS || opt.cpus < opt.threads)
		usage(argv[0]);
}

/* Runs the workers, one thread each; returns the failures. */
static unsigned long run(struct stress_totals *totals)
{
	struct stress_config cfg = { .workers = opt.threads, .ops = opt.ops, .seed = opt.seed };
	pthread_t tid[STRESS_MAX_WORKERS];

	*totals = (struct stress_totals){ 0 };
	if (stress_prepare(&cfg))
		return 1;
	for (unsigned int i = 0; i < opt.threads; i++)
		if (pthread_create(&tid[i], NULL, thread_main, (void *)(uintptr_t)i)) {
			perror("stress: pthread_create");
			exit(1);
		}
	for (unsigned int i = 0; i < opt.threads; i++)
		pthread_join(tid[i], NULL);
	stress_irq_release();
	for (unsigned int cpu = 0; cpu < opt.cpus; cpu++) { /* every CPU's pcp lists, from that CPU */
		host_mm_set_cpu(cpu);
		kmem_cache_shrink_all(); /* the slabs' per-CPU leftovers too */
		drain_pcp_lists();
	}
	host_mm_set_cpu(0);
	return stress_finish(totals);
}

int main(int argc, char **argv)
{
	static struct fw_map map;
	struct stress_totals totals;
	unsigned long failures;
	double t;

	setvbuf(stdout, NULL, _IOLBF, 0);
	parse(argc, argv);
	host_default_map(&map);
	host_mm_nr_cpus = opt.cpus;
	host_mm_page_owner = opt.page_owner;
	if (host_mm_init(&map, true)) {
		printf("stress: mm_init failed on the default map\n0 passed, 1 failed\n");
		return 1;
	}
	set_page_poisoning(opt.poison);
	printf("stress: %u threads on %u CPUs, %lu operations each, seed %#llx%s%s\n", opt.threads, opt.cpus,
	       opt.ops, opt.seed, opt.poison ? ", page poisoning" : "", opt.page_owner ? ", page_owner" : "");
	t = host_seconds();
	failures = run(&totals);
	t = host_seconds() - t;
	printf("stress: %lu operations in %.1f s\n", totals.ops, t);
	if (failures)
		printf("stress: reproduce with: %s --threads %u --ops %lu --seed %#llx --cpus %u%s%s\n", argv[0],
		       opt.threads, opt.ops, opt.seed, opt.cpus, opt.poison ? " --poison" : "",
		       opt.page_owner ? " --page-owner" : "");
	printf("%d passed, %d failed\n", !failures, !!failures);
	return failures ? 1 : 0;
}
