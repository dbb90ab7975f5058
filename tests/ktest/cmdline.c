/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of the kernel command line (kernel/cmdline.c): bare words and key=value options
 * matched as whole words, the one-line list of unknown options, the hugetlb options and their
 * warnings, the CPU limit of nosmp and nr_cpus=, and page_owner=.
 */

#include "kernel/cmdline.h"
#include "kernel/hugetlb_cmdline.h"
#include "tests/ktest/ktest.h"
#include "lib/printk.h"
#include "lib/string.h"
#include "mm/hugetlb.h"
#include "tests/ktest/text_capture.h"

#define EXPECT_WARNED(t, want) \
	KT_EXPECT(t, !strcmp(captured.text, want), "warned \"%s\", want \"%s\"", captured.text, want)

static void has_matches_only_the_bare_word(struct ktest *t)
{
	KT_EXPECT(t, cmdline_has("bench", "bench"), "bench alone");
	KT_EXPECT(t, cmdline_has("  ktest=off   bench  ", "bench"), "bench among spaces");
	KT_EXPECT(t, !cmdline_has("bench=off", "bench"), "bench=off is not bench");
	KT_EXPECT(t, !cmdline_has("bench=", "bench"), "bench= is not bench");
	KT_EXPECT(t, !cmdline_has("benchmark xbench", "bench"), "longer words are not bench");
	KT_EXPECT(t, !cmdline_has("", "bench") && !cmdline_has(NULL, "bench"), "empty command line");
}

static void value_needs_key_equals_and_the_last_one_wins(struct ktest *t)
{
	size_t len = 99;
	const char *line = "ktest ktestx=1 xktest=2 ktest=a,b ktest=c*";
	const char *v = cmdline_value(line, "ktest", &len);

	KT_ASSERT(t, v != NULL, "ktest=c* is there");
	KT_EXPECT(t, v == line + strlen(line) - 2 && len == 2, "value \"%.*s\"", (int)len, v);
	KT_EXPECT(t, cmdline_value("ktest", "ktest", &len) == NULL && len == 0, "a bare word has no value");
	v = cmdline_value("a ktest= b", "ktest", &len);
	KT_EXPECT(t, v != NULL && len == 0 && *v == ' ', "ktest= has the empty value");
	KT_EXPECT(t, cmdline_value("ktestx=1 xktest=2", "ktest", &len) == NULL, "other keys");
}

static void get_refuses_a_value_that_does_not_fit(struct ktest *t)
{
	char buf[4] = "xyz";

	KT_EXPECT(t, cmdline_get("screen=off", "screen", buf, sizeof(buf)) && !strcmp(buf, "off"),
		  "screen=off gave \"%s\"", buf);
	KT_EXPECT(t, !cmdline_get("screen=offx", "screen", buf, sizeof(buf)) && !strcmp(buf, ""),
		  "a cut value is not returned: \"%s\"", buf);
	KT_EXPECT(t, !cmdline_get("screen", "screen", buf, sizeof(buf)) && !strcmp(buf, ""),
		  "a bare word has no value: \"%s\"", buf);
}

static void every_option_the_kernel_reads_is_known(struct ktest *t)
{
	const char *line = "bench ktest=printk hugepagesz=2M hugepages=1 screen=off nosmp nr_cpus=2 mm_picture "
			   "page_owner=on slub_debug";

	capture_forget();
	KT_EXPECT_EQ(t, cmdline_warn_unknown(line, capture_printf), 0);
	EXPECT_WARNED(t, "");
}

static void unknown_options_are_listed_in_one_line(struct ktest *t)
{
	capture_forget();
	KT_EXPECT_EQ(t, cmdline_warn_unknown("  foo ktest=printk  bar=1 bench=off ktest bench ", capture_printf), 4);
	EXPECT_WARNED(t, "Unknown kernel command line parameters \"foo bar=1 bench=off ktest\", will be ignored.\n");
	capture_forget();
	KT_EXPECT_EQ(t, cmdline_warn_unknown("'$HOME;\\\"", capture_printf), 1);
	EXPECT_WARNED(t, "Unknown kernel command line parameters \"'$HOME;\\\"\", will be ignored.\n");
	capture_forget();
	KT_EXPECT_EQ(t, cmdline_warn_unknown("   ", capture_printf), 0);
	EXPECT_WARNED(t, "");
}

static unsigned long requested(unsigned int order) { return hugetlb_counters(order).requested; }

static void hugepages_after_an_invalid_hugepagesz_are_ignored(struct ktest *t)
{
	unsigned long r2m = requested(HPAGE_ORDER), r1g = requested(GIGANTIC_ORDER);

	hugetlb_request(HPAGE_ORDER, 0);
	hugetlb_request(GIGANTIC_ORDER, 0);
	capture_forget();
	KT_EXPECT_EQ(t, cmdline_setup_hugetlb("hugepagesz=1G hugepagesz=4M hugepages=3 hugepages=5 "
					      "hugepagesz=2M hugepages=7", capture_printf), 3);
	KT_EXPECT_EQ(t, requested(GIGANTIC_ORDER), 0);
	KT_EXPECT_EQ(t, requested(HPAGE_ORDER), 7);
	EXPECT_WARNED(t, "hugetlb: ignoring hugepagesz=4M: not a huge page size (2M or 1G); the hugepages= "
			 "after it are ignored too\n"
			 "hugetlb: ignoring hugepages=3: it follows hugepagesz=4M, which is not a huge page size\n"
			 "hugetlb: ignoring hugepages=5: it follows hugepagesz=4M, which is not a huge page size\n");
	hugetlb_request(HPAGE_ORDER, r2m);
	hugetlb_request(GIGANTIC_ORDER, r1g);
}

static void hugepagesz_takes_sizes_with_suffixes(struct ktest *t)
{
	unsigned long r2m = requested(HPAGE_ORDER), r1g = requested(GIGANTIC_ORDER);

	capture_forget();
	KT_EXPECT_EQ(t, cmdline_setup_hugetlb("hugepagesz=2048K hugepages=4 hugepagesz=1g hugepages=1",
					      capture_printf), 0);
	KT_EXPECT_EQ(t, requested(HPAGE_ORDER), 4);
	KT_EXPECT_EQ(t, requested(GIGANTIC_ORDER), 1);
	KT_EXPECT_EQ(t, cmdline_setup_hugetlb("hugepagesz=1073741824 hugepages=2 hugepagesz=2m hugepages=6",
					      capture_printf), 0);
	KT_EXPECT_EQ(t, requested(GIGANTIC_ORDER), 2);
	KT_EXPECT_EQ(t, requested(HPAGE_ORDER), 6);
	EXPECT_WARNED(t, "");
	KT_EXPECT_EQ(t, cmdline_setup_hugetlb("hugepagesz= hugepagesz=2 hugepagesz=M hugepagesz=4K "
					      "hugepagesz=99999999999999999999G hugepagesz=3M", capture_printf), 6);
	hugetlb_request(HPAGE_ORDER, r2m);
	hugetlb_request(GIGANTIC_ORDER, r1g);
}

static void a_clamped_count_is_reported(struct ktest *t)
{
	unsigned long r2m = requested(HPAGE_ORDER), r1g = requested(GIGANTIC_ORDER);
	char want[256];

	capture_forget();
	KT_EXPECT_EQ(t, cmdline_setup_hugetlb("hugepagesz=1G hugepages=1000", capture_printf), 1);
	KT_EXPECT_EQ(t, requested(GIGANTIC_ORDER), HUGETLB_MAX_GIGANTIC);
	snprintf(want, sizeof(want), "hugetlb: hugepages=1000 asks for 1000 pages of 1G; using %d, "
		 "the most that pool takes\n", HUGETLB_MAX_GIGANTIC);
	EXPECT_WARNED(t, want);
	hugetlb_request(HPAGE_ORDER, r2m);
	hugetlb_request(GIGANTIC_ORDER, r1g);
}

static void a_count_that_is_not_a_number_is_reported(struct ktest *t)
{
	unsigned long r2m = requested(HPAGE_ORDER), r1g = requested(GIGANTIC_ORDER);

	hugetlb_request(HPAGE_ORDER, 3);
	capture_forget();
	KT_EXPECT_EQ(t, cmdline_setup_hugetlb("hugepages=12x hugepages= hugepages=-1 "
					      "hugepages=99999999999999999999999", capture_printf), 4);
	KT_EXPECT_EQ(t, requested(HPAGE_ORDER), 3);
	KT_EXPECT(t, strstr(captured.text, "hugetlb: ignoring hugepages=12x: not a number of pages\n") == captured.text,
		  "warned \"%s\"", captured.text);
	hugetlb_request(HPAGE_ORDER, r2m);
	hugetlb_request(GIGANTIC_ORDER, r1g);
}

static void nosmp_and_nr_cpus_limit_the_cpus(struct ktest *t)
{
	capture_forget();
	KT_EXPECT_EQ(t, cmdline_cpu_limit("", capture_printf), CMDLINE_NO_CPU_LIMIT);
	KT_EXPECT_EQ(t, cmdline_cpu_limit(NULL, capture_printf), CMDLINE_NO_CPU_LIMIT);
	KT_EXPECT_EQ(t, cmdline_cpu_limit("nosmp", capture_printf), 1);
	KT_EXPECT_EQ(t, cmdline_cpu_limit("nr_cpus=3", capture_printf), 3);
	KT_EXPECT_EQ(t, cmdline_cpu_limit("nr_cpus=3 nr_cpus=12", capture_printf), 12); /* the last one */
	KT_EXPECT_EQ(t, cmdline_cpu_limit("nr_cpus=3 nosmp", capture_printf), 1);
	KT_EXPECT_EQ(t, cmdline_cpu_limit("nosmp=1 nr_cpus", capture_printf), CMDLINE_NO_CPU_LIMIT);
	EXPECT_WARNED(t, "");
}

static void a_cpu_count_that_is_not_one_or_more_is_reported(struct ktest *t)
{
	capture_forget();
	KT_EXPECT_EQ(t, cmdline_cpu_limit("nr_cpus=0", capture_printf), CMDLINE_NO_CPU_LIMIT);
	EXPECT_WARNED(t, "smp: ignoring nr_cpus=0: not a number of CPUs (1 or more)\n");
	capture_forget();
	KT_EXPECT_EQ(t, cmdline_cpu_limit("nosmp nr_cpus=2x", capture_printf), 1);
	EXPECT_WARNED(t, "smp: ignoring nr_cpus=2x: not a number of CPUs (1 or more)\n");
	capture_forget();
	KT_EXPECT_EQ(t, cmdline_cpu_limit("nr_cpus=", capture_printf), CMDLINE_NO_CPU_LIMIT);
	EXPECT_WARNED(t, "smp: ignoring nr_cpus=: not a number of CPUs (1 or more)\n");
	capture_forget();
	KT_EXPECT_EQ(t, cmdline_cpu_limit("nr_cpus=99999999999999999999999", capture_printf), CMDLINE_NO_CPU_LIMIT);
	EXPECT_WARNED(t, "smp: ignoring nr_cpus=99999999999999999999999: not a number of CPUs (1 or more)\n");
}

static void page_owner_is_on_only_with_page_owner_on(struct ktest *t)
{
	capture_forget();
	KT_EXPECT(t, !cmdline_page_owner(NULL, capture_printf), "no command line: off");
	KT_EXPECT(t, !cmdline_page_owner("page_owner", capture_printf), "a bare word: off");
	KT_EXPECT(t, cmdline_page_owner("page_owner=on", capture_printf), "page_owner=on: on");
	KT_EXPECT(t, !cmdline_page_owner("page_owner=on page_owner=off", capture_printf), "the last one wins");
	EXPECT_WARNED(t, "");
	KT_EXPECT(t, !cmdline_page_owner("page_owner=yes", capture_printf), "page_owner=yes: off");
	EXPECT_WARNED(t, "page_owner: ignoring page_owner=yes: say on or off\n");
}

KTEST_SUITE(cmdline,
	    KTEST_CASE(has_matches_only_the_bare_word),
	    KTEST_CASE(value_needs_key_equals_and_the_last_one_wins),
	    KTEST_CASE(get_refuses_a_value_that_does_not_fit),
	    KTEST_CASE(every_option_the_kernel_reads_is_known),
	    KTEST_CASE(unknown_options_are_listed_in_one_line),
	    KTEST_CASE(hugepages_after_an_invalid_hugepagesz_are_ignored),
	    KTEST_CASE(hugepagesz_takes_sizes_with_suffixes),
	    KTEST_CASE(a_clamped_count_is_reported),
	    KTEST_CASE(a_count_that_is_not_a_number_is_reported),
	    KTEST_CASE(nosmp_and_nr_cpus_limit_the_cpus),
	    KTEST_CASE(a_cpu_count_that_is_not_one_or_more_is_reported),
	    KTEST_CASE(page_owner_is_on_only_with_page_owner_on));
