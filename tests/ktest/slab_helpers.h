/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the slab self-tests (tests/ktest/slab_*.c): the kmalloc size classes (the
 * list is slab_shared.h), the free page count with every cache shrunk (empty slabs and per-CPU
 * leftovers are kept on purpose by the allocator, so a count taken without shrinking first would
 * see them as lost), fill patterns that tell objects apart, and a parser for slabinfo lines.
 */
#ifndef TESTS_KTEST_SLAB_HELPERS_H
#define TESTS_KTEST_SLAB_HELPERS_H

#include "tests/ktest/ktest.h"
#include "lib/printk.h"
#include "lib/string.h"
#include "mm/compound.h"
#include "mm/memmap.h"
#include "mm/page_alloc.h"
#include "mm/slab.h"
#include "tests/ktest/mm_helpers.h"
#include "tests/ktest/slab_shared.h"
#include "tests/ktest/text_capture.h"

/* The class kmalloc(size) must use (size 1..8192). */
static inline size_t slab_test_class_of(size_t size)
{
	for (size_t i = 0; i < SLAB_TEST_NCLASSES; i++)
		if (size <= slab_test_classes[i])
			return slab_test_classes[i];
	return 0;
}

/* The alignment kmalloc promises for a class: natural for powers of two (up to a page), else 8. */
static inline size_t slab_test_class_align(size_t class_size)
{
	if (class_size & (class_size - 1))
		return 8;
	return class_size > PAGE_SIZE ? PAGE_SIZE : class_size;
}

/* The order of the compound page a large kmalloc(size) gets. */
static inline unsigned int slab_test_large_order(size_t size)
{
	unsigned int order = 0;

	while ((PAGE_SIZE << order) < size)
		order++;
	return order;
}

/* Free pages once every cache has given back what it keeps. */
static inline unsigned long slab_test_free_pages(void)
{
	kmem_cache_shrink_all();
	return nr_free_pages();
}

/*
 * Skips the case and returns true when fewer than pages are free (every cache shrunk): a
 * workload sized for an ordinary machine does not fit a tiny one (test-qemu-bios-7m), and a case
 * that ran out of memory half way would leave what it took to the cases after it.
 */
static inline bool slab_skip_without_free_pages(struct ktest *t, unsigned long pages)
{
	static char reason[120]; /* the runner prints it as soon as the case returns */
	unsigned long have = slab_test_free_pages();

	if (have >= pages)
		return false;
	snprintf(reason, sizeof(reason), "needs %lu free pages (%lu KiB), %lu free here", pages,
		 pages * (PAGE_SIZE >> 10), have);
	ktest_skip(t, reason);
	return true;
}

/* Expects the free page count (with every cache shrunk) to be before again. */
static inline bool slab_expect_free_pages(struct ktest *t, unsigned long before)
{
	unsigned long now = slab_test_free_pages();

	return KT_EXPECT(t, now == before, "%lu free pages after shrinking every cache, %lu before (%ld)",
			 now, before, (long)(now - before));
}

/* The byte of pattern seed at offset i: differs between neighbouring seeds and offsets. */
static inline uint8_t slab_test_byte(unsigned long seed, size_t i)
{
	return (uint8_t)(seed * 131 + i * 7 + (i >> 8) + 1);
}

static inline void slab_test_fill(void *p, size_t n, unsigned long seed)
{
	uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		b[i] = slab_test_byte(seed, i);
}

/* The offset of the first byte that is not pattern seed, or n when all are. */
static inline size_t slab_test_check(const void *p, size_t n, unsigned long seed)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i] != slab_test_byte(seed, i))
			return i;
	return n;
}

/* Is every one of the n bytes at p zero? */
static inline bool slab_test_zeroed(const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

static inline bool slab_test_aligned(const void *p, size_t align)
{
	return ((uintptr_t)p & (align - 1)) == 0;
}

/* Sorts n pointers by address (insertion sort: the tests hold a few thousand at most). */
static inline void slab_test_sort(void **v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		void *x = v[i];
		size_t j = i;

		for (; j > 0 && (uintptr_t)v[j - 1] > (uintptr_t)x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/*
 * A cache with debugging on or off whatever the default: MM_DEBUG builds would otherwise only
 * ever test the debug layout, never the per-CPU lists users ship. slab_set_debug() also switches
 * every empty kmalloc cache, and one that got the new cache's descriptor meanwhile would keep the
 * other mode; so every kmalloc class holds an object (NULL if none could be had) while it runs.
 */
static inline struct kmem_cache *slab_test_cache(const char *name, size_t size, size_t align, unsigned int flags,
						 bool debug)
{
	bool was = slab_test_debug_default();
	void *hold[SLAB_TEST_NCLASSES];
	struct kmem_cache *c;

	for (size_t i = 0; i < SLAB_TEST_NCLASSES; i++)
		hold[i] = kmalloc(slab_test_classes[i], GFP_KERNEL | __GFP_NOWARN);
	slab_set_debug(debug);
	c = kmem_cache_create(name, size, align, flags | (debug ? SLAB_DEBUG : 0));
	slab_set_debug(was);
	for (size_t i = 0; i < SLAB_TEST_NCLASSES; i++)
		kfree(hold[i]);
	return c;
}

/* A slabinfo line taken apart: name, active, total, objsize, objperslab, pagesperslab. */
struct slab_test_info {
	char name[48];
	unsigned long active, total, objsize, objperslab, pagesperslab;
	int fields; /* how many of the six were found */
};

/* Skips spaces and tabs; copies the next word (at most size - 1 bytes) to word. */
static inline const char *slab_test_word(const char *s, char *word, size_t size)
{
	size_t n = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	while (*s && *s != ' ' && *s != '\t' && *s != '\n') {
		if (n + 1 < size)
			word[n++] = *s;
		s++;
	}
	word[n] = '\0';
	return s;
}

static inline bool slab_test_number(const char *w, unsigned long *v)
{
	*v = 0;
	if (!*w)
		return false;
	for (; *w; w++) {
		if (*w < '0' || *w > '9')
			return false;
		*v = *v * 10 + (unsigned long)(*w - '0');
	}
	return true;
}

/* Parses "name active total objsize objperslab pagesperslab ..."; returns the fields found. */
static inline int slab_test_parse_info(const char *line, struct slab_test_info *info)
{
	unsigned long *nums[] = { &info->active, &info->total, &info->objsize, &info->objperslab,
				  &info->pagesperslab };
	char word[48];

	memset(info, 0, sizeof(*info));
	line = slab_test_word(line, info->name, sizeof(info->name));
	if (!info->name[0])
		return 0;
	info->fields = 1;
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		line = slab_test_word(line, word, sizeof(word));
		if (!slab_test_number(word, nums[i]))
			break;
		info->fields++;
	}
	return info->fields;
}

/* slabinfo_line() of c, parsed; expects all six fields. */
static inline bool slab_test_info_of(struct ktest *t, const struct kmem_cache *c, struct slab_test_info *info)
{
	char line[160];
	int n = slabinfo_line(c, line, sizeof(line));

	if (!KT_EXPECT(t, n > 0 && (size_t)n < sizeof(line), "slabinfo_line returned %d", n))
		return false;
	return KT_EXPECT(t, slab_test_parse_info(line, info) == 6, "slabinfo line \"%s\": %d fields parsed",
			 line, info->fields);
}

/*
 * Returns true when the case must stop before putting n objects of kmalloc's class s at once:
 * skipped when the memory free now has too few blocks for the slabs they fill (pagesperslab pages
 * each, objperslab objects, as slabinfo says), or failed when slabinfo cannot tell.
 */
static inline bool slab_skip_without_room(struct ktest *t, size_t s, size_t n)
{
	struct slab_test_info info;
	unsigned int order = 0;

	if (!slab_test_info_of(t, kmalloc_cache(s), &info) ||
	    !KT_EXPECT(t, info.objperslab > 0, "class %zu: no objects per slab", s))
		return true;
	while ((1UL << order) < info.pagesperslab)
		order++;
	return mm_skip_without_blocks(t, order, (n + info.objperslab - 1) / info.objperslab, GFP_KERNEL);
}

#endif
