/* SPDX-License-Identifier: MIT */
/*
 * The fragmentation benchmark (make fragbench): how many 2 MiB blocks (order 9) can still be had
 * after the allocator has worked for a while. Each workload boots mm/ afresh on the host's
 * simulated memory, runs one thread that plays 4 CPUs in turn by the seed's random choice, and
 * counts. Everything depends on the seed alone: the same seed gives the same figures. The
 * workloads are defined in README.md ("Fragmentation").
 */
#ifndef TESTS_BENCH_FRAGBENCH_H
#define TESTS_BENCH_FRAGBENCH_H

#include <stdbool.h>
#include <stdint.h>

/* The workloads; each is one boot and one or two counts (enum frag_count_point). */
enum frag_workload {
	FRAG_FILL,          /* fill to 90 %, free the short-lived */
	FRAG_CHURN,         /* fill, churn; counted live, then after freeing the short-lived */
	FRAG_CHURN_NO_PCP,  /* the same with the per-CPU lists off */
	FRAG_LLFREE,        /* the LLFree paper's benchmark: order 0, free half, 100 rounds */
	FRAG_MOVABLE,       /* fill and churn with the short-lived memory vmalloc'd; counted live */
	FRAG_HUGETLB,       /* the movable workload, then the hugetlb pool grown as far as it goes,
			       everything live and again after freeing the short-lived */
	FRAG_NR_WORKLOADS
};

/* The size of a run. */
struct frag_params {
	unsigned long mib;   /* RAM of the QEMU pc map the run boots (tests/bench/fragbench.c) */
	unsigned long ops;   /* churn operations */
	unsigned int rounds; /* LLFree rounds */
};

/* One count of order-9 blocks. */
struct frag_count {
	unsigned long blocks;        /* order-9 blocks allocated until the first failure */
	unsigned long free_pages;    /* free frames just before (per-CPU lists drained) */
	unsigned long ideal_free;    /* free_pages / 512: what free memory allows */
	unsigned long ideal_regions; /* 2 MiB regions of RAM holding no long-lived (unmovable) page */
	unsigned long failed;        /* the workload's allocations that failed before this count */
	/*
	 * Churn workloads, counts with everything live: free frames at the last moment of the churn's
	 * second half when the live pages were at their most. Frees after it fall on random live
	 * allocations, so an allocator that does not move memory cannot count on them to make whole
	 * 2 MiB blocks: ideal_peak = peak_free / 512 is about the most it can keep. 0: not measured.
	 */
	unsigned long peak_free, ideal_peak;
};

/*
 * Where a workload counts: with everything it allocated still live, or after freeing the
 * short-lived; or the 2 MiB pages the hugetlb pool grew by (blocks: pool pages), everything live
 * (grow) or after freeing the short-lived (grow-after).
 */
enum frag_count_point { FRAG_LIVE, FRAG_AFTER, FRAG_GROW, FRAG_GROW_AFTER, FRAG_NR_POINTS };

/* What a workload measured; counted[p] says whether it counts at point p. */
struct frag_result {
	struct frag_count count[FRAG_NR_POINTS];
	bool counted[FRAG_NR_POINTS];
};

/*
 * Boots mm/ on a QEMU pc map of params->mib MiB and runs workload w with seed (not 0). Fills
 * *result. Returns 0, or -errno (reported) when mm/ could not be booted, the host ran out of
 * memory, or a count found that the free and the live pages do not add up (-EIO).
 */
int frag_run(enum frag_workload w, uint64_t seed, const struct frag_params *params, struct frag_result *result);

/* The workload's name in the output ("fill", "churn", ...). */
const char *frag_workload_name(enum frag_workload w);

/*
 * Are vmalloc's pages mapped in a run of this size? Up to 128 MiB; above, the host's limit on
 * mappings would be reached, and the runs set host_vmalloc_unmapped (tests/mm/host_mm.h).
 */
bool frag_vmalloc_mapped(const struct frag_params *params);

/* What a workload's figures at this size skip ("vmalloc unmapped"), or NULL. */
const char *frag_workload_caveat(enum frag_workload w, const struct frag_params *params);

#endif
