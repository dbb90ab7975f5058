/* SPDX-License-Identifier: MIT */
/*
 * The fragmentation benchmark's workloads and its count of order-9 blocks (tests/bench/fragbench.h;
 * the workloads are defined in README.md, "Fragmentation"). One thread plays every CPU: before
 * each allocation or free it becomes the CPU the seed's random sequence names, so a run is
 * deterministic for its seed.
 */
#include "tests/bench/fragbench.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "mm/compaction.h"
#include "mm/pcp.h"
#include "mm/memmap.h"
#include "mm/page_alloc.h"
#include "mm/slab.h"
#include "mm/vmalloc.h"
#include "tests/ktest/mm_helpers.h"
#include "tests/mm/host_mm.h"
#include "tests/mm/mm_rebuild.h"

#define FRAG_HUGE_ORDER 9
#define FRAG_REGION_PAGES (1UL << FRAG_HUGE_ORDER)
#define FRAG_FILL_PERCENT 90   /* the fill stops at this share of the free pages at boot */
#define FRAG_CHURN_LOW_PERCENT 85 /* churn keeps the live pages between this and the fill */
#define FRAG_LONG_PERCENT 10   /* long-lived pages' share of the live pages */
#define FRAG_LONG_FREE_ODDS 10 /* a long-lived object is this many times less likely to be freed */
#define FRAG_MAX_SHORT_ORDER 3
/*
 * Up to this size vmalloc's pages are really mapped (tests/mm/host_arch.c: one host mapping each);
 * above it host_vmalloc_unmapped, since the host allows a process about 65,000 mappings.
 */
#define FRAG_MAPPED_MAX_MIB 128

/*
 * What an allocation is, for the allocator's mobility grouping: long-lived kernel objects are
 * unmovable, the short-lived memory is movable (user pages, vmalloc'd buffers).
 */
enum frag_hint { FRAG_HINT_UNMOVABLE, FRAG_HINT_MOVABLE, FRAG_HINT_RECLAIMABLE };

/*
 * The one place a hint becomes gfp flags (mm/gfp.h's mobility bits).
 * __GFP_NOWARN: a failure is counted, not reported.
 */
static gfp_t frag_gfp(enum frag_hint hint)
{
	switch (hint) {
	case FRAG_HINT_MOVABLE:
		return GFP_KERNEL | __GFP_MOVABLE | __GFP_NOWARN;
	case FRAG_HINT_RECLAIMABLE:
		return GFP_KERNEL | __GFP_RECLAIMABLE | __GFP_NOWARN;
	case FRAG_HINT_UNMOVABLE:
	default:
		return GFP_KERNEL | __GFP_NOWARN;
	}
}

/* A short-lived allocation: a block of 2^order frames, or a vmalloc()'d area of 2^order pages. */
struct frag_short {
	struct page *block;
	void *area;
	unsigned int order;
};

/* A run's state: what it holds, where the long-lived pages are, its random sequence. */
struct frag_state {
	unsigned long rng;
	bool vmalloc;      /* short-lived memory is vmalloc()'d, compacted before a count */
	bool order0_only;  /* short-lived blocks are all order 0 (the LLFree workload) */
	unsigned long boot_free;   /* free pages after boot */
	unsigned long boot_slab;   /* slab pages after boot (vmalloc's area descriptors come from kmalloc) */
	unsigned long target, low; /* live pages: the fill's end; churn's floor */
	unsigned long live_pages, long_pages, failed;
	unsigned long peak_live, peak_free; /* the churn's last peak (struct frag_count's peak_free) */
	struct page **longs;
	unsigned long nr_longs;
	struct frag_short *shorts;
	unsigned long nr_shorts;
	unsigned long nr_regions;
	bool *region_ram;         /* region i (frames i*512 ...) was a free 2 MiB block at boot */
	uint32_t *long_in_region; /* live long-lived pages in region i */
	struct page **huge;       /* the count's order-9 blocks, given back after it */
};

static unsigned long frag_rand(struct frag_state *st, unsigned long n)
{
	return mm_test_rand(&st->rng) % n;
}

/* Becomes the CPU the random sequence names next. */
static void frag_switch_cpu(struct frag_state *st)
{
	host_mm_set_cpu((unsigned int)frag_rand(st, host_mm_nr_cpus));
}

static unsigned long frag_region(const struct page *page)
{
	return page_to_pfn(page) / FRAG_REGION_PAGES;
}

/* Allocates one long-lived (unmovable) order-0 page; false when it cannot be had. */
static bool frag_alloc_long(struct frag_state *st)
{
	struct page *page = alloc_pages(frag_gfp(FRAG_HINT_UNMOVABLE), 0);

	if (!page)
		return false;
	st->longs[st->nr_longs++] = page;
	st->long_in_region[frag_region(page)]++;
	st->live_pages++;
	st->long_pages++;
	return true;
}

/* Allocates one short-lived (movable) allocation of 2^order pages; false when it cannot be had. */
static bool frag_alloc_short(struct frag_state *st, unsigned int order)
{
	struct frag_short s = { .order = order };

	if (st->vmalloc)
		s.area = __vmalloc(PAGE_SIZE << order, __GFP_NOWARN);
	else
		s.block = alloc_pages(frag_gfp(FRAG_HINT_MOVABLE), order);
	if (!s.block && !s.area)
		return false;
	st->shorts[st->nr_shorts++] = s;
	st->live_pages += 1UL << order;
	return true;
}

/* Frees long-lived page i (the last one takes its place). */
static void frag_free_long(struct frag_state *st, unsigned long i)
{
	struct page *page = st->longs[i];

	st->long_in_region[frag_region(page)]--;
	__free_pages(page, 0);
	st->longs[i] = st->longs[--st->nr_longs];
	st->live_pages--;
	st->long_pages--;
}

/* Frees short-lived allocation i (the last one takes its place). */
static void frag_free_short(struct frag_state *st, unsigned long i)
{
	struct frag_short s = st->shorts[i];

	if (s.area)
		vfree(s.area);
	else
		__free_pages(s.block, s.order);
	st->shorts[i] = st->shorts[--st->nr_shorts];
	st->live_pages -= 1UL << s.order;
}

/*
 * One allocation on a random CPU: long-lived while the long-lived pages are fewer than 10 % of
 * the live ones, else short-lived of a random order 0..3 (0 in the LLFree workload). A failure
 * is counted.
 */
static void frag_alloc_one(struct frag_state *st)
{
	bool ok;

	frag_switch_cpu(st);
	if (st->long_pages * 100 < st->live_pages * FRAG_LONG_PERCENT)
		ok = frag_alloc_long(st);
	else
		ok = frag_alloc_short(st, st->order0_only ? 0 : (unsigned int)frag_rand(st, FRAG_MAX_SHORT_ORDER + 1));
	if (!ok)
		st->failed++;
}

/* One free on a random CPU of a random live allocation, a long-lived one weighted 1/10. */
static void frag_free_one(struct frag_state *st)
{
	unsigned long r;

	frag_switch_cpu(st);
	r = frag_rand(st, st->nr_longs + FRAG_LONG_FREE_ODDS * st->nr_shorts);
	if (r < st->nr_longs)
		frag_free_long(st, r);
	else
		frag_free_short(st, (r - st->nr_longs) / FRAG_LONG_FREE_ODDS);
}

/* Frees a random short-lived allocation on a random CPU. */
static void frag_free_random_short(struct frag_state *st)
{
	frag_switch_cpu(st);
	frag_free_short(st, frag_rand(st, st->nr_shorts));
}

/* Allocates until the live pages reach the target (or an allocation fails: memory is full). */
static void frag_fill(struct frag_state *st)
{
	unsigned long failed = st->failed;

	while (st->live_pages < st->target && st->failed == failed)
		frag_alloc_one(st);
}

/* The live pages are at their most so far in the churn's second half: notes the free frames now. */
static void frag_note_peak(struct frag_state *st)
{
	st->peak_live = st->live_pages;
	st->peak_free = st->boot_free + st->boot_slab - st->live_pages - nr_slab_pages();
}

/*
 * ops random operations: free at or above the target, allocate below the floor, else either
 * with even odds.
 */
static void frag_churn(struct frag_state *st, unsigned long ops)
{
	st->peak_live = st->peak_free = 0;
	for (unsigned long i = 0; i < ops; i++) {
		if (st->live_pages >= st->target || (st->live_pages >= st->low && frag_rand(st, 2)))
			frag_free_one(st);
		else
			frag_alloc_one(st);
		if (i >= ops / 2 && st->live_pages >= st->peak_live)
			frag_note_peak(st);
	}
}

/* Frees every short-lived allocation, each on a random CPU. */
static void frag_free_all_short(struct frag_state *st)
{
	st->peak_free = 0; /* a count after this is not against the churn's peak */
	while (st->nr_shorts)
		frag_free_random_short(st);
}

/*
 * The LLFree paper's rounds: free a random half of the short-lived pages, then rounds times
 * free a random 10 % of them and allocate as many again (order 0, short-lived).
 */
static void frag_llfree_rounds(struct frag_state *st, unsigned int rounds)
{
	for (unsigned long n = st->nr_shorts / 2; n; n--)
		frag_free_random_short(st);
	for (unsigned int r = 0; r < rounds; r++) {
		unsigned long n = st->nr_shorts / 10;

		for (unsigned long i = 0; i < n; i++)
			frag_free_random_short(st);
		for (unsigned long i = 0; i < n; i++) {
			frag_switch_cpu(st);
			if (!frag_alloc_short(st, 0))
				st->failed++;
		}
	}
}

/* Allocates order-9 blocks on CPU 0 until one fails, into st->huge; returns how many. */
static unsigned long frag_take_huge(struct frag_state *st)
{
	unsigned long n = 0;
	struct page *page;

	host_mm_set_cpu(0);
	/*
	 * __GFP_HIGH: the watermark reserve counts as free memory, as it does in the ideal.
	 * __GFP_MOVABLE: huge pages of user memory are movable; taking them leaves every pageblock's
	 * type as it was (an unmovable one would claim each for unmovable allocations).
	 */
	while (n < st->nr_regions &&
	       (page = alloc_pages(__GFP_HIGH | __GFP_MOVABLE | __GFP_NOWARN, FRAG_HUGE_ORDER)))
		st->huge[n++] = page;
	return n;
}

/*
 * Frees the order-9 blocks taken, then drains: a freed whole pageblock may stay on CPU 0's list
 * (mm/zone.h), and the workload after a count should find the buddy lists as it left them, not
 * CPU 0 keeping pageblocks the other CPUs' allocations cannot see.
 */
static void frag_give_back_huge(struct frag_state *st, unsigned long n)
{
	while (n)
		__free_pages(st->huge[--n], FRAG_HUGE_ORDER);
	drain_pcp_lists();
}

/* The regions that were free 2 MiB blocks at boot: the only ones that could ever be one. */
static void frag_find_ram_regions(struct frag_state *st)
{
	unsigned long n = frag_take_huge(st);

	for (unsigned long i = 0; i < n; i++)
		st->region_ram[frag_region(st->huge[i])] = true;
	frag_give_back_huge(st, n);
}

/* Does region i hold a slab page (vmalloc's area descriptors are kmalloc()'d: unmovable)? */
static bool frag_region_has_slab(unsigned long i)
{
	for (unsigned long pfn = i * FRAG_REGION_PAGES; pfn < (i + 1) * FRAG_REGION_PAGES; pfn++)
		if (pfn_valid(pfn) && PageSlab(compound_head(pfn_to_page(pfn))))
			return true;
	return false;
}

/*
 * The state a count starts from, on CPU 0: the per-CPU lists drained (what alloc_pages() does
 * before failing), the free pages and both ideals. Returns false (reported) when the free pages,
 * the live ones and the slab's growth since boot do not add up to the free pages at boot:
 * figures from an allocator that lost or invented pages would mean nothing.
 */
static bool frag_take_ideals(struct frag_state *st, struct frag_count *c)
{
	unsigned long slab = nr_slab_pages();

	host_mm_set_cpu(0);
	drain_pcp_lists();
	c->free_pages = nr_free_pages();
	if (c->free_pages + st->live_pages + slab != st->boot_free + st->boot_slab) {
		fprintf(stderr, "fragbench: %lu free pages, %lu live ones and %lu slab pages, but %lu free and %lu slab at boot\n",
			c->free_pages, st->live_pages, slab, st->boot_free, st->boot_slab);
		return false;
	}
	c->ideal_free = c->free_pages / FRAG_REGION_PAGES;
	c->ideal_regions = 0;
	for (unsigned long i = 0; i < st->nr_regions; i++)
		c->ideal_regions += st->region_ram[i] && !st->long_in_region[i] && !frag_region_has_slab(i);
	c->failed = st->failed;
	c->peak_free = st->peak_free;
	c->ideal_peak = st->peak_free / FRAG_REGION_PAGES;
	return true;
}

/*
 * The count: in the movable workload, compact_memory() first (the count's GFP_ATOMIC-like
 * requests never compact in the slow path); then the ideals (frag_take_ideals()), then order-9
 * blocks allocated until one fails and given back (the state is then as after the drain: the
 * buddy allocator merges a freed block the same whatever came before). false: pages unaccounted
 * for (reported).
 */
static bool frag_count(struct frag_state *st, struct frag_count *c)
{
	host_mm_set_cpu(0);
	if (st->vmalloc)
		compact_memory();
	if (!frag_take_ideals(st, c))
		return false;
	c->blocks = frag_take_huge(st);
	frag_give_back_huge(st, c->blocks);
	return true;
}

/*
 * The hugetlb count: the 2 MiB pool grown after boot as far as it goes (from free 2 MiB blocks,
 * compaction in the allocation slow path, then ranges emptied of their movable pages:
 * mm/hugetlb.h), against the same ideals as frag_count(); the pool is emptied again after.
 * false: pages unaccounted for (reported).
 */
static bool frag_grow_hugetlb(struct frag_state *st, struct frag_count *c)
{
	bool quiet = host_console_quiet;

	if (!frag_take_ideals(st, c))
		return false;
	host_console_quiet = true; /* its "grew only to" line: the count says it */
	hugetlb_set_pool_size(st->nr_regions);
	c->blocks = hugetlb_counters(HPAGE_ORDER).total;
	hugetlb_set_pool_size(0);
	host_console_quiet = quiet;
	return true;
}

/* Frees the host memory of a run (the allocator's memory goes with the next boot). */
static void frag_state_free(struct frag_state *st)
{
	free(st->longs);
	free(st->shorts);
	free(st->region_ram);
	free(st->long_in_region);
	free(st->huge);
}

/* The state of a run on the allocator just booted: room for one allocation per free frame. */
static int frag_state_init(struct frag_state *st, uint64_t seed)
{
	unsigned long pages = nr_free_pages();

	/* Spread small seeds over the state's bits (xorshift's first outputs would be small). */
	*st = (struct frag_state){ .rng = (unsigned long)(seed * 0x9e3779b97f4a7c15ULL) };
	st->boot_free = pages;
	st->boot_slab = nr_slab_pages();
	st->nr_regions = mm_max_pfn / FRAG_REGION_PAGES + 1;
	st->target = pages / 100 * FRAG_FILL_PERCENT;
	st->low = pages / 100 * FRAG_CHURN_LOW_PERCENT;
	st->longs = calloc(pages, sizeof(*st->longs));
	st->shorts = calloc(pages, sizeof(*st->shorts));
	st->region_ram = calloc(st->nr_regions, sizeof(*st->region_ram));
	st->long_in_region = calloc(st->nr_regions, sizeof(*st->long_in_region));
	st->huge = calloc(st->nr_regions, sizeof(*st->huge));
	if (!st->longs || !st->shorts || !st->region_ram || !st->long_in_region || !st->huge) {
		fprintf(stderr, "fragbench: out of host memory for %lu pages\n", pages);
		return -ENOMEM;
	}
	frag_find_ram_regions(st);
	return 0;
}

/*
 * A QEMU pc machine's e820 map with -m mib (SeaBIOS): RAM below 640 KiB, the BIOS area, RAM from
 * 1 MiB to 128 KiB below the end. At 128 MiB it is tests/fixtures/memmaps/qemu-pc-128m.txt.
 */
static void frag_pc_map(char *text, size_t size, unsigned long mib)
{
	unsigned long long end = (unsigned long long)mib << 20, bios = end - (128ULL << 10);

	snprintf(text, size,
		 "BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable\n"
		 "BIOS-e820: [mem 0x000000000009fc00-0x000000000009ffff] reserved\n"
		 "BIOS-e820: [mem 0x00000000000f0000-0x00000000000fffff] reserved\n"
		 "BIOS-e820: [mem 0x0000000000100000-0x%016llx] usable\n"
		 "BIOS-e820: [mem 0x%016llx-0x%016llx] reserved\n"
		 "BIOS-e820: [mem 0x00000000fffc0000-0x00000000ffffffff] reserved\n",
		 bios - 1, bios, end - 1);
}

/* Boots mm/ afresh on the run's map; the per-CPU lists on or off. */
static int frag_boot(const struct frag_params *params, bool pcp_lists)
{
	static struct fw_map map;
	char text[512];
	int err;

	if (params->mib < 16 || params->mib > 3072) {
		fprintf(stderr, "fragbench: %lu MiB: the QEMU pc map here takes 16 to 3072 MiB\n", params->mib);
		return -EINVAL;
	}
	frag_pc_map(text, sizeof(text), params->mib);
	host_mm_set_cpu(0);
	host_vmalloc_unmapped = !frag_vmalloc_mapped(params);
	err = rebuild_on_text(text, &map);
	if (err)
		fprintf(stderr, "fragbench: mm_init() on the %lu MiB map failed: %d\n", params->mib, err);
	else
		set_pcp_lists(pcp_lists);
	return err;
}

/* The workload itself, counting into r. Returns 0, or -EIO when a count found pages unaccounted for. */
static int frag_workload(enum frag_workload w, struct frag_state *st, const struct frag_params *params,
			  struct frag_result *r)
{
	st->vmalloc = w == FRAG_MOVABLE || w == FRAG_HUGETLB;
	st->order0_only = w == FRAG_LLFREE;
	frag_fill(st);
	if (w == FRAG_LLFREE)
		frag_llfree_rounds(st, params->rounds);
	else if (w != FRAG_FILL)
		frag_churn(st, params->ops);
	if (w == FRAG_HUGETLB) {
		if (!frag_grow_hugetlb(st, &r->count[FRAG_GROW]))
			return -EIO;
		r->counted[FRAG_GROW] = true;
		frag_free_all_short(st);
		if (!frag_grow_hugetlb(st, &r->count[FRAG_GROW_AFTER]))
			return -EIO;
		r->counted[FRAG_GROW_AFTER] = true;
	} else if (w != FRAG_FILL) {
		if (!frag_count(st, &r->count[FRAG_LIVE]))
			return -EIO;
		r->counted[FRAG_LIVE] = true;
	}
	if (w == FRAG_FILL || w == FRAG_CHURN || w == FRAG_CHURN_NO_PCP) {
		frag_free_all_short(st);
		if (!frag_count(st, &r->count[FRAG_AFTER]))
			return -EIO;
		r->counted[FRAG_AFTER] = true;
	}
	return 0;
}

int frag_run(enum frag_workload w, uint64_t seed, const struct frag_params *params, struct frag_result *result)
{
	struct frag_state st;
	int err;

	*result = (struct frag_result){ 0 };
	if (!seed) {
		fprintf(stderr, "fragbench: seed 0 is not a seed (the random sequence would be all zeroes)\n");
		return -EINVAL;
	}
	if ((err = frag_boot(params, w != FRAG_CHURN_NO_PCP)))
		return err;
	if (!(err = frag_state_init(&st, seed)))
		err = frag_workload(w, &st, params, result);
	frag_state_free(&st);
	return err;
}

static const char *const workload_names[FRAG_NR_WORKLOADS] = {
	[FRAG_FILL] = "fill",
	[FRAG_CHURN] = "churn",
	[FRAG_CHURN_NO_PCP] = "churn-no-pcp",
	[FRAG_LLFREE] = "llfree",
	[FRAG_MOVABLE] = "movable",
	[FRAG_HUGETLB] = "hugetlb",
};

const char *frag_workload_name(enum frag_workload w)
{
	return workload_names[w];
}

bool frag_vmalloc_mapped(const struct frag_params *params)
{
	return params->mib <= FRAG_MAPPED_MAX_MIB;
}

const char *frag_workload_caveat(enum frag_workload w, const struct frag_params *params)
{
	bool vmalloc = w == FRAG_MOVABLE || w == FRAG_HUGETLB;

	return vmalloc && !frag_vmalloc_mapped(params) ? "vmalloc unmapped" : NULL;
}
