/* SPDX-License-Identifier: MIT */
/*
 * The "existing kernel heap" the library test links mm/ next to: a kernel that already has its
 * own kmalloc(), kfree() and alloc_pages(), with the same names as mm/'s. A bump allocator over a
 * static array is enough; heap_owns() tells the test whose memory a pointer is. The three calls
 * are global, as a kernel's are: that is what clashes with a libmm.a built without MM_PREFIX.
 * It also has globals named as mm/'s internal ones were before they took the mm_ prefix (zones,
 * max_pfn): those must link next to mm/ with or without MM_PREFIX, and keep their values.
 * mm-names: exempt (these names are this kernel's, not mm/'s: a rename of mm/'s names skips them).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "heap_api.h"

static _Alignas(4096) unsigned char heap[64 << 10];
static size_t heap_used;
static unsigned int heap_calls; /* how many times this heap's own calls ran */

/* The kernel's own memory layout, in generic names a kernel may well use. */
unsigned long max_pfn = 0x1234;
int zones[3] = { 1, 2, 3 };

/* Bytes aligned to 16 (pages: 4096), or NULL when the heap is used up; never given back. */
static void *heap_take(size_t size, size_t align)
{
	size_t start = (heap_used + align - 1) & ~(align - 1);

	heap_calls++;
	if (start > sizeof(heap) || size > sizeof(heap) - start)
		return NULL;
	heap_used = start + size;
	return heap + start;
}

/* The kernel's own heap calls, as its own header would declare them. */
void *kmalloc(size_t size, unsigned int flags);
void kfree(const void *p);
void *alloc_pages(unsigned int flags, unsigned int order);

void *kmalloc(size_t size, unsigned int flags)
{
	(void)flags;
	return heap_take(size, 16);
}

void kfree(const void *p)
{
	(void)p;
	heap_calls++;
}

/* This heap's pages are plain addresses, not struct pages: the names clash, the types need not. */
void *alloc_pages(unsigned int flags, unsigned int order)
{
	(void)flags;
	return heap_take(4096UL << order, 4096);
}

static bool heap_owns(const void *p)
{
	return (const unsigned char *)p >= heap && (const unsigned char *)p < heap + sizeof(heap);
}

struct heap_api heap_api(void)
{
	return (struct heap_api){ .alloc = kmalloc, .free = kfree, .pages = alloc_pages, .owns = heap_owns, .calls = &heap_calls,
				  .own_max_pfn = &max_pfn, .own_zones = zones };
}
