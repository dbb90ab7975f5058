/* SPDX-License-Identifier: MIT */
/*
 * Mailboxes between stress workers: one single-producer, single-consumer ring per (sender,
 * receiver) pair, so neither side ever waits and no lock is needed. The sender publishes a slot
 * with a release store of tail, the receiver frees it with a release store of head; each side's
 * acquire load of the other's index orders the slot's contents (and the block's stamp, written
 * before it was sent) before its own use.
 */
#ifndef TESTS_STRESS_MAILBOX_H
#define TESTS_STRESS_MAILBOX_H

#include "tests/stress/block.h"

#define MAILBOX_SLOTS 32

struct mailbox {
	struct block slot[MAILBOX_SLOTS];
	unsigned long head; /* next slot to read: written by the receiver */
	unsigned long tail; /* next slot to write: written by the sender */
};

/* Sender side: free slots (more may appear, never fewer, until the sender sends). */
static inline unsigned long mailbox_room(struct mailbox *m)
{
	return MAILBOX_SLOTS - (m->tail - __atomic_load_n(&m->head, __ATOMIC_ACQUIRE));
}

/* Sender side. False when the ring is full (the sender keeps the block). */
static inline bool mailbox_send(struct mailbox *m, const struct block *b)
{
	unsigned long tail = m->tail;

	if (tail - __atomic_load_n(&m->head, __ATOMIC_ACQUIRE) == MAILBOX_SLOTS)
		return false;
	m->slot[tail % MAILBOX_SLOTS] = *b;
	__atomic_store_n(&m->tail, tail + 1, __ATOMIC_RELEASE);
	return true;
}

/* Receiver side. False when the ring is empty. */
static inline bool mailbox_receive(struct mailbox *m, struct block *b)
{
	unsigned long head = m->head;

	if (head == __atomic_load_n(&m->tail, __ATOMIC_ACQUIRE))
		return false;
	*b = m->slot[head % MAILBOX_SLOTS];
	__atomic_store_n(&m->head, head + 1, __ATOMIC_RELEASE);
	return true;
}

#endif
