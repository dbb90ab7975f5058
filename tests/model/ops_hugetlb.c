/* SPDX-License-Identifier: MIT */
/*
 * The model test's operations on the hugetlb pool: resizing it up and down, the overcommit limit,
 * allocations (from the pool, as surplus, against a reservation), reservations, and the last
 * put_page() of a huge page. The model predicts every counter from mm/hugetlb.h's definitions
 * and whether the buddy allocator has 2 MiB blocks left; after each call the pool's counters must
 * equal the model's, and the pool's pages (the 2 MiB heads with PG_hugetlb) must be exactly the
 * model's: a page that joined was free in the buddy allocator, one that left was free in the pool.
 */
#include "tests/model/model.h"

#include <stdio.h>
#include <stdlib.h>

/* Where each 2 MiB region is, as far as the pool goes. */
enum { POOL_NONE, POOL_FREE, POOL_OUT };

/* The pool's counters as the model predicts them (mm/hugetlb.h). */
static struct {
	unsigned long total, free, reserved, surplus, in_use, overcommit;
} pm;

static uint8_t *region; /* per 2 MiB region (pfn >> HPAGE_ORDER): POOL_NONE, POOL_FREE or POOL_OUT */

#define ALL_ZONES ((1u << MAX_NR_ZONES) - 1)

static unsigned long persistent(void) { return pm.total - pm.surplus; }
static unsigned long unreserved_free(void) { return pm.free - pm.reserved; }

/* 2 MiB blocks the buddy allocator can still give the pool (GFP_KERNEL: down to each zone's min). */
static unsigned long buddy_hpages(void) { return model_blocks_for(GFP_KERNEL, HPAGE_ORDER); }

/*
 * 2 MiB blocks free in the zones GFP_KERNEL allows, watermarks aside: the most the pool may get.
 * A block on a CPU's list of whole pageblocks is handed out without a watermark check (mm/zone.h),
 * as the smaller orders' are, so a grow may take more than buddy_hpages(), up to this.
 */
static unsigned long free_hpages(void)
{
	unsigned long n = 0;

	for (int z = 0; z < MAX_NR_ZONES; z++)
		if (gfp_zones(GFP_KERNEL) & (1u << z))
			n += model.full[z][HPAGE_ORDER];
	return n;
}

void hugetlb_model_init(void)
{
	struct hugetlb_counters c = hugetlb_counters(HPAGE_ORDER);

	if (c.total || c.reserved)
		model_fail("the model expects an empty hugetlb pool at boot, found total %lu reserved %lu",
			   c.total, c.reserved);
	pm.overcommit = c.overcommit;
	region = calloc((mm_max_pfn >> HPAGE_ORDER) + 1, 1);
	if (!region)
		model_fail("out of host memory");
}

const char *hugetlb_model_compare(void)
{
	static char msg[200];
	struct hugetlb_counters c = hugetlb_counters(HPAGE_ORDER);

	if (c.total == pm.total && c.free == pm.free && c.reserved == pm.reserved &&
	    c.surplus == pm.surplus && c.in_use == pm.in_use && c.overcommit == pm.overcommit)
		return NULL;
	snprintf(msg, sizeof(msg), "pool total/free/rsvd/surp/in use/overcommit %lu/%lu/%lu/%lu/%lu/%lu, "
		 "the model %lu/%lu/%lu/%lu/%lu/%lu", c.total, c.free, c.reserved, c.surplus, c.in_use,
		 c.overcommit, pm.total, pm.free, pm.reserved, pm.surplus, pm.in_use, pm.overcommit);
	return msg;
}

/* Counters and invariants after op. */
static void expect_pool(const char *op)
{
	const char *p = hugetlb_model_compare();

	if (!p)
		p = hugetlb_check();
	if (p)
		model_fail("after %s: %s", op, p);
	stats.max_pool = MAX(stats.max_pool, pm.total);
	stats.max_surplus = MAX(stats.max_surplus, pm.surplus);
	stats.max_reserved = MAX(stats.max_reserved, pm.reserved);
}

/* Is the 2 MiB block at pfn a pool page in mm/ (a head with PG_hugetlb)? */
static bool is_pool_page(unsigned long pfn)
{
	struct page *page = pfn_to_page(pfn);

	return pfn_valid(pfn) && PageHead(page) && PageHugeTLB(page);
}

/*
 * Finds the pool pages that joined (were free in the buddy allocator) or left (were free in the
 * pool) during op, and moves their frames in the model. Fails on any other change.
 */
static void sync_pool_pages(const char *op, unsigned long *joined, unsigned long *left)
{
	*joined = *left = 0;
	for (int z = 0; z < MAX_NR_ZONES; z++)
		for (unsigned long pfn = ALIGN_UP(mm_zones[z].start_pfn, 1UL << HPAGE_ORDER);
		     pfn + (1UL << HPAGE_ORDER) <= mm_zones[z].end_pfn; pfn += 1UL << HPAGE_ORDER) {
			uint8_t *r = &region[pfn >> HPAGE_ORDER];
			bool in_pool = is_pool_page(pfn);

			if (in_pool == (*r != POOL_NONE))
				continue;
			if (*r == POOL_OUT)
				model_fail("%s: the huge page at pfn %#lx, handed out, is no longer a pool page", op, pfn);
			if (!model_move(pfn, HPAGE_ORDER, in_pool ? FRAME_FREE : FRAME_POOL,
					in_pool ? FRAME_POOL : FRAME_FREE))
				model_fail("%s: pfn %#lx %s the pool, but it was not %s in the model", op, pfn,
					   in_pool ? "joined" : "left", in_pool ? "free in the buddy allocator" : "free in the pool");
			*r = in_pool ? POOL_FREE : POOL_NONE;
			++*(in_pool ? joined : left);
		}
}

/* sync_pool_pages(), expecting exactly these numbers of pages to join and to leave. */
static void expect_pool_pages(const char *op, unsigned long joined, unsigned long left)
{
	unsigned long j, l;

	sync_pool_pages(op, &j, &l);
	if (j != joined || l != left)
		model_fail("%s: %lu pages joined the pool and %lu left; the model expected %lu and %lu", op, j,
			   l, joined, left);
	expect_pool(op);
}

/* ---- the operations ------------------------------------------------------------------------ */

/*
 * A pool that grows may take more pages than the buddy allocator had free blocks: compaction (the
 * slow path's) or an emptied range (mm/contig_alloc.h) makes them, moving the test's movable
 * blocks (the owner saw each move). Takes in those extra pages, up to the need; returns the result
 * then expected.
 */
static int accept_made_pages(unsigned long *joined, unsigned long need)
{
	unsigned long j, l;

	sync_pool_pages("hugetlb_set_pool_size", &j, &l);
	if (l || j < *joined || j > need)
		model_fail("hugetlb_set_pool_size: %lu pages joined the pool and %lu left after blocks moved; the "
			   "model expected %lu to %lu joining", j, l, *joined, need);
	pm.total += j - *joined;
	pm.free += j - *joined;
	*joined = j;
	return j < need ? -ENOMEM : 0;
}

static void resize(unsigned long n)
{
	unsigned long joined = 0, left = 0, need = 0, most = 0, floor, p, moved = external_moved_pages();
	bool synced;
	int want = 0, got;

	note("hugetlb_set_pool_size", 0, HPAGE_ORDER, n);
	if (n >= persistent()) { /* surplus pages become persistent first, then the buddy gives more */
		unsigned long convert = MIN(n - persistent(), pm.surplus);

		pm.surplus -= convert;
		need = n - persistent();
		joined = MIN(need, buddy_hpages());
		most = MIN(need, free_hpages());
		want = joined < need ? -ENOMEM : 0;
	} else { /* free pages no reservation needs go back; what is still out becomes surplus */
		floor = MAX(n, pm.reserved + pm.in_use);
		left = persistent() > floor ? MIN(persistent() - floor, unreserved_free()) : 0;
		pm.total -= left;
		pm.free -= left;
		p = persistent();
		pm.surplus += p > n ? p - n : 0;
	}
	pm.total += joined;
	pm.free += joined;
	external_moves_may_be_contig(true);
	got = hugetlb_set_pool_size(n);
	external_moves_may_be_contig(false);
	/* Blocks moved, or some may come from a CPU's list below the marks: more may have joined. */
	synced = external_moved_pages() != moved || most > joined;
	if (synced)
		want = accept_made_pages(&joined, need);
	stats.pool_grow_failures += got != 0;
	if (got != want)
		model_fail("hugetlb_set_pool_size(%lu) returned %d, expected %d (%lu pages needed, %lu free 2 MiB "
			   "blocks it could take, %lu pages moved meanwhile)", n, got, want, need, joined,
			   external_moved_pages() - moved);
	if (synced)
		expect_pool("hugetlb_set_pool_size"); /* the pages that joined are in the model already */
	else
		expect_pool_pages("hugetlb_set_pool_size", joined, left);
}

/* A page the pool hands out: from its free pages (POOL) or new from the buddy allocator (FREE). */
static void hand_out(const char *op, struct page *page, enum frame_state from)
{
	unsigned long pfn = page_to_pfn(page);

	if ((region[pfn >> HPAGE_ORDER] == POOL_FREE) != (from == FRAME_POOL) || (pfn & ((1UL << HPAGE_ORDER) - 1)))
		model_fail("%s returned pfn %#lx, which is not %s", op, pfn,
			   from == FRAME_POOL ? "a free page of the pool" : "a new page from the buddy allocator");
	block_add(op, page, HPAGE_ORDER, BLOCK_HUGE, from, ALL_ZONES);
	region[pfn >> HPAGE_ORDER] = POOL_OUT;
	pm.in_use++;
	stats.huge_allocs++;
}

static void alloc_huge(void)
{
	bool from_pool = unreserved_free() > 0;
	bool surplus = !from_pool && pm.surplus < pm.overcommit && buddy_hpages() > 0;
	bool may_surplus = !from_pool && pm.surplus < pm.overcommit && free_hpages() > 0; /* the most: free_hpages() */
	struct page *page;

	note("alloc_huge_page", 0, HPAGE_ORDER, pm.free);
	page = alloc_huge_page();
	if (page ? !(from_pool || may_surplus) : (from_pool || surplus))
		model_fail("alloc_huge_page() returned %s; the model expected %s (free %lu, reserved %lu, "
			   "surplus %lu of %lu, %lu 2 MiB blocks in the buddy allocator)",
			   page ? "a page" : "NULL", page ? "NULL" : "a page", pm.free, pm.reserved,
			   pm.surplus, pm.overcommit, buddy_hpages());
	if (!page)
		return;
	if (from_pool) {
		pm.free--;
	} else {
		pm.total++;
		pm.surplus++;
	}
	hand_out("alloc_huge_page", page, from_pool ? FRAME_POOL : FRAME_FREE);
	expect_pool("alloc_huge_page");
}

static void alloc_huge_reserved(void)
{
	struct page *page;

	note("alloc_huge_page_reserved", 0, HPAGE_ORDER, pm.reserved);
	page = alloc_huge_page_reserved();
	if (!page != !pm.reserved)
		model_fail("alloc_huge_page_reserved() returned %s with %lu pages reserved",
			   page ? "a page" : "NULL", pm.reserved);
	if (page) {
		pm.reserved--;
		pm.free--;
		hand_out("alloc_huge_page_reserved", page, FRAME_POOL);
	}
	expect_pool("alloc_huge_page_reserved");
}

static void reserve(unsigned long n)
{
	unsigned long need = n > unreserved_free() ? n - unreserved_free() : 0, joined, left;
	bool ok = !need || (pm.surplus + need <= pm.overcommit && buddy_hpages() >= need);
	bool may = !need || (pm.surplus + need <= pm.overcommit && free_hpages() >= need); /* the most: free_hpages() */
	int got;

	note("hugetlb_reserve_pages", 0, HPAGE_ORDER, n);
	got = hugetlb_reserve_pages(n);
	ok |= may && got == 0;
	if (got != (ok ? 0 : -ENOMEM))
		model_fail("hugetlb_reserve_pages(%lu) returned %d; the model expected %d (free %lu, reserved "
			   "%lu, surplus %lu of %lu, %lu 2 MiB blocks in the buddy allocator)", n, got,
			   ok ? 0 : -ENOMEM, pm.free, pm.reserved, pm.surplus, pm.overcommit, buddy_hpages());
	if (ok) {
		pm.surplus += need;
		pm.total += need;
		pm.free += need;
		pm.reserved += n;
		expect_pool_pages("hugetlb_reserve_pages", need, 0);
		return;
	}
	sync_pool_pages("failed hugetlb_reserve_pages", &joined, &left); /* what it took, it gave back */
	if (joined != left)
		model_fail("failed hugetlb_reserve_pages(%lu): %lu pages joined the pool, %lu left", n, joined, left);
	expect_pool("failed hugetlb_reserve_pages");
}

static void unreserve(unsigned long n)
{
	unsigned long k = MIN(n, pm.reserved), left;

	note("hugetlb_unreserve_pages", 0, HPAGE_ORDER, n);
	pm.reserved -= k;
	left = MIN(k, MIN(pm.surplus, unreserved_free()));
	pm.surplus -= left;
	pm.total -= left;
	pm.free -= left;
	hugetlb_unreserve_pages(n);
	expect_pool_pages("hugetlb_unreserve_pages", 0, left);
}

static void overcommit(unsigned long n)
{
	note("hugetlb_set_overcommit", 0, HPAGE_ORDER, n);
	hugetlb_set_overcommit(n);
	pm.overcommit = n;
	expect_pool("hugetlb_set_overcommit");
}

/* The /proc/meminfo lines must show the model's counters. */
static void meminfo(void)
{
	unsigned long total, free, rsvd, surp;
	char buf[256];

	note("hugetlb_meminfo", 0, HPAGE_ORDER, 0);
	hugetlb_meminfo(buf, sizeof(buf));
	if (sscanf(buf, "HugePages_Total: %lu HugePages_Free: %lu HugePages_Rsvd: %lu HugePages_Surp: %lu",
		   &total, &free, &rsvd, &surp) != 4 ||
	    total != pm.total || free != pm.free || rsvd != pm.reserved || surp != pm.surplus)
		model_fail("hugetlb_meminfo() wrote \"%s\"; the model has total %lu free %lu rsvd %lu surp %lu",
			   buf, pm.total, pm.free, pm.reserved, pm.surplus);
}

/* The host machine has no gigantic pool: alloc_gigantic_page() must say so. */
static void gigantic(void)
{
	note("alloc_gigantic_page", 0, GIGANTIC_ORDER, 0);
	if (alloc_gigantic_page())
		model_fail("alloc_gigantic_page() returned a page, but there is no 1 GiB pool");
}

void hugetlb_huge_freed(struct block *b)
{
	unsigned long pfn = b->pfn;
	bool release = pm.surplus > 0; /* a surplus page goes back to the buddy allocator */

	pm.in_use--;
	if (release) {
		pm.surplus--;
		pm.total--;
	} else {
		pm.free++;
	}
	block_drop("put_page (free_huge_page)", b, release ? FRAME_FREE : FRAME_POOL);
	region[pfn >> HPAGE_ORDER] = release ? POOL_NONE : POOL_FREE;
	expect_pool("put_page (free_huge_page)");
	if (release == is_pool_page(pfn))
		model_fail("free_huge_page: pfn %#lx should %s the pool", pfn, release ? "have left" : "be in");
}

/* A pool size: mostly small, sometimes more than the machine has (the pool then takes all it can). */
static unsigned long random_pool_size(void)
{
	unsigned long r = rnd_below(100);

	return r < 70 ? rnd_below(17) : r < 90 ? rnd_below(65) : rnd_below(400);
}

void op_hugetlb(void)
{
	stats.pool_ops++;
	switch (rnd_below(16)) {
	case 0: case 1: resize(random_pool_size()); break;
	case 2: overcommit(rnd_below(33)); break;
	case 3: case 4: case 5: case 6: alloc_huge(); break;
	case 7: alloc_huge_reserved(); break;
	case 8: case 9: reserve(1 + rnd_below(4)); break;
	case 10: case 11: unreserve(rnd_below(chance(90) ? 3 : 9)); break;
	case 12: chance(50) ? gigantic() : meminfo(); break;
	default: {
		struct block *b = block_random_of(BLOCK_HUGE, 0);

		if (b)
			block_release(b);
		else
			alloc_huge();
	}
	}
}

/* A random free page of the pool (for the misuse cases), or NULL. */
struct page *hugetlb_model_free_page(void)
{
	unsigned long nr = mm_max_pfn >> HPAGE_ORDER, start = rnd_below(nr + 1);

	if (!pm.free)
		return NULL;
	for (unsigned long i = 0; i <= nr; i++) {
		unsigned long r = (start + i) % (nr + 1);

		if (region[r] == POOL_FREE)
			return pfn_to_page(r << HPAGE_ORDER);
	}
	return NULL;
}

void hugetlb_teardown(void)
{
	unreserve(pm.reserved);
	overcommit(0);
	resize(0);
	if (pm.total)
		model_fail("the pool still has %lu pages after shrinking it to 0", pm.total);
}
