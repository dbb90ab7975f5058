/* SPDX-License-Identifier: MIT */
/*
 * The map replay: runs the kernel's own path (kernel/boot_memmap.h, then mm_init()) on memory
 * maps read from text files and checks the result exhaustively (tests/mm/mm_check.h).
 *
 *   replay MAP          the boot report (sanitized map, zones, memmap bytes, usable/reserved/free
 *                       pages, buddyinfo), then each check and its verdict
 *   replay --picture MAP  the same, with the "mm: picture" lines of the address space
 *                       (mm/mm_picture.h) after the hand-off, for tests/picture/
 *   replay -q MAP...    one line per map
 *   replay -x MAP...    maps that must be refused (too many entries, a memmap the host cannot
 *                       hold ...): each passes when it is refused with a message
 *
 * Ends with "N passed, N failed"; exit status 0 only if every map passed. Poisoning is off and
 * page contents are never touched, so a 128 GiB map replays in seconds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mm/init.h"
#include "mm/memblock.h"
#include "mm/poison.h"
#include "tests/mm/host_mm.h"
#include "tests/mm/map_text.h"
#include "tests/mm/mm_check.h"

static struct fw_map map;
static struct map_text text; /* the map file's raw entries, kept for the checks */
static struct boot_memmap raw;
static char problem[200];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned long present_pages(void)
{
	unsigned long n = 0;

	for (unsigned int z = 0; z < mm_nr_zone_ids; z++) /* every node's zones */
		n += mm_zones[z].present_pages;
	return n;
}

/* Every usable page of the sanitized map is in a zone: none was dropped on the way. */
static const char *check_all_ram_present(void)
{
	unsigned long usable = (unsigned long)(fw_map_usable_bytes(&map) >> PAGE_SHIFT);

	if (present_pages() == usable && !mm_unused_ram_bytes)
		return NULL;
	snprintf(problem, sizeof(problem), "%lu usable pages in the map, %lu present in zones, %llu KiB left unused",
		 usable, present_pages(), (unsigned long long)(mm_unused_ram_bytes >> 10));
	return problem;
}

/* Runs the checks in turn; NULL when all hold. */
static const char *run_checks(bool quiet)
{
	static const char *const what[] = {
		"every usable page of the map is present (nothing dropped)",
		"no free frame in any non-usable entry of the firmware's own map",
		"free lists well formed, in usable unreserved RAM",
		"every reserved frame is PG_reserved",
		"memmap holds only the chunks of usable RAM",
		"exhaustion at every order hands out every free frame once; shape restored",
	};

	for (size_t i = 0; i < ARRAY_SIZE(what); i++) {
		const char *p = i == 0 ? check_all_ram_present()
			      : i == 1 ? mm_check_raw_map(&raw)
			      : i == 2 ? mm_check_free_lists(&map)
			      : i == 3 ? mm_check_reserved()
			      : i == 4 ? mm_check_memmap_size()
				       : mm_check_exhaustive(&map);
		if (!quiet)
			printf("replay: check: %s: %s\n", what[i], p ? "FAILED" : "ok");
		if (p)
			return p;
	}
	return NULL;
}

/* Reads path into text and raw and boots on it: 0, or the error (the reason was printed). */
static int boot(const char *path, bool quiet)
{
	int r;

	map_text_free(&text);
	r = map_text_read_file(&text, path);
	if (r >= 0 && !map_text_raw(&text, &raw)) {
		fprintf(stderr, "%s: no memory map lines in it\n", path);
		r = -EINVAL;
	}
	if (r >= 0) {
		if (!quiet)
			printf("replay: %s: %u %s entries\n", path, raw.count, boot_memmap_name(&raw));
		host_mm_numa = map_text_numa(&text); /* NULL without node lines: one node */
		if (!quiet && host_mm_numa)
			printf("replay: %s: %u nodes, %u node ranges\n", path, host_mm_numa->nr_nodes,
			       host_mm_numa->nr_ranges);
		r = host_mm_boot(&raw, quiet, &map);
		host_mm_numa = NULL;
	}
	return r;
}

/* Replays one map file; returns true when every check held. */
static bool replay(const char *path, bool quiet)
{
	double t0 = now(), booted;
	const char *p;
	int err;

	host_console_quiet = quiet;
	err = boot(path, quiet);
	booted = now();
	p = err ? "refused or could not boot (see above)" : run_checks(quiet);
	host_console_quiet = false;
	if (!quiet && !err)
		printf("replay: %s: booted in %.3f s, struct pages initialized by %u thread%s\n", path, booted - t0,
		       host_mm_memmap_threads, host_mm_memmap_threads == 1 ? "" : "s");
	if (quiet && !p)
		printf("ok   %s: usable %lu, reserved %lu, free %lu pages, memmap %lu bytes, %u memory ranges (%.2f s)\n",
		       path, present_pages(), present_pages() - nr_free_pages(), nr_free_pages(), mm_memmap_bytes,
		       mm_memblock.memory.cnt, now() - t0);
	else if (p)
		printf("FAIL %s: %s\n", path, p);
	else
		printf("replay: %s: all checks passed in %.2f s\n", path, now() - t0);
	host_mm_release();
	return !p;
}

/* A map that must be refused: passes when booting on it fails (the kernel says why). */
static bool expect_refusal(const char *path)
{
	bool refused = boot(path, true) != 0;

	printf("%s %s: %s\n", refused ? "ok  " : "FAIL", path, refused ? "refused" : "accepted, but must be refused");
	host_mm_release();
	return refused;
}

/*
 * Takes a leading "--memmap-threads=N" (1..HOST_MM_MAX_MEMMAP_THREADS) off the arguments: the
 * threads that initialize the struct pages. Returns false (said why) on a bad N.
 */
static bool take_threads_option(int *argc, char ***argv)
{
	const char *opt = "--memmap-threads=";
	char *end;
	unsigned long n;

	if (*argc < 2 || strncmp((*argv)[1], opt, strlen(opt)))
		return true;
	n = strtoul((*argv)[1] + strlen(opt), &end, 10);
	if (*end || n < 1 || n > HOST_MM_MAX_MEMMAP_THREADS) {
		fprintf(stderr, "replay: %s: want 1 to %d threads\n", (*argv)[1], HOST_MM_MAX_MEMMAP_THREADS);
		return false;
	}
	host_mm_memmap_threads = (unsigned int)n;
	(*argv)[1] = (*argv)[0];
	(*argc)--;
	(*argv)++;
	return true;
}

int main(int argc, char **argv)
{
	bool quiet, refuse;
	int first, passed = 0, failed = 0;

	if (!take_threads_option(&argc, &argv))
		return 2;
	quiet = argc > 1 && !strcmp(argv[1], "-q");
	refuse = argc > 1 && !strcmp(argv[1], "-x");
	host_mm_picture = argc > 1 && !strcmp(argv[1], "--picture");
	first = 1 + (quiet || refuse || host_mm_picture);

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc <= first) {
		fprintf(stderr, "usage: %s [--memmap-threads=N] [-q | -x | --picture] MAP...\n", argv[0]);
		return 2;
	}
	set_page_poisoning(false);
	for (int i = first; i < argc; i++)
		(refuse ? expect_refusal(argv[i]) : replay(argv[i], quiet)) ? passed++ : failed++;
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
