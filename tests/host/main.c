/* SPDX-License-Identifier: MIT */
/*
 * The host test binary: sets up mm/ over simulated memory from the default map (QEMU pc 128 MiB
 * plus 512 MiB above 4 GiB, so every zone exists), runs the self-test suites selected by argv[1]
 * ("mm_*,compound*"; all when absent; a filter that selects no suite is a failure), and ends with
 * "N passed, N failed". Exit status 1 on failure.
 */
#include <stdio.h>

#include "tests/ktest/ktest.h"
#include "mm/lock_check.h"
#include "mm/show_mem.h"
#include "tests/mm/host_mm.h"

int main(int argc, char **argv)
{
	static struct fw_map map;
	int ran = 0, skipped = 0, failed;

	setvbuf(stdout, NULL, _IOLBF, 0);
	host_default_map(&map);
	host_mm_page_owner = true; /* the runner names the blocks a suite leaks */
	host_mm_memory_after_boot = true; /* the memory_add suite's ranges */
	if (host_mm_init(&map, false)) {
		printf("host: mm_init failed on the default map\n0 passed, 1 failed\n");
		return 1;
	}
	host_mm_memory_after_boot = false; /* the suites that rebuild mm/ on maps of their own get none */
	failed = ktest_run(argc > 1 ? argv[1] : NULL, &ran, &skipped);
	if (failed < 0) {
		printf("0 passed, 1 failed\n");
		return 1;
	}
	show_mem();
	lock_check_show(); /* the lock orders the suites took (mm/lock_check.h) */
	if (ktest_leaky_suites())
		printf("host: %d suites leaked pages (see \"# leak:\")\n", ktest_leaky_suites());
	printf("%d passed, %d failed\n", ran - failed - skipped, failed + ktest_leaky_suites());
	return failed || ktest_leaky_suites() ? 1 : 0;
}
