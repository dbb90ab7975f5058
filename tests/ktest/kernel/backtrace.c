/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of backtraces on the real stack, and of the exception report that prints one: a
 * fault provoked in a known function must be reported with that function's name at RIP and its
 * caller's (this file's test case) in the trace.
 */
#include "kernel/backtrace.h"
#include "kernel/ksyms/ksyms.h"
#include "tests/ktest/ktest.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"
#include "kernel/traps.h"
#include "lib/printk.h"
#include "lib/string.h"
#include "tests/ktest/text_capture.h"

#define VEC_BP 3

/* Expects the text %pB gives for pc to start with name and "+". */
static void expect_named(struct ktest *t, uintptr_t pc, const char *name, const char *what)
{
	char buf[PRINTK_SYMBOL_LEN];
	size_t n = strlen(name);

	snprintf(buf, sizeof(buf), "%pB", (void *)pc);
	KT_EXPECT(t, !strncmp(buf, name, n) && buf[n] == '+', "%s is \"%s\", want %s+...", what, buf,
		  name);
}

static void backtrace_save_starts_at_its_caller_and_reaches_kmain(struct ktest *t)
{
	uintptr_t pcs[BACKTRACE_MAX_DEPTH];
	int n = backtrace_save(pcs, BACKTRACE_MAX_DEPTH);
	bool kmain_seen = false;

	KT_ASSERT(t, n >= 3 && n < BACKTRACE_MAX_DEPTH, "%d frames", n);
	expect_named(t, pcs[0], "backtrace_save_starts_at_its_caller_and_reaches_kmain", "frame 0");
	for (int i = 0; i < n; i++) {
		struct printk_symbol sym;

		kmain_seen |= ksym_lookup(pcs[i] - 1, &sym) && !strcmp(sym.name, "kmain");
	}
	KT_EXPECT(t, kmain_seen, "kmain is not in the trace of %d frames", n);
	expect_named(t, pcs[n - 1], "higher_half", "the last frame");
	KT_EXPECT_EQ(t, backtrace_save(pcs, 1), 1);
	KT_EXPECT_EQ(t, backtrace_save(pcs, 0), 0);
}

/* What each CPU's walk of its own stack gave. */
static struct {
	int frames;
	enum backtrace_end end;
} walks[NR_CPUS_MAX];

static void walk_own_stack(void *arg)
{
	uintptr_t pcs[BACKTRACE_MAX_DEPTH];
	unsigned int cpu = this_cpu_id();

	(void)arg;
	walks[cpu].frames = backtrace_from((uintptr_t)__builtin_frame_address(0), pcs,
					   BACKTRACE_MAX_DEPTH, &walks[cpu].end);
}

/* Each CPU knows its stack's bounds, and its chain ends where its first function began it. */
static void every_cpu_walks_its_stack_to_the_first_frame(struct ktest *t)
{
	for (unsigned int cpu = 0; cpu < NR_CPUS_MAX; cpu++)
		walks[cpu].frames = -1;
	on_each_cpu(walk_own_stack, NULL);
	for (unsigned int cpu = 0; cpu < smp_num_cpus(); cpu++) {
		KT_EXPECT(t, walks[cpu].frames >= 2, "CPU %u: %d frames", cpu, walks[cpu].frames);
		KT_EXPECT(t, walks[cpu].end == BACKTRACE_OUTERMOST, "CPU %u: the walk ended with %d",
			  cpu, walks[cpu].end);
	}
}

/*
 * The breakpoint's RIP is in this function, and its frame links to its caller. GCC gives a leaf
 * function that needs no stack no frame, even with -fno-omit-frame-pointer; asking for the frame's
 * address makes it build one, as any function with locals or calls has.
 */
__attribute__((noinline)) static void *breakpoint_in_a_known_function(void)
{
	__asm__ volatile("int3" ::: "memory");
	return __builtin_frame_address(0);
}

static void exception_report_names_the_function_and_its_callers(struct ktest *t)
{
	const char *rip = "RIP 0008:breakpoint_in_a_known_function+0x";
	const char *caller = " exception_report_names_the_function_and_its_callers+0x";
	struct trap_record seen = { 0 };

	capture_console_start();
	trap_expect(VEC_BP, &seen);
	KT_EXPECT(t, breakpoint_in_a_known_function() != NULL, "no frame");
	KT_EXPECT(t, trap_expect_done(), "no #BP was delivered");
	capture_console_stop();

	expect_named(t, seen.rip, "breakpoint_in_a_known_function", "RIP");
	KT_ASSERT(t, seen.trace_len >= 2, "the recorded trace has %d frames", seen.trace_len);
	expect_named(t, seen.trace[0], "exception_report_names_the_function_and_its_callers",
		     "the first frame of the recorded trace");
	KT_EXPECT(t, strstr(captured.text, rip), "the report has no \"%s\"", rip);
	KT_EXPECT(t, strstr(captured.text, "Call Trace:"), "the report has no \"Call Trace:\"");
	KT_EXPECT(t, strstr(captured.text, caller), "the report has no \"%s\"", caller);
}

KTEST_SUITE(backtrace,
	    KTEST_CASE(backtrace_save_starts_at_its_caller_and_reaches_kmain),
	    KTEST_CASE(every_cpu_walks_its_stack_to_the_first_frame),
	    KTEST_CASE(exception_report_names_the_function_and_its_callers));
