/* SPDX-License-Identifier: MIT */
/*
 * The model test's misuse of the page allocator: double frees, wrong orders, tail and inner pages,
 * reserved pages, misaligned frees, extra references, hugetlb pages freed the wrong way, get_page()
 * and put_page() on free pages, free_pages() of bad addresses, a compound page whose owner frees
 * it (a destructor of its own) split or freed. Each must give exactly one report
 * (mm_bad_page_reports counts them) and change nothing: not the pages involved, not the free count,
 * not the pool.
 */
#include "tests/model/model.h"

#include <string.h>

/* The pages a misuse could damage, copied before it, and the counters it must not move. */
struct snapshot {
	struct page *page[3];
	struct page copy[3];
	unsigned long free, reports;
	struct hugetlb_counters pool;
};

static void snapshot_take(struct snapshot *s, struct page *target, const struct block *b)
{
	s->page[0] = target;
	s->page[1] = b ? b->page : target;
	s->page[2] = b && b->order ? b->page + 1 : target;
	for (int i = 0; i < 3; i++)
		s->copy[i] = *s->page[i];
	s->free = nr_free_pages();
	s->reports = mm_bad_page_reports;
	s->pool = hugetlb_counters(HPAGE_ORDER);
}

static bool pool_same(const struct hugetlb_counters *a, const struct hugetlb_counters *b)
{
	return a->total == b->total && a->free == b->free && a->reserved == b->reserved &&
	       a->surplus == b->surplus && a->in_use == b->in_use;
}

static unsigned int current_case; /* the misuse case running (index in cases[] below) */

/* Expects exactly one report since the snapshot, and nothing changed. */
static void expect_one_report(const struct snapshot *s, const char *what)
{
	struct hugetlb_counters pool = hugetlb_counters(HPAGE_ORDER);

	if (mm_bad_page_reports != s->reports + 1)
		model_fail("%s: %lu reports, expected exactly 1", what, mm_bad_page_reports - s->reports);
	for (int i = 0; i < 3; i++)
		if (memcmp(&s->copy[i], s->page[i], sizeof(struct page)))
			model_fail("%s changed the struct page of pfn %#lx: flags %#x -> %#x, count %d -> %d",
				   what, page_to_pfn(s->page[i]), (unsigned int)s->copy[i].flags,
				   (unsigned int)s->page[i]->flags, (int)s->copy[i]._refcount,
				   (int)s->page[i]->_refcount);
	if (nr_free_pages() != s->free || !pool_same(&pool, &s->pool))
		model_fail("%s changed the free count (%lu -> %lu) or the hugetlb pool", what, s->free,
			   nr_free_pages());
	model.expected_reports++;
	stats.misuse++;
	stats.misuse_by_case[current_case]++;
}

/* A random frame the model says is free in the buddy allocator, or NULL after a few tries. */
static struct page *random_free_frame(void)
{
	for (int tries = 0; tries < 64; tries++) {
		unsigned long pfn = rnd_below(mm_max_pfn);

		if (model.frame[pfn] == FRAME_FREE)
			return pfn_to_page(pfn);
	}
	return NULL;
}

/* __free_pages(), get_page() or put_page() on a page that holds no reference of its own. */
static void unreferenced_page(struct page *page, const struct block *b, const char *what)
{
	struct snapshot s;
	unsigned long r = rnd_below(3);
	unsigned int order = (unsigned int)rnd_below(MAX_ORDER + 3);

	note(r == 0 ? "__free_pages (misuse)" : r == 1 ? "get_page (misuse)" : "put_page (misuse)",
	     page_to_pfn(page), order, 0);
	snapshot_take(&s, page, b);
	if (r == 0)
		__free_pages(page, order);
	else if (r == 1)
		get_page(page);
	else
		put_page(page);
	expect_one_report(&s, what);
}

/* A random free frame: freed, or referenced. */
static void free_frame(void)
{
	struct page *page = random_free_frame();

	if (page)
		unreferenced_page(page, NULL, "free, get or put of a free page");
}

/* The block freed last, freed again at its order; or any free frame once it is in use again. */
static void double_free(void)
{
	struct page *page = pfn_to_page(model.last_freed_pfn);
	struct snapshot s;

	if (!model_frames_are(model.last_freed_pfn, model.last_freed_order, FRAME_FREE)) {
		free_frame();
		return;
	}
	note("__free_pages (double free)", model.last_freed_pfn, model.last_freed_order, 0);
	snapshot_take(&s, page, NULL);
	__free_pages(page, model.last_freed_order);
	expect_one_report(&s, "double free");
}

static void wrong_order(void)
{
	struct block *b = block_random();
	unsigned int order = (unsigned int)rnd_below(MAX_ORDER + 3);
	struct snapshot s;

	if (!b || b->kind == BLOCK_HUGE || order == b->order)
		return;
	note("__free_pages (wrong order)", b->pfn, order, b->order);
	snapshot_take(&s, b->page, b);
	__free_pages(b->page, order);
	expect_one_report(&s, "__free_pages at the wrong order (or misaligned, or above MAX_ORDER)");
}

static void tail_page(void)
{
	struct block *b = block_random_of(chance(25) ? BLOCK_HUGE : BLOCK_COMPOUND, 1);
	struct page *tail;
	struct snapshot s;

	if (!b)
		return;
	tail = b->page + 1 + rnd_below((1UL << b->order) - 1);
	note("__free_pages (tail page)", page_to_pfn(tail), b->order, 0);
	snapshot_take(&s, tail, b);
	__free_pages(tail, (unsigned int)rnd_below(b->order + 1));
	expect_one_report(&s, "__free_pages on a tail page");
}

static void inner_page(void)
{
	struct block *b = block_random_of(BLOCK_PLAIN, 1);

	if (b)
		unreferenced_page(b->page + 1 + rnd_below((1UL << b->order) - 1), b,
				  "free, get or put of an inner page of a plain block");
}

static void reserved_page(void)
{
	if (model.nr_reserved_pfns)
		unreferenced_page(pfn_to_page(model.reserved_pfns[rnd_below(model.nr_reserved_pfns)]), NULL,
				  "free, get or put of a reserved page");
}

static void extra_reference(void)
{
	struct block *b = block_random();
	struct snapshot s;

	if (!b || b->kind == BLOCK_HUGE || b->refs >= 8)
		return;
	note("get_page", b->pfn, b->order, (unsigned long)b->refs);
	get_page(b->page);
	b->refs++;
	note("__free_pages (references held)", b->pfn, b->order, (unsigned long)b->refs);
	snapshot_take(&s, b->page, b);
	__free_pages(b->page, b->order);
	expect_one_report(&s, "__free_pages while other references are held");
}

static void huge_page(void)
{
	struct block *b = block_random_of(BLOCK_HUGE, 0);
	struct page *page = hugetlb_model_free_page();
	struct snapshot s;

	if (b && chance(50)) {
		note("__free_pages (hugetlb page)", b->pfn, b->order, 0);
		snapshot_take(&s, b->page, b);
		__free_pages(b->page, b->order);
		expect_one_report(&s, "__free_pages on a huge page handed out by the pool");
	} else if (page) {
		struct block fake = { .page = page, .order = HPAGE_ORDER };

		unreferenced_page(page + (chance(50) ? 0 : 1 + rnd_below((1UL << HPAGE_ORDER) - 1)), &fake,
				  "free, get or put of a free page of the hugetlb pool");
	}
}

/*
 * A held compound page given a destructor of its own (free_huge_page, registered by mm_init(); the
 * page is not the pool's and never reaches it): its owner frees it whole, so a split through any
 * sub-page is refused without a bad_page report, and __free_pages() with one. Then the default
 * destructor again.
 */
static void owned_page(void)
{
	struct block *b = block_random_of(BLOCK_COMPOUND, 1);
	struct page *target;
	struct snapshot s;
	int got;

	if (!b)
		return;
	target = b->page + rnd_below(1UL << b->order);
	if (set_compound_page_dtor(b->page, free_huge_page))
		model_fail("set_compound_page_dtor(pfn %#lx, free_huge_page) refused", b->pfn);
	note("split_huge_page (owned)", page_to_pfn(target), b->order, (unsigned long)b->refs);
	snapshot_take(&s, target, b);
	got = split_huge_page(target);
	if (got != -EINVAL)
		model_fail("split_huge_page of a compound page with its own destructor returned %d", got);
	note("__free_pages (owned)", b->pfn, b->order, (unsigned long)b->refs);
	__free_pages(b->page, b->order);
	expect_one_report(&s, "split and __free_pages of a compound page with its own destructor");
	set_compound_page_dtor(b->page, default_compound_dtor());
}

/* free_pages() of an address that is not a page-aligned direct-map address of RAM. */
static void bad_address(void)
{
	struct block *b = block_random();
	unsigned long r = rnd_below(3), addr;
	struct snapshot s;

	if ((r == 0 && !b) || !model.nr_reserved_pfns)
		return;
	if (r == 0) /* inside a held block, not page-aligned */
		addr = (unsigned long)page_address(b->page) + 1 + rnd_below(PAGE_SIZE - 1);
	else if (r == 1) /* beyond the memmap */
		addr = mm_direct_map_offset + PFN_PHYS(mm_memmap_end_pfn + rnd_below(1UL << 20));
	else /* in the hole below 4 GiB */
		addr = mm_direct_map_offset + PFN_PHYS(ZONE_DMA32_END_PFN - 1 - rnd_below(1UL << 16));
	if (r == 2 && pfn_valid(PFN_DOWN(addr - mm_direct_map_offset)))
		return;
	note("free_pages (bad address)", 0, 0, addr - mm_direct_map_offset);
	snapshot_take(&s, b ? b->page : pfn_to_page(model.reserved_pfns[0]), b);
	free_pages(addr, 0);
	expect_one_report(&s, "free_pages of a bad address");
}

/* A held block freed at an order whose alignment its pfn does not have. */
static void misaligned(void)
{
	struct block *b = block_random();
	unsigned int order;
	struct snapshot s;

	if (!b || b->kind == BLOCK_HUGE || !b->pfn || __builtin_ctzl(b->pfn) >= MAX_ORDER)
		return;
	order = (unsigned int)__builtin_ctzl(b->pfn) + 1; /* the smallest order the pfn is not aligned to */
	note("__free_pages (misaligned)", b->pfn, order, b->order);
	snapshot_take(&s, b->page, b);
	__free_pages(b->page, order);
	expect_one_report(&s, "__free_pages of a misaligned block");
}

static const struct {
	void (*run)(void);
	const char *name;
} cases[NR_MISUSE_CASES] = {
	{ double_free, "double free" },
	{ wrong_order, "wrong order" },
	{ tail_page, "tail page" },
	{ inner_page, "inner page" },
	{ reserved_page, "reserved page" },
	{ extra_reference, "references held" },
	{ huge_page, "hugetlb page" },
	{ bad_address, "bad address" },
	{ free_frame, "free page" },
	{ misaligned, "misaligned" },
	{ owned_page, "owned page" },
};

const char *misuse_name(unsigned int i)
{
	return cases[i].name;
}

void op_misuse(void)
{
	current_case = (unsigned int)rnd_below(NR_MISUSE_CASES);
	cases[current_case].run();
}
