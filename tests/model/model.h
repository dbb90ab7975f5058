/* SPDX-License-Identifier: MIT */
/*
 * The reference model of mm/ for the long random test (tests/model/): what the allocator should
 * be doing, kept apart from it and compared with it after every operation.
 *
 * The model knows, for every frame, whether it is free in the buddy allocator, held by the test,
 * a free page of the hugetlb pool, or never handed out (reserved, holes). From that it counts the
 * fully free aligned regions of each order in each zone, which says whether alloc_pages() must
 * succeed and from which zones. It holds the blocks the test owns with their reference counts and
 * a token written into every page, and the hugetlb pool's counters as mm/hugetlb.h defines them.
 *
 * model.c keeps the frames and the blocks; ops_buddy.c, ops_hugetlb.c, ops_misuse.c and
 * ops_migrate.c each run one family of operations on mm/ and the model side by side; main.c picks
 * them at random.
 */
#ifndef TESTS_MODEL_MODEL_H
#define TESTS_MODEL_MODEL_H

#include "mm/bad_page.h"
#include "mm/compound.h"
#include "mm/fw_map.h"
#include "mm/pcp.h"
#include "mm/hugetlb.h"
#include "mm/mm_stats.h"
#include "mm/page_alloc.h"
#include "mm/poison.h"

/* ---- frames and free regions (model.c) -------------------------------------------------------- */

enum frame_state {
	FRAME_FOREIGN, /* never handed out: reserved, a hole, outside RAM */
	FRAME_FREE,    /* in the buddy allocator (its free lists or its pcp lists) */
	FRAME_HELD,    /* in a block the test holds */
	FRAME_POOL,    /* in a free page of the hugetlb pool */
};

/* What the model knows about memory (one instance, `model`). */
struct model {
	uint8_t *frame;                              /* enum frame_state per pfn below mm_max_pfn */
	uint16_t *free_in[NR_ORDERS];                /* [k][r]: free frames in aligned region r of 2^k */
	unsigned long full[MAX_NR_ZONES][NR_ORDERS]; /* fully free regions per zone and order */
	unsigned long zone_free[MAX_NR_ZONES];       /* free frames per zone */
	unsigned long free_pages;                    /* free frames, all zones */
	unsigned long *reserved_pfns;                /* frames with a struct page and PG_reserved */
	unsigned long nr_reserved_pfns;
	bool pcp_on;                                 /* what set_pcp_lists() was last told */
	unsigned long expected_reports;              /* bad_page reports the misuse so far must give */
	unsigned long last_freed_pfn;                /* the block given back last (for double frees) */
	unsigned int last_freed_order;
};

extern struct model model;

/*
 * Builds the model from the allocator's state right after boot: the frames on its free lists
 * (checked against map by mm_check_free_lists()) are free, every other one is foreign.
 */
void model_init(const struct fw_map *map);

/*
 * Moves the 2^order frames at pfn from state `from` to `to`, keeping the region counts. Returns
 * false, changing nothing, if one of them is not in state `from`.
 */
bool model_move(unsigned long pfn, unsigned int order, enum frame_state from, enum frame_state to);

/* Is every one of the 2^order frames at pfn in state s? */
bool model_frames_are(unsigned long pfn, unsigned int order, enum frame_state s);

/* The zones gfp allows, as a bit mask (1 << ZONE_DMA ...). */
unsigned int gfp_zones(gfp_t gfp);

/* Fully free aligned regions of 2^order frames in the zones of mask. */
unsigned long model_regions(unsigned int zone_mask, unsigned int order);

/* The highest zone of mask with a fully free region of 2^order frames, or -1. */
int model_top_zone(unsigned int zone_mask, unsigned int order);

/*
 * Blocks of 2^order frames an allocation with gfp could take one after another: fully free
 * regions in the zones gfp allows, as long as each zone stays at or above the mark gfp must leave
 * (its min watermark; nothing for __GFP_HIGH).
 */
unsigned long model_blocks_for(gfp_t gfp, unsigned int order);

/* The highest zone gfp allows from which it may take a block of 2^order frames now, or -1. */
int model_top_zone_for(gfp_t gfp, unsigned int order);

/*
 * Compares the whole model with the allocator: every free block on the buddy and pcp lists is
 * well formed (mm_check_free_lists()) and its frames are exactly the model's free frames, zone by
 * zone; the hugetlb pool passes hugetlb_check(); every held block still carries its tokens.
 * Returns NULL, or what differs.
 */
const char *model_compare_all(const struct fw_map *map);

/* ---- blocks the test holds (model.c) ---------------------------------------------------------- */

enum block_kind {
	BLOCK_PLAIN,    /* alloc_pages() without __GFP_COMP, order-0 __GFP_COMP, or a split page */
	BLOCK_COMPOUND, /* alloc_pages(__GFP_COMP) of order >= 1 */
	BLOCK_HUGE,     /* a 2 MiB page handed out by the hugetlb pool */
};

struct block {
	struct page *page; /* the first page (head) */
	unsigned long pfn;
	unsigned int order;
	enum block_kind kind;
	int refs;          /* the model's reference count */
	uint64_t token;    /* written into every page; checked when the block goes back */
	bool movable;      /* the test made it movable (ops_migrate.c): let go before it is freed */
	bool isolated;     /* a migration the test did not start (compaction's) has it isolated */
};

#define MAX_BLOCKS (1UL << 18) /* more than the frames of the test machine */

extern struct block blocks[MAX_BLOCKS];
extern unsigned long nr_blocks;
extern unsigned long held_frames; /* frames in held blocks */

/*
 * Takes a block just handed out into the model: checks that its frames were in state `from`
 * (free in the buddy allocator, or a free pool page), that it is aligned, in one of the zones of
 * zone_mask, with count 1 and the marks of its kind; marks it held and writes its tokens. Fails
 * the run otherwise.
 */
struct block *block_add(const char *op, struct page *page, unsigned int order, enum block_kind kind,
			enum frame_state from, unsigned int zone_mask);

/* Fails the run unless every page of b still carries its token (call it before giving b back). */
void block_check_tokens(const char *op, const struct block *b);

/*
 * Forgets block b (the caller gave it back) and moves its frames to `to` (FRAME_FREE, or
 * FRAME_POOL for a huge page going back to the pool's free list).
 */
void block_drop(const char *op, struct block *b, enum frame_state to);

/*
 * b, a compound page just split, becomes 2^order order-0 plain blocks with one reference each
 * (its frames stay held; each page keeps its token).
 */
void block_split(const char *op, struct block *b);

/* Writes b's tokens into its pages (the first and the last word of each page). */
void block_write_tokens(const struct block *b);

/* NULL when every page of b carries its token, else what was found. */
const char *block_token_problem(const struct block *b);

/* A random held block, or NULL when none is held. */
struct block *block_random(void);

/* A random held block of kind and order >= min_order, or NULL if a few tries find none. */
struct block *block_random_of(enum block_kind kind, unsigned int min_order);

/* ---- running and failing (main.c) ------------------------------------------------------------- */

/* The test's random number generator (mm_test_rand(), the seed from the command line). */
uint64_t rnd(void);

/* A random number in [0, n). */
static inline unsigned long rnd_below(unsigned long n)
{
	return (unsigned long)(rnd() % n);
}

/* True with probability percent / 100. */
static inline bool chance(unsigned int percent)
{
	return rnd_below(100) < percent;
}

/*
 * Records the operation about to run (name, the pfn it acts on, an order and an argument) in a
 * short history that a failure prints.
 */
void note(const char *name, unsigned long pfn, unsigned int order, unsigned long arg);

/* Stops the run: prints the operation number, the seed, the message and the recent history. */
void model_fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* "DMA32|ZERO|COMP" ... for gfp, into buf. */
const char *gfp_name(gfp_t gfp, char *buf, size_t size);

#define NR_MISUSE_CASES 11

/* What the operations reached, printed at the end. */
struct model_stats {
	unsigned long allocs, alloc_failures, fallbacks, refused, frees, gets, puts, splits, split_busy;
	unsigned long misuse, pool_ops, pool_grow_failures, huge_allocs, max_held_frames, exhausted;
	unsigned long max_pool, max_surplus, max_reserved, full_checks;
	unsigned long misuse_by_case[NR_MISUSE_CASES];
};
extern struct model_stats stats;

/* ---- the operations (ops_*.c); each runs one call on mm/ and the model -------------------- */

void op_alloc(void);
void op_free(void);
void op_get(void);
void op_put(void);
void op_split(void);
void op_pcp(void);
void op_refused(void);

void op_hugetlb(void);
void hugetlb_model_init(void);
const char *hugetlb_model_compare(void); /* NULL, or how the pool differs from the model */
void hugetlb_huge_freed(struct block *b); /* b's last reference was dropped: free_huge_page() */
void hugetlb_teardown(void);
struct page *hugetlb_model_free_page(void); /* a random free page of the pool, or NULL */

void op_misuse(void);
const char *misuse_name(unsigned int i); /* "double free", ... */

void op_migrate(void);
void migrate_model_print_stats(void);

/*
 * Migrations the test did not start: the allocation slow path's compaction, a contiguous range
 * emptied for the hugetlb pool. The owner's operations take them in and move the block in the
 * model. Pages moved by them so far (compare before and after a call that may compact).
 */
unsigned long external_moved_pages(void);

/* Compaction's invariants are checked on every external move; a contiguous range may move too. */
void external_moves_may_be_contig(bool may);
/* The owner makes b (held, not huge, below a pageblock, not movable yet) movable. */
void movable_adopt(struct block *b);
/* The owner lets b go (clear_page_movable()) if it made b movable: before b is freed. */
void movable_let_go(struct block *b);

/* Drops every reference the test holds on b (it goes back to where it came from). */
void block_release(struct block *b);

#endif
