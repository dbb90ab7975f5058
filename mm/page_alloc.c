/* SPDX-License-Identifier: MIT */
/*
 * alloc_pages() and __free_pages(): the checks and preparation around the buddy free lists,
 * zone fallback, gfp flags, references (get_page/put_page) and the compound-page hooks.
 */
#include "mm/page_alloc.h"

#include "mm/arch.h"
#include "mm/bad_page.h"
#include "mm/buddy.h"
#include "mm/compound.h"
#include "mm/hot_pages.h"
#include "mm/poison.h"

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* Flags a block being freed must not carry, plus the allocation order field. */
#define FREE_CHECK_FLAGS                                                                        \
	(1u << PG_reserved | 1u << PG_buddy | 1u << PG_head | 1u << PG_tail | 1u << PG_compound | \
	 1u << PG_hugetlb | PAGE_ORDER_MASK)

/* The highest zone gfp allows: the fallback walks down from it. */
static int highest_zone(gfp_t gfp)
{
	if (gfp & __GFP_DMA)
		return ZONE_DMA;
	return gfp & __GFP_DMA32 ? ZONE_DMA32 : ZONE_NORMAL;
}

/* Where an allocation starts: the highest zone gfp allows that has memory. */
static struct zone *first_zone(gfp_t gfp)
{
	return &zones[MIN(highest_zone(gfp), (int)top_zone)];
}

static void prep_new_page(struct page *page, unsigned int order, gfp_t gfp)
{
	page->_refcount = 1;
	page->private = 0;
	if (unlikely(nr_poisoned_pages))
		unpoison_pages(page, 1UL << order);
	if (gfp & __GFP_ZERO)
		memset(page_address(page), 0, PAGE_SIZE << order);
	if (!order)
		return;
	if (!(gfp & __GFP_COMP) || prep_compound_page(page, order))
		page->flags |= order << PAGE_ORDER_SHIFT;
}

static void warn_alloc_failed(gfp_t gfp, unsigned int order)
{
	printk("alloc_pages: no free block of order %u (gfp %#x) in zones %s and below; "
	       "%lu pages free\n", order, gfp, zone_name(highest_zone(gfp)), nr_free_pages());
}

/* A block from the hot list or the buddy lists of the highest allowed zone that has one. */
static struct page *take_block(gfp_t gfp, unsigned int order)
{
	struct page *page = NULL;

	for (struct zone *zone = first_zone(gfp); zone >= zones && !page; zone--) {
		if (order < hot_orders)
			page = hot_take(zone, order);
		if (!page)
			page = buddy_take(zone, order);
	}
	return page;
}

/* Everything but the fast path: checks, zone fallback, draining, failure, __GFP_ZERO/COMP. */
static struct page *alloc_pages_slow(gfp_t gfp, unsigned int order)
{
	struct page *page;

	if (unlikely(order > MAX_ORDER || (gfp & ~__GFP_ALL))) {
		printk("alloc_pages: refused: order %u (MAX_ORDER is %d), gfp %#x (known bits %#x)\n",
		       order, MAX_ORDER, gfp, __GFP_ALL);
		return NULL;
	}
	page = take_block(gfp, order);
	if (unlikely(!page) && drain_hot_pages()) /* hot blocks may merge into one large enough */
		page = take_block(gfp, order);
	if (unlikely(!page)) {
		if (!(gfp & __GFP_NOWARN))
			warn_alloc_failed(gfp, order);
		return NULL;
	}
	prep_new_page(page, order, gfp);
	return page;
}

/*
 * The fast path: a plain block of order <= HOT_MAX_ORDER from the hot list of the first zone.
 * Everything else takes the slow path.
 */
struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	struct zone *zone = first_zone(gfp);
	struct page *page;

	if (unlikely(order > HOT_MAX_ORDER || (gfp & ~(__GFP_ZONEMASK | __GFP_NOWARN)) ||
		     !zone->hot[order].count || nr_poisoned_pages))
		return alloc_pages_slow(gfp, order);
	page = hot_take(zone, order);
	page->_refcount = 1;
	page->private = 0;
	page->flags |= order << PAGE_ORDER_SHIFT;
	return page;
}

/* The order a plain block was allocated at, from its first page (0 for an order-0 page). */
static unsigned int alloc_order(const struct page *page)
{
	return (page->flags & PAGE_ORDER_MASK) >> PAGE_ORDER_SHIFT;
}

/* What is wrong with freeing the block at page with this order, or NULL if nothing is. */
static const char *free_problem(const struct page *page, unsigned int order)
{
	static char msg[120];

	if (order > MAX_ORDER)
		snprintf(msg, sizeof(msg), "freed at order %u, above MAX_ORDER %d", order, MAX_ORDER);
	else if (PageHugeTLB(page))
		return "hugetlb pool page freed with __free_pages (drop it with put_page)";
	else if (PageTail(page))
		return "freeing a tail page of a compound page";
	else if (PageBuddy(page))
		snprintf(msg, sizeof(msg), "double free: already the first page of a free order-%lu block",
			 page->private);
	else if (PageReserved(page))
		return "freeing a reserved page";
	else if (page_to_pfn(page) & ((1UL << order) - 1))
		snprintf(msg, sizeof(msg), "block misaligned: pfn is not a multiple of 2^%u", order);
	else if (page->_refcount == 0)
		return "freeing a page that is not allocated (reference count 0): double free?";
	else if (page->_refcount != 1)
		snprintf(msg, sizeof(msg), "freeing with reference count %d: other references are held",
			 (int)page->_refcount);
	else if (!PageHead(page) && alloc_order(page) != order)
		snprintf(msg, sizeof(msg), "freed at order %u but allocated at order %u", order,
			 alloc_order(page));
	else
		return NULL;
	return msg;
}

/* The slow path of __free_pages(): true when the block may be freed after all (a compound head). */
static bool free_checks_fail(struct page *page, unsigned int order)
{
	const char *problem = free_problem(page, order);

	if (problem) {
		bad_page(page, problem);
		return true;
	}
	return PageHead(page) && !free_compound_prepare(page, order);
}

/* Gives back a block every check has passed (and whose compound metadata, if any, is cleared). */
static inline void free_block(struct page *page, unsigned int order)
{
	page->_refcount = 0;
	page->flags &= ~PAGE_ORDER_MASK;
	if (unlikely(mm_debug_poison))
		poison_pages(page, 1UL << order);
	if (order < hot_orders)
		hot_give(page, order);
	else
		buddy_give(page, order);
}

void __free_pages(struct page *page, unsigned int order)
{
	if (unlikely(order > MAX_ORDER ||
		     (page->flags & FREE_CHECK_FLAGS) != order << PAGE_ORDER_SHIFT ||
		     page->_refcount != 1 || (page_to_pfn(page) & ((1UL << order) - 1))) &&
	    free_checks_fail(page, order))
		return;
	free_block(page, order);
}

/* ---- compound pages: the destructor at the last reference ---------------------------------- */

void destroy_compound_page(struct page *head)
{
	compound_page_dtor *dtor;

	if (!PageHead(head)) {
		bad_page(head, "destroy_compound_page: not the head of a compound page");
		return;
	}
	dtor = head[1].compound_dtor;
	if (!compound_dtor_name(dtor)) {
		bad_page(head, dtor ? "compound page has an unknown destructor (not called)"
				    : "compound page has no destructor");
		return;
	}
	dtor(head);
}

/*
 * The unit's count is already zero here. Its metadata is checked once (free_compound_prepare()
 * reports a damaged unit, which is then left alone) and cleared, and the block goes back whole.
 */
void free_compound_page(struct page *head)
{
	unsigned int order = compound_order(head);

	if (order > MAX_ORDER) {
		bad_page(head, "free_compound_page: a gigantic page cannot go to the buddy allocator");
		return;
	}
	if (free_compound_prepare(head, order))
		free_block(head, order);
}

unsigned long __get_free_pages(gfp_t gfp, unsigned int order)
{
	struct page *page = alloc_pages(gfp, order);

	return page ? (unsigned long)page_address(page) : 0;
}

void free_pages(unsigned long addr, unsigned int order)
{
	unsigned long pfn = PFN_DOWN(addr - mm_direct_map_offset);

	if (!addr)
		return;
	if (addr < mm_direct_map_offset || (addr & (PAGE_SIZE - 1)) || !pfn_valid(pfn)) {
		printk("free_pages: %#lx is not the page-aligned direct-map address of RAM; ignored\n", addr);
		bad_page_reports++;
		return;
	}
	__free_pages(pfn_to_page(pfn), order);
}

/* The head whose count page's references use, or NULL (reported) for an impossible tail. */
static struct page *ref_head(struct page *page, const char *fn)
{
	struct page *head = compound_head(page);
	static char msg[80];

	if (PageTail(page) && !compound_head_plausible(page, head)) {
		snprintf(msg, sizeof(msg), "%s: tail page with an impossible head pointer", fn);
		bad_page(page, msg);
		return NULL;
	}
	if (head->_refcount <= 0) {
		snprintf(msg, sizeof(msg), "%s on a page that is not allocated (reference count %d)", fn,
			 (int)head->_refcount);
		bad_page(head, msg);
		return NULL;
	}
	return head;
}

void get_page(struct page *page)
{
	struct page *head = ref_head(page, "get_page");

	if (head)
		head->_refcount++;
}

void put_page(struct page *page)
{
	struct page *head = ref_head(page, "put_page");

	if (!head || --head->_refcount)
		return;
	if (PageHead(head)) {
		destroy_compound_page(head);
		return;
	}
	head->_refcount = 1; /* the reference __free_pages() drops */
	__free_pages(head, alloc_order(head));
}

unsigned long nr_free_pages(void)
{
	unsigned long sum = 0;

	for (int z = 0; z < MAX_NR_ZONES; z++)
		sum += zones[z].free_pages;
	return sum;
}
