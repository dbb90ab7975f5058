/* SPDX-License-Identifier: MIT */
/* Hints to the compiler, for mm/ and for the kernel around it. */
#ifndef MM_COMPILER_H
#define MM_COMPILER_H

/* The branch a condition usually takes: the other is laid out out of the hot path. */
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#endif
