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

/**
 * PFN_DOWN() - The frame holding a physical address.
 * @x: the address.
 *
 * Return: its frame number, rounded down.
 */
#define PFN_DOWN(x) ((unsigned long)((x) >> PAGE_SHIFT))

/**
 * PFN_UP() - The first frame at or above a physical address (or whole pages for a size).
 * @x: the address or size; it must be at most ULONG_MAX - PAGE_SIZE + 1, or the sum wraps.
 *
 * Return: the frame number, rounded up.
 */
#define PFN_UP(x) ((unsigned long)(((x) + PAGE_SIZE - 1) >> PAGE_SHIFT))

/**
 * PFN_PHYS() - The physical address of a frame.
 * @pfn: the frame number.
 *
 * Return: its first byte's address.
 */
#define PFN_PHYS(pfn) ((phys_addr_t)(pfn) << PAGE_SHIFT)

/**
 * ALIGN_UP() - Round up to a multiple of a power of two.
 * @x: the value.
 * @a: the alignment, a power of two.
 *
 * Return: the smallest multiple of a at or above x, in x's type.
 */
#define ALIGN_UP(x, a) (((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))

/**
 * ALIGN_DOWN() - Round down to a multiple of a power of two.
 * @x: the value.
 * @a: the alignment, a power of two.
 *
 * Return: the largest multiple of a at or below x, in x's type.
 */
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a) - 1))

/**
 * ARRAY_SIZE() - The number of elements of an array (not a pointer).
 * @a: the array.
 *
 * Return: its element count.
 */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/**
 * MIN() - The smaller of two values (each evaluated twice).
 * @a: a value.
 * @b: another.
 *
 * Return: the smaller.
 */
#define MIN(a, b) ((a) < (b) ? (a) : (b))

/**
 * MAX() - The larger of two values (each evaluated twice).
 * @a: a value.
 * @b: another.
 *
 * Return: the larger.
 */
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define BITS_PER_LONG (8 * sizeof(unsigned long))

/**
 * likely() - Say that a condition is usually true.
 * @x: the condition.
 *
 * The branch a condition usually takes: the other is laid out out of the hot path.
 *
 * Return: !!x.
 */
#define likely(x) __builtin_expect(!!(x), 1)

/**
 * unlikely() - Say that a condition is usually false.
 * @x: the condition.
 *
 * Return: !!x.
 */
#define unlikely(x) __builtin_expect(!!(x), 0)

/* Errors returned (negated) by mm/ calls. */
#define EINVAL 22
#define ENOMEM 12
#define EBUSY 16
#define EAGAIN 11
#define ERANGE 34
#define EPERM 1

/* A doubly linked list link: O(1) removal from the middle of a free list. */
struct list_head {
	struct list_head *next, *prev;
};

#endif
