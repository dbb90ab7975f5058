/* SPDX-License-Identifier: MIT */
/*
 * The hugetlb pool: 2 MiB huge pages from the buddy allocator and 1 GiB gigantic pages reserved
 * at boot, their counters, their destructor free_huge_page(), and the boot-time requests that
 * size them. See mm/hugetlb.h for what the counters mean and which invariants hold.
 *
 * Locking: hugetlb_lock, taken with interrupts off, protects both pools (their free lists and
 * every counter) and is held across a whole operation, the calls to the buddy allocator it makes
 * included, so that the counters are exact however many CPUs grow, shrink, allocate and free at
 * once (the lock order: mm/lock_check.h). Reports are printed after the lock is dropped. The one
 * exception is growing the pool's persistent size (hugetlb_set_pool_size_order()): a new page may
 * come from a range emptied by migration (mm/contig_alloc.h), which must run with no lock held, so
 * each page is made without the lock and added under it.
 */
#include "mm/hugetlb.h"

#include "mm/arch.h"
#include "mm/bad_page.h"
#include "mm/compound.h"
#include "mm/contig_alloc.h"
#include "mm/debug.h"
#include "mm/folio.h"
#include "mm/list.h"
#include "mm/lock_check.h"
#include "mm/memblock.h"
#include "mm/page_alloc.h"
#include "mm/vmstat.h"

/*
 * Every pool page is a large folio (mm/folio.h): the pool keeps, counts and hands out whole units,
 * so everything below holds struct folio *, and only the calls of mm/hugetlb.h, whose callers know
 * pages, convert at the edge.
 */

/* folio->private of a huge page sitting on its pool's free list (catches a second free). */
#define HUGETLB_ON_FREE_LIST 0x4855474546524545UL

/* One pool: the pages of one size, and their counters (meanings in mm/hugetlb.h). */
struct hstate {
	unsigned int order;
	struct list_head free_list;
	unsigned long total, free, reserved, surplus, in_use;
	unsigned long overcommit;
	unsigned long requested;
};

static struct hstate hstates[] = {
	{ .order = HPAGE_ORDER, .free_list = { &hstates[0].free_list, &hstates[0].free_list } },
	{ .order = GIGANTIC_ORDER, .free_list = { &hstates[1].free_list, &hstates[1].free_list } },
};
static struct hstate *const hstate_2m = &hstates[0];
static DEFINE_MM_SPINLOCK(hugetlb_lock, "hugetlb_lock");

static struct hstate *const hstate_1g = &hstates[1];

/* Gigantic pages reserved by hugetlb_reserve_gigantic_early(), not yet in their pool. */
static phys_addr_t gigantic_phys[HUGETLB_MAX_GIGANTIC];
static unsigned long nr_gigantic_phys;

static struct hstate *hstate_of_order(unsigned int order)
{
	for (size_t i = 0; i < ARRAY_SIZE(hstates); i++)
		if (hstates[i].order == order)
			return &hstates[i];
	return NULL;
}

static unsigned long persistent(const struct hstate *h) { return h->total - h->surplus; }

static unsigned long unreserved_free(const struct hstate *h) { return h->free - h->reserved; }

/* ---- the free list ------------------------------------------------------------------------- */

static void enqueue_huge_folio(struct hstate *h, struct folio *folio)
{
	list_add(&folio->lru, &h->free_list);
	set_page_private(&folio->page, HUGETLB_ON_FREE_LIST); /* compaction may read it: mm/page.h */
	h->free++;
}

/* Takes the most recently freed folio off h's free list; h->free must be > 0. */
static struct folio *dequeue_huge_folio(struct hstate *h)
{
	struct folio *folio = lru_to_folio(h->free_list.next);

	if (!h->free || list_empty(&h->free_list))
		panic("dequeue_huge_page: order %u: free count %lu but list empty", h->order, h->free);
	list_del(&folio->lru);
	folio->lru.next = folio->lru.prev = NULL;
	set_page_private(&folio->page, 0);
	h->free--;
	return folio;
}

/* ---- moving pages between the pool and the buddy allocator --------------------------------- */

/* Makes the large folio (count 0 afterwards) a pool page of h. */
static void make_huge_folio(struct hstate *h, struct folio *folio)
{
	set_compound_page_dtor(&folio->page, free_huge_page);
	folio_set_hugetlb(folio);
	set_page_ref(&folio->page, 0);
	h->total++;
}

/*
 * A new 2 MiB page fills its pageblock: asked as movable, so that the pageblock keeps the movable
 * type and goes back to movable allocations whole when the page leaves the pool (an unmovable
 * request would claim it for unmovable ones).
 */
#define HUGETLB_GFP (GFP_HIGHUSER_MOVABLE | __GFP_COMP | __GFP_NOWARN)

/* hugetlb_init() is filling the pool: pages added then are not counted as grown at run time. */
static bool hugetlb_booting;

/* A new 2 MiB pool page from the buddy allocator (counted in total, not on the free list). */
static struct folio *grow_one(struct hstate *h)
{
	struct page *page;
	struct folio *folio;

	if (h != hstate_2m)
		return NULL;
	/* hugetlb_lock is held: no shrinker may run (mm/shrinker.h). */
	page = alloc_pages(HUGETLB_GFP | __GFP_NORECLAIM, h->order);
	if (!page)
		return NULL;
	folio = page_folio(page);
	make_huge_folio(h, folio);
	return folio;
}

/*
 * Gives a pool page that nobody holds back to the buddy allocator (total drops): down to the page
 * allocator's free_compound_page(), which checks the unit once and clears it.
 */
static void release_huge_folio(struct hstate *h, struct folio *folio)
{
	folio_clear_hugetlb(folio);
	h->total--;
	if (h->order <= MAX_ORDER) {
		free_compound_page(&folio->page);
		return;
	}
	set_page_ref(&folio->page, 1); /* a gigantic page goes back as the range it was taken as */
	free_contig_range(folio_pfn(folio), folio_nr_pages(folio));
}

/* Hands folio out: one reference, counted in in_use; returns its head page. */
static struct page *hand_out(struct hstate *h, struct folio *folio)
{
	set_page_ref(&folio->page, 1);
	h->in_use++;
	return &folio->page;
}

/* What is wrong with giving folio back to pool h, or NULL; under the lock. */
static const char *free_huge_problem(const struct hstate *h, const struct folio *folio)
{
	MM_BUG_ON(!lock_held(&hugetlb_lock), (struct page *)&folio->page, "hugetlb_lock not held");
	if (!h || !folio_test_hugetlb(folio))
		return "free_huge_page: not a hugetlb pool page";
	if (folio_ref_count(folio))
		return "free_huge_page: page still referenced";
	if (folio->private == HUGETLB_ON_FREE_LIST)
		return "free_huge_page: page already in the pool (double free)";
	return NULL;
}

/*
 * The destructor is handed the head (the page allocator checked it is one), so it is the folio
 * as it is: page_as_folio(), no lookup, and a page that is not a head is refused by
 * free_huge_problem() (no pool has order 0) as before.
 */
void free_huge_page(struct page *head)
{
	struct folio *folio = page_as_folio(head);
	struct hstate *h = hstate_of_order(folio_order(folio));
	unsigned long flags = mm_spin_lock_irqsave(&hugetlb_lock);
	const char *problem = free_huge_problem(h, folio);

	if (!problem) {
		h->in_use--;
		if (h->surplus) {
			h->surplus--;
			release_huge_folio(h, folio);
		} else {
			enqueue_huge_folio(h, folio);
		}
	}
	mm_spin_unlock_irqrestore(&hugetlb_lock, flags);
	if (problem)
		bad_page(&folio->page, problem);
}

/* ---- allocation and reservations of 2 MiB pages --------------------------------------------- */

static struct page *alloc_huge_page_locked(void)
{
	struct hstate *h = hstate_2m;
	struct folio *folio;

	MM_BUG_ON(!lock_held(&hugetlb_lock), NULL, "hugetlb_lock not held");
	if (unreserved_free(h))
		return hand_out(h, dequeue_huge_folio(h));
	if (h->surplus >= h->overcommit)
		return NULL;
	folio = grow_one(h);
	if (!folio)
		return NULL;
	h->surplus++;
	return hand_out(h, folio);
}

struct page *alloc_huge_page(void)
{
	unsigned long flags = mm_spin_lock_irqsave(&hugetlb_lock);
	struct page *head = alloc_huge_page_locked();

	mm_spin_unlock_irqrestore(&hugetlb_lock, flags);
	return head;
}

struct page *alloc_huge_page_reserved(void)
{
	struct hstate *h = hstate_2m;
	unsigned long flags = mm_spin_lock_irqsave(&hugetlb_lock);
	struct page *head = NULL;

	if (h->reserved) {
		h->reserved--;
		head = hand_out(h, dequeue_huge_folio(h));
	}
	mm_spin_unlock_irqrestore(&hugetlb_lock, flags);
	if (!head)
		printk("alloc_huge_page_reserved: no huge page is reserved\n");
	return head;
}

/* Adds n surplus pages to the free list; on failure gives back what it took and returns false. */
static bool gather_surplus(struct hstate *h, unsigned long n)
{
	unsigned long got;

	if (h->surplus + n > h->overcommit)
		return false;
	for (got = 0; got < n; got++) {
		struct folio *folio = grow_one(h);
		if (!folio)
			break;
		h->surplus++;
		enqueue_huge_folio(h, folio);
	}
	if (got == n)
		return true;
	for (; got; got--) {
		h->surplus--;
		release_huge_folio(h, dequeue_huge_folio(h));
	}
	return false;
}

int hugetlb_reserve_pages(unsigned long n)
{
	struct hstate *h = hstate_2m;
	unsigned long flags = mm_spin_lock_irqsave(&hugetlb_lock);
	unsigned long avail = unreserved_free(h);
	int err = 0;

	if (n > avail && !gather_surplus(h, n - avail))
		err = -ENOMEM;
	else
		h->reserved += n;
	mm_spin_unlock_irqrestore(&hugetlb_lock, flags);
	return err;
}

/* Gives free surplus pages beyond the reservations back to the buddy allocator, at most n. */
static void return_unused_surplus(struct hstate *h, unsigned long n)
{
	while (n-- && h->surplus && unreserved_free(h)) {
		h->surplus--;
		release_huge_folio(h, dequeue_huge_folio(h));
	}
}

void hugetlb_unreserve_pages(unsigned long n)
{
	struct hstate *h = hstate_2m;
	unsigned long flags = mm_spin_lock_irqsave(&hugetlb_lock);
	unsigned long asked = n, held = h->reserved;

	n = MIN(n, held);
	h->reserved -= n;
	return_unused_surplus(h, n);
	mm_spin_unlock_irqrestore(&hugetlb_lock, flags);
	if (asked > held)
		printk("hugetlb_unreserve_pages: %lu pages given back but only %lu reserved\n", asked, held);
}

struct page *alloc_gigantic_page(void)
{
	struct hstate *h = hstate_1g;
	unsigned long flags = mm_spin_lock_irqsave(&hugetlb_lock);
	struct page *head = unreserved_free(h) ? hand_out(h, dequeue_huge_folio(h)) : NULL;

	mm_spin_unlock_irqrestore(&hugetlb_lock, flags);
	return head;
}

/* ---- pool size -------------------------------------------------------------------------------- */

/*
 * A new page of h's order for its persistent pool, without the lock (it may migrate pages): a
 * 2 MiB one from the buddy allocator, else from a range emptied of its movable pages; a 1 GiB
 * one, above the buddy's largest block, only from such a range. Migration needs interrupts on and
 * no interrupt handler (mm/migrate.h): elsewhere (early boot) only the buddy allocator is asked.
 * Head count 1, or NULL.
 */
static struct page *new_pool_page(const struct hstate *h)
{
	struct page *page = NULL;

	if (h->order <= MAX_ORDER)
		page = alloc_pages(HUGETLB_GFP, h->order);
	if (!page && !arch_irqs_disabled() && !arch_in_interrupt())
		page = alloc_contig_pages(1UL << h->order, __GFP_COMP | __GFP_NOWARN);
	return page;
}

/* Gives back a page new_pool_page() made and the pool did not need after all. */
static void drop_new_page(const struct hstate *h, struct page *page)
{
	if (h->order <= MAX_ORDER)
		__free_pages(page, h->order);
	else
		free_contig_range(page_to_pfn(page), 1UL << h->order);
}

/* Under the lock: turns surplus pages persistent while h is below n; true when h reached n. */
static bool grown_to(struct hstate *h, unsigned long n)
{
	while (persistent(h) < n && h->surplus)
		h->surplus--;
	return persistent(h) >= n;
}

/*
 * Without the lock: grows h's persistent size to n, converting surplus pages first, then one new
 * page at a time (each made without the lock, added under it; one that another CPU's growth made
 * unneeded meanwhile goes back). Returns 0, or -ENOMEM when no page could be had (h keeps what it
 * got).
 */
static int grow_pool(struct hstate *h, unsigned long n)
{
	for (;;) {
		unsigned long flags = mm_spin_lock_irqsave(&hugetlb_lock);
		bool done = grown_to(h, n);
		struct page *page;

		mm_spin_unlock_irqrestore(&hugetlb_lock, flags);
		if (done)
			return 0;
		page = new_pool_page(h);
		if (!page)
			return -ENOMEM;
		flags = mm_spin_lock_irqsave(&hugetlb_lock);
		done = grown_to(h, n);
		if (!done) {
			make_huge_folio(h, page_folio(page));
			enqueue_huge_folio(h, page_folio(page));
		}
		mm_spin_unlock_irqrestore(&hugetlb_lock, flags);
		if (done)
			drop_new_page(h, page);
		else if (!hugetlb_booting)
			count_vm_event(HTLB_POOL_GROWN);
	}
}

/* Releases free pages no reservation needs, then counts what is still handed out as surplus. */
static void shrink_pool(struct hstate *h, unsigned long n)
{
	unsigned long floor = MAX(n, h->reserved + h->in_use);

	while (persistent(h) > floor && unreserved_free(h))
		release_huge_folio(h, dequeue_huge_folio(h));
	while (persistent(h) > n)
		h->surplus++;
}

int hugetlb_set_pool_size_order(unsigned int order, unsigned long n)
{
	struct hstate *h = hstate_of_order(order);
	unsigned long flags, got;
	bool grow;
	int err = 0;

	if (!h) {
		printk("hugetlb_set_pool_size_order: refused: no pool of order %u\n", order);
		return -EINVAL;
	}
	flags = mm_spin_lock_irqsave(&hugetlb_lock);
	grow = n >= persistent(h);
	if (!grow)
		shrink_pool(h, n);
	mm_spin_unlock_irqrestore(&hugetlb_lock, flags);
	if (grow)
		err = grow_pool(h, n);
	got = hugetlb_counters(order).total - hugetlb_counters(order).surplus;
	if (err && !hugetlb_booting)
		count_vm_event(HTLB_POOL_GROW_FAIL);
	if (err)
		printk("hugetlb: pool of order %u grew only to %lu of %lu pages\n", h->order, got, n);
	return err;
}

int hugetlb_set_pool_size(unsigned long n)
{
	return hugetlb_set_pool_size_order(HPAGE_ORDER, n);
}

void hugetlb_set_overcommit(unsigned long n)
{
	unsigned long flags = mm_spin_lock_irqsave(&hugetlb_lock);

	hstate_2m->overcommit = n;
	mm_spin_unlock_irqrestore(&hugetlb_lock, flags);
}

/* ---- counters and invariants ------------------------------------------------------------------ */

struct hugetlb_counters hugetlb_counters(unsigned int order)
{
	const struct hstate *h = hstate_of_order(order);
	struct hugetlb_counters c = { .order = order };
	unsigned long flags = mm_spin_lock_irqsave(&hugetlb_lock);

	if (h) {
		c.total = h->total, c.free = h->free, c.reserved = h->reserved;
		c.surplus = h->surplus, c.in_use = h->in_use, c.overcommit = h->overcommit;
		c.requested = h->requested;
	}
	mm_spin_unlock_irqrestore(&hugetlb_lock, flags);
	return c;
}

/* Problem with one folio found on h's free list, or NULL. */
static const char *free_page_problem(const struct hstate *h, const struct folio *folio)
{
	if (!folio_test_large(folio) || !folio_test_hugetlb(folio))
		return "a page on the free list is not a hugetlb compound head";
	if (folio_order(folio) != h->order)
		return "a page on the free list has the wrong order";
	if (folio_dtor(folio) != free_huge_page)
		return "a page on the free list does not have free_huge_page as destructor";
	if (folio_ref_count(folio) || folio->private != HUGETLB_ON_FREE_LIST)
		return "a page on the free list is referenced or not marked free";
	return NULL;
}

static const char *check_free_list(const struct hstate *h)
{
	unsigned long n = 0;

	for (const struct list_head *l = h->free_list.next; l != &h->free_list; l = l->next) {
		const char *p = free_page_problem(h, lru_to_folio(l));
		if (p)
			return p;
		if (++n > h->free)
			return "the free list holds more pages than the free count";
	}
	return n == h->free ? NULL : "the free list holds fewer pages than the free count";
}

static const char *check_hstate(const struct hstate *h)
{
	if (h->reserved > h->free)
		return "reserved > free";
	if (h->free > h->total)
		return "free > total";
	if (h->surplus > h->total)
		return "surplus > total";
	if (h->free + h->in_use != h->total)
		return "free + handed out != total";
	return check_free_list(h);
}

const char *hugetlb_check(void)
{
	static char msg[128];
	unsigned long flags = mm_spin_lock_irqsave(&hugetlb_lock);
	const char *problem = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(hstates) && !problem; i++) {
		const struct hstate *h = &hstates[i];
		const char *p = check_hstate(h);
		if (p) {
			snprintf(msg, sizeof(msg), "order %u pool: %s (total %lu free %lu rsvd %lu surp %lu out %lu)",
				 h->order, p, h->total, h->free, h->reserved, h->surplus, h->in_use);
			problem = msg;
		}
	}
	mm_spin_unlock_irqrestore(&hugetlb_lock, flags);
	return problem;
}

int hugetlb_meminfo(char *buf, size_t size)
{
	struct hugetlb_counters h = hugetlb_counters(HPAGE_ORDER), g = hugetlb_counters(GIGANTIC_ORDER);
	unsigned long kb = (h.total << h.order) * (PAGE_SIZE / 1024) + (g.total << g.order) * (PAGE_SIZE / 1024);

	return snprintf(buf, size,
			"HugePages_Total:   %5lu\nHugePages_Free:    %5lu\nHugePages_Rsvd:    %5lu\n"
			"HugePages_Surp:    %5lu\nHugepagesize:   %8lu kB\nHugetlb:        %8lu kB\n",
			h.total, h.free, h.reserved, h.surplus, (PAGE_SIZE << h.order) / 1024, kb);
}

void hugetlb_report(void)
{
	struct hugetlb_counters g = hugetlb_counters(GIGANTIC_ORDER);
	char buf[256];

	hugetlb_meminfo(buf, sizeof(buf));
	printk("%s", buf);
	printk("hugepages-%lukB: total %lu free %lu\n", GIGANTIC_SIZE / 1024, g.total, g.free);
}

/* ---- boot: the requests, gigantic pages, the initial pool ------------------------------------ */

bool hugetlb_has_order(unsigned int order)
{
	return hstate_of_order(order) != NULL;
}

unsigned long hugetlb_request(unsigned int order, unsigned long count)
{
	struct hstate *h = hstate_of_order(order);

	if (!h)
		panic("hugetlb_request: no pool of order %u", order);
	if (h == hstate_1g && count > HUGETLB_MAX_GIGANTIC)
		count = HUGETLB_MAX_GIGANTIC;
	h->requested = count;
	return count;
}

unsigned long hugetlb_reserve_gigantic_early(void)
{
	while (nr_gigantic_phys < hstate_1g->requested) {
		phys_addr_t p = memblock_alloc_named(GIGANTIC_SIZE, GIGANTIC_SIZE, UINT64_MAX, "gigantic page");
		if (!p) {
			printk("hugetlb: only %lu of %lu 1 GiB pages could be reserved\n", nr_gigantic_phys,
			       hstate_1g->requested);
			break;
		}
		gigantic_phys[nr_gigantic_phys++] = p;
	}
	return nr_gigantic_phys;
}

/* Turns the reserved 1 GiB block at phys into a free gigantic pool page. */
static void add_gigantic(phys_addr_t phys)
{
	struct page *head = pfn_to_page(PFN_DOWN(phys));
	struct folio *folio;

	for (unsigned long i = 0; i < (1UL << GIGANTIC_ORDER); i++) {
		page_flag_clear(&head[i], PG_reserved);
		set_page_ref(&head[i], 0);
	}
	if (prep_compound_page(head, GIGANTIC_ORDER))
		panic("hugetlb: cannot make a compound page at %#llx", (unsigned long long)phys);
	folio = page_folio(head);
	make_huge_folio(hstate_1g, folio);
	enqueue_huge_folio(hstate_1g, folio);
}

int hugetlb_init(void)
{
	int err;

	for (unsigned long i = 0; i < nr_gigantic_phys; i++)
		add_gigantic(gigantic_phys[i]);
	nr_gigantic_phys = 0;
	hugetlb_booting = true;
	err = hugetlb_set_pool_size(hstate_2m->requested);
	hugetlb_booting = false;
	return err;
}
