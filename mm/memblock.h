/* SPDX-License-Identifier: MIT */
/*
 * memblock: the early boot allocator, used before the buddy allocator exists.
 *
 * Two sorted lists of disjoint physical ranges: memory (usable RAM from the firmware map) and
 * reserved (the first 1 MiB, the kernel image, boot information, the memmap, early page tables
 * ...). Touching reserved ranges merge only when the same user (what) reserved them. Free memory
 * is memory minus reserved. Allocations are taken from the top down and simply
 * become reserved ranges. Once the buddy allocator has taken every free range (hand-off),
 * memblock_retire() ends its life: any later call is a bug and panics.
 *
 * Each list starts in a static array of MEMBLOCK_INIT_REGIONS ranges. Once memblock_allow_resize()
 * has been called (when every range in use is reserved, so that free memory really is free), a
 * full list doubles into memory allocated from memblock itself, as often as needed; the old array
 * is given back. Without resizing, or when no free memory is left for a larger array, an add or a
 * reserve that needs a new range fails and says so: nothing is ever silently dropped.
 */
#ifndef MM_MEMBLOCK_H
#define MM_MEMBLOCK_H

#include "mm/types.h"

/* Ranges each list holds before it first grows. */
#define MEMBLOCK_INIT_REGIONS 128

struct memblock_region {
	phys_addr_t base;
	phys_addr_t size;
	const char *what; /* reserved list: who reserved it first (reports, the memory picture) */
};

struct memblock_type {
	const char *name;
	unsigned int cnt;
	unsigned int max;                  /* capacity of regions[] */
	struct memblock_region *regions;   /* sorted by base, disjoint, touching ranges merged */
};

struct memblock {
	struct memblock_type memory;
	struct memblock_type reserved;
	bool can_resize;          /* memblock_allow_resize() was called */
	bool retired;
	phys_addr_t current_limit; /* allocations lie below this (what the caller can reach) */
};

/* A range the caller must keep out of the allocator (kernel image, boot information ...). */
struct mm_reservation {
	phys_addr_t base, size;
	const char *what;
};

/* The one early allocator. Tests may save a copy and restore it. */
extern struct memblock mm_memblock;

/**
 * memblock_reset() - Empty both lists and start again.
 *
 * The lists go back in their static arrays; revives a retired allocator, forbids resizing and
 * lifts the allocation limit (start of mm_init(), tests).
 */
void memblock_reset(void);

/**
 * memblock_allow_resize() - Let full lists grow from here on.
 *
 * Call it once every range in use is reserved.
 */
void memblock_allow_resize(void);

/**
 * memblock_set_current_limit() - Keep allocations (and the lists' growth) below a limit.
 * @limit: the limit, until it is changed (e.g. 4 GiB while only that much is mapped).
 */
void memblock_set_current_limit(phys_addr_t limit);

/**
 * memblock_add() - Add a range of RAM.
 * @base: its start.
 * @size: its size: the range is [base, base + size).
 *
 * Return: 0, or -ENOMEM (reported, range not added: its RAM stays unused) when the list is full
 * and cannot grow.
 */
int memblock_add(phys_addr_t base, phys_addr_t size);

/**
 * memblock_reserve() - Mark a range reserved.
 * @base: its start.
 * @size: its size: the range is [base, base + size).
 * @what: who reserved it, for reports and the memory picture.
 *
 * Return: 0, or -ENOMEM (reported) when the list is full and cannot grow: the caller must then
 * not let the range be handed out.
 */
int memblock_reserve(phys_addr_t base, phys_addr_t size, const char *what);

/**
 * memblock_alloc() - Allocate early memory.
 * @size: bytes.
 * @align: their alignment, a power of two.
 *
 * As high as possible below the current limit, and reserved. The memory is not cleared.
 *
 * Return: the physical address, or 0 when no free range fits (or the reservation cannot be
 * recorded).
 */
phys_addr_t memblock_alloc(phys_addr_t size, phys_addr_t align);

/**
 * memblock_alloc_range() - memblock_alloc() below an address.
 * @size: bytes.
 * @align: their alignment, a power of two.
 * @max_addr: the whole block lies below it too (e.g. 4 GiB for early page tables).
 *
 * Return: as memblock_alloc().
 */
phys_addr_t memblock_alloc_range(phys_addr_t size, phys_addr_t align, phys_addr_t max_addr);

/**
 * memblock_alloc_named() - memblock_alloc_range() reserving the block under a name.
 * @size: bytes.
 * @align: their alignment, a power of two.
 * @max_addr: the whole block lies below it.
 * @what: the name reports and the memory picture (mm/mm_picture.h) show; the other two name it
 *        "memblock_alloc".
 *
 * Return: as memblock_alloc().
 */
phys_addr_t memblock_alloc_named(phys_addr_t size, phys_addr_t align, phys_addr_t max_addr, const char *what);

/**
 * memblock_alloc_within() - memblock_alloc_named() inside [min_addr, max_addr).
 * @size: bytes.
 * @align: their alignment, a power of two.
 * @min_addr: the whole block lies at or above it (a node's memory: mm/node.h).
 * @max_addr: and below this.
 * @what: the name, as memblock_alloc_named()'s.
 *
 * Return: as memblock_alloc().
 */
phys_addr_t memblock_alloc_within(phys_addr_t size, phys_addr_t align, phys_addr_t min_addr, phys_addr_t max_addr,
				  const char *what);

/**
 * memblock_for_each_free() - Visit every free range (memory minus reserved) in address order.
 * @fn: called as fn(base, end, arg) for each.
 * @arg: passed to fn.
 */
void memblock_for_each_free(void (*fn)(phys_addr_t base, phys_addr_t end, void *arg), void *arg);

/**
 * memblock_free_bytes() - Bytes of free memory (memory minus reserved).
 *
 * Return: the bytes.
 */
phys_addr_t memblock_free_bytes(void);

/**
 * memblock_reserved_by() - Who reserved memory in a range, for a message.
 * @base: the range's first byte.
 * @end: one past its last byte.
 *
 * Answers after memblock_retire() too: the lists stay where they were, in memory that stays
 * reserved. Touching reservations are merged, so the name is that of the first of them.
 *
 * Return: the name of the first reserved region overlapping [@base, @end), or NULL if none does.
 */
const char *memblock_reserved_by(phys_addr_t base, phys_addr_t end);

/**
 * memblock_is_memory() - Is a range all usable RAM?
 * @base: the range's first byte.
 * @end: one past its last byte.
 *
 * Return: true when one memory region holds all of [@base, @end).
 */
bool memblock_is_memory(phys_addr_t base, phys_addr_t end);

/**
 * memblock_retire() - End the early allocator's life: any later call panics.
 */
void memblock_retire(void);

#endif
