/* SPDX-License-Identifier: MIT */
/* Basic types shared by mm/: physical addresses, page frame numbers, list links. */
#ifndef MM_TYPES_H
#define MM_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t phys_addr_t;
typedef unsigned int gfp_t;

#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#define PAGE_MASK (~(PAGE_SIZE - 1))
#define PFN_DOWN(x) ((unsigned long)((x) >> PAGE_SHIFT))
#define PFN_UP(x) ((unsigned long)(((x) + PAGE_SIZE - 1) >> PAGE_SHIFT))
#define PFN_PHYS(pfn) ((phys_addr_t)(pfn) << PAGE_SHIFT)

#define ALIGN_UP(x, a) (((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a) - 1))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define BITS_PER_LONG (8 * sizeof(unsigned long))

/* The branch a condition usually takes: the other is laid out out of the hot path. */
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* Errors returned (negated) by mm/ calls. */
#define EINVAL 22
#define ENOMEM 12
#define EBUSY 16
#define EAGAIN 11

/* A doubly linked list link: O(1) removal from the middle of a free list. */
struct list_head {
	struct list_head *next, *prev;
};

#endif
