/* SPDX-License-Identifier: MIT */
/*
 * struct page: the descriptor of one 4 KiB physical frame, and its flag bits.
 *
 * There is one struct page per frame of RAM, in a virtually contiguous array (the memmap), so
 * pfn_to_page() and page_to_pfn() are one addition or subtraction. The structure is 32 bytes:
 * half of Linux's, because we keep only what the buddy allocator, compound pages and slabs need
 * (the unions below say which fields each uses).
 */
#ifndef MM_PAGE_H
#define MM_PAGE_H

#include "mm/types.h"

struct page;
struct kmem_cache;
struct movable_operations;
typedef void compound_page_dtor(struct page *head);

struct page {
	/*
	 * Bits 0..18: PG_* flags below. Bits 19..23: the zone index (mm/zone.h: the node's number
	 * times 3 plus ZONE_DMA, ZONE_DMA32 or ZONE_NORMAL), fixed when the memmap is built.
	 * Bits 24..25: the mobility type of the per-CPU list the block is on, or was last taken
	 * from (PAGE_PCPTYPE_MASK; see struct per_cpu_pages, mm/zone.h): mm/'s own, as the order
	 * field is. Bits 26..29: on the first page of an allocated block that is not a compound
	 * page, the order it was allocated at, so that __free_pages() can refuse a wrong order.
	 * Bits 30..31: always 0 (PAGE_ZERO_BITS).
	 */
	uint32_t flags;

	/*
	 * References held on the page. 0 while the page is free or reserved; 1 after alloc_pages().
	 * For a compound page only the head's count is used: get_page()/put_page() on any sub-page
	 * act on the head's, and the tail pages keep 0.
	 */
	int32_t _refcount;

	union {
		/*
		 * Free block (PG_buddy on its first page): links in its zone's free list for its order.
		 * Allocated page: free for the owner's use (e.g. the hugetlb pool's free list).
		 */
		struct list_head lru;

		/*
		 * First page of a movable block (PG_movable; mm/migrate.h): the owner's operations that
		 * move it (overlays lru.next; the owner leaves lru alone while the block is movable).
		 */
		const struct movable_operations *movable_ops;

		/*
		 * First tail page of a compound page: the compound's destructor (overlays lru.next) and
		 * its order (overlays lru.prev). The head has no room for them, which is why a compound
		 * page has at least two pages.
		 */
		struct {
			compound_page_dtor *compound_dtor;
			unsigned long compound_order;
		};

		/*
		 * Head page of a slab (PG_slab; mm/slab.h): the slab's free list and object count.
		 * Its free objects are linked through their first word (the debug layout: a word after
		 * the object), hardened as mm/slab_cache.h says; slab_free is the offset of the first
		 * in the slab, SLAB_NIL when every object is out. slab_next/slab_prev link the slab on
		 * its cache's partial or empty list by frame number (slab_list says which; SLAB_NIL
		 * ends a list): the 16 bytes hold two links and the free list only because each is 32
		 * bits. A full slab is on no list.
		 */
		struct {
			uint32_t slab_next, slab_prev;
			uint32_t slab_free;
			uint16_t slab_inuse; /* objects out of the slab: allocated, or on a CPU's list */
			uint16_t slab_list;  /* SLAB_ON_NONE, SLAB_ON_PARTIAL or SLAB_ON_EMPTY */
		};
	};

	/*
	 * The word the LWN article's slab_cache shares with first_page: a tail page points to its
	 * head, a slab's head page to its cache, so kfree() finds the cache from any address in the
	 * slab in two loads (compound_head(), then this).
	 */
	union {
		/* Free block: its order (on the first page only). Allocated page: the owner's data. */
		unsigned long private;
		/* Tail page of a compound page: its head page. */
		struct page *first_page;
		/* Head page of a slab (PG_slab): the cache its objects belong to. */
		struct kmem_cache *slab_cache;
	};
};

_Static_assert(sizeof(struct page) <= 64, "struct page must stay within Linux's 64 bytes");
_Static_assert(sizeof(struct page) == 32, "struct page is designed to be 32 bytes");
_Static_assert(offsetof(struct page, slab_cache) == offsetof(struct page, first_page),
	       "slab_cache shares the word of a tail's first_page");
_Static_assert(offsetof(struct page, slab_list) + sizeof(uint16_t) <= offsetof(struct page, first_page),
	       "a slab's free list and counts stay inside the lru union");
_Static_assert(offsetof(struct page, movable_ops) == offsetof(struct page, lru) &&
		       sizeof(((struct page *)0)->movable_ops) <= sizeof(struct list_head),
	       "a movable block's operations overlay its first page's lru link, not private");

/* Page flags (bit numbers in page->flags). */
enum pageflags {
	PG_reserved,  /* not managed by the buddy allocator: firmware, kernel image, memmap, holes */
	PG_buddy,     /* first page of a free block in a free list; private holds the order */
	PG_head,      /* 64-bit scheme: first page of a compound page */
	PG_tail,      /* 64-bit scheme: any other page of a compound page */
	PG_compound,  /* 32-bit scheme: every page of a compound page */
	PG_reclaim,   /* page cache reclaim; in the 32-bit scheme also marks compound tails */
	PG_poisoned,  /* freed and filled with the poison pattern (MM_DEBUG) */
	PG_hugetlb,   /* head of a huge page owned by the hugetlb pool */
	PG_slab,      /* head page of a slab (mm/slab.h): slab_cache, the lru union's slab fields */
	PG_movable,   /* first page of a movable block (mm/migrate.h): movable_ops holds its owner's calls */
	PG_isolated,  /* a movable block taken for a migration (mm/migrate.h): set by compare-and-swap */
	NR_PAGEFLAGS,
};

#define ZONES_SHIFT 19
#define ZONES_MASK 0x1fu
_Static_assert(NR_PAGEFLAGS <= ZONES_SHIFT, "the flags stay below the zone index");
#define PAGE_ORDER_SHIFT 26
#define PAGE_ORDER_MASK (0xfu << PAGE_ORDER_SHIFT)
#define PAGE_PCPTYPE_SHIFT 24
#define PAGE_PCPTYPE_MASK (3u << PAGE_PCPTYPE_SHIFT)
/* Bits 30..31: always 0, so that the free fast path's check of them is a sign-extended 32-bit mask. */
#define PAGE_ZERO_BITS (3u << 30)

/*
 * flags and _refcount are read by CPUs that do not own the page: the buddy merge looks at a
 * neighbour's PG_buddy under the zone lock while the neighbour's owner may be changing its flags,
 * and two CPUs may drop references at once. So every access goes through these: relaxed atomic
 * loads and stores, plain moves on x86, which the compiler can neither tear nor invent and which
 * ThreadSanitizer knows are not a race. Only the page's owner (or the lock holder of the list it
 * is on) writes its flags, so a load and a store, not an atomic read-modify-write, suffice.
 */

/**
 * page_flags() - A page's flags, read with a relaxed atomic load.
 * @p: the page.
 *
 * Return: page->flags.
 */
static inline uint32_t page_flags(const struct page *p) { return __atomic_load_n(&p->flags, __ATOMIC_RELAXED); }

/**
 * set_page_flags() - Write a page's flags with a relaxed atomic store.
 * @p: the page.
 * @v: the new flags.
 */
static inline void set_page_flags(struct page *p, uint32_t v) { __atomic_store_n(&p->flags, v, __ATOMIC_RELAXED); }

/**
 * page_ref() - A page's own reference count (not its head's: see page_count()).
 * @p: the page.
 *
 * Return: page->_refcount, read atomically.
 */
static inline int page_ref(const struct page *p) { return __atomic_load_n(&p->_refcount, __ATOMIC_RELAXED); }

/**
 * set_page_ref() - Write a page's own reference count.
 * @p: the page.
 * @v: the new count.
 */
static inline void set_page_ref(struct page *p, int v) { __atomic_store_n(&p->_refcount, v, __ATOMIC_RELAXED); }

/**
 * set_page_private() - Write a page's private word with a relaxed atomic store.
 * @p: the page.
 * @v: the new value.
 *
 * private too is read without the lock: compaction's migration scanner takes a free block's order
 * from it to skip the block (mm/compaction.c), while the block may be leaving the free list, or
 * have left it, and its new owner writes that word (private, first_page, slab_cache). So mm/
 * stores it with relaxed atomic stores (the same plain move on x86); an owner that makes its
 * blocks movable should store private so too.
 */
static inline void set_page_private(struct page *p, unsigned long v)
{
	__atomic_store_n(&p->private, v, __ATOMIC_RELAXED);
}

/**
 * page_flag_test() - Is a flag set?
 * @p: the page.
 * @f: the flag.
 *
 * Return: true when it is.
 */
static inline bool page_flag_test(const struct page *p, enum pageflags f) { return page_flags(p) & (1u << f); }

/**
 * page_flag_set() - Set a flag (the page's owner only: a load and a store).
 * @p: the page.
 * @f: the flag.
 */
static inline void page_flag_set(struct page *p, enum pageflags f) { set_page_flags(p, page_flags(p) | 1u << f); }

/**
 * page_flag_clear() - Clear a flag (the page's owner only).
 * @p: the page.
 * @f: the flag.
 */
static inline void page_flag_clear(struct page *p, enum pageflags f) { set_page_flags(p, page_flags(p) & ~(1u << f)); }

/**
 * PageReserved() - Is the page not managed by the buddy allocator (PG_reserved)?
 * @p: the page.
 *
 * Return: true when it is reserved.
 */
static inline bool PageReserved(const struct page *p) { return page_flag_test(p, PG_reserved); }

/**
 * PageBuddy() - Is the page the first of a free block in a free list (PG_buddy)?
 * @p: the page.
 *
 * Return: true when it is.
 */
static inline bool PageBuddy(const struct page *p) { return page_flag_test(p, PG_buddy); }

/**
 * PageHugeTLB() - Is the page the head of a hugetlb pool page (PG_hugetlb)?
 * @p: the page.
 *
 * Return: true when it is.
 */
static inline bool PageHugeTLB(const struct page *p) { return page_flag_test(p, PG_hugetlb); }

/**
 * PageSlab() - Is the page the head page of a slab (PG_slab)?
 * @p: the page.
 *
 * Return: true when it is.
 */
static inline bool PageSlab(const struct page *p) { return page_flag_test(p, PG_slab); }

/**
 * PageMovable() - Is the page the first page of a movable block (PG_movable)?
 * @p: the page.
 *
 * Return: true when it is.
 */
static inline bool PageMovable(const struct page *p) { return page_flag_test(p, PG_movable); }

/**
 * PageIsolated() - Is the page a movable block taken for a migration (PG_isolated)?
 * @p: the page.
 *
 * Return: true when it is.
 */
static inline bool PageIsolated(const struct page *p) { return page_flag_test(p, PG_isolated); }

/*
 * Compound marking. COMPOUND_FLAGS=64 (default) spends two flags, PG_head and PG_tail.
 * COMPOUND_FLAGS=32 mimics systems with no flags to spare: every page of a compound page has
 * PG_compound and tails also PG_reclaim (reclaim never sees compound pages, so the bit is free).
 * The three predicates below answer the same under both schemes.
 */
#ifndef COMPOUND_FLAGS
#define COMPOUND_FLAGS 64
#endif

#if COMPOUND_FLAGS == 64
/**
 * PageHead() - Is the page the head of a compound page?
 * @p: the page.
 *
 * Return: true when it is (either flag scheme).
 */
static inline bool PageHead(const struct page *p) { return page_flag_test(p, PG_head); }

/**
 * PageTail() - Is the page a tail of a compound page?
 * @p: the page.
 *
 * Return: true when it is (either flag scheme).
 */
static inline bool PageTail(const struct page *p) { return page_flag_test(p, PG_tail); }

/**
 * PageCompound() - Is the page any page of a compound page?
 * @p: the page.
 *
 * Return: true for a head or a tail (either flag scheme).
 */
static inline bool PageCompound(const struct page *p) { return page_flags(p) & (1u << PG_head | 1u << PG_tail); }

/**
 * SetPageHead() - Mark the page as a compound head (prep_compound_page()'s).
 * @p: the page.
 */
static inline void SetPageHead(struct page *p) { page_flag_set(p, PG_head); }

/**
 * SetPageTail() - Mark the page as a compound tail (prep_compound_page()'s).
 * @p: the page.
 */
static inline void SetPageTail(struct page *p) { page_flag_set(p, PG_tail); }

/**
 * ClearPageCompoundMarks() - Clear the page's compound marks, head or tail.
 * @p: the page.
 */
static inline void ClearPageCompoundMarks(struct page *p) { set_page_flags(p, page_flags(p) & ~(1u << PG_head | 1u << PG_tail)); }
#elif COMPOUND_FLAGS == 32
#define PG_TAIL_MASK (1u << PG_compound | 1u << PG_reclaim)
static inline bool PageCompound(const struct page *p) { return page_flag_test(p, PG_compound); }
static inline bool PageTail(const struct page *p) { return (page_flags(p) & PG_TAIL_MASK) == PG_TAIL_MASK; }
static inline bool PageHead(const struct page *p) { return (page_flags(p) & PG_TAIL_MASK) == (1u << PG_compound); }
static inline void SetPageHead(struct page *p) { page_flag_set(p, PG_compound); }
static inline void SetPageTail(struct page *p) { set_page_flags(p, page_flags(p) | PG_TAIL_MASK); }
static inline void ClearPageCompoundMarks(struct page *p) { set_page_flags(p, page_flags(p) & ~PG_TAIL_MASK); }
#else
#error "COMPOUND_FLAGS must be 64 or 32"
#endif

/**
 * compound_head() - The head of the compound page a page belongs to.
 * @p: any page.
 *
 * Return: the head, or p itself when it is no tail.
 */
static inline struct page *compound_head(struct page *p)
{
	return PageTail(p) ? p->first_page : p;
}

/* The largest compound page: a 1 GiB gigantic page (above the buddy's MAX_ORDER). */
#define MAX_COMPOUND_ORDER 18

/**
 * compound_order() - A compound page's order.
 * @page: the compound head.
 *
 * Return: the order stored in its first tail; 0 for any page that is not a head.
 */
static inline unsigned int compound_order(const struct page *page)
{
	return PageHead(page) ? (unsigned int)page[1].compound_order : 0;
}

/**
 * compound_head_plausible() - Could a page be the head of a compound page that contains a tail?
 * @tail: the tail.
 * @head: what its first_page says its head is.
 *
 * Pointer arithmetic only: lets a report or a check follow a tail's first_page without trusting it.
 *
 * Return: true when head is before tail and within the largest compound page of it.
 */
static inline bool compound_head_plausible(const struct page *tail, const struct page *head)
{
	return head && head < tail && tail - head < (1L << MAX_COMPOUND_ORDER);
}

/**
 * lru_to_page() - The struct page whose lru field is a list link.
 * @l: the link (a free-list, pcp-list or pool-list link).
 *
 * Return: the page.
 */
static inline struct page *lru_to_page(const struct list_head *l)
{
	return (struct page *)((const char *)l - offsetof(struct page, lru));
}

/**
 * alloc_order_of() - The order field of a page's flags.
 * @p: an allocated plain block's first page, or a per-CPU list block's.
 *
 * Return: the order recorded there.
 */
static inline unsigned int alloc_order_of(const struct page *p)
{
	return (page_flags(p) & PAGE_ORDER_MASK) >> PAGE_ORDER_SHIFT;
}

/**
 * page_zonenum() - The zone a page belongs to, from its flags.
 * @p: the page.
 *
 * Return: the zone index (mm_zones[], mm/zone.h): node * 3 + zone type; with one node, the zone
 * type (enum zone_type).
 */
static inline unsigned int page_zonenum(const struct page *p) { return (page_flags(p) >> ZONES_SHIFT) & ZONES_MASK; }

/**
 * page_count() - References held on the page: on its head for a compound page.
 * @p: the page.
 *
 * Return: the head's count, or the page's own.
 */
static inline int page_count(const struct page *p) { return page_ref(compound_head((struct page *)p)); }

#endif
