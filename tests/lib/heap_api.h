/* SPDX-License-Identifier: MIT */
/*
 * The existing heap's calls (heap.c) as pointers, for user.c: that file includes mm/prefix.h and
 * mm's headers, where kmalloc is mm's, so it cannot name the heap's kmalloc; heap.c can.
 */
#ifndef TESTS_LIB_HEAP_API_H
#define TESTS_LIB_HEAP_API_H

#include <stdbool.h>
#include <stddef.h>

struct heap_api {
	void *(*alloc)(size_t size, unsigned int flags);         /* its kmalloc(): NULL when full */
	void (*free)(const void *p);                             /* its kfree(): counted only */
	void *(*pages)(unsigned int flags, unsigned int order);  /* its alloc_pages(): an address */
	bool (*owns)(const void *p);                             /* whether p lies in the heap */
	const unsigned int *calls;                               /* its three calls so far */
	const unsigned long *own_max_pfn;                        /* its global of that name, 0x1234 */
	const int *own_zones;                                    /* its global array of 3, 1 2 3 */
};

struct heap_api heap_api(void); /* heap.c's calls */

#endif
