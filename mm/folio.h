/* SPDX-License-Identifier: MIT */
/*
 * Folios: a typed view of a page that is never a tail. A struct folio * points at the struct page
 * of an order-0 page or of a compound page's head, so code that holds one knows, from its type,
 * that it holds the whole unit: it never has to ask "is this a tail?" and look up the head again.
 * page_folio() is the one place that turns any page into its folio.
 *
 *   struct folio *folio = page_folio(virt_to_page(addr));    // from any byte of the unit
 *   memset(folio_address(folio), 0, folio_size(folio));
 *   folio_put(folio);                                        // mm/page_alloc.h
 *
 * struct folio is struct page itself, seen through a union: the same bytes, the same fields in
 * the same order (the assertions below hold it to that). Nothing is converted and nothing is
 * stored twice; a folio costs nothing but the type.
 *
 * The 2014 article on compound pages (the words mm/compound.h and mm/page.h use) against the folio
 * words:
 *
 *   2014 (compound pages)                      folios
 *   -----------------------------------------  --------------------------------------------------
 *   head page (PG_head; PG_compound without    the folio itself: struct folio * is the head's
 *     PG_reclaim in the 32-bit scheme)           struct page, typed; folio_test_large()
 *   tail page (PG_tail; PG_compound and        folio_page(folio, n) for n >= 1; a tail is never a
 *     PG_reclaim)                                folio, only a page inside one
 *   first_page in every tail, compound_head()  page_folio(page): from any sub-page to its folio
 *   compound_order in the first tail's         folio_order(), folio_nr_pages(), folio_size()
 *     lru.prev
 *   destructor in the first tail's lru.next    folio_dtor() (set with set_compound_page_dtor(),
 *                                                run by folio_put() at the last reference)
 *   get_page()/put_page() on a tail count on   folio_get()/folio_put(): the count is the folio's
 *     the head's _refcount                       (folio_ref_count()), no head lookup needed
 *   PageCompound() / PageHead() / PageTail()   folio_test_large(); a folio is never a tail, and
 *                                                PageTail() stays a question about pages
 *   alloc_pages(gfp | __GFP_COMP, order),      the same call; page_folio() of what it returns is
 *     order >= 1                                 a large folio of that order
 *   an order-0 page (no compound page of       a folio of order 0: folio_test_large() false,
 *     order 0 exists)                            folio_nr_pages() 1
 *   PG_hugetlb head, free_huge_page() dtor     folio_test_hugetlb()
 *
 * A plain block of order >= 1 (allocated without __GFP_COMP) has no compound metadata, so its
 * first page is a folio of order 0: the folio words do not know its size. Its owner remembers the
 * order, as before; put_page()/folio_put() on it still free the whole block.
 *
 * folio_get() and folio_put() are the page allocator's (mm/page_alloc.h), beside get_page() and
 * put_page(): freeing at the last reference is that layer's job, and this header sits below it so
 * that the page allocator can use folios too.
 */
#ifndef MM_FOLIO_H
#define MM_FOLIO_H

#include "mm/compound.h"
#include "mm/memmap.h"
#include "mm/page.h"

struct folio {
	union {
		/* The fields of struct page that mean something on a head or an order-0 page. */
		struct {
			uint32_t flags;
			int32_t _refcount;
			struct list_head lru;  /* the owner's: e.g. the hugetlb pool's free list */
			unsigned long private; /* the owner's; only a tail has first_page here */
		};
		struct page page;
	};
};

/* Same size, same place for every field: a folio pointer and its page pointer are the same bytes. */
#define FOLIO_MATCH(fl, pg) \
	_Static_assert(offsetof(struct folio, fl) == offsetof(struct page, pg), "folio." #fl " overlays page." #pg)
FOLIO_MATCH(flags, flags);
FOLIO_MATCH(_refcount, _refcount);
FOLIO_MATCH(lru, lru);
FOLIO_MATCH(private, private);
FOLIO_MATCH(private, first_page); /* why a tail can never be a folio: this word is its head */
FOLIO_MATCH(page, flags);
#undef FOLIO_MATCH
_Static_assert(sizeof(struct folio) == sizeof(struct page), "a folio is exactly one struct page");
_Static_assert(sizeof(((struct folio *)0)->flags) == sizeof(((struct page *)0)->flags), "flags' size");
_Static_assert(sizeof(((struct folio *)0)->_refcount) == sizeof(((struct page *)0)->_refcount), "_refcount's size");
_Static_assert(sizeof(((struct folio *)0)->lru) == sizeof(((struct page *)0)->lru), "lru's size");
_Static_assert(sizeof(((struct folio *)0)->private) == sizeof(((struct page *)0)->private), "private's size");

/**
 * page_folio() - The folio a page belongs to.
 * @page: any page, a tail of a compound page included.
 *
 * Return: its compound page's head, or page itself.
 */
static inline struct folio *page_folio(struct page *page)
{
	return (struct folio *)compound_head(page);
}

/**
 * page_as_folio() - The folio headed by a page, without a lookup.
 * @page: a page known not to be a tail (a destructor's argument, a block's first page, a page
 *        off the pool's free list).
 *
 * Return: page as a folio.
 */
static inline struct folio *page_as_folio(struct page *page)
{
	return (struct folio *)page;
}

/**
 * folio_page() - A page of a folio.
 * @folio: the folio.
 * @n: which page: 0 is the head; below folio_nr_pages().
 *
 * Return: page n.
 */
static inline struct page *folio_page(struct folio *folio, unsigned long n)
{
	return &folio->page + n;
}

/**
 * folio_test_large() - Is a folio a compound page (order >= 1)?
 * @folio: the folio.
 *
 * Return: true when it is; an order-0 page is a folio, but not a large one.
 */
static inline bool folio_test_large(const struct folio *folio)
{
	return PageHead(&folio->page);
}

/**
 * folio_order() - A folio's order.
 * @folio: the folio.
 *
 * Return: the compound order from its first tail, 0 when it is not large.
 */
static inline unsigned int folio_order(const struct folio *folio)
{
	return compound_order(&folio->page);
}

/**
 * folio_nr_pages() - The pages a folio spans.
 * @folio: the folio.
 *
 * Return: 1 << folio_order(folio).
 */
static inline unsigned long folio_nr_pages(const struct folio *folio)
{
	return 1UL << folio_order(folio);
}

/**
 * folio_size() - The bytes a folio spans.
 * @folio: the folio.
 *
 * Return: PAGE_SIZE << folio_order(folio).
 */
static inline size_t folio_size(const struct folio *folio)
{
	return (size_t)PAGE_SIZE << folio_order(folio);
}

/**
 * folio_ref_count() - References held on the whole folio.
 * @folio: the folio (tails keep 0).
 *
 * Return: the head's count.
 */
static inline int folio_ref_count(const struct folio *folio)
{
	return page_ref(&folio->page);
}

/**
 * folio_address() - Direct-map address of a folio's first byte.
 * @folio: the folio; it is contiguous from there.
 *
 * Return: the address.
 */
static inline void *folio_address(const struct folio *folio)
{
	return page_address(&folio->page);
}

/**
 * folio_pfn() - The frame of a folio's first page.
 * @folio: the folio.
 *
 * Return: its frame number.
 */
static inline unsigned long folio_pfn(const struct folio *folio)
{
	return page_to_pfn(&folio->page);
}

/**
 * folio_test_hugetlb() - Does a folio belong to the hugetlb pool?
 * @folio: the folio.
 *
 * Return: true when its head has PG_hugetlb.
 */
static inline bool folio_test_hugetlb(const struct folio *folio)
{
	return PageHugeTLB(&folio->page);
}

/**
 * folio_set_hugetlb() - Mark a folio as the hugetlb pool's (PG_hugetlb on its head).
 * @folio: the folio.
 */
static inline void folio_set_hugetlb(struct folio *folio) { page_flag_set(&folio->page, PG_hugetlb); }

/**
 * folio_clear_hugetlb() - Clear a folio's PG_hugetlb.
 * @folio: the folio.
 */
static inline void folio_clear_hugetlb(struct folio *folio) { page_flag_clear(&folio->page, PG_hugetlb); }

/**
 * folio_dtor() - The destructor folio_put() runs at a folio's last reference.
 * @folio: the folio.
 *
 * Return: the destructor; NULL when folio is not large.
 */
static inline compound_page_dtor *folio_dtor(const struct folio *folio)
{
	return get_compound_page_dtor(&folio->page);
}

/**
 * lru_to_folio() - The folio whose lru field is a list link.
 * @l: the link, on a list of folios such as the hugetlb pool's free list.
 *
 * Return: the folio.
 */
static inline struct folio *lru_to_folio(const struct list_head *l)
{
	return page_as_folio(lru_to_page(l));
}

#endif
