/* SPDX-License-Identifier: MIT */
/*
 * The stress run's start and end (tests/stress/stress.h): the starting state recorded, the
 * counting destructor, the failure report, and the end checks: nothing held, every mailbox
 * empty, one destructor run per shared compound page, the hugetlb pool consistent and empty
 * again, no bad_page() or slab report or poison mismatch, and (the run's slab cache destroyed and
 * every cache shrunk) the free lists' shape as at the start.
 */
#include <stdarg.h>

#include "lib/printk.h"
#include "mm/arch.h"
#include "mm/bad_page.h"
#include "mm/compound_dtor.h"
#include "mm/hugetlb.h"
#include "mm/page_alloc.h"
#include "mm/poison.h"
#include "mm/slab.h"
#include "tests/ktest/slab_shared.h"
#include "tests/ktest/mm_shape.h"
#include "tests/stress/stress_state.h"

#define FAILURES_SHOWN 20

struct stress_config stress_cfg;
struct worker stress_workers[STRESS_MAX_WORKERS];
struct mailbox stress_mailboxes[STRESS_MAX_WORKERS][STRESS_MAX_WORKERS];
unsigned long stress_failures;
unsigned long stress_dtor_runs;
struct kmem_cache *stress_caches[2];

static struct {
	struct mm_shape shape;
	unsigned long bad_pages, mm_poison_errors, mm_slab_reports, lock_reports;
	bool slab_debug; /* the debug default before the run */
	struct hugetlb_counters pool;
} start;

void stress_fail(unsigned int who, unsigned long op, const char *fmt, ...)
{
	unsigned long n = __atomic_add_fetch(&stress_failures, 1, __ATOMIC_RELAXED);
	char msg[200];
	va_list ap;

	if (n > FAILURES_SHOWN)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (who == STRESS_CHECKS)
		printk("stress: FAIL (seed %#llx): %s\n", (unsigned long long)stress_cfg.seed, msg);
	else if (who >= STRESS_IRQ_OWNER)
		printk("stress: FAIL: cpu %u in interrupt context (seed %#llx): %s\n", who - STRESS_IRQ_OWNER,
		       (unsigned long long)stress_cfg.seed, msg);
	else
		printk("stress: FAIL: worker %u, operation %lu (seed %#llx): %s\n", who, op,
		       (unsigned long long)stress_cfg.seed, msg);
}

void stress_object_free(const struct block *b)
{
	if (b->kind == BLOCK_CACHE)
		kmem_cache_free(stress_caches[b->order], b->obj);
	else
		kfree(b->obj);
}

bool stress_check_stamp(unsigned int who, unsigned long op, const struct block *b, const char *when)
{
	const struct stamp *s;

	if (stamp_ok(b))
		return true;
	if (block_is_object(b)) {
		uint64_t first, last;

		__builtin_memcpy(&first, b->obj, 8);
		__builtin_memcpy(&last, b->obj + b->size - 8, 8);
		stress_fail(who, op,
			    "stamp %s: %u-byte object %p kind %u from %#x seq %llu: tag %#llx expected, the object "
			    "says %#llx .. %#llx (handed out twice, or written after free?)", when, b->size,
			    (void *)b->obj, b->kind, b->owner, (unsigned long long)b->seq,
			    (unsigned long long)obj_tag(b), (unsigned long long)first, (unsigned long long)last);
		return false;
	}
	s = stamp_at(b->page, 0);
	stress_fail(who, op,
		    "stamp %s: pfn %#lx order %u kind %u from %#x seq %llu, but the block says magic %#llx "
		    "owner %#x seq %llu order %u pfn %#llx (handed out twice, or written after free?)",
		    when, page_to_pfn(b->page), b->order, b->kind, b->owner, (unsigned long long)b->seq,
		    (unsigned long long)s->magic, s->owner, (unsigned long long)s->seq, s->order,
		    (unsigned long long)s->pfn);
	return false;
}

void stress_shared_dtor(struct page *head)
{
	struct stamp *s = page_address(head);

	if (s->magic != STAMP_MAGIC || s->kind != BLOCK_SHARED)
		stress_fail(STRESS_CHECKS, 0, "destructor on pfn %#lx: stamp magic %#llx kind %u",
			    page_to_pfn(head), (unsigned long long)s->magic, s->kind);
	else if (__atomic_exchange_n(&s->destroyed, 1, __ATOMIC_RELAXED))
		stress_fail(s->owner, 0, "destructor ran twice on pfn %#lx (seq %llu)", page_to_pfn(head),
			    (unsigned long long)s->seq);
	__atomic_add_fetch(&stress_dtor_runs, 1, __ATOMIC_RELAXED);
	s->magic = STAMP_FREED;
	free_compound_page(head);
}

int stress_prepare(const struct stress_config *cfg)
{
	if (!cfg->workers || cfg->workers > STRESS_MAX_WORKERS) {
		printk("stress: %u workers: between 1 and %d\n", cfg->workers, STRESS_MAX_WORKERS);
		return -1;
	}
	if (register_compound_dtor(stress_shared_dtor, "stress_shared"))
		return -1;
	stress_cfg = *cfg;
	memset(stress_workers, 0, sizeof(stress_workers));
	memset(stress_mailboxes, 0, sizeof(stress_mailboxes));
	memset(stress_irq_slots, 0, sizeof(stress_irq_slots));
	for (unsigned int i = 0; i < STRESS_MAX_WORKERS; i++) {
		stress_workers[i].id = i;
		stress_workers[i].rng = stress_seed(cfg->seed, i);
		stress_irq_slots[i].rng = stress_seed(~cfg->seed, i);
	}
	stress_failures = stress_dtor_runs = 0;
	stress_worker_reset();
	stress_movable_reset();
	/* The pool starts empty, so that its pages are in the shape compared at the end. */
	start.pool = hugetlb_counters(HPAGE_ORDER);
	hugetlb_set_overcommit(0);
	hugetlb_set_pool_size(0);
	if (hugetlb_counters(HPAGE_ORDER).total) {
		printk("stress: the huge page pool cannot be emptied (%lu pages in use)\n",
		       hugetlb_counters(HPAGE_ORDER).in_use);
		return -1;
	}
	start.bad_pages = mm_bad_page_reports;
	start.mm_poison_errors = mm_poison_errors;
	start.mm_slab_reports = mm_slab_reports;
	start.lock_reports = lock_check_report_count();
	start.slab_debug = slab_test_debug_default();
	slab_set_debug(false); /* the kmalloc caches too, if nothing was kmalloc'd since boot */
	kmem_cache_shrink_all(); /* what the slabs keep is not in the shape, now or at the end */
	mm_shape_take(&start.shape);
	/* After the shape: the caches' descriptors (kmalloc objects) are given back at the end. */
	stress_caches[0] = kmem_cache_create("stress", STRESS_CACHE_SIZE, 0, 0);
	stress_caches[1] = kmem_cache_create("stress-debug", STRESS_CACHE_SIZE, 0, SLAB_DEBUG);
	if (!stress_caches[0] || !stress_caches[1]) {
		printk("stress: kmem_cache_create failed\n");
		return -1;
	}
	return 0;
}

static void add_totals(struct stress_totals *sum, const struct stress_totals *t)
{
	sum->ops += t->ops;
	sum->allocs += t->allocs;
	sum->alloc_failures += t->alloc_failures;
	sum->frees += t->frees;
	sum->sends += t->sends;
	sum->remote_frees += t->remote_frees;
	sum->shared_units += t->shared_units;
	sum->ref_ops += t->ref_ops;
	sum->together_drops += t->together_drops;
	sum->huge_allocs += t->huge_allocs;
	sum->reservations += t->reservations;
	sum->resizes += t->resizes;
	sum->kmallocs += t->kmallocs;
	sum->cache_allocs += t->cache_allocs;
	sum->object_remote_frees += t->object_remote_frees;
	sum->movable_allocs += t->movable_allocs;
	sum->movable_writes += t->movable_writes;
	sum->migrations += t->migrations;
	sum->migrate_pinned += t->migrate_pinned;
	sum->compactions += t->compactions;
	sum->compacted_pages += t->compacted_pages;
}

/* Nothing left in a worker's hands or in a mailbox. */
static void check_empty(void)
{
	for (unsigned int i = 0; i < stress_cfg.workers; i++) {
		const struct worker *w = &stress_workers[i];

		if (w->nheld || w->nshared)
			stress_fail(i, w->op, "still holds %u blocks and %u shared pages at the end", w->nheld,
				    w->nshared);
		if (w->op != stress_cfg.ops)
			stress_fail(i, w->op, "ran %lu of %lu operations", w->op, stress_cfg.ops);
		for (unsigned int from = 0; from < stress_cfg.workers; from++)
			if (stress_mailboxes[i][from].head != stress_mailboxes[i][from].tail)
				stress_fail(i, w->op, "%lu blocks left in the mailbox from worker %u",
					    stress_mailboxes[i][from].tail - stress_mailboxes[i][from].head, from);
	}
}

/* Empties the pool again and checks its counters and invariants. */
static void check_pool(void)
{
	struct hugetlb_counters c;
	const char *problem;

	hugetlb_set_overcommit(0);
	hugetlb_set_pool_size(0);
	c = hugetlb_counters(HPAGE_ORDER);
	if (c.total || c.free || c.reserved || c.surplus || c.in_use)
		stress_fail(STRESS_CHECKS, 0,
			    "huge page pool at the end: total %lu free %lu reserved %lu surplus %lu in use %lu, "
			    "all 0 expected", c.total, c.free, c.reserved, c.surplus, c.in_use);
	if ((problem = hugetlb_check()))
		stress_fail(STRESS_CHECKS, 0, "hugetlb_check: %s", problem);
}

static void check_shape(void)
{
	struct mm_shape now;
	int z, o;

	mm_shape_take(&now);
	if (mm_shape_equal(&now, &start.shape, &z, &o)) {
		return;
	} else if (o < NR_ORDERS) {
		stress_fail(STRESS_CHECKS, 0, "zone %s order %d: %lu free blocks at the end, %lu at the start",
			    mm_zones[z].name, o, now.nr_free[z][o], start.shape.nr_free[z][o]);
	} else {
		stress_fail(STRESS_CHECKS, 0, "%lu free pages at the end, %lu at the start", now.free_pages,
			    start.shape.free_pages);
	}
}

unsigned long stress_finish(struct stress_totals *sum)
{
	*sum = (struct stress_totals){ 0 };
	for (unsigned int i = 0; i < stress_cfg.workers; i++)
		add_totals(sum, &stress_workers[i].t);
	for (unsigned int cpu = 0; cpu < STRESS_MAX_WORKERS; cpu++)
		sum->irq_allocs += stress_irq_slots[cpu].allocs;
	sum->dtor_runs = stress_dtor_runs;
	check_empty();
	if (sum->dtor_runs != sum->shared_units)
		stress_fail(STRESS_CHECKS, 0, "%lu shared compound pages but %lu destructor runs",
			    sum->shared_units, sum->dtor_runs);
	stress_movable_finish();
	check_pool();
	for (int i = 0; i < 2; i++) {
		kmem_cache_destroy(stress_caches[i]); /* empty now, or it reports (and is kept) */
		stress_caches[i] = NULL;
	}
	kmem_cache_shrink_all();
	check_shape();
	slab_set_debug(start.slab_debug);
	if (mm_slab_reports != start.mm_slab_reports)
		stress_fail(STRESS_CHECKS, 0, "%lu slab reports", mm_slab_reports - start.mm_slab_reports);
	if (mm_bad_page_reports != start.bad_pages)
		stress_fail(STRESS_CHECKS, 0, "%lu bad_page() reports", mm_bad_page_reports - start.bad_pages);
	if (lock_check_report_count() != start.lock_reports)
		stress_fail(STRESS_CHECKS, 0, "%lu lock_check reports (mm/lock_check.h)",
			    lock_check_report_count() - start.lock_reports);
	if (mm_poison_errors != start.mm_poison_errors)
		stress_fail(STRESS_CHECKS, 0, "%lu poison mismatches (written after free)",
			    mm_poison_errors - start.mm_poison_errors);
	/* Back to the pool the run started with. */
	hugetlb_set_pool_size(start.pool.total - start.pool.surplus);
	hugetlb_set_overcommit(start.pool.overcommit);
	sum->failures = stress_failures;
	if (!stress_cfg.quiet) {
		printk("stress: %u workers, %lu operations: %lu allocations (%lu failed), %lu frees, %lu blocks "
		       "sent to another worker, %lu frees of another worker's blocks, %lu reference operations\n",
		       stress_cfg.workers, sum->ops, sum->allocs, sum->alloc_failures, sum->frees, sum->sends,
		       sum->remote_frees, sum->ref_ops);
		printk("stress: %lu shared compound pages and %lu destructor runs, %lu shared references dropped "
		       "together, %lu huge pages, %lu reservations, %lu pool resizes, %lu interrupt-context "
		       "allocations; %lu failures\n", sum->shared_units, sum->dtor_runs, sum->together_drops,
		       sum->huge_allocs, sum->reservations, sum->resizes, sum->irq_allocs, sum->failures);
		printk("stress: %lu kmalloc objects and %lu of a slab cache, %lu of them freed by another worker\n",
		       sum->kmallocs, sum->cache_allocs, sum->object_remote_frees);
		printk("stress: %lu movable blocks written %lu times, %lu migrations (%lu refused as pinned), %lu "
		       "compactions (compact_memory() moved %lu pages)\n", sum->movable_allocs, sum->movable_writes,
		       sum->migrations, sum->migrate_pinned, sum->compactions, sum->compacted_pages);
	}
	return sum->failures;
}
