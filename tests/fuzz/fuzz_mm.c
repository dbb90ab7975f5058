/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for mm/: an arbitrary memory map goes through the whole boot path, then an
 * arbitrary sequence of allocations, frees and misuses runs against it; afterwards every free
 * list must be consistent with the map, and freeing everything must restore the first shape.
 * Any broken check aborts (a crash for libFuzzer); sanitizers catch the rest.
 *
 * A trailing odd byte (after the last whole operation) switches slab debugging off with its bit 0.
 * Input: either a text map (tests/mm/map_text.h; the fixture maps are the seeds), or binary entries;
 * after a NUL byte (text) or the entries (binary), two bytes per operation: an opcode and an
 * argument. The operations cover every public call: allocations with any gfp flags (a zeroed
 * block is checked), the three ways to free, get_page()/put_page() on any sub-page,
 * split_huge_page(), the hugetlb pool, the pcp lists, migration (the fuzzer owns movable blocks:
 * made movable, moved one by one or in batches, pinned, refused, put back, let go), a shrinker
 * (registered, unregistered, its own blocks given back when an allocation is about to fail, or
 * nothing, or a claim of progress forever) and mm_shrink(), and misuse that must be reported once;
 * and the slab layer: kmalloc()/kzalloc()/kfree() and krealloc() of every size (large ones too),
 * caches of fuzzed sizes and alignments created, used, shrunk and destroyed, and slab misuse
 * (double free of the last freed object, the wrong cache, kfree of a held page or inside an
 * object) that must be reported once; vmalloc: vmalloc()/vzalloc()/kvmalloc()/kvzalloc() areas (a pattern checked
 * through vmalloc_to_page() and when freed), vfree()/kvfree(), vmap()/vunmap() of held pages, frees
 * of addresses that are no area's start (refused, nothing changes), and compact_memory(), which
 * moves vmalloc's pages and the fuzzer's movable blocks.
 * Objects carry a pattern checked when they are freed.
 * Either way the map goes through the kernel's own path (kernel/boot_memmap.h, host_mm_boot()):
 * up to MAX_ENTRIES entries, anywhere below 2^64, with up to MAX_RAM of RAM, sparse or not.
 *   binary: byte 0: number of entries (low 6 bits), EFI descriptors rather than e820 (bit 6),
 *           poisoning on (bit 7); byte 1: number of entries (bits 6-8 of it, low 3 bits)
 *           each entry: kind (1 byte: e820 type in bits 0-2, or EFI type in bits 0-3 and the
 *           runtime attribute in bit 6), base (8 bytes, shifted right by scale's low 6 bits),
 *           size (4 bytes, shifted left by 8 * (scale >> 6)), scale (1 byte)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mm/bad_page.h"
#include "mm/compaction.h"
#include "mm/compound.h"
#include "mm/pcp.h"
#include "mm/hugetlb.h"
#include "mm/memory_add.h"
#include "mm/migrate.h"
#include "mm/poison.h"
#include "mm/shrinker.h"
#include "mm/slab.h"
#include "mm/vmalloc.h"
#include "tests/fuzz/fuzz_util.h"
#include "tests/ktest/mm_shape.h"
#include "tests/mm/map_text.h"
#include "tests/mm/host_mm.h"
#include "tests/mm/mm_check.h"

#define MAX_RAM (32ULL << 30) /* larger maps cost memmap memory and time; the replay covers them */
#define MAX_ENTRIES 400
#define MAX_HELD 64
#define ENTRY_BYTES 14

static struct fw_map map;

static void check(bool ok, const char *what, const char *detail)
{
	if (!ok) {
		fprintf(stderr, "fuzz_mm: %s: %s\n", what, detail ? detail : "");
		abort();
	}
}


/* The raw map of this input (e820 entries or EFI descriptors), as a boot loader passes it. */
static struct map_text raw_text;
static struct boot_memmap raw;

/* Binary entries into raw: returns the bytes used, or 0 if there is no entry. */
static size_t read_binary_map(const uint8_t *data, size_t size)
{
	unsigned int n = MIN((data[0] & 63) | (size > 1 ? data[1] & 7 : 0) << 6, MAX_ENTRIES);
	bool efi = data[0] & 0x40;
	size_t used = 2;

	map_text_free(&raw_text);
	raw_text.e820 = calloc(n + 1, sizeof(*raw_text.e820));
	raw_text.efi = calloc(n + 1, sizeof(*raw_text.efi));
	for (unsigned int i = 0; i < n && used + ENTRY_BYTES <= size; i++, used += ENTRY_BYTES) {
		const uint8_t *e = data + used;
		unsigned int kind = e[0], scale = e[13];
		uint64_t base = fuzz_le(e + 1, 8) >> (scale & 63), len = fuzz_le(e + 9, 4) << (scale >> 6 << 3);

		if (efi)
			raw_text.efi[raw_text.nefi++] = (struct efi_memory_descriptor){
				.type = kind & 15, .phys_start = base, .num_pages = len >> PAGE_SHIFT,
				.attribute = (uint64_t)(kind & 0x40) << 57 };
		else
			raw_text.e820[raw_text.ne820++] = (struct mb2_mmap_entry){ base, len, kind & 7, 0 };
	}
	return map_text_raw(&raw_text, &raw) ? used : 0;
}

/* Text map up to the first NUL into raw: returns the bytes used, or 0 if it is not a map. */
static size_t read_text_map(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t len = nul ? (size_t)(nul - data) : size;

	map_text_free(&raw_text);
	if (map_text_parse(&raw_text, (const char *)data, len) < 0 || !map_text_raw(&raw_text, &raw) ||
	    raw.count > MAX_ENTRIES)
		return 0;
	return nul ? len + 1 : len;
}

/* ---- the operations: two bytes each, an opcode byte and an argument byte ---------------------- */

enum held_kind { PLAIN, COMPOUND, HUGE };

/*
 * A block the fuzzer holds: its first page, its order, the references it holds on it, and
 * whether it made it movable (mm/migrate.h: then the fuzzer is its owner and lets it go first).
 */
struct held {
	struct page *page;
	unsigned int order;
	int refs;
	enum held_kind kind;
	bool movable;
};

static struct held held[MAX_HELD];
static unsigned int nheld;
static struct page *last_freed;          /* the first page of the block given back last */
static unsigned long reserved;           /* hugetlb reservations the fuzzer holds */
static unsigned long free_at_start;      /* nr_free_pages() before the first operation */
static unsigned long reports_expected;   /* bad_page reports the misuse so far accounts for */
static unsigned long slab_reports_expected; /* slab reports the slab misuse so far accounts for */

/* The slab layer's part: objects held (kmalloc or one of the caches), the caches. */
#define MAX_OBJS 64
#define MAX_CACHES 4

struct obj {
	uint8_t *p;
	size_t size;
	int cache; /* -1: kmalloc */
	uint8_t fill;
};

static struct obj objs[MAX_OBJS];
static unsigned int nobjs;
static struct kmem_cache *caches[MAX_CACHES];
static unsigned int ncaches;
static unsigned long slab_pages_at_start;   /* what the kmalloc caches hold between runs */
static uint8_t *last_freed_obj;          /* the object given back last (NULL: none, or reused since) */
static int last_freed_obj_cache;
static size_t last_freed_obj_size;

/* Is pfn inside a block the fuzzer holds? */
static bool is_held(unsigned long pfn)
{
	for (unsigned int i = 0; i < nheld; i++) {
		unsigned long p = page_to_pfn(held[i].page);
		if (pfn >= p && pfn < p + (1UL << held[i].order))
			return true;
	}
	return false;
}

static unsigned long stash_pages(void); /* the fuzzer's shrinker's blocks (op_shrinker()) */

/* After every operation: what is free, held and in the pool adds up; the pool is consistent. */
static void check_accounting(void)
{
	struct hugetlb_counters c = hugetlb_counters(HPAGE_ORDER);
	unsigned long pages = 0, huge = 0, slab = nr_slab_pages() - slab_pages_at_start;

	for (unsigned int i = 0; i < nheld; i++) {
		if (held[i].kind == HUGE)
			huge++;
		else
			pages += 1UL << held[i].order;
	}
	for (unsigned int i = 0; i < nobjs; i++)
		if (objs[i].size > KMALLOC_MAX_CACHE_SIZE)
			pages += ksize(objs[i].p) >> PAGE_SHIFT;
	pages += stash_pages() + vmalloc_nr_pages();
	check(mm_bad_page_reports == reports_expected, "a bad_page report without misuse", NULL);
	check(mm_slab_reports == slab_reports_expected, "a slab report without misuse", NULL);
	/*
	 * Slabs hold pages (nr_slab_pages()), and kmalloc may keep a large block or two for reuse
	 * until kmem_cache_shrink_all(): after which, as at the end, the count is exact.
	 */
	check(nr_free_pages() + pages + slab + (c.total << HPAGE_ORDER) <= free_at_start,
	      "free + held + slab + pool pages above the free pages at the start", NULL);
	if (!nobjs && !slab) {
		kmem_cache_shrink_all();
		last_freed_obj = NULL; /* see op_cache_shrink() */
		check(nr_free_pages() + pages + (c.total << HPAGE_ORDER) == free_at_start,
		      "free + held + pool pages differ from the free pages at the start", NULL);
	}
	check(c.in_use == huge && c.reserved == reserved, "hugetlb pool: pages in use or reserved", NULL);
	check(!hugetlb_check(), "hugetlb invariants", hugetlb_check());
}

/* Sub-page number b (spread over the block) of held block h: any page of a compound page. */
static struct page *sub_page(const struct held *h, uint8_t b)
{
	if (h->kind == PLAIN)
		return h->page;
	return h->page + ((unsigned long)b * 2654435761UL) % (1UL << h->order);
}

static void let_go(struct held *h);

/* Forgets held block i (given back). */
static void forget(unsigned int i)
{
	if (held[i].kind != HUGE)
		last_freed = held[i].page;
	held[i] = held[--nheld];
}

/* Holds a block just handed out, or gives it straight back when the table is full. */
static void hold(struct page *page, unsigned int order, enum held_kind kind)
{
	if (nheld == MAX_HELD) {
		put_page(page);
		if (kind != HUGE)
			last_freed = page;
		return;
	}
	held[nheld++] = (struct held){ page, order, 1, kind, false };
}

/*
 * Nonzero words in the first and the last page of a block, so that a later __GFP_ZERO allocation
 * of them is checked for real. (Touching every page would make each run fault in all of memory.)
 */
static void scribble(struct page *page, unsigned int order)
{
	uint64_t *first = page_address(page), *last = page_address(page + (1UL << order) - 1);

	first[0] = last[PAGE_SIZE / 8 - 1] = 0x5a5a5a5a5a5a5a5aULL;
}

static void check_zeroed(struct page *page, unsigned int order)
{
	const uint64_t *first = page_address(page), *last = page_address(page + (1UL << order) - 1);

	check(!first[0] && !last[PAGE_SIZE / 8 - 1], "__GFP_ZERO block not zeroed", NULL);
}

/*
 * op bits 4..7: __GFP_ZERO, __GFP_COMP, __GFP_DMA32, __GFP_DMA; b: order (bits 0..6 modulo
 * MAX_ORDER + 2) and mobility (their quotient modulo 4: unmovable, __GFP_MOVABLE,
 * __GFP_RECLAIMABLE, or both, which must be refused), bit 7 by address.
 * __GFP_ZERO only up to order 4: zeroing larger blocks (fresh simulated memory each run) is what
 * the runs would spend their time on; the model test (tests/model/) zeroes every order.
 */
static void op_alloc(uint8_t op, uint8_t b)
{
	unsigned int order = (b & 0x7f) % (MAX_ORDER + 2); /* MAX_ORDER + 1 must be refused */
	bool zero = (op & 0x10) && order <= 4;
	gfp_t mobility = (gfp_t)((b & 0x7f) / (MAX_ORDER + 2) % 4) << GFP_MOBILITY_SHIFT;
	gfp_t gfp = (zero ? __GFP_ZERO : 0) | (op & 0x20 ? __GFP_COMP : 0) | (op & 0x40 ? __GFP_DMA32 : 0) |
		    (op & 0x80 ? __GFP_DMA : 0) | mobility | __GFP_NOWARN;
	struct page *page;

	if (b & 0x80) {
		unsigned long addr = __get_free_pages(gfp, order);
		page = addr ? virt_to_page((void *)addr) : NULL;
	} else {
		page = alloc_pages(gfp, order);
	}
	check(!page || order <= MAX_ORDER, "alloc_pages above MAX_ORDER succeeded", NULL);
	check(!page || mobility != __GFP_MOBILITY, "alloc_pages with both mobility bits succeeded", NULL);
	if (!page)
		return;
	if (gfp & __GFP_ZERO)
		check_zeroed(page, order);
	scribble(page, order);
	hold(page, order, (gfp & __GFP_COMP) && order ? COMPOUND : PLAIN);
}

/* Drops one reference on held block i through a sub-page; the last one gives the block back. */
static void put_ref(unsigned int i, uint8_t b)
{
	if (held[i].refs == 1)
		let_go(&held[i]);
	put_page(sub_page(&held[i], b));
	if (--held[i].refs == 0)
		forget(i);
	else
		check(page_count(held[i].page) == held[i].refs, "put_page: count", NULL);
}

/* op bits 4..5 pick the way: put_page, free_pages or __free_pages (only with one reference). */
static void op_free(uint8_t op, uint8_t b)
{
	unsigned int i = b % nheld;
	struct held *h = &held[i];

	if (h->kind == HUGE || h->refs > 1 || (op & 0x30) == 0)
		return put_ref(i, b);
	let_go(h);
	if (op & 0x10)
		free_pages((unsigned long)page_address(h->page), h->order);
	else
		__free_pages(h->page, h->order);
	forget(i);
}

static void op_get(uint8_t b)
{
	struct held *h = &held[b % nheld];

	if (h->refs >= 16)
		return;
	get_page(sub_page(h, b));
	h->refs++;
	check(page_count(h->page) == h->refs, "get_page: count", NULL);
}

/* split_huge_page() through a sub-page: 0 only for a compound page with one reference. */
static void op_split(uint8_t b)
{
	unsigned int i = b % nheld;
	struct held h = held[i];
	int want = h.kind != COMPOUND || h.movable ? -EINVAL : h.refs > 1 ? -EBUSY : 0;

	check(split_huge_page(sub_page(&h, b)) == want, "split_huge_page: result", NULL);
	if (want)
		return;
	held[i] = (struct held){ h.page, 0, 1, PLAIN, false };
	for (unsigned long p = 1; p < (1UL << h.order); p++) {
		check(page_count(h.page + p) == 1 && !PageCompound(h.page + p), "split page: count or marks", NULL);
		hold(h.page + p, 0, PLAIN);
	}
}

/* The hugetlb pool: op bits 4..6 pick the call. */
static void op_pool(uint8_t op, uint8_t b)
{
	struct page *page = NULL;

	switch ((op >> 4) & 7) {
	case 0: hugetlb_set_pool_size(b % 8); break;
	case 1: hugetlb_set_overcommit(b % 4); break;
	case 2: case 3: page = alloc_huge_page(); break;
	case 4:
		page = alloc_huge_page_reserved();
		check(!page == !reserved, "alloc_huge_page_reserved: result", NULL);
		reserved -= page != NULL;
		break;
	case 5:
		if (hugetlb_reserve_pages(1 + b % 3) == 0)
			reserved += 1 + b % 3;
		break;
	case 6: /* more than is reserved is reported and clamped */
		hugetlb_unreserve_pages(b % 4);
		reserved -= MIN(reserved, (unsigned long)(b % 4));
		break;
	default: check(!alloc_gigantic_page(), "a gigantic page without a gigantic pool", NULL);
	}
	if (page) {
		check(PageHugeTLB(page) && compound_order(page) == HPAGE_ORDER, "huge page: marks", NULL);
		hold(page, HPAGE_ORDER, HUGE);
	}
}

static void op_pcp(uint8_t b)
{
	if (b & 1)
		drain_pcp_lists();
	else
		set_pcp_lists(b & 2);
}

/* ---- a shrinker of the fuzzer's own: blocks it holds apart, given back when asked ---------- */

#define STASH 16
enum stash_reply { FREED, NOTHING, STOP, CLAIM };
static struct {
	struct page *page[STASH];
	unsigned int order[STASH], nr;
	enum stash_reply reply;
	bool registered;
	unsigned long calls_unregistered; /* calls while not registered: must stay 0 */
} stash;

static unsigned long stash_count(struct shrinker *s, struct shrink_control *sc)
{
	(void)s, (void)sc;
	stash.calls_unregistered += !stash.registered;
	return stash.reply == CLAIM ? SHRINK_EMPTY - 1 : stash.nr;
}

static unsigned long stash_scan(struct shrinker *s, struct shrink_control *sc)
{
	unsigned long freed = 0;

	(void)s;
	stash.calls_unregistered += !stash.registered;
	check(sc->nr_to_scan && sc->nr_to_scan <= SHRINK_BATCH, "shrinker asked for 0 or more than a batch", NULL);
	for (; stash.nr && freed < sc->nr_to_scan && stash.reply == FREED; freed++, stash.nr--)
		__free_pages(stash.page[stash.nr - 1], stash.order[stash.nr - 1]);
	return stash.reply == STOP ? SHRINK_STOP : stash.reply == CLAIM ? 1 : freed;
}

static struct shrinker stash_shrinker = { .count_objects = stash_count, .scan_objects = stash_scan,
					  .name = "fuzz stash" };

static unsigned long stash_pages(void)
{
	unsigned long pages = 0;

	for (unsigned int i = 0; i < stash.nr; i++)
		pages += 1UL << stash.order[i];
	return pages;
}

static void stash_release(void)
{
	if (stash.registered)
		unregister_shrinker(&stash_shrinker);
	stash.registered = false;
	for (; stash.nr; stash.nr--)
		__free_pages(stash.page[stash.nr - 1], stash.order[stash.nr - 1]);
	check(!stash.calls_unregistered, "a shrinker called while not registered", NULL);
}

/* op bits 5..6 pick: (un)register, fill the stash, mm_shrink(), how scan replies. */
static void op_shrinker(uint8_t op, uint8_t b)
{
	switch ((op >> 5) & 3) {
	case 0:
		if (stash.registered)
			unregister_shrinker(&stash_shrinker);
		else
			check(!register_shrinker(&stash_shrinker), "register_shrinker refused", NULL);
		stash.registered = !stash.registered;
		break;
	case 1:
		for (unsigned int n = b % 4 + 1; n-- && stash.nr < STASH;) {
			struct page *page = alloc_pages((b & 0x40 ? __GFP_MOVABLE : 0) | __GFP_NOWARN, (b >> 2) % 4);

			if (!page)
				break;
			stash.page[stash.nr] = page;
			stash.order[stash.nr++] = (b >> 2) % 4;
		}
		break;
	case 2:
		mm_shrink(b & 0x80 ? __GFP_NORECLAIM : GFP_KERNEL, b % (MAX_ORDER + 1));
		break;
	default:
		stash.reply = (enum stash_reply)(b % 4);
	}
}

static unsigned long reserved_found; /* find_reserved() this run: 0 not yet, ~0 none, else pfn + 1 */

/*
 * A reserved frame with a struct page: the first after a point b picks, searched once per run
 * (wrapping around, a chunk without a struct page skipped at once), or NULL if there is none.
 */
static struct page *find_reserved(uint8_t b)
{
	unsigned long start = b * (mm_max_pfn / 256), steps = 0;

	for (unsigned long n = 0; !reserved_found && n < mm_max_pfn && steps < (1UL << 20); n++, steps++) {
		unsigned long pfn = (start + n) % mm_max_pfn;

		if (!pfn_valid(pfn))
			n += MEMMAP_CHUNK_PAGES - 1 - pfn % MEMMAP_CHUNK_PAGES; /* the rest of the chunk */
		else if (PageReserved(pfn_to_page(pfn)))
			reserved_found = pfn + 1;
	}
	if (!reserved_found)
		reserved_found = ~0UL;
	return reserved_found != ~0UL ? pfn_to_page(reserved_found - 1) : NULL;
}

/* The misuse cases: each returns false when it does not apply to what is held now. */

/* Free again (not taken since by the fuzzer, a slab or a large kmalloc, which hold references)? */
static bool last_freed_is_free(void)
{
	return last_freed && !is_held(page_to_pfn(last_freed)) && !PageSlab(compound_head(last_freed)) &&
	       page_count(last_freed) == 0;
}

static bool double_free(struct held *h, uint8_t b)
{
	(void)h, (void)b;
	if (!last_freed_is_free())
		return false;
	__free_pages(last_freed, 0);
	return true;
}

static bool wrong_order(struct held *h, uint8_t b)
{
	(void)b;
	if (!h || h->kind == HUGE || h->order == MAX_ORDER)
		return false;
	__free_pages(h->page, h->order + 1);
	return true;
}

static bool tail_or_inner_page(struct held *h, uint8_t b)
{
	(void)b;
	if (!h || !h->order)
		return false;
	__free_pages(h->page + 1, 0);
	return true;
}

/* get_page() when b is odd, else put_page(): the misuse cases below must refuse either. */
static void get_or_put(struct page *page, uint8_t b)
{
	if (b & 1)
		get_page(page);
	else
		put_page(page);
}

static bool reference_on_free_page(struct held *h, uint8_t b)
{
	(void)h;
	if (!last_freed_is_free())
		return false;
	get_or_put(last_freed, b);
	return true;
}

/* A plain block counts references on its first page only: the others must be refused. */
static bool reference_on_inner_page(struct held *h, uint8_t b)
{
	struct page *inner;

	if (!h || h->kind != PLAIN || !h->order)
		return false;
	inner = h->page + 1 + b % ((1UL << h->order) - 1);
	get_or_put(inner, b);
	return true;
}

static bool huge_page_freed_directly(struct held *h, uint8_t b)
{
	(void)b;
	if (!h || h->kind != HUGE)
		return false;
	__free_pages(h->page, h->order);
	return true;
}

static bool reserved_page(struct held *h, uint8_t b)
{
	struct page *p = find_reserved(b);

	(void)h;
	if (!p)
		return false;
	if (b & 1)
		__free_pages(p, 0);
	else
		get_page(p);
	return true;
}

/* __free_pages() while the fuzzer holds another reference (which it keeps). */
static bool references_held(struct held *h, uint8_t b)
{
	(void)b;
	if (!h || h->kind == HUGE || h->refs >= 16)
		return false;
	get_page(h->page);
	h->refs++;
	__free_pages(h->page, h->order);
	return true;
}

static bool (*const misuse_cases[8])(struct held *h, uint8_t b) = {
	double_free, wrong_order, tail_or_inner_page, reference_on_free_page,
	reference_on_inner_page, huge_page_freed_directly, reserved_page, references_held,
};

/* A misuse (op bits 4..6 pick the case) that must be reported exactly once and change nothing. */
static void op_misuse(uint8_t op, uint8_t b)
{
	unsigned long reports = mm_bad_page_reports, free0 = nr_free_pages();
	struct hugetlb_counters c0 = hugetlb_counters(HPAGE_ORDER), c;

	if (!misuse_cases[(op >> 4) & 7](nheld ? &held[b % nheld] : NULL, b))
		return;
	c = hugetlb_counters(HPAGE_ORDER);
	check(mm_bad_page_reports == reports + 1, "misuse not reported exactly once", NULL);
	check(nr_free_pages() == free0, "misuse changed the free count", NULL);
	check(c.total == c0.total && c.free == c0.free && c.in_use == c0.in_use, "misuse changed the pool", NULL);
	reports_expected++;
}

/* ---- memory after boot: hostile ranges, each refused with nothing changed -------------------- */

static unsigned long managed_total(void)
{
	unsigned long n = 0;

	for (unsigned int z = 0; z < mm_nr_zone_ids; z++)
		n += mm_zones[z].managed_pages;
	return n;
}

/*
 * Op 14 with bit 7 set: b's low 3 bits pick a bad range for mm_free_reserved_range() (0..3) or
 * mm_add_memory() (4..7), the rest of b where in it. The fuzzer's mm/ has no releasable range
 * and no offline RAM: every call must be refused and leave the free and managed counts alone.
 */
static void op_memory_add(uint8_t b)
{
	const phys_addr_t chunk = MM_ADD_MEMORY_ALIGN, limit = PFN_PHYS(mm_hotplug_end_pfn());
	phys_addr_t frame = nheld ? PFN_PHYS(page_to_pfn(held[b % nheld].page)) : PFN_PHYS(b);
	unsigned long free0 = nr_free_pages(), managed0 = managed_total(), n = 0;
	int err = 0;

	switch (b & 7) {
	case 0: n = mm_free_reserved_range(frame + 8 * (b | 1), frame + PAGE_SIZE, "fuzz"); break;
	case 1: n = mm_free_reserved_range(frame, frame + PAGE_SIZE * (1 + (b >> 3)), "fuzz"); break;
	case 2: n = mm_free_reserved_range(PFN_PHYS(b), PFN_PHYS(b + 1), "fuzz"); break; /* the first 1 MiB */
	case 3: n = mm_free_reserved_range(limit + PFN_PHYS(b), limit + PFN_PHYS(b + 1), "fuzz"); break;
	/* 4: size 0, or a range that wraps (it starts below 0, not at 0: RAM added in a hole of the map is fine) */
	case 4: err = mm_add_memory(b & 8 ? limit : -chunk * (1 + (b >> 4)), b & 8 ? 0 : chunk * (2 + (b >> 4))); break;
	case 5: err = mm_add_memory(limit + PFN_PHYS(b | 1), chunk); break;
	case 6: err = mm_add_memory(ALIGN_DOWN(frame, chunk), chunk * (1 + (b >> 3))); break;
	default: err = mm_add_memory(limit + chunk * (b >> 3), chunk); break;
	}
	check(!n && (err || (b & 7) < 4), "memory after boot: a hostile range was accepted", NULL);
	check(nr_free_pages() == free0 && managed_total() == managed0, "a refused range changed the counts", NULL);
}

/* ---- migration: the fuzzer as the owner of movable blocks ---------------------------------- */

/* The owner's answers, set by each migration operation from its argument. */
static bool owner_refuses, owner_fails;
static unsigned int owner_isolated; /* isolate_page() said yes and nothing ended it yet */

/* The held block whose first page is page: the owner's own lookup. */
static struct held *held_at(struct page *page)
{
	for (unsigned int i = 0; i < nheld; i++)
		if (held[i].page == page)
			return &held[i];
	check(false, "an owner's operation on a block the fuzzer does not hold", NULL);
	return NULL;
}

static bool fz_isolate(struct page *page)
{
	check(held_at(page)->movable, "isolate_page on a block that is not movable", NULL);
	owner_isolated += !owner_refuses;
	return !owner_refuses;
}

static int fz_migrate(struct page *dst, struct page *src)
{
	struct held *h = held_at(src);
	const uint64_t *s = page_address(src), *d = page_address(dst);

	check(s[0] == d[0] && s[PAGE_SIZE / 8 - 1] == d[PAGE_SIZE / 8 - 1], "migrate_page: contents not copied", NULL);
	check(page_ref(dst) == 2 && page_ref(src) == 0, "migrate_page: src not frozen, or dst not isolated (count 2)",
	      NULL);
	if (owner_fails)
		return -EINVAL;
	h->page = dst;
	owner_isolated--;
	return 0;
}

static void fz_putback(struct page *page)
{
	check(held_at(page)->movable && owner_isolated, "putback_page of a block not isolated", NULL);
	owner_isolated--;
}

static const struct movable_operations fz_ops = {
	.name = "fuzz", .isolate_page = fz_isolate, .migrate_page = fz_migrate, .putback_page = fz_putback,
};

/* The owner is done with h's block: no migration from now on (before its last reference goes). */
static void let_go(struct held *h)
{
	if (h->movable)
		clear_page_movable(h->page);
	h->movable = false;
}

/* Can h be made movable (a block below a pageblock, not the pool's, not yet movable)? */
static bool may_be_movable(const struct held *h)
{
	return h->kind != HUGE && !h->movable && h->order < PAGEBLOCK_ORDER;
}

static void make_movable(struct held *h)
{
	if (!may_be_movable(h))
		return;
	set_page_movable(h->page, &fz_ops);
	check(page_movable(h->page), "set_page_movable refused a held block", NULL);
	h->movable = true;
}

/* After migrate_page_to_new(h) returned rc: the block moved exactly when rc is 0, and only then. */
static void check_migrated(const struct held *h, struct page *old, int rc, uint64_t word)
{
	check(rc != 0 || h->refs == 1, "a pinned block moved", NULL);
	check(rc != -EAGAIN || h->refs > 1, "-EAGAIN without a pin", NULL);
	check(rc != -EINVAL || !h->movable || owner_fails, "-EINVAL for a movable block", NULL);
	check(rc != -EBUSY || owner_refuses, "-EBUSY though the owner agreed", NULL);
	check((rc == 0) == (h->page != old), "the owner's block changed without a move, or kept it", NULL);
	check(*(const uint64_t *)page_address(h->page) == word, "contents lost by a migration", NULL);
	check(!h->movable || (page_movable_ops(h->page) == &fz_ops && !PageIsolated(h->page)),
	      "a movable block's marks after a migration", NULL);
	check(page_count(h->page) == h->refs && owner_isolated == 0, "counts after a migration", NULL);
	check(rc != 0 || page_ref(old) == 0, "the old block not freed", NULL);
}

static void migrate_one(struct held *h, uint8_t b)
{
	struct page *old = h->page;
	uint64_t word = *(const uint64_t *)page_address(old);
	gfp_t gfp = (b & 1 ? __GFP_DMA32 : 0) | (b & 2 ? __GFP_HIGH : 0) | __GFP_NOWARN;
	int rc = migrate_page_to_new(old, gfp);

	check_migrated(h, old, rc, word);
	if (rc == 0)
		last_freed = old;
}

/* migrate_pages()'s targets: movable, the block's shape; none when the argument says so. */
static struct page *fz_new_page(struct page *src, unsigned int order, void *data)
{
	if (*(uint8_t *)data & 0x10)
		return NULL;
	return alloc_pages(GFP_HIGHUSER_MOVABLE | __GFP_NOWARN | (PageHead(src) ? __GFP_COMP : 0), order);
}

/*
 * Every movable held block whose bit in b is set (from the first), isolated (a second isolation
 * refused), then moved by migrate_pages() or put back. No block stays isolated between operations.
 */
static void migrate_batch(uint8_t b, bool move)
{
	struct page *pages[MAX_HELD];
	unsigned int n = 0, moved;

	for (unsigned int i = 0; i < nheld && i < 8; i++) {
		if (!held[i].movable || !(b & (1u << i)))
			continue;
		if (isolate_movable_page(held[i].page))
			continue;
		check(isolate_movable_page(held[i].page) == -EBUSY, "a second isolation allowed", NULL);
		pages[n++] = held[i].page;
	}
	if (!move) {
		for (unsigned int i = 0; i < n; i++)
			putback_movable_page(pages[i]);
		check(owner_isolated == 0, "putback_movable_page did not put back", NULL);
		return;
	}
	moved = migrate_pages(pages, n, fz_new_page, NULL, &b);
	check(owner_isolated == 0 && moved <= n, "migrate_pages left blocks isolated", NULL);
	for (unsigned int i = 0; i < n; i++)
		check(!pages[i] || page_ref(pages[i]) > 0, "a block not moved was freed", NULL);
}

/*
 * op bits 4..6 pick: make a held block movable (twice as often), migrate_page_to_new() on one,
 * isolate some and put them back or migrate them, let one go (clear_page_movable()); misuse: a
 * movable block freed, made movable again, a tail page or a huge page made movable (one report).
 * b picks the block (and the blocks, the gfp, the owner's answers).
 */
static void op_migrate(uint8_t op, uint8_t b)
{
	struct held *h = &held[b % nheld];
	unsigned long reports = mm_bad_page_reports, free0 = nr_free_pages();

	owner_refuses = (op & 0x80) && (b & 0x40);
	owner_fails = (op & 0x80) && (b & 0x20);
	switch ((op >> 4) & 7) {
	case 0: case 1: make_movable(h); return;
	case 2: migrate_one(h, b); return;
	case 3: migrate_batch(b, b & 0x80); return;
	case 4: let_go(h); return;
	case 5:
		if (!h->movable)
			return;
		if (b & 0x80)
			__free_pages(h->page, h->order);
		else
			set_page_movable(h->page, &fz_ops);
		break;
	default:
		if (h->kind == PLAIN || h->movable)
			return;
		set_page_movable(h->kind == HUGE && (b & 0x80) ? h->page : h->page + 1, &fz_ops); /* head or tail */
	}
	check(mm_bad_page_reports == reports + 1 && nr_free_pages() == free0, "movable misuse not reported once", NULL);
	reports_expected++;
}

/* ---- the slab layer ----------------------------------------------------------------------- */

/* The first byte, the last (a different value) and up to 256 between. */
static void obj_fill(const struct obj *o)
{
	o->p[o->size - 1] = (uint8_t)(0xff ^ o->fill);
	o->p[0] = o->fill;
	if (o->size > 2)
		memset(o->p + 1, o->fill ^ 0x33, MIN(o->size - 2, (size_t)256));
}

static void obj_check(const struct obj *o)
{
	check(o->p[0] == o->fill && (o->size == 1 || o->p[o->size - 1] == (uint8_t)(0xff ^ o->fill)),
	      "object bytes changed", NULL);
	for (size_t i = 1; i + 1 < o->size && i <= 256; i++)
		check(o->p[i] == (uint8_t)(o->fill ^ 0x33), "object bytes changed", NULL);
}

static bool is_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* Holds a new object (checked: its size, no overlap with a held one); frees it when full. */
static void obj_hold(uint8_t *p, size_t size, int cache, uint8_t fill)
{
	struct obj o = { p, size, cache, fill };
	size_t usable = cache < 0 ? ksize(p) : kmem_cache_size(caches[cache]);

	check(usable >= size, "ksize or kmem_cache_size below the size asked", NULL);
	for (unsigned int i = 0; i < nobjs; i++)
		check(p + size <= objs[i].p || objs[i].p + objs[i].size <= p, "two live objects overlap", NULL);
	if (p == last_freed_obj)
		last_freed_obj = NULL;
	obj_fill(&o);
	if (nobjs == MAX_OBJS) {
		if (cache < 0)
			kfree(p);
		else
			kmem_cache_free(caches[cache], p);
		last_freed_obj = p, last_freed_obj_cache = cache, last_freed_obj_size = size;
		return;
	}
	objs[nobjs++] = o;
}

static void obj_free(unsigned int i)
{
	struct obj o = objs[i];

	obj_check(&o);
	objs[i] = objs[--nobjs];
	if (o.cache < 0)
		kfree(o.p);
	else
		kmem_cache_free(caches[o.cache], o.p);
	last_freed_obj = o.p, last_freed_obj_cache = o.cache, last_freed_obj_size = o.size;
}

/* b < 200: the small sizes up to 8 KiB (0 is kmalloc(0)); above: large, up to about 64 KiB. */
static size_t obj_size(uint8_t b)
{
	return b < 200 ? (size_t)b * 41 + (b > 100 ? b % 7 : 0) : KMALLOC_MAX_CACHE_SIZE + (size_t)(b - 200) * 1200 + 1;
}

static void op_kmalloc(uint8_t op, uint8_t b)
{
	size_t size = obj_size(b);
	bool zero = op & 0x80;
	gfp_t gfp = (op & 0x40 ? GFP_ATOMIC : GFP_KERNEL) | __GFP_NOWARN;
	uint8_t *p = zero ? kzalloc(size, gfp) : kmalloc(size, gfp);

	if (!size) {
		check(p == ZERO_SIZE_PTR, "kmalloc(0) is not ZERO_SIZE_PTR", NULL);
		kfree(p);
		return;
	}
	if (!p)
		return;
	if (zero)
		check(is_zero(p, MIN(size, (size_t)4096)), "kzalloc: not zeroed", NULL);
	if (size <= KMALLOC_MAX_CACHE_SIZE)
		check(virt_to_page(p) && PageSlab(compound_head(virt_to_page(p))), "small kmalloc: not on a slab page", NULL);
	else
		check(PageHead(virt_to_page(p)), "large kmalloc: not a compound head", NULL);
	obj_hold(p, size, -1, (uint8_t)(op ^ b));
}

/*
 * A cache of a fuzzed size (1..4336), alignment (0 or a power of two up to 128), flags
 * (SLAB_HWCACHE_ALIGN: bit 0 of b) and with or without debugging (bit 1: SLAB_DEBUG).
 */
static void op_cache_create(uint8_t b)
{
	static const char *const names[MAX_CACHES] = { "fuzz0", "fuzz1", "fuzz2", "fuzz3" };
	size_t size = 1 + (size_t)b * 17, align = (b >> 2) % 9 ? (size_t)1 << ((b >> 2) % 9 - 1) : 0;
	unsigned int flags = (b & 1 ? SLAB_HWCACHE_ALIGN : 0) | (b & 2 ? SLAB_DEBUG : 0);
	struct kmem_cache *c;

	if (ncaches == MAX_CACHES)
		return;
	last_freed_obj = NULL; /* the new cache's own record may be it now */
	c = kmem_cache_create(names[ncaches], size, align, flags);
	check(c != NULL, "kmem_cache_create refused a valid cache", NULL);
	check(kmem_cache_size(c) >= size, "kmem_cache_size below the size", NULL);
	caches[ncaches++] = c;
}

static void op_cache_alloc(uint8_t op, uint8_t b)
{
	unsigned int k;
	uint8_t *p;
	size_t size;

	if (!ncaches)
		return;
	k = b % ncaches;
	size = kmem_cache_size(caches[k]);
	p = kmem_cache_alloc(caches[k], (op & 0x80 ? __GFP_ZERO : 0) | GFP_KERNEL | __GFP_NOWARN);
	if (!p)
		return;
	if (op & 0x80)
		check(is_zero(p, size), "kmem_cache_alloc __GFP_ZERO: not zeroed", NULL);
	obj_hold(p, size, (int)k, (uint8_t)(op + b));
}

/* Shrinks one cache or all of them, or destroys the last cache created when it is empty. */
static void op_cache_shrink(uint8_t op, uint8_t b)
{
	(void)op;
	/*
	 * Without debugging, only a double free of the object a CPU's list has on top is seen;
	 * once shrunk, the last freed object is free inside its slab, where a second free would
	 * go unseen (and corrupt the slab): it is no longer a misuse case the fuzzer may try.
	 */
	last_freed_obj = NULL;
	if (b & 1) {
		kmem_cache_shrink_all();
	} else if (ncaches && (b & 2)) {
		for (unsigned int i = 0; i < nobjs; i++)
			if (objs[i].cache == (int)ncaches - 1)
				return;
		kmem_cache_destroy(caches[--ncaches]);
		if (last_freed_obj_cache == (int)ncaches)
			last_freed_obj = NULL;
	} else if (ncaches) {
		kmem_cache_shrink(caches[b % ncaches]);
	}
}

/*
 * Slab misuse that every mode reports (b % 4 picks): the last freed object freed again, an
 * object freed to another cache, a held plain block given to kfree(), a held object freed at a
 * byte inside it. Exactly one report; nothing changes.
 */
static void op_slab_misuse(uint8_t b)
{
	unsigned long reports = mm_slab_reports, slab = nr_slab_pages();

	switch (b % 4) {
	case 0: {
		struct page *head;

		/*
		 * Only while its slab is still one of the same cache: an empty slab may have gone back
		 * to the buddy allocator since and be anything now.
		 */
		if (!last_freed_obj || last_freed_obj_size > KMALLOC_MAX_CACHE_SIZE)
			return;
		head = compound_head(virt_to_page(last_freed_obj));
		if (!PageSlab(head) || head->slab_cache != (last_freed_obj_cache < 0 ? kmalloc_cache(last_freed_obj_size)
										      : caches[last_freed_obj_cache]))
			return;
		if (last_freed_obj_cache < 0)
			kfree(last_freed_obj);
		else
			kmem_cache_free(caches[last_freed_obj_cache], last_freed_obj);
		break;
	}
	case 1: {
		struct obj *o;
		struct kmem_cache *to;

		if (!nobjs)
			return;
		o = &objs[(b / 4) % nobjs];
		if (o->size > KMALLOC_MAX_CACHE_SIZE)
			return;
		if (o->cache >= 0 && ncaches > 1 && (b & 0x80)) /* another fuzz cache */
			to = caches[(o->cache + 1 + (b / 4) % (ncaches - 1)) % ncaches];
		else if (o->cache < 0 && ncaches && (b & 0x80))
			to = caches[(b / 4) % ncaches];
		else /* a kmalloc cache of another size */
			to = kmalloc_cache(o->cache < 0 && ksize(o->p) == 8 ? 16 : 8);
		kmem_cache_free(to, o->p);
		break;
	}
	case 3: {
		struct obj *o;

		if (!nobjs)
			return;
		o = &objs[(b / 4) % nobjs];
		if (o->size > KMALLOC_MAX_CACHE_SIZE || ksize(o->p) < 2)
			return;
		kfree((uint8_t *)o->p + 1 + (b / 4) % (ksize(o->p) - 1)); /* never its first byte */
		break;
	}
	default: {
		struct held *h;

		if (!nheld)
			return;
		h = &held[(b / 4) % nheld];
		if (h->kind != PLAIN) /* a compound page looks like a large kmalloc: not misuse kfree can see */
			return;
		kfree((uint8_t *)page_address(h->page) + (b & 0x40 ? 64 : 0));
		break;
	}
	}
	check(mm_slab_reports == reports + 1, "slab misuse not reported exactly once", NULL);
	check(nr_slab_pages() == slab, "slab misuse changed the slab pages", NULL);
	slab_reports_expected++;
}

/* The byte obj_fill() left at offset i (0..256, or the last) of an object of size bytes. */
static uint8_t obj_filled_byte(size_t size, uint8_t fill, size_t i)
{
	if (i == 0)
		return fill;
	return i == size - 1 ? (uint8_t)(0xff ^ fill) : (uint8_t)(fill ^ 0x33);
}

/*
 * krealloc() of a held kmalloc object (b picks it and the new size, 0 included): the bytes both
 * sizes cover keep their values, the object is kept when ksize() already holds the new size, and
 * a failure leaves it as it was. The object is then held at its new size, filled again.
 */
static void op_krealloc(uint8_t b)
{
	struct obj *o;
	size_t size = obj_size((uint8_t)(b * 37 + 11)), old_usable;
	uint8_t *q;

	if (!nobjs || objs[b % nobjs].cache >= 0)
		return;
	o = &objs[b % nobjs];
	obj_check(o);
	old_usable = ksize(o->p);
	q = krealloc(o->p, size, GFP_KERNEL | __GFP_NOWARN);
	if (!size) {
		check(q == ZERO_SIZE_PTR, "krealloc(p, 0) is not ZERO_SIZE_PTR", NULL);
		last_freed_obj = o->p, last_freed_obj_cache = -1, last_freed_obj_size = o->size;
		*o = objs[--nobjs];
		return;
	}
	if (!q) {
		obj_check(o); /* untouched, still held */
		return;
	}
	check(size > old_usable || q == o->p, "krealloc moved an object that was big enough", NULL);
	check(ksize(q) >= size, "krealloc: ksize below the new size", NULL);
	if (q == last_freed_obj)
		last_freed_obj = NULL;
	for (size_t i = 0; i < MIN(size, o->size) && i <= 256; i++)
		check(q[i] == obj_filled_byte(o->size, o->fill, i), "krealloc lost the contents", NULL);
	if (o->size <= size)
		check(q[o->size - 1] == obj_filled_byte(o->size, o->fill, o->size - 1), "krealloc lost the last byte", NULL);
	if (q != o->p) {
		last_freed_obj = o->p, last_freed_obj_cache = -1, last_freed_obj_size = o->size;
		for (unsigned int i = 0; i < nobjs; i++)
			check(&objs[i] == o || q + size <= objs[i].p || objs[i].p + objs[i].size <= q,
			      "krealloc: the new object overlaps a held one", NULL);
	}
	o->p = q, o->size = size;
	obj_fill(o);
}

/* op bits 4..5 pick: kmalloc, a cache's allocation, a free, the rest (bits 6..7 again). */
static void op_slab(uint8_t op, uint8_t b)
{
	switch ((op >> 4) & 3) {
	case 0: op_kmalloc(op, b); break;
	case 1: op_cache_alloc(op, b); break;
	case 2: if (nobjs) obj_free(b % nobjs); break;
	default:
		switch ((op >> 6) & 3) {
		case 0: op_cache_create(b); break;
		case 1: op_cache_shrink(op, b); break;
		case 2: op_slab_misuse(b); break;
		default: op_krealloc(b);
		}
	}
}

/* ---- vmalloc: areas the fuzzer holds ------------------------------------------------------ */

#define MAX_VAREAS 8
#define MAX_VPAGES 16

struct varea {
	uint8_t *p;
	size_t size;
	uint8_t tag;
	bool kv; /* from kvmalloc(): freed with kvfree() */
};

#define MAX_COMPACTIONS 4

static struct varea vareas[MAX_VAREAS];
static unsigned int nvareas, ncompactions;

/* Does every byte of a read the pattern? Through vmalloc_to_page() for a vmalloc()'d area. */
static bool varea_intact(const struct varea *a)
{
	for (size_t off = 0; off < a->size; off++) {
		const uint8_t *byte = &a->p[off];

		if (is_vmalloc_addr(a->p) && off % PAGE_SIZE == 0) {
			struct page *page = vmalloc_to_page(byte);

			if (!page || *(const uint8_t *)page_address(page) != (uint8_t)(a->tag ^ off))
				return false;
		}
		if (*byte != (uint8_t)(a->tag ^ off))
			return false;
	}
	return true;
}

static void varea_fill(struct varea *a)
{
	for (size_t off = 0; off < a->size; off++)
		a->p[off] = (uint8_t)(a->tag ^ off);
}

/* vmalloc (bit 4 clear) or kvmalloc (set), zeroed with bit 5; b gives the size. */
static void varea_alloc(uint8_t op, uint8_t b)
{
	bool kv = op & 0x10, zero = op & 0x20;
	size_t size = kv && (b & 1) ? (size_t)b * 24 + 1 : ((size_t)b % MAX_VPAGES + 1) * PAGE_SIZE - b;
	struct varea a = { .size = size, .tag = b, .kv = kv };

	if (nvareas == MAX_VAREAS)
		return;
	if (kv)
		a.p = zero ? kvzalloc(size, __GFP_NOWARN) : kvmalloc(size, __GFP_NOWARN);
	else
		a.p = zero ? vzalloc(size) : vmalloc(size);
	if (!a.p)
		return;
	for (size_t off = 0; zero && off < size; off++)
		check(a.p[off] == 0, "vzalloc/kvzalloc: memory not zeroed", NULL);
	check(!is_vmalloc_addr(a.p) || vmalloc_to_page(a.p + ALIGN_UP(size, PAGE_SIZE)) == NULL,
	      "vmalloc: the guard page after an area is mapped", NULL);
	varea_fill(&a);
	vareas[nvareas++] = a;
}

static void varea_free(unsigned int i)
{
	struct varea *a = &vareas[i];

	check(varea_intact(a), "vmalloc: an area's contents changed", NULL);
	if (a->kv)
		kvfree(a->p);
	else
		vfree(a->p);
	*a = vareas[--nvareas];
}

/* vmap() of the pages of a held block (up to MAX_VPAGES), checked through the mapping, then vunmap(). */
static void varea_vmap(uint8_t b)
{
	struct page *pages[MAX_VPAGES];
	struct held *h = &held[b % nheld];
	unsigned int n = MIN(1u << h->order, (unsigned int)MAX_VPAGES);
	uint8_t *p;

	if (h->kind == HUGE)
		return;
	for (unsigned int i = 0; i < n; i++)
		pages[i] = h->page + i;
	p = vmap(pages, n, VM_MAP);
	if (!p)
		return;
	for (unsigned int i = 0; i < n; i++) {
		check(vmalloc_to_page(p + i * PAGE_SIZE) == pages[i], "vmap: vmalloc_to_page is not the page mapped", NULL);
		p[i * PAGE_SIZE + b] = b;
		check(((uint8_t *)page_address(pages[i]))[b] == b, "vmap: a write did not reach the page", NULL);
	}
	check(vmalloc_to_page(p + n * PAGE_SIZE) == NULL, "vmap: the guard page is mapped", NULL);
	vunmap(p);
}

/* Frees of addresses that are no vmalloc() area's start: refused, nothing changes. */
static void varea_misuse(uint8_t b)
{
	unsigned long pages = vmalloc_nr_pages();
	struct varea *a = nvareas ? &vareas[b % nvareas] : NULL;

	vfree(NULL);
	if (a && is_vmalloc_addr(a->p)) {
		vfree(a->p + 1 + b % a->size);
		vunmap(a->p);
	}
	check(vmalloc_nr_pages() == pages, "vmalloc: a refused free changed the pages held", NULL);
}

/*
 * compact_memory(): every area's contents the same after its pages moved. A run scans the whole
 * memory, and the fuzzer must stay fast: up to 256 MiB free, and MAX_COMPACTIONS runs an input.
 */
static void varea_compact(void)
{
	if (free_at_start > (1UL << 16) || ncompactions == MAX_COMPACTIONS)
		return;
	ncompactions++;
	compact_memory();
	for (unsigned int i = 0; i < nvareas; i++)
		check(varea_intact(&vareas[i]), "compaction changed an area's contents", NULL);
}

/* op bits 4..6: allocate (4 ways), free, vmap, misuse, compact. */
static void op_vmalloc(uint8_t op, uint8_t b)
{
	switch ((op >> 4) & 7) {
	case 0: case 1: case 2: case 3: varea_alloc(op, b); break;
	case 4: if (nvareas) varea_free(b % nvareas); break;
	case 5: if (nheld) varea_vmap(b); break;
	case 6: varea_misuse(b); break;
	default: varea_compact();
	}
}

/* Every object freed (and checked), every cache destroyed, all of it shrunk. */
static void release_slab(void)
{
	while (nobjs)
		obj_free(nobjs - 1);
	while (ncaches)
		kmem_cache_destroy(caches[--ncaches]);
	last_freed_obj = NULL;
	kmem_cache_shrink_all();
	check(nr_slab_pages() == slab_pages_at_start, "slab pages left at the end", NULL);
}

/* Gives everything back: every reference, the reservations, the pool; the pcp lists on again. */
static void release_all(void)
{
	while (nvareas)
		varea_free(nvareas - 1);
	release_slab();
	stash_release();
	while (nheld)
		put_ref(nheld - 1, 0);
	hugetlb_unreserve_pages(reserved);
	reserved = 0;
	hugetlb_set_overcommit(0);
	hugetlb_set_pool_size(0);
	set_pcp_lists(true);
	check(hugetlb_counters(HPAGE_ORDER).total == 0, "hugetlb pool not empty at the end", NULL);
	check_accounting();
}

/* op bits 0..3 pick the operation (see the opcodes below); b is its argument. */
static void run_op(uint8_t op, uint8_t b)
{
	switch (op & 15) {
	case 0: case 1: case 2: case 3: op_alloc(op, b); break;
	case 4: case 5: if (nheld) op_free(op, b); break;
	case 6: if (nheld) op_get(b); break;
	case 7: if (nheld) put_ref(b % nheld, b); break;
	case 8: if (nheld) op_split(b); break;
	case 9: case 10: op_pool(op, b); break;
	case 11: if (op & 0x10) op_shrinker(op, b); else op_pcp(b); break;
	case 12: op_slab(op, b); break;
	case 13: op_vmalloc(op, b); break;
	case 15: if (nheld) op_migrate(op, b); break;
	case 14: if (op & 0x80) op_memory_add(b); else op_misuse(op, b); break;
	default: op_misuse(op, b);
	}
}

static void run_ops(const uint8_t *ops, size_t n)
{
	/*
	 * A trailing odd byte with bit 0 set: slab debugging off for this run (the kmalloc caches
	 * follow: each input boots mm/ afresh, and nothing was kmalloc'd yet), so that the per-CPU
	 * lists run too.
	 */
	slab_set_debug(!(n & 1 && ops[n - 1] & 1));
	nheld = 0;
	last_freed = NULL;
	reserved = 0;
	reserved_found = 0;
	free_at_start = nr_free_pages();
	reports_expected = mm_bad_page_reports;
	slab_reports_expected = mm_slab_reports;
	nobjs = ncaches = nvareas = ncompactions = 0;
	memset(&stash, 0, sizeof(stash)); /* each input boots mm/ afresh: no shrinker is registered */
	last_freed_obj = NULL;
	kmem_cache_shrink_all();
	slab_pages_at_start = nr_slab_pages();
	check(hugetlb_counters(HPAGE_ORDER).total == 0, "hugetlb pool not empty at the start", NULL);
	for (size_t i = 0; i + 1 < n; i += 2) {
		run_op(ops[i], ops[i + 1]);
		check_accounting();
	}
	release_all();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mm_shape before, after;
	size_t used;

	if (size == 0)
		return 0;
	host_console_quiet = true;
	used = (data[0] == '#' || data[0] == 'B' || data[0] == 'e') ? read_text_map(data, size)
								  : read_binary_map(data, size);
	set_page_poisoning(data[0] & 0x80);
	host_mm_max_ram = MAX_RAM;
	host_mm_numa = used && (data[0] == '#' || data[0] == 'B' || data[0] == 'e') ? map_text_numa(&raw_text) : NULL;
	if (!used || host_mm_boot(&raw, true, &map))
		return 0; /* a map refused: no RAM, too much, no room for it or its memmap */
	check(!mm_check_raw_map(&raw), "free frame in a non-usable firmware entry", mm_check_raw_map(&raw));
	check(!mm_check_free_lists(&map), "free lists after boot", mm_check_free_lists(&map));
	check(!mm_check_reserved(), "reserved frames", mm_check_reserved());
	check(!mm_check_memmap_size(), "memmap size", mm_check_memmap_size());
	mm_shape_take(&before);
	run_ops(data + used, size - used);
	mm_shape_take(&after);
	check(mm_shape_equal(&before, &after, NULL, NULL), "shape not restored after freeing everything", NULL);
	check(!mm_check_free_lists(&map), "free lists after the operations", mm_check_free_lists(&map));
	if (fw_map_usable_bytes(&map) <= (64ULL << 20))
		check(!mm_check_exhaustive(&map), "exhaustive check", mm_check_exhaustive(&map));
	return 0;
}
