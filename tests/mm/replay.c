/*
 * The map replay: runs the boot path of mm/ on memory maps read from text files and checks the
 * result exhaustively (tests/mm/mm_check.h).
 *
 *   replay MAP          the boot report (sanitized map, zones, memmap bytes, usable/reserved/free
 *                       pages, buddyinfo), then each check and its verdict
 *   replay -q MAP...    one line per map
 *
 * Ends with "N passed, N failed"; exit status 0 only if every map passed. Poisoning is off and
 * page contents are never touched, so a 128 GiB map replays in seconds.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tests/mm/host_mm.h"
#include "tests/mm/mm_check.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Runs the checks in turn; NULL when all hold. */
static const char *run_checks(const struct fw_map *map, bool quiet)
{
	static const struct {
		const char *what;
		int kind;
	} checks[] = {
		{ "free lists well formed, in usable unreserved RAM", 0 },
		{ "every reserved frame is PG_reserved", 1 },
		{ "memmap holds only the chunks of usable RAM", 2 },
		{ "exhaustion at every order hands out every free frame once; shape restored", 3 },
	};

	for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		const char *p = checks[i].kind == 0 ? mm_check_free_lists(map, NULL)
			      : checks[i].kind == 1 ? mm_check_reserved()
			      : checks[i].kind == 2 ? mm_check_memmap_size()
						    : mm_check_exhaustive(map);
		if (!quiet)
			printf("replay: check: %s: %s\n", checks[i].what, p ? "FAILED" : "ok");
		if (p)
			return p;
	}
	return NULL;
}

/* Replays one map file; returns true when every check held. */
static bool replay(const char *path, bool quiet)
{
	static struct fw_map map;
	double t0 = now();
	const char *p = NULL;
	int r;

	host_console_quiet = quiet;
	r = host_load_map_file(path, &map);
	if (r >= 0 && (r = host_mm_init(&map, quiet)))
		p = "mm_init failed";
	else if (r < 0)
		p = "cannot read the map";
	else
		p = run_checks(&map, quiet);
	host_console_quiet = false;
	if (quiet && !p)
		printf("ok   %s: usable %lu, reserved %lu, free %lu pages, memmap %lu bytes (%.2f s)\n", path,
		       zones[0].present_pages + zones[1].present_pages + zones[2].present_pages,
		       zones[0].present_pages + zones[1].present_pages + zones[2].present_pages -
			       nr_free_pages(),
		       nr_free_pages(), memmap_bytes, now() - t0);
	else if (p)
		printf("FAIL %s: %s\n", path, p);
	else
		printf("replay: %s: all checks passed in %.2f s\n", path, now() - t0);
	host_mm_release();
	return !p;
}

int main(int argc, char **argv)
{
	bool quiet = argc > 1 && !strcmp(argv[1], "-q");
	int passed = 0, failed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2 + quiet) {
		fprintf(stderr, "usage: %s [-q] MAP...\n", argv[0]);
		return 2;
	}
	mm_debug_poison = false;
	for (int i = 1 + quiet; i < argc; i++)
		replay(argv[i], quiet) ? passed++ : failed++;
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
