/* SPDX-License-Identifier: MIT */
/*
 * Writers on other CPUs while vmalloc pages migrate: the core that the kernel's suite
 * (tests/ktest/kernel/vmalloc_smp.c, one writer per other CPU) and the host's
 * (tests/mm/vmalloc_host_test.c, one thread per CPU) share. Freestanding.
 *
 * Each writer owns a vmalloc'd area and writes it word by word, round after round: word i of
 * round r holds writer_word(id, r, i), read back at once (a write that went to a page being
 * copied, and so was lost, reads back wrong). Meanwhile the migrating CPU moves every page of
 * every area again and again. When told to stop, a writer finishes its round; the area must then
 * hold that round's words, every one of them.
 */
#ifndef TESTS_KTEST_VMALLOC_WRITERS_H
#define TESTS_KTEST_VMALLOC_WRITERS_H

#include "mm/migrate.h"
#include "mm/vmalloc.h"

struct vmalloc_writer {
	uint64_t *area;
	unsigned long words;
	unsigned int id;
	unsigned long rounds;    /* rounds completed */
	unsigned long bad_reads; /* words that did not read back as written */
	bool started, done;      /* atomics: the writer has begun its first round; has stopped */
};

/* What writer id writes in word i of round r: differs per writer, round and word. */
static inline uint64_t writer_word(unsigned int id, unsigned long r, unsigned long i)
{
	return (uint64_t)id << 56 ^ (uint64_t)r << 24 ^ i ^ 0x5a5a000000000000ull;
}

static inline void writer_round(struct vmalloc_writer *w, unsigned long r)
{
	volatile uint64_t *p = w->area;

	for (unsigned long i = 0; i < w->words; i++) {
		uint64_t v = writer_word(w->id, r, i);

		p[i] = v;
		if (p[i] != v)
			w->bad_reads++;
	}
}

/* The writer's loop: rounds until *stop, at least min_rounds. */
static inline void writer_run(struct vmalloc_writer *w, const bool *stop, unsigned long min_rounds)
{
	__atomic_store_n(&w->started, true, __ATOMIC_RELEASE);
	while (w->rounds < min_rounds || !__atomic_load_n(stop, __ATOMIC_ACQUIRE)) {
		writer_round(w, w->rounds + 1);
		w->rounds++;
	}
	__atomic_store_n(&w->done, true, __ATOMIC_RELEASE);
}

/* Words of the area that do not hold the last round's value (0: no write lost). */
static inline unsigned long writer_lost_words(const struct vmalloc_writer *w)
{
	unsigned long lost = 0;

	for (unsigned long i = 0; i < w->words; i++)
		lost += w->area[i] != writer_word(w->id, w->rounds, i);
	return lost;
}

/*
 * Moves every page of the area of pages pages at addr to a new page; returns how many moved.
 * A page that vmalloc_to_page() still names afterwards did not move.
 */
static inline unsigned long migrate_vmalloc_area(void *addr, unsigned long pages)
{
	unsigned long moved = 0;

	for (unsigned long i = 0; i < pages; i++) {
		struct page *old = vmalloc_to_page((char *)addr + i * PAGE_SIZE);

		if (old && migrate_page_to_new(old, GFP_HIGHUSER_MOVABLE) == 0 &&
		    vmalloc_to_page((char *)addr + i * PAGE_SIZE) != old)
			moved++;
	}
	return moved;
}

#endif
