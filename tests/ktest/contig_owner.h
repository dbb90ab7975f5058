/* SPDX-License-Identifier: MIT */
/*
 * A test owner of movable blocks (mm/migrate.h) for the contiguous-range suites: it keeps its
 * blocks in a table, fills each with a pattern of its own, and lets them move by switching its
 * table entry. Shared by tests/ktest/contig_alloc.c and the host suite on a large map
 * (tests/mm/contig_gigantic_test.c).
 */
#ifndef TESTS_KTEST_CONTIG_OWNER_H
#define TESTS_KTEST_CONTIG_OWNER_H

#include "lib/string.h"
#include "mm/migrate.h"
#include "mm/page_alloc.h"

#define CONTIG_OWNER_MAX 512

struct contig_owner {
	struct page *blocks[CONTIG_OWNER_MAX];
	unsigned int n;
	unsigned long moved; /* migrate_page() calls */
};

/* One owner at a time (the suites run one case at a time): the operations find it here. */
static struct contig_owner *contig_owner_now;

/* The pattern word i of block b holds: no two blocks, no two words alike. */
static inline uint64_t contig_owner_word(unsigned int b, unsigned long i)
{
	return 0x636f6e7469670000ULL ^ ((uint64_t)b << 32) ^ i;
}

static inline bool contig_owner_isolate(struct page *page)
{
	(void)page;
	return true;
}

static inline int contig_owner_migrate(struct page *dst, struct page *src)
{
	struct contig_owner *o = contig_owner_now;

	for (unsigned int b = 0; b < o->n; b++)
		if (o->blocks[b] == src) {
			o->blocks[b] = dst;
			o->moved++;
			return 0;
		}
	return -EINVAL; /* not ours: nothing changed */
}

static inline void contig_owner_putback(struct page *page)
{
	(void)page;
}

static const struct movable_operations contig_owner_ops = {
	.name = "contig test owner",
	.isolate_page = contig_owner_isolate,
	.migrate_page = contig_owner_migrate,
	.putback_page = contig_owner_putback,
};

static inline void contig_owner_init(struct contig_owner *o)
{
	o->n = 0;
	o->moved = 0;
	contig_owner_now = o;
}

/* Adopts the allocated order-0 page (count 1): fills it with its pattern and makes it movable. */
static inline void contig_owner_adopt(struct contig_owner *o, struct page *page)
{
	uint64_t *w = page_address(page);
	unsigned int b = o->n++;

	for (unsigned long i = 0; i < PAGE_SIZE / sizeof(*w); i++)
		w[i] = contig_owner_word(b, i);
	o->blocks[b] = page;
	set_page_movable(page, &contig_owner_ops);
}

/* The first block whose contents are not its pattern, or -1 when every one holds it. */
static inline int contig_owner_bad_block(const struct contig_owner *o)
{
	for (unsigned int b = 0; b < o->n; b++) {
		const uint64_t *w = page_address(o->blocks[b]);

		for (unsigned long i = 0; i < PAGE_SIZE / sizeof(*w); i++)
			if (w[i] != contig_owner_word(b, i))
				return (int)b;
	}
	return -1;
}

/* How many of the owner's blocks are in [start, end). */
static inline unsigned int contig_owner_in(const struct contig_owner *o, unsigned long start, unsigned long end)
{
	unsigned int in = 0;

	for (unsigned int b = 0; b < o->n; b++)
		in += page_to_pfn(o->blocks[b]) >= start && page_to_pfn(o->blocks[b]) < end;
	return in;
}

/*
 * Frees every block as an owner must (mm/migrate.h, "Freeing"): no longer movable, then its
 * reference put, so that a scanner's reference taken a moment before frees it with the last put.
 */
static inline void contig_owner_free_all(struct contig_owner *o)
{
	for (unsigned int b = 0; b < o->n; b++) {
		clear_page_movable(o->blocks[b]);
		put_page(o->blocks[b]);
	}
	o->n = 0;
	contig_owner_now = NULL;
}

#endif
