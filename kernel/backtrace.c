/* SPDX-License-Identifier: MIT */
/* Walking frame pointers (kernel/backtrace.h). */
#include "kernel/backtrace.h"

#include <stddef.h>

#include "kernel/percpu.h"
#include "lib/printk.h"

/* A frame as the prologue "push rbp; mov rbp, rsp" leaves it, at the address in RBP. */
struct frame {
	uintptr_t caller_fp;
	uintptr_t return_address;
};

int backtrace_walk(uintptr_t fp, uintptr_t lo, uintptr_t hi, uintptr_t *pcs, int max,
		   enum backtrace_end *end)
{
	enum backtrace_end why;
	int n = 0;

	for (;;) {
		const struct frame *f = (const struct frame *)fp;

		if (!fp) {
			why = BACKTRACE_OUTERMOST;
			break;
		}
		if (fp % 8) {
			why = BACKTRACE_UNALIGNED;
			break;
		}
		if (fp < lo || fp >= hi || hi - fp < sizeof(*f)) {
			why = BACKTRACE_OFF_STACK;
			break;
		}
		if (!f->return_address) {
			why = BACKTRACE_OUTERMOST;
			break;
		}
		if (n >= max) {
			why = BACKTRACE_DEPTH;
			break;
		}
		pcs[n++] = f->return_address;
		lo = fp + sizeof(*f); /* the next frame must lie above this one */
		fp = f->caller_fp;
	}
	if (end)
		*end = why;
	return n;
}

int backtrace_from(uintptr_t fp, uintptr_t *pcs, int max, enum backtrace_end *end)
{
	const struct cpu_local *me = this_cpu_local();

	return backtrace_walk(fp, me->stack_lo, me->stack_hi, pcs, max, end);
}

/* noinline: its own frame is where the walk starts, so it must have one. */
__attribute__((noinline)) int backtrace_save(uintptr_t *pcs, int max)
{
	return backtrace_from((uintptr_t)__builtin_frame_address(0), pcs, max, NULL);
}

void backtrace_print(const char *prefix, uintptr_t fp)
{
	uintptr_t pcs[BACKTRACE_MAX_DEPTH];
	enum backtrace_end end;
	int n = backtrace_from(fp, pcs, BACKTRACE_MAX_DEPTH, &end);

	printk("%sCall Trace:\n", prefix);
	for (int i = 0; i < n; i++)
		printk("%s %pB\n", prefix, (void *)pcs[i]);
	if (end == BACKTRACE_UNALIGNED)
		printk("%s (the trace stops: a frame pointer is not 8-byte aligned)\n", prefix);
	else if (end == BACKTRACE_OFF_STACK)
		printk("%s (the trace stops: a frame pointer leaves this CPU's stack)\n", prefix);
	else if (end == BACKTRACE_DEPTH)
		printk("%s (the trace stops after %d frames)\n", prefix, n);
}
