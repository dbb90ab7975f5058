/* SPDX-License-Identifier: MIT */
/*
 * Self-test registry and KTAP reporter.
 *
 * A file registers a suite with KTEST_SUITE(); the runner finds every suite through the
 * "ktest_suites" linker section, runs the ones the command line selects, and prints KTAP
 * version 1. The same suites run in the kernel and, compiled for the host, under sanitizers.
 *
 *   static void buddy_splits_block(struct ktest *t) { KT_EXPECT(t, x == 1, "x=%d", x); }
 *   KTEST_SUITE(buddy, KTEST_CASE(buddy_splits_block));
 */
#ifndef KERNEL_KTEST_H
#define KERNEL_KTEST_H

#include <stdbool.h>
#include <stddef.h>

struct ktest {
	const char *name;        /* the case being run */
	int failures;            /* failed checks so far */
	const char *skip_reason; /* set by ktest_skip() */
};

struct ktest_case {
	const char *name;
	void (*run)(struct ktest *t);
	bool provokes_reports; /* misuses mm/ on purpose: bad page reports are expected */
};

struct ktest_suite {
	const char *name;
	const struct ktest_case *cases;
	size_t ncases;
	/* Optional: returns a reason to skip the whole suite on this machine, or NULL. */
	const char *(*skip_if)(void);
	unsigned int flags; /* KTEST_* below */
};

/*
 * The suite runs mm_init() again (on maps of its own, then the default one back): the free pages
 * before and after it are two different allocators', so the runner's leak check cannot compare
 * them and says so instead. Every other suite must leave as many free pages as it found.
 */
#define KTEST_REBUILDS_MM 0x1u

#define KTEST_CASE(fn) { #fn, fn, false }
/* A case that misuses mm/ on purpose and expects its reports ("BUG: Bad page state", "BUG: slab"). */
#define KTEST_MISUSE_CASE(fn) { #fn, fn, true }

/* Pointers, not the suites themselves, go in the section so sanitizer padding cannot break the walk. */
#define KTEST_SUITE_FLAGS(ident, skipfn, sflags, ...)                                              \
	static const struct ktest_case ident##_cases[] = { __VA_ARGS__ };                           \
	static const struct ktest_suite ident##_suite = {                                           \
		#ident, ident##_cases, sizeof(ident##_cases) / sizeof(ident##_cases[0]), skipfn, sflags \
	};                                                                                          \
	static const struct ktest_suite *const ident##_suite_ptr                                    \
		__attribute__((used, section("ktest_suites"))) = &ident##_suite

#define KTEST_SUITE_SKIP_IF(ident, skipfn, ...) KTEST_SUITE_FLAGS(ident, skipfn, 0, __VA_ARGS__)
#define KTEST_SUITE(ident, ...) KTEST_SUITE_SKIP_IF(ident, NULL, __VA_ARGS__)

/* Records a failed check with a message saying what was expected and what was seen. */
void ktest_fail(struct ktest *t, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Marks the current case as skipped (reported as "# SKIP reason"). */
void ktest_skip(struct ktest *t, const char *reason);

/* Checks cond; on failure reports "expr: message" and continues the case. */
#define KT_EXPECT(t, cond, ...)                                                   \
	((cond) ? true : (ktest_fail((t), __FILE__, __LINE__, "expected " #cond ": " __VA_ARGS__), false))

/* Like KT_EXPECT but ends the case on failure. */
#define KT_ASSERT(t, cond, ...)                  \
	do {                                      \
		if (!KT_EXPECT(t, cond, __VA_ARGS__)) \
			return;                           \
	} while (0)

/* Equality of two integers, printing both on failure. */
#define KT_EXPECT_EQ(t, a, b)                                                               \
	({                                                                                  \
		unsigned long long _a = (unsigned long long)(a), _b = (unsigned long long)(b);  \
		KT_EXPECT(t, _a == _b, "%s = %#llx, %s = %#llx", #a, _a, #b, _b);               \
	})

/*
 * The number of suites filter selects: NULL or "" selects all; otherwise filter is a
 * comma-separated list of suite names, each of which may end in '*' to match a prefix.
 */
int ktest_count_selected(const char *filter);

/*
 * Runs every suite filter selects, printing KTAP to the console. Returns the number of failed
 * cases; *ran and *skipped (if not NULL) receive the numbers of cases run and skipped. When filter
 * selects no suite, nothing runs: it prints a line naming the suites there are and returns -1.
 * A suite that leaves fewer (or more) free pages than it found is "not ok" with one diagnostic
 * per block it still holds (tests/ktest/ktest_leak.h), though its cases passed: ktest_leaky_suites()
 * counts those, and the caller fails the run if there is any.
 */
int ktest_run(const char *filter, int *ran, int *skipped);

/* The suites that failed the leak check since boot, in every ktest_run(). */
int ktest_leaky_suites(void);

/*
 * Called with true before a KTEST_MISUSE_CASE runs and with false after it, when set (the kernel
 * keeps the expected reports off the screen meanwhile; the serial port gets every line).
 */
extern void (*ktest_misuse_hook)(bool during);

/* A failed case of the last ktest_run(). */
struct ktest_failure {
	const char *suite, *name;
};

/* How many failed cases ktest_run() keeps by name (it counts them all). */
#define KTEST_FAILURES_KEPT 8

/* The failed cases of the last ktest_run(), at most KTEST_FAILURES_KEPT; returns their number. */
size_t ktest_failures(const struct ktest_failure **failures);

#endif
