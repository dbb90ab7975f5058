/* SPDX-License-Identifier: MIT */
/*
 * run_selftests(): what kmain() does after the boot report in every kernel but the release one.
 * Runs the self-test suites the command line selects ("ktest=a,b*"; all by default), or none
 * with "ktest=off", prints the zones' text pictures after them, and ends the run with the
 * verdict, leaving a page of it on the screen. Replaces the release kernel's weak
 * run_selftests() in kernel/main.c.
 */
#include "kernel/cmdline.h"
#include "kernel/console/screen.h"
#include "kernel/mm_setup.h"
#include "tests/ktest/ktest.h"
#include "tests/ktest/kernel/ktest_page.h"
#include "kernel/panic.h"
#include "kernel/selftest.h"
#include "kernel/x86.h"
#include "lib/printk.h"
#include "lib/string.h"
#include "mm/lock_check.h"
#include "mm/mm_picture.h"
#include "mm/show_mem.h"
#include "mm/slab.h"

void run_selftests(const char *cmdline)
{
	char filter[256];
	size_t len;
	int ran = 0, skipped = 0;

	if (cmdline_value(cmdline, "ktest", &len) && len >= sizeof(filter)) {
		printk("ktest: the ktest= value has %zu characters, more than the %zu this kernel reads\n",
		       len, sizeof(filter) - 1);
		machine_exit(false);
	}
	cmdline_get(cmdline, "ktest", filter, sizeof(filter));
	if (!strcmp(filter, "off")) {
		printk("ktest: self-tests off (ktest=off); halting\n");
		halt_forever();
	}
	ktest_misuse_hook = screen_console_quiet; /* expected reports: on the serial port only */
	int failed = ktest_run(filter, &ran, &skipped);
	if (failed < 0)
		machine_exit(false);
	show_zone_pictures(); /* what the self-tests left behind: leaks show as '#' */
	show_mem(); /* what the suites left behind */
	mm_show_picture_now(cmdline); /* with mm_picture: the pageblock types they left, for make picture */
	slabinfo_show(); /* and in the slab caches: objects still allocated show as active */
	lock_check_show(); /* the lock orders the suites took (mm/lock_check.h) */
	printk("ktest: summary: %d passed, %d failed, %d skipped\n", ran - failed - skipped, failed,
	       skipped);
	if (ktest_leaky_suites())
		printk("ktest: %d suites leaked pages (see \"# leak:\")\n", ktest_leaky_suites());
	ktest_show_page(ran - failed - skipped, failed, skipped);
	machine_exit(failed == 0 && !ktest_leaky_suites());
}
