/* SPDX-License-Identifier: MIT */
/*
 * Allocations in interrupt context during the stress (tests/stress/stress.h): each tick on a CPU
 * frees the block its last tick kept, if any, then allocates a small block (or, every other
 * tick, a kmalloc(GFP_ATOMIC) object) that it frees at once or keeps until the next tick. In the kernel the timer interrupt calls it; the workers
 * also call it with interrupts off, which is the same thing to mm/.
 */
#include "mm/page_alloc.h"
#include "mm/slab.h"
#include "tests/stress/stress_state.h"

struct irq_slot stress_irq_slots[STRESS_MAX_WORKERS];

static void irq_free(unsigned int cpu, const struct block *b)
{
	if (!stress_check_stamp(STRESS_IRQ_OWNER + cpu, 0, b, "in interrupt context"))
		return;
	stamp_erase(b);
	if (block_is_object(b))
		stress_object_free(b);
	else
		__free_pages(b->page, b->order);
}

/* Every other tick: a kmalloc(GFP_ATOMIC) object of 8 bytes to 2 KiB instead of pages. */
static bool irq_object(unsigned int cpu, struct irq_slot *s, struct block *b)
{
	uint32_t size = 8u << (mm_test_rand(&s->rng) % 9);

	*b = (struct block){ .seq = ++s->seq, .owner = (uint16_t)(STRESS_IRQ_OWNER + cpu), .kind = BLOCK_IRQ_KMALLOC,
			     .size = size };
	b->obj = kmalloc(size, GFP_ATOMIC | __GFP_NOWARN);
	s->allocs++;
	if (!b->obj) {
		s->failures++;
		return false;
	}
	stamp_write(b);
	return true;
}

void stress_irq_tick(unsigned int cpu)
{
	struct irq_slot *s = &stress_irq_slots[cpu];
	unsigned int order;
	struct page *page;
	struct block b;

	if (cpu >= STRESS_MAX_WORKERS)
		return;
	if (s->kept.page || s->kept.obj) {
		irq_free(cpu, &s->kept);
		s->kept.page = NULL;
		s->kept.obj = NULL;
	}
	if (s->seq & 1) {
		if (!irq_object(cpu, s, &b))
			return;
		if (mm_test_rand(&s->rng) & 1)
			s->kept = b;
		else
			irq_free(cpu, &b);
		return;
	}
	order = (unsigned int)(mm_test_rand(&s->rng) % (PCP_MAX_ORDER + 1));
	page = alloc_pages(STRESS_IRQ_GFP, order);
	s->allocs++;
	if (!page) {
		s->failures++;
		return;
	}
	b = (struct block){ .page = page, .seq = ++s->seq, .owner = (uint16_t)(STRESS_IRQ_OWNER + cpu),
			    .order = (uint8_t)order, .kind = BLOCK_IRQ };
	stamp_write(&b);
	if (mm_test_rand(&s->rng) & 1)
		s->kept = b;
	else
		irq_free(cpu, &b);
}

void stress_irq_release(void)
{
	for (unsigned int cpu = 0; cpu < STRESS_MAX_WORKERS; cpu++) {
		struct irq_slot *s = &stress_irq_slots[cpu];

		if (s->kept.page || s->kept.obj)
			irq_free(cpu, &s->kept);
		s->kept.page = NULL;
		s->kept.obj = NULL;
	}
}
