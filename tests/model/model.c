/* SPDX-License-Identifier: MIT */
/*
 * The reference model's memory (tests/model/model.h): the state of every frame, the counts of
 * fully free aligned regions per zone and order, the blocks the test holds and their tokens, and
 * the whole-state comparison with the allocator.
 */
#include "tests/model/model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/mm/mm_check.h"

#define BITS (8 * sizeof(unsigned long))
#define TOKEN_STEP 0x9e3779b97f4a7c15ULL /* page i of a block carries token ^ i * TOKEN_STEP */

struct model model;
struct block blocks[MAX_BLOCKS];
unsigned long nr_blocks, held_frames;

static const char *const state_names[] = { "foreign", "free", "held", "a free hugetlb pool page" };

static void *zalloc(size_t n)
{
	void *p = calloc(1, n);

	if (!p) {
		fprintf(stderr, "model: out of host memory (%zu bytes)\n", n);
		exit(2);
	}
	return p;
}

/* ---- frames and regions -------------------------------------------------------------------- */

unsigned int gfp_zones(gfp_t gfp)
{
	if (gfp & __GFP_DMA)
		return 1u << ZONE_DMA;
	if (gfp & __GFP_DMA32)
		return 1u << ZONE_DMA | 1u << ZONE_DMA32;
	return (1u << MAX_NR_ZONES) - 1;
}

unsigned long model_regions(unsigned int zone_mask, unsigned int order)
{
	unsigned long n = 0;

	for (int z = 0; z < MAX_NR_ZONES; z++)
		if (zone_mask & (1u << z))
			n += model.full[z][order];
	return n;
}

int model_top_zone(unsigned int zone_mask, unsigned int order)
{
	for (int z = MAX_NR_ZONES - 1; z >= 0; z--)
		if ((zone_mask & (1u << z)) && model.full[z][order])
			return z;
	return -1;
}

/* The free pages gfp must leave in zone z (mm/watermark.h): its min, or none for __GFP_HIGH. */
static unsigned long model_mark(int z, gfp_t gfp)
{
	return gfp & __GFP_HIGH ? 0 : mm_zones[z].watermark[WMARK_MIN];
}

/* How many blocks of 2^order frames gfp may take from zone z before it reaches its mark. */
static unsigned long model_takeable(int z, unsigned int order, gfp_t gfp)
{
	unsigned long mark = model_mark(z, gfp);
	unsigned long above = model.zone_free[z] > mark ? model.zone_free[z] - mark : 0;

	return MIN(model.full[z][order], above >> order);
}

unsigned long model_blocks_for(gfp_t gfp, unsigned int order)
{
	unsigned long n = 0;

	for (int z = 0; z < MAX_NR_ZONES; z++)
		if (gfp_zones(gfp) & (1u << z))
			n += model_takeable(z, order, gfp);
	return n;
}

int model_top_zone_for(gfp_t gfp, unsigned int order)
{
	for (int z = MAX_NR_ZONES - 1; z >= 0; z--)
		if ((gfp_zones(gfp) & (1u << z)) && model_takeable(z, order, gfp))
			return z;
	return -1;
}

/* The 2^order frames at pfn became free (freed) or stopped being free: updates the counts. */
static void regions_update(unsigned long pfn, unsigned int order, bool freed)
{
	enum zone_type z = pfn_zone(pfn);
	unsigned long n = 1UL << order;

	model.zone_free[z] = freed ? model.zone_free[z] + n : model.zone_free[z] - n;
	model.free_pages = freed ? model.free_pages + n : model.free_pages - n;
	model.full[z][0] = freed ? model.full[z][0] + n : model.full[z][0] - n;
	for (unsigned int k = 1; k <= MAX_ORDER; k++) {
		uint16_t full = (uint16_t)(1u << k), *c;

		if (k <= order) { /* every region of 2^k inside the block goes from empty to full or back */
			for (unsigned long r = pfn >> k; r < (pfn + n) >> k; r++)
				model.free_in[k][r] = freed ? full : 0;
			model.full[z][k] = freed ? model.full[z][k] + (n >> k) : model.full[z][k] - (n >> k);
			continue;
		}
		c = &model.free_in[k][pfn >> k];
		if (*c == full)
			model.full[z][k]--;
		*c = (uint16_t)(freed ? *c + n : *c - n);
		if (*c == full)
			model.full[z][k]++;
	}
}

bool model_frames_are(unsigned long pfn, unsigned int order, enum frame_state s)
{
	unsigned long n = 1UL << order;

	if (pfn + n > mm_max_pfn)
		return false;
	for (unsigned long i = 0; i < n; i++)
		if (model.frame[pfn + i] != s)
			return false;
	return true;
}

bool model_move(unsigned long pfn, unsigned int order, enum frame_state from, enum frame_state to)
{
	if (!model_frames_are(pfn, order, from))
		return false;
	memset(&model.frame[pfn], to, 1UL << order);
	if (from == FRAME_FREE)
		regions_update(pfn, order, false);
	if (to == FRAME_FREE)
		regions_update(pfn, order, true);
	return true;
}

/* The first of the 2^order frames at pfn that is not in state s, and its state, for messages. */
static const char *frame_problem(unsigned long pfn, unsigned int order, enum frame_state s)
{
	static char msg[128];

	for (unsigned long i = 0; i < (1UL << order); i++)
		if (pfn + i >= mm_max_pfn || model.frame[pfn + i] != s) {
			snprintf(msg, sizeof(msg), "frame %#lx (page %lu of the block) is %s in the model, not %s",
				 pfn + i, i, pfn + i >= mm_max_pfn ? "beyond max_pfn" : state_names[model.frame[pfn + i]],
				 state_names[s]);
			return msg;
		}
	return "no frame differs";
}

/* Sets the frames of one free block in bm; false if one was already set (two blocks overlap). */
static bool mark_free_block(unsigned long *bm, const struct page *page, unsigned int order)
{
	unsigned long pfn = page_to_pfn(page);

	if (pfn + (1UL << order) > mm_max_pfn)
		return false;
	for (unsigned long p = pfn; p < pfn + (1UL << order); p++) {
		if ((bm[p / BITS] >> (p % BITS)) & 1)
			return false;
		bm[p / BITS] |= 1UL << (p % BITS);
	}
	return true;
}

/* Sets in bm the frames of every block on list, all of order; NULL or the first overlap. */
static const char *mark_listed_block(unsigned long *bm, const struct list_head *l, unsigned int o)
{
	static char msg[128];

	if (mark_free_block(bm, lru_to_page(l), o))
		return NULL;
	snprintf(msg, sizeof(msg), "free order-%u block at pfn %#lx overlaps another or lies beyond max_pfn", o,
		 page_to_pfn(lru_to_page(l)));
	return msg;
}

static const char *collect_list(unsigned long *bm, const struct list_head *list, unsigned int o)
{
	const char *p = NULL;

	for (const struct list_head *l = list->next; l != list && !p; l = l->next)
		p = mark_listed_block(bm, l, o);
	return p;
}

/* The same for a per-CPU list, hot part and cold (mm/zone.h). */
static const char *collect_pcp_list(unsigned long *bm, const struct per_cpu_pages *pcp, unsigned int slot,
				    unsigned int mt)
{
	const char *p = NULL;

	for (const struct list_head *l = pcp_list_next(pcp, slot, mt, NULL); l && !p; l = pcp_list_next(pcp, slot, mt, l))
		p = mark_listed_block(bm, l, pcp_slot_order(slot));
	return p;
}

/* Sets in bm the frames of every block on a buddy, per-CPU or hand-off list; NULL or the first overlap. */
static const char *collect_free_frames(unsigned long *bm)
{
	const char *p = NULL;

	for (int z = 0; z < MAX_NR_ZONES && !p; z++) {
		for (unsigned int o = 0; o <= MAX_ORDER && !p; o++)
			for (unsigned int t = 0; t < MIGRATE_TYPES && !p; t++)
				p = collect_list(bm, &mm_zones[z].free_area[o].free_list[t], o);
		for (unsigned int cpu = 0; cpu < mm_pcp_nr_cpus && !p; cpu++)
			for (unsigned int slot = 0; slot < PCP_NR_SLOTS && !p; slot++)
				for (unsigned int t = 0; t < MIGRATE_PCPTYPES && !p; t++)
					p = collect_pcp_list(bm, cpu_pcp(cpu, (unsigned int)z), slot, t);
		for (unsigned int t = 0; t < MIGRATE_PCPTYPES && !p; t++)
			p = collect_list(bm, &mm_zones[z].pcp_handoff[t], PAGEBLOCK_ORDER);
	}
	return p;
}

/* The allocator's free frames as a bitmap (to be freed), after checking its free lists. */
static unsigned long *free_frames(const struct fw_map *map, const char **problem)
{
	unsigned long *bm = zalloc((mm_max_pfn / BITS + 1) * sizeof(unsigned long));

	*problem = mm_check_free_lists(map);
	if (!*problem)
		*problem = collect_free_frames(bm);
	return bm;
}

void model_init(const struct fw_map *map)
{
	const char *p;
	unsigned long *bm = free_frames(map, &p);

	if (p) {
		fprintf(stderr, "model: the free lists are inconsistent after boot: %s\n", p);
		exit(1);
	}
	model.frame = zalloc(mm_max_pfn);
	for (unsigned int k = 1; k <= MAX_ORDER; k++)
		model.free_in[k] = zalloc(((mm_max_pfn >> k) + 1) * sizeof(uint16_t));
	model.reserved_pfns = zalloc(mm_max_pfn * sizeof(unsigned long));
	for (unsigned long pfn = 0; pfn < mm_max_pfn; pfn++) {
		if ((bm[pfn / BITS] >> (pfn % BITS)) & 1)
			model_move(pfn, 0, FRAME_FOREIGN, FRAME_FREE);
		else if (pfn_valid(pfn) && PageReserved(pfn_to_page(pfn)))
			model.reserved_pfns[model.nr_reserved_pfns++] = pfn;
	}
	model.pcp_on = set_pcp_lists(true);
	free(bm);
}

/* ---- blocks ---------------------------------------------------------------------------------- */

static uint64_t *page_words(const struct block *b, unsigned long i)
{
	return (uint64_t *)page_address(b->page + i);
}

void block_write_tokens(const struct block *b)
{
	for (unsigned long i = 0; i < (1UL << b->order); i++) {
		uint64_t *w = page_words(b, i), t = b->token ^ (i * TOKEN_STEP);

		w[0] = t;
		w[PAGE_SIZE / 8 - 1] = ~t;
	}
}

const char *block_token_problem(const struct block *b)
{
	static char msg[256];

	for (unsigned long i = 0; i < (1UL << b->order); i++) {
		uint64_t *w = page_words(b, i), t = b->token ^ (i * TOKEN_STEP);

		if (w[0] != t || w[PAGE_SIZE / 8 - 1] != ~t) {
			snprintf(msg, sizeof(msg),
				 "page %lu (pfn %#lx) of the order-%u block at pfn %#lx lost its token: "
				 "%#llx ... %#llx, expected %#llx ... %#llx (overwritten by another owner?)",
				 i, b->pfn + i, b->order, b->pfn, (unsigned long long)w[0],
				 (unsigned long long)w[PAGE_SIZE / 8 - 1], (unsigned long long)t,
				 (unsigned long long)~t);
			return msg;
		}
	}
	return NULL;
}

/* What is wrong with the struct pages of a block just handed out, or NULL. */
static const char *new_block_problem(struct page *page, unsigned int order, enum block_kind kind)
{
	if (page_count(page) != 1 || PageBuddy(page) || PageReserved(page))
		return "its first page has a count other than 1, or PG_buddy, or PG_reserved";
	if (kind == BLOCK_PLAIN) {
		for (unsigned long i = 0; i < (1UL << order); i++)
			if (PageCompound(page + i) || (i && page[i]._refcount))
				return "a page of a plain block has compound marks, or a count (only the first has one)";
		return NULL;
	}
	if (compound_check(page, order))
		return compound_check(page, order);
	if ((kind == BLOCK_HUGE) != PageHugeTLB(page))
		return kind == BLOCK_HUGE ? "a huge page without PG_hugetlb" : "a compound page with PG_hugetlb";
	if (get_compound_page_dtor(page) != (kind == BLOCK_HUGE ? free_huge_page : free_compound_page))
		return "a compound page with the wrong destructor";
	return NULL;
}

struct block *block_add(const char *op, struct page *page, unsigned int order, enum block_kind kind,
			enum frame_state from, unsigned int zone_mask)
{
	unsigned long pfn = page_to_pfn(page), n = 1UL << order;
	const char *p;
	struct block *b;

	if (pfn & (n - 1))
		model_fail("%s: order-%u block at pfn %#lx is not aligned to 2^%u frames", op, order, pfn, order);
	if (!(zone_mask & (1u << pfn_zone(pfn))))
		model_fail("%s: block at pfn %#lx is in zone %s, which the gfp does not allow", op, pfn,
			   zone_name(pfn_zone(pfn)));
	if (!model_move(pfn, order, from, FRAME_HELD))
		model_fail("%s: handed out the order-%u block at pfn %#lx, but %s", op, order, pfn,
			   frame_problem(pfn, order, from));
	if ((p = new_block_problem(page, order, kind)))
		model_fail("%s: order-%u block at pfn %#lx: %s", op, order, pfn, p);
	if (nr_blocks == MAX_BLOCKS)
		model_fail("%s: the model holds %lu blocks, its limit", op, nr_blocks);
	b = &blocks[nr_blocks++];
	*b = (struct block){ page, pfn, order, kind, 1, rnd(), false, false };
	block_write_tokens(b);
	held_frames += n;
	stats.max_held_frames = MAX(stats.max_held_frames, held_frames);
	return b;
}

/* Removes b from the table (the last block takes its slot). */
static void block_forget(struct block *b)
{
	held_frames -= 1UL << b->order;
	*b = blocks[--nr_blocks];
}

void block_check_tokens(const char *op, const struct block *b)
{
	const char *p = block_token_problem(b);

	if (p)
		model_fail("%s: %s", op, p);
}

void block_drop(const char *op, struct block *b, enum frame_state to)
{
	if (!model_move(b->pfn, b->order, FRAME_HELD, to))
		model_fail("%s: block at pfn %#lx: %s", op, b->pfn, frame_problem(b->pfn, b->order, FRAME_HELD));
	if (to == FRAME_FREE) {
		model.last_freed_pfn = b->pfn;
		model.last_freed_order = b->order;
	}
	block_forget(b);
}

void block_split(const char *op, struct block *b)
{
	struct block whole = *b;

	if (nr_blocks + (1UL << whole.order) > MAX_BLOCKS)
		model_fail("%s: the model cannot hold %lu more blocks", op, 1UL << whole.order);
	for (unsigned long i = 0; i < (1UL << whole.order); i++) {
		struct block *nb = i ? &blocks[nr_blocks++] : b;

		*nb = (struct block){ whole.page + i, whole.pfn + i, 0, BLOCK_PLAIN, 1,
				      whole.token ^ (i * TOKEN_STEP), false, false };
	}
}

struct block *block_random(void)
{
	return nr_blocks ? &blocks[rnd_below(nr_blocks)] : NULL;
}

struct block *block_random_of(enum block_kind kind, unsigned int min_order)
{
	for (int tries = 0; tries < 32 && nr_blocks; tries++) {
		struct block *b = block_random();

		if (b->kind == kind && b->order >= min_order)
			return b;
	}
	return NULL;
}

/* ---- the whole state ----------------------------------------------------------------------- */

/* The first frame where the allocator's free frames (bm) and the model's differ, or NULL. */
static const char *compare_free_frames(const unsigned long *bm)
{
	static char msg[160];

	for (unsigned long pfn = 0; pfn < mm_max_pfn; pfn++) {
		bool free_mm = (bm[pfn / BITS] >> (pfn % BITS)) & 1, free_model = model.frame[pfn] == FRAME_FREE;

		if (free_mm != free_model) {
			snprintf(msg, sizeof(msg), "pfn %#lx is %s in the allocator's free lists but %s in the model",
				 pfn, free_mm ? "free" : "not", state_names[model.frame[pfn]]);
			return msg;
		}
	}
	for (int z = 0; z < MAX_NR_ZONES; z++)
		if (zone_free_pages(&mm_zones[z]) != model.zone_free[z]) {
			snprintf(msg, sizeof(msg), "zone %s has %lu free pages, the model %lu", zone_name(z),
				 zone_free_pages(&mm_zones[z]), model.zone_free[z]);
			return msg;
		}
	return NULL;
}

/* Every held block's count, marks and tokens; NULL or the first problem. */
static const char *compare_blocks(void)
{
	static char msg[160];
	unsigned long frames = 0;

	for (unsigned long i = 0; i < nr_blocks; i++) {
		const struct block *b = &blocks[i];
		const char *p = block_token_problem(b);

		if (p)
			return p;
		if (page_count(b->page) != b->refs || (b->kind != BLOCK_PLAIN && compound_check(b->page, b->order))) {
			snprintf(msg, sizeof(msg), "held order-%u block at pfn %#lx: count %d (model %d), compound: %s",
				 b->order, b->pfn, page_count(b->page), b->refs,
				 b->kind == BLOCK_PLAIN ? "-" : compound_check(b->page, b->order));
			return msg;
		}
		frames += 1UL << b->order;
	}
	if (frames != held_frames)
		return "the held blocks do not add up to the held frames";
	return NULL;
}

/*
 * With the pcp lists drained every free frame is in a merged block, so the free blocks are the
 * largest free aligned regions: those of order k whose region of order k + 1 is not free. Their
 * numbers must be what buddyinfo_line() shows.
 */
static const char *compare_buddyinfo(void)
{
	static char msg[320];
	char line[160];

	drain_pcp_lists();
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		const char *p = line;

		buddyinfo_line(&mm_zones[z], line, sizeof(line));
		p = strstr(line, zone_name(z)) + strlen(zone_name(z));
		for (unsigned int o = 0; o <= MAX_ORDER; o++) {
			unsigned long shown = strtoul(p, (char **)&p, 10);
			unsigned long want = model.full[z][o] - (o < MAX_ORDER ? 2 * model.full[z][o + 1] : 0);

			if (shown != want) {
				snprintf(msg, sizeof(msg), "buddyinfo \"%s\": zone %s has %lu free blocks of order %u, "
					 "the model %lu (blocks not merged, or merged wrongly)", line, zone_name(z),
					 shown, o, want);
				return msg;
			}
		}
	}
	return NULL;
}

const char *model_compare_all(const struct fw_map *map)
{
	const char *p;
	unsigned long *bm = free_frames(map, &p);

	if (!p)
		p = compare_free_frames(bm);
	free(bm);
	if (!p)
		p = compare_buddyinfo();
	if (!p)
		p = hugetlb_check();
	if (!p)
		p = hugetlb_model_compare();
	return p ? p : compare_blocks();
}
