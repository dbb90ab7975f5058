/* SPDX-License-Identifier: MIT */
/*
 * A block the stress test holds, and the stamp it writes into the block's memory: who allocated
 * it, when (a per-worker sequence number), its order, kind and pfn. The stamp is written at the
 * first page and, for blocks of more than one page, at the last; it is checked against the
 * holder's record before the block is freed and overwritten then. Two holders of one block
 * overwrite each other's stamps, so the second check of a block handed out twice fails.
 */
#ifndef TESTS_STRESS_BLOCK_H
#define TESTS_STRESS_BLOCK_H

#include "mm/memmap.h"
#include "mm/page.h"

enum block_kind {
	BLOCK_PLAIN,       /* alloc_pages() without __GFP_COMP (or order 0) */
	BLOCK_COMPOUND,    /* alloc_pages(__GFP_COMP), order >= 1 */
	BLOCK_HUGE,        /* alloc_huge_page(): a pool page, dropped with put_page() */
	BLOCK_SHARED,      /* a compound page several workers hold references to; counting destructor */
	BLOCK_SHARED_HUGE, /* a pool page several workers hold references to */
	BLOCK_IRQ,         /* allocated in interrupt context */
	BLOCK_KMALLOC,     /* kmalloc(): obj and size, not page; freed with kfree() */
	BLOCK_CACHE,       /* kmem_cache_alloc() from stress_caches[order]; kmem_cache_free() */
	BLOCK_IRQ_KMALLOC, /* kmalloc(GFP_ATOMIC) in interrupt context */
};

/* The holder's record. */
struct block {
	struct page *page; /* NULL for the object kinds */
	uint64_t seq;
	uint16_t owner; /* worker id, or STRESS_IRQ_OWNER + cpu */
	uint8_t order, kind;
	uint32_t size;  /* object kinds: the bytes asked for */
	uint8_t *obj;   /* object kinds: the object */
};

/* An object rather than a block of pages? */
static inline bool block_is_object(const struct block *b)
{
	return b->kind == BLOCK_KMALLOC || b->kind == BLOCK_CACHE || b->kind == BLOCK_IRQ_KMALLOC;
}

#define STRESS_IRQ_OWNER 0x100
#define STAMP_MAGIC 0x5354414d50454421ULL /* "STAMPED!" */
#define STAMP_FREED 0x46524545442d2d21ULL /* "FREED--!" */

/* What a block holds at its first page (and its last). */
struct stamp {
	uint64_t magic;
	uint64_t seq;
	uint64_t pfn;
	uint32_t owner, order, kind;
	uint32_t destroyed; /* BLOCK_SHARED: set once by the destructor (atomically) */
	/*
	 * Shared pages (first page only): the references handed out when the page was made (the
	 * maker's and one per worker it was sent to), and how many of their holders have taken them
	 * up (atomically). Once all have, each holder drops its reference at its next look, so the
	 * last references of a page fall on several CPUs at about the same time.
	 */
	uint32_t holders, arrived;
};

static inline struct stamp *stamp_at(struct page *page, unsigned long index)
{
	return (struct stamp *)page_address(page + index);
}

static inline unsigned long block_pages(const struct block *b) { return 1UL << b->order; }

/*
 * An object's stamp: a tag of its record in its first and (16 bytes and up) last 8 bytes
 * (objects are 8 bytes at least), and a byte of the tag in up to 56 bytes between, checked and
 * overwritten the same way.
 */
static inline uint64_t obj_tag(const struct block *b)
{
	return STAMP_MAGIC ^ b->seq ^ (uint64_t)b->owner << 48 ^ (uint64_t)b->size << 32 ^ b->kind;
}

static inline void obj_stamp_write(const struct block *b, uint64_t tag)
{
	size_t mid = b->size - 8 < 56 ? b->size - 8 : 56;

	__builtin_memcpy(b->obj, &tag, 8);
	if (b->size >= 16)
		__builtin_memcpy(b->obj + b->size - 8, &tag, 8);
	for (size_t i = 8; i < 8 + mid && i < b->size - 8; i++)
		b->obj[i] = (uint8_t)(tag >> (i % 8 * 8));
}

static inline bool obj_stamp_ok(const struct block *b)
{
	uint64_t tag = obj_tag(b), first, last;
	size_t mid = b->size - 8 < 56 ? b->size - 8 : 56;

	__builtin_memcpy(&first, b->obj, 8);
	__builtin_memcpy(&last, b->obj + (b->size >= 16 ? b->size - 8 : 0), 8);
	if (first != tag || last != tag)
		return false;
	for (size_t i = 8; i < 8 + mid && i < b->size - 8; i++)
		if (b->obj[i] != (uint8_t)(tag >> (i % 8 * 8)))
			return false;
	return true;
}

static inline void stamp_write(const struct block *b)
{
	if (block_is_object(b)) {
		obj_stamp_write(b, obj_tag(b));
		return;
	}
	struct stamp s = {
		.magic = STAMP_MAGIC, .seq = b->seq, .pfn = page_to_pfn(b->page), .owner = b->owner,
		.order = b->order, .kind = b->kind,
	};

	*stamp_at(b->page, 0) = s;
	if (b->order)
		*stamp_at(b->page, block_pages(b) - 1) = s;
}

/* Does the stamp at index of b's block say what b says? */
static inline bool stamp_matches(const struct block *b, unsigned long index)
{
	const struct stamp *s = stamp_at(b->page, index);

	return s->magic == STAMP_MAGIC && s->seq == b->seq && s->pfn == page_to_pfn(b->page) &&
	       s->owner == b->owner && s->order == b->order && s->kind == b->kind;
}

/* Both stamps of b's block match b. */
static inline bool stamp_ok(const struct block *b)
{
	if (block_is_object(b))
		return obj_stamp_ok(b);
	return stamp_matches(b, 0) && (!b->order || stamp_matches(b, block_pages(b) - 1));
}

/* Marks the block as given back, just before it is: a second holder's check then fails. */
static inline void stamp_erase(const struct block *b)
{
	if (block_is_object(b)) {
		obj_stamp_write(b, STAMP_FREED);
		return;
	}
	stamp_at(b->page, 0)->magic = STAMP_FREED;
	if (b->order)
		stamp_at(b->page, block_pages(b) - 1)->magic = STAMP_FREED;
}

#endif
