/* SPDX-License-Identifier: MIT */
/*
 * The self-test runner: walks the suites in the "ktest_suites" section, runs the selected ones
 * and prints KTAP version 1 (https://docs.kernel.org/dev-tools/ktap.html) to the console.
 */
#include "tests/ktest/ktest.h"

#include <stdarg.h>

#include "tests/ktest/ktest_leak.h"
#include "lib/printk.h"
#include "lib/string.h"
#include "mm/lock_check.h"

/* The linker provides these for a section whose name is a C identifier. */
extern const struct ktest_suite *const __start_ktest_suites[];
extern const struct ktest_suite *const __stop_ktest_suites[];

struct totals {
	int pass, fail, skip;
};

void (*ktest_misuse_hook)(bool during);

static struct ktest_failure failures[KTEST_FAILURES_KEPT];
static size_t nfailures;

size_t ktest_failures(const struct ktest_failure **list)
{
	*list = failures;
	return nfailures;
}

static int leaky_suites; /* since boot: a suite may run ktest_run() itself (ktest_runner) */

int ktest_leaky_suites(void)
{
	return leaky_suites;
}

void ktest_fail(struct ktest *t, const char *file, int line, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printk("    # %s:%d: %s\n", file, line, msg);
	t->failures++;
}

void ktest_skip(struct ktest *t, const char *reason)
{
	t->skip_reason = reason;
}

/* Does name match one comma-separated pattern of filter ("buddy", "mm_*")? */
static bool pattern_matches(const char *name, const char *pat, size_t len)
{
	if (len && pat[len - 1] == '*')
		return !strncmp(name, pat, len - 1);
	return strlen(name) == len && !strncmp(name, pat, len);
}

static bool suite_selected(const char *name, const char *filter)
{
	if (!filter || !*filter)
		return true;
	while (*filter) {
		const char *comma = strchr(filter, ',');
		size_t len = comma ? (size_t)(comma - filter) : strlen(filter);
		if (pattern_matches(name, filter, len))
			return true;
		filter += len + (comma ? 1 : 0);
	}
	return false;
}

static void run_case(const struct ktest_suite *s, const struct ktest_case *c, int num, struct totals *tot)
{
	struct ktest t = { .name = c->name };
	unsigned long lock_reports = lock_check_report_count();

	if (c->provokes_reports && ktest_misuse_hook)
		ktest_misuse_hook(true);
	c->run(&t);
	if (c->provokes_reports && ktest_misuse_hook)
		ktest_misuse_hook(false);
	/* Only a misuse case may make mm/lock_check.h report: anywhere else it is a locking bug. */
	if (!c->provokes_reports && lock_check_report_count() != lock_reports)
		ktest_fail(&t, __FILE__, __LINE__, "no lock_check report during the case, saw %lu",
			   lock_check_report_count() - lock_reports);
	if (t.failures) {
		printk("    not ok %d %s\n", num, c->name);
		tot->fail++;
		if (nfailures < KTEST_FAILURES_KEPT)
			failures[nfailures++] = (struct ktest_failure){ s->name, c->name };
	} else if (t.skip_reason) {
		printk("    ok %d %s # SKIP %s\n", num, c->name, t.skip_reason);
		tot->skip++;
	} else {
		printk("    ok %d %s\n", num, c->name);
		tot->pass++;
	}
}

/* Runs one suite as an indented subtest; returns true when no case failed. */
static bool run_suite(const struct ktest_suite *s, int num, struct totals *all)
{
	struct totals tot = { 0, 0, 0 };
	const char *skip = s->skip_if ? s->skip_if() : NULL;

	printk("    KTAP version 1\n    # Subtest: %s\n", s->name);
	if (skip) {
		printk("    1..0 # SKIP %s\nok %d %s # SKIP %s\n", skip, num, s->name, skip);
		all->skip += (int)s->ncases;
		return true;
	}
	printk("    1..%zu\n", s->ncases);
	struct ktest_mem_mark before = ktest_mem_mark();
	for (size_t i = 0; i < s->ncases; i++)
		run_case(s, &s->cases[i], (int)i + 1, &tot);
	struct ktest_mem_mark after = ktest_mem_mark();
	bool leaked = false;
	if (s->flags & KTEST_REBUILDS_MM)
		printk("    # leak check: not done, the suite rebuilds the allocator\n");
	else
		leaked = ktest_leak_check(&before, &after, printk) != 0;
	leaky_suites += leaked;
	printk("    # %s: Totals: pass:%d fail:%d skip:%d total:%zu\n", s->name, tot.pass, tot.fail,
	       tot.skip, s->ncases);
	printk("%s %d %s\n", tot.fail || leaked ? "not ok" : "ok", num, s->name);
	all->pass += tot.pass;
	all->fail += tot.fail;
	all->skip += tot.skip;
	return tot.fail == 0 && !leaked;
}

int ktest_count_selected(const char *filter)
{
	int n = 0;

	for (const struct ktest_suite *const *p = __start_ktest_suites; p < __stop_ktest_suites; p++)
		n += suite_selected((*p)->name, filter);
	return n;
}

/* Says that filter selects nothing, and which suites there are. */
static void report_no_suite(const char *filter)
{
	printk("ktest: no suite matches \"%s\"; the suites are:", filter);
	for (const struct ktest_suite *const *p = __start_ktest_suites; p < __stop_ktest_suites; p++)
		printk(" %s", (*p)->name);
	printk("\n");
}

int ktest_run(const char *filter, int *ran, int *skipped)
{
	struct totals all = { 0, 0, 0 };
	int nsuites = ktest_count_selected(filter), num = 0;
	const struct ktest_suite *const *p;

	if (ran)
		*ran = 0;
	if (skipped)
		*skipped = 0;
	nfailures = 0;
	if (!nsuites) {
		report_no_suite(filter ? filter : "");
		return -1;
	}
	printk("KTAP version 1\n1..%d\n", nsuites);
	for (p = __start_ktest_suites; p < __stop_ktest_suites; p++)
		if (suite_selected((*p)->name, filter))
			run_suite(*p, ++num, &all);
	printk("# Totals: pass:%d fail:%d skip:%d total:%d\n", all.pass, all.fail, all.skip,
	       all.pass + all.fail + all.skip);
	if (ran)
		*ran = all.pass + all.fail + all.skip;
	if (skipped)
		*skipped = all.skip;
	return all.fail;
}
