/* SPDX-License-Identifier: MIT */
/*
 * Backtraces: the chain of calls that led here, found by following frame pointers. Every C
 * function of the kernel is built with one (-fno-omit-frame-pointer): it pushes its caller's RBP
 * and points RBP at the copy, so [RBP] is the caller's frame and [RBP + 8] the return address
 * into the caller. A function without a frame leaves no link, so its caller is missing from a
 * trace that starts inside it (the caller's caller is there): the nasm code, and the leaf
 * functions that need no stack, which GCC builds without a frame all the same.
 */
#ifndef KERNEL_BACKTRACE_H
#define KERNEL_BACKTRACE_H

#include <stdint.h>

/* The most frames a printed backtrace shows. */
#define BACKTRACE_MAX_DEPTH 32

/* Why a walk stopped. */
enum backtrace_end {
	BACKTRACE_OUTERMOST, /* a NULL frame pointer or return address: the first frame of the stack */
	BACKTRACE_UNALIGNED, /* a frame pointer that is not a multiple of 8 */
	BACKTRACE_OFF_STACK, /* a frame that is not on the stack, above the one before it */
	BACKTRACE_DEPTH,     /* max frames taken, and there were more */
};

/*
 * Follows the frame pointers from fp, storing the return address of each frame in pcs (at most
 * max) and returns how many it stored; *end (if not NULL) says why it stopped. Reads only
 * 16-byte frames that lie whole in [lo, hi), each above the one before (stacks grow down, so
 * callers' frames lie higher), so a corrupted chain ends the walk instead of faulting or looping.
 */
int backtrace_walk(uintptr_t fp, uintptr_t lo, uintptr_t hi, uintptr_t *pcs, int max,
		   enum backtrace_end *end);

/* The same from fp, within this CPU's kernel stack (struct cpu_local's bounds). */
int backtrace_from(uintptr_t fp, uintptr_t *pcs, int max, enum backtrace_end *end);

/*
 * The return addresses of the calls that led to this call, the innermost first: pcs[0] is in the
 * function that called backtrace_save(). Returns how many it stored (at most max).
 */
int backtrace_save(uintptr_t *pcs, int max);

/*
 * Prints "Call Trace:" and one line per frame from fp (at most BACKTRACE_MAX_DEPTH), each
 * return address as %pB ("function+0xoff/0xsize"), every line starting with prefix; and a line
 * saying why the walk stopped, when it was not at the stack's first frame.
 */
void backtrace_print(const char *prefix, uintptr_t fp);

#endif
