/* SPDX-License-Identifier: MIT */
/*
 * Doubly linked list operations on struct list_head (mm/types.h): the free lists, the pcp lists
 * and the hugetlb pool's free list all use these. Inline, so the allocator's fast path stays a
 * handful of stores.
 */
#ifndef MM_LIST_H
#define MM_LIST_H

#include "mm/types.h"

/* An empty list: head points to itself both ways. */
static inline void list_init(struct list_head *head)
{
	head->next = head->prev = head;
}

static inline bool list_empty(const struct list_head *head)
{
	return head->next == head;
}

/* Inserts entry right after head (at the front of the list). */
static inline void list_add(struct list_head *entry, struct list_head *head)
{
	struct list_head *first = head->next;

	entry->next = first;
	entry->prev = head;
	first->prev = entry;
	head->next = entry;
}

/* Unlinks entry from whatever list holds it, in O(1); entry's own links are left as they were. */
static inline void list_del(struct list_head *entry)
{
	entry->prev->next = entry->next;
	entry->next->prev = entry->prev;
}

#endif
