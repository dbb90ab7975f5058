/* SPDX-License-Identifier: MIT */
/*
 * One stress worker (tests/stress/stress.h): a loop of random operations on mm/ from one CPU,
 * the mailboxes it trades blocks through, and its orderly end (it stops sending, takes in what
 * the others still send until every worker has stopped, then gives back all it holds).
 */
#include "lib/printk.h"
#include "mm/arch.h"
#include "mm/compound.h"
#include "mm/pcp.h"
#include "mm/hugetlb.h"
#include "mm/page_alloc.h"
#include "mm/slab.h"
#include "tests/ktest/slab_shared.h"
#include "tests/stress/stress_state.h"

/* Workers done with their operations (they send nothing more): release, read with acquire. */
static unsigned long done_sending;
static unsigned long started;

static unsigned long rnd(struct worker *w) { return mm_test_rand(&w->rng); }

static unsigned long rnd_below(struct worker *w, unsigned long n) { return rnd(w) % n; }

/* Small orders most of the time (as callers ask), every order up to MAX_ORDER often enough. */
static unsigned int random_order(struct worker *w)
{
	unsigned long r = rnd(w);

	if (!(r & 3))
		return (unsigned int)((r >> 2) % (MAX_ORDER + 1));
	return (unsigned int)__builtin_ctzl((r >> 2) | 1UL << MAX_ORDER);
}

static gfp_t random_gfp(struct worker *w, unsigned int order)
{
	unsigned long r = rnd(w);
	gfp_t gfp = __GFP_NOWARN;

	if ((r & 7) == 0)
		gfp |= __GFP_DMA;
	else if ((r & 7) <= 2)
		gfp |= __GFP_DMA32;
	if (((r >> 3) & 7) == 0)
		gfp |= __GFP_ZERO;
	if (order && (r >> 6 & 1))
		gfp |= __GFP_COMP;
#ifdef GFP_ATOMIC
	if (((r >> 7) & 7) == 0)
		gfp |= GFP_ATOMIC;
#endif
#ifdef __GFP_MOVABLE
	/* Mobility: unmovable, movable or reclaimable, so that the CPUs steal and claim pageblocks. */
	gfp |= (r >> 10) % 3 == 1 ? __GFP_MOVABLE : (r >> 10) % 3 == 2 ? __GFP_RECLAIMABLE : 0;
#endif
	return gfp;
}

/* The highest zone gfp allows. */
static unsigned int gfp_zone_limit(gfp_t gfp)
{
	return gfp & __GFP_DMA ? ZONE_DMA : gfp & __GFP_DMA32 ? ZONE_DMA32 : ZONE_NORMAL;
}

static bool page_start_zero(struct page *page)
{
	const uint64_t *q = page_address(page);

	for (int k = 0; k < 8; k++)
		if (q[k])
			return false;
	return true;
}

/* Are the first 64 bytes of the block's pages zero? Of every page up to 8, else of 8 spread out. */
static bool looks_zeroed(struct page *page, unsigned int order)
{
	unsigned long n = 1UL << order, step = n <= 8 ? 1 : n / 7;

	for (unsigned long i = 0; i < n; i += step)
		if (!page_start_zero(page + i))
			return false;
	return page_start_zero(page + n - 1);
}

static void hold(struct worker *w, struct page *page, unsigned int order, enum block_kind kind)
{
	struct block b = { .page = page, .seq = ++w->seq, .owner = (uint16_t)w->id, .order = (uint8_t)order,
			   .kind = (uint8_t)kind };

	stamp_write(&b);
	w->held[w->nheld++] = b;
}

/* Gives back a block w holds (any kind but the shared ones), one of the ways its kind allows. */
static void block_free(struct worker *w, const struct block *b)
{
	unsigned long r = rnd(w);

	if (!stress_check_stamp(w->id, w->op, b, "before freeing"))
		return; /* leaked: the end check reports the pages missing too */
	stamp_erase(b);
	switch (b->kind) {
	case BLOCK_PLAIN:
		if (r % 3 == 0)
			__free_pages(b->page, b->order);
		else if (r % 3 == 1)
			free_pages((unsigned long)page_address(b->page), b->order);
		else
			put_page(b->page); /* the only reference: frees the whole block */
		break;
	case BLOCK_COMPOUND:
		if (r & 1)
			__free_pages(b->page, b->order);
		else
			put_page(b->page + (r >> 1) % block_pages(b));
		break;
	case BLOCK_HUGE:
		put_page(b->page + (r >> 1) % block_pages(b));
		break;
	case BLOCK_KMALLOC:
	case BLOCK_CACHE:
	case BLOCK_IRQ_KMALLOC:
		stress_object_free(b);
		if (b->owner != w->id)
			w->t.object_remote_frees++;
		break;
	default:
		stress_fail(w->id, w->op, "block of kind %u in a held list", b->kind);
		return;
	}
	w->t.frees++;
	if (b->owner != w->id)
		w->t.remote_frees++;
}

/* Drops w's reference to a shared page (through any of its sub-pages). */
static void shared_put(struct worker *w, const struct block *b)
{
	if (stress_check_stamp(w->id, w->op, b, "before dropping a shared reference"))
		put_page(b->page + rnd_below(w, block_pages(b)));
	w->t.ref_ops++;
}

static void free_held(struct worker *w, unsigned int i)
{
	struct block b = w->held[i];

	w->held[i] = w->held[--w->nheld];
	block_free(w, &b);
}

static void op_alloc(struct worker *w)
{
	unsigned int order = random_order(w);
	gfp_t gfp = random_gfp(w, order);
	struct page *page;

	if (w->nheld == HELD_MAX)
		free_held(w, (unsigned int)rnd_below(w, w->nheld));
	page = alloc_pages(gfp, order);
	w->t.allocs++;
	if (!page) {
		w->t.alloc_failures++;
		return;
	}
	if (zone_idx(page_zone(page)) > gfp_zone_limit(gfp)) /* the zone's type, on whichever node */
		stress_fail(w->id, w->op, "gfp %#x order %u: pfn %#lx is in zone %u", gfp, order,
			    page_to_pfn(page), zone_idx(page_zone(page)));
	if ((gfp & __GFP_ZERO) && !looks_zeroed(page, order))
		stress_fail(w->id, w->op, "gfp %#x order %u: pfn %#lx is not zeroed", gfp, order, page_to_pfn(page));
	if ((gfp & __GFP_COMP) && (!PageHead(page) || compound_order(page) != order))
		stress_fail(w->id, w->op, "order %u __GFP_COMP: pfn %#lx is not a compound head of that order",
			    order, page_to_pfn(page));
	hold(w, page, order, gfp & __GFP_COMP ? BLOCK_COMPOUND : BLOCK_PLAIN);
}

static void op_free(struct worker *w)
{
	if (w->nheld)
		free_held(w, (unsigned int)rnd_below(w, w->nheld));
}

/*
 * Mostly the small size classes (their boundaries often), sometimes up to 8 KiB, and now and
 * then a large kmalloc (a compound page of its own).
 */
static uint32_t random_object_size(struct worker *w)
{
	unsigned long r = rnd(w), k = r >> 8;
	uint32_t class = (uint32_t)slab_test_classes[k % SLAB_TEST_NCLASSES];

	if ((r & 63) == 0)
		return 8193 + (uint32_t)(k % (56 * 1024));
	if ((r & 3) == 0)
		return class + (uint32_t)((k >> 4) & 1) * (class < KMALLOC_MAX_CACHE_SIZE);
	if ((r & 3) == 1)
		return 8 + (uint32_t)(k % 8185);
	return 8 + (uint32_t)(k % 249);
}

/* A kmalloc object (or one of stress_caches[]), now and then GFP_ATOMIC or zeroed; held like a block. */
static void op_object(struct worker *w)
{
	unsigned long r = rnd(w);
	bool cache = (r & 3) == 0, zero = ((r >> 2) & 7) == 0;
	gfp_t gfp = (((r >> 5) & 7) == 0 ? GFP_ATOMIC : GFP_KERNEL) | __GFP_NOWARN | (zero ? __GFP_ZERO : 0);
	struct block b = { .owner = (uint16_t)w->id, .kind = cache ? BLOCK_CACHE : BLOCK_KMALLOC };

	if (w->nheld == HELD_MAX)
		free_held(w, (unsigned int)rnd_below(w, w->nheld));
	b.order = (uint8_t)(cache && ((r >> 8) & 3) == 0); /* the debug cache a quarter of the time */
	b.size = cache ? STRESS_CACHE_SIZE : random_object_size(w);
	b.obj = cache ? kmem_cache_alloc(stress_caches[b.order], gfp) : kmalloc(b.size, gfp);
	w->t.allocs++;
	if (!b.obj) {
		w->t.alloc_failures++;
		return;
	}
	if (cache)
		w->t.cache_allocs++;
	else
		w->t.kmallocs++;
	if (ksize(b.obj) < b.size)
		stress_fail(w->id, w->op, "ksize %zu of a %u-byte object", ksize(b.obj), b.size);
	if (zero) {
		for (uint32_t i = 0; i < b.size; i += 8)
			if (b.obj[i] || b.obj[b.size - 1]) {
				stress_fail(w->id, w->op, "a zeroed %u-byte object at %p is not zero at %u", b.size,
					    (void *)b.obj, i);
				break;
			}
	}
	b.seq = ++w->seq;
	stamp_write(&b);
	w->held[w->nheld++] = b;
}

/* A random worker other than w (w itself when it is alone). */
static unsigned int other_worker(struct worker *w)
{
	unsigned int n = stress_cfg.workers;

	return n == 1 ? w->id : (w->id + 1 + (unsigned int)rnd_below(w, n - 1)) % n;
}

/* Hands a held block to another worker, which frees it (or keeps it a while). */
static void op_send(struct worker *w)
{
	unsigned int i, to = other_worker(w);

	if (!w->nheld || to == w->id)
		return;
	i = (unsigned int)rnd_below(w, w->nheld);
	if (mailbox_send(&stress_mailboxes[to][w->id], &w->held[i])) {
		w->held[i] = w->held[--w->nheld];
		w->t.sends++;
	}
}

/* A reference taken and dropped again on a held block (any sub-page of a compound one). */
static void op_ref(struct worker *w)
{
	struct block *b;

	if (!w->nheld)
		return;
	b = &w->held[rnd_below(w, w->nheld)];
	if (block_is_object(b))
		return; /* a slab's pages are the allocator's */
	if (b->kind == BLOCK_PLAIN) {
		get_page(b->page); /* a plain block counts on its first page only */
		put_page(b->page);
	} else {
		get_page(b->page + rnd_below(w, block_pages(b)));
		put_page(b->page + rnd_below(w, block_pages(b)));
	}
	w->t.ref_ops += 2;
}

/* w has taken up its reference to the shared page b (see struct stamp). */
static void shared_arrive(const struct block *b)
{
	__atomic_add_fetch(&stamp_at(b->page, 0)->arrived, 1, __ATOMIC_RELAXED);
}

/* A new shared page: one reference for w, one more for each of up to all other workers. */
static void op_share(struct worker *w)
{
	bool huge = !rnd_below(w, 4);
	unsigned int order = huge ? HPAGE_ORDER : 1 + (unsigned int)rnd_below(w, 5);
	unsigned int n = stress_cfg.workers, k = n > 1 ? 1 + (unsigned int)rnd_below(w, n - 1) : 0;
	unsigned int first = (unsigned int)rnd_below(w, n), to[STRESS_MAX_WORKERS], nto = 0;
	struct page *page;
	struct block b;

	if (w->nshared == SHARED_MAX)
		return;
	page = huge ? alloc_huge_page() : alloc_pages(GFP_KERNEL | __GFP_COMP | __GFP_NOWARN, order);
	if (!page)
		return;
	if (!huge && set_compound_page_dtor(page, stress_shared_dtor)) {
		stress_fail(w->id, w->op, "set_compound_page_dtor refused the counting destructor");
		__free_pages(page, order);
		return;
	}
	b = (struct block){ .page = page, .seq = ++w->seq, .owner = (uint16_t)w->id, .order = (uint8_t)order,
			    .kind = huge ? BLOCK_SHARED_HUGE : BLOCK_SHARED };
	if (!huge)
		w->t.shared_units++;
	else
		w->t.huge_allocs++;
	/* Only w sends to its rings, so room seen now is still there when it sends. */
	for (unsigned int i = 0; i < n && nto < k; i++)
		if ((first + i) % n != w->id && mailbox_room(&stress_mailboxes[(first + i) % n][w->id]))
			to[nto++] = (first + i) % n;
	stamp_write(&b);
	stamp_at(page, 0)->holders = 1 + nto;
	for (unsigned int i = 0; i < nto; i++) {
		get_page(page + rnd_below(w, block_pages(&b)));
		if (!mailbox_send(&stress_mailboxes[to[i]][w->id], &b)) {
			stress_fail(w->id, w->op, "the mailbox to worker %u had room, then none", to[i]);
			put_page(page + rnd_below(w, block_pages(&b)));
		}
		w->t.ref_ops++;
	}
	shared_arrive(&b);
	w->shared[w->nshared++] = b;
}

/* Another reference on a shared page, taken and dropped, through random sub-pages. */
static void op_shared_poke(struct worker *w)
{
	struct block *b;

	if (!w->nshared)
		return;
	b = &w->shared[rnd_below(w, w->nshared)];
	if (!stress_check_stamp(w->id, w->op, b, "on a shared page"))
		return;
	get_page(b->page + rnd_below(w, block_pages(b)));
	put_page(b->page + rnd_below(w, block_pages(b)));
	w->t.ref_ops += 2;
}

static void op_shared_drop(struct worker *w)
{
	unsigned int i;
	struct block b;

	if (!w->nshared)
		return;
	i = (unsigned int)rnd_below(w, w->nshared);
	b = w->shared[i];
	w->shared[i] = w->shared[--w->nshared];
	shared_put(w, &b);
}

static void op_huge(struct worker *w)
{
	struct page *page;

	if (w->nheld == HELD_MAX)
		free_held(w, (unsigned int)rnd_below(w, w->nheld));
	page = alloc_huge_page();
	if (!page)
		return;
	w->t.huge_allocs++;
	if (!PageHugeTLB(page) || compound_order(page) != HPAGE_ORDER)
		stress_fail(w->id, w->op, "alloc_huge_page gave pfn %#lx, not a pool page of order %d",
			    page_to_pfn(page), HPAGE_ORDER);
	hold(w, page, HPAGE_ORDER, BLOCK_HUGE);
}

/* Reserves 1 or 2 huge pages: each reserved allocation must then succeed, whatever the others do. */
static void op_reserve(struct worker *w)
{
	unsigned long n = 1 + rnd_below(w, 2), k = rnd_below(w, n + 1);

	if (hugetlb_reserve_pages(n))
		return;
	w->t.reservations++;
	for (unsigned long i = 0; i < k; i++) {
		struct page *page = alloc_huge_page_reserved();

		if (!page) {
			stress_fail(w->id, w->op, "alloc_huge_page_reserved failed after %lu of %lu reserved pages",
				    i, n);
			n = i; /* what is left of the reservation is unknown now; give back none */
			break;
		}
		w->t.huge_allocs++;
		if (w->nheld == HELD_MAX)
			free_held(w, (unsigned int)rnd_below(w, w->nheld));
		hold(w, page, HPAGE_ORDER, BLOCK_HUGE);
	}
	if (n > k)
		hugetlb_unreserve_pages(n - k);
}

static void op_resize(struct worker *w)
{
	if (rnd(w) & 1)
		hugetlb_set_pool_size(rnd_below(w, 9));
	else
		hugetlb_set_overcommit(rnd_below(w, 5));
	w->t.resizes++;
}

/*
 * What other CPUs may read while everyone works: the free page count (never above the managed
 * pages) and the pool's counters, each a consistent snapshot that keeps the pool's invariants.
 */
static void op_observe(struct worker *w)
{
	unsigned long managed = 0, free = nr_free_pages();
	struct hugetlb_counters c = hugetlb_counters(HPAGE_ORDER);
	const char *problem = hugetlb_check();

	for (unsigned int z = 0; z < mm_nr_zone_ids; z++)
		managed += mm_zones[z].managed_pages;
	if (free > managed)
		stress_fail(w->id, w->op, "nr_free_pages() %lu, above the %lu managed pages", free, managed);
	if (c.reserved > c.free || c.free > c.total || c.surplus > c.total || c.free + c.in_use != c.total)
		stress_fail(w->id, w->op, "pool counters: total %lu free %lu reserved %lu surplus %lu in use %lu",
			    c.total, c.free, c.reserved, c.surplus, c.in_use);
	if (problem)
		stress_fail(w->id, w->op, "hugetlb_check: %s", problem);
}

/* The interrupt-context allocation of this CPU, run from the worker with interrupts off. */
static void op_irq(struct worker *w)
{
	unsigned long flags = arch_irq_save();

#ifdef HOST_BUILD
	host_mm_irq_depth++; /* an interrupt handler, to mm/'s lock check (tests/mm/mm_env.h) */
#endif
	stress_irq_tick(arch_cpu_id());
#ifdef HOST_BUILD
	host_mm_irq_depth--;
#endif
	arch_irq_restore(flags);
	(void)w;
}

/* A block from another worker: a shared reference is kept, a block freed or kept a while. */
static void take(struct worker *w, const struct block *b)
{
	bool keep = !w->finishing && (rnd(w) & 1);

	if (b->kind == BLOCK_SHARED || b->kind == BLOCK_SHARED_HUGE) {
		shared_arrive(b);
		if (!w->finishing && w->nshared < SHARED_MAX)
			w->shared[w->nshared++] = *b;
		else
			shared_put(w, b);
	} else if (keep && w->nheld < HELD_MAX) {
		if (stress_check_stamp(w->id, w->op, b, "on receipt"))
			w->held[w->nheld++] = *b;
	} else {
		block_free(w, b);
	}
}

/* Drops every shared reference whose page all holders have taken up: they all do so now. */
static void drop_arrived(struct worker *w)
{
	for (unsigned int i = 0; i < w->nshared;) {
		const struct stamp *s = stamp_at(w->shared[i].page, 0);
		struct block b = w->shared[i];

		if (__atomic_load_n(&s->arrived, __ATOMIC_RELAXED) != s->holders) {
			i++;
			continue;
		}
		w->shared[i] = w->shared[--w->nshared];
		shared_put(w, &b);
		w->t.together_drops++;
	}
}

static void receive_all(struct worker *w)
{
	struct block b;

	for (unsigned int from = 0; from < stress_cfg.workers; from++)
		while (mailbox_receive(&stress_mailboxes[w->id][from], &b))
			take(w, &b);
	drop_arrived(w);
}

/* One random operation; the thresholds are per mille. */
static void step(struct worker *w)
{
	unsigned long r = rnd_below(w, 1000);

	if (r < 260)
		op_alloc(w);
	else if (r < 380)
		op_object(w);
	else if (r < 650)
		op_free(w);
	else if (r < 740)
		op_send(w);
	else if (r < 780)
		op_ref(w);
	else if (r < 810)
		op_share(w);
	else if (r < 860)
		op_shared_poke(w);
	else if (r < 900)
		op_shared_drop(w);
	else if (r < 930)
		op_huge(w);
	else if (r < 945)
		op_reserve(w);
	else if (r < 948)
		op_resize(w);
	else if (r < 951)
		op_observe(w);
	else if (r < 955)
		drain_pcp_lists();
	else if (r < 980)
		stress_movable_op(w);
	else
		op_irq(w);
}

/* Everything w still holds, given back. */
static void release_all(struct worker *w)
{
	while (w->nheld)
		free_held(w, w->nheld - 1);
	while (w->nshared)
		shared_put(w, &w->shared[--w->nshared]);
	stress_movable_release(w);
}

static void wait_for(unsigned long *counter, unsigned long n, struct worker *w)
{
	while (__atomic_load_n(counter, __ATOMIC_ACQUIRE) < n) {
		if (w)
			receive_all(w);
		stress_relax();
	}
}

void stress_worker(unsigned int id)
{
	struct worker *w = &stress_workers[id];
	unsigned int n = stress_cfg.workers;

	__atomic_add_fetch(&started, 1, __ATOMIC_ACQ_REL);
	wait_for(&started, n, NULL);
	for (w->op = 0; w->op < stress_cfg.ops; w->op++) {
		step(w);
		if (!(w->op & 3))
			receive_all(w);
	}
	w->finishing = true;
	__atomic_add_fetch(&done_sending, 1, __ATOMIC_ACQ_REL);
	wait_for(&done_sending, n, w);
	receive_all(w); /* what was sent before the last one stopped */
	release_all(w);
	w->t.ops = w->op;
}

void stress_worker_reset(void)
{
	started = done_sending = 0;
}
