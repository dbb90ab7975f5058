/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of memory after boot (mm/memory_add.h): a range reserved at boot given back becomes
 * free memory the counters show, once; RAM kept offline at boot, added, is allocatable frame by
 * frame with its contents intact; every bad input is refused with its message and changes nothing.
 * They need what the environment gave mm_init(): a releasable range (the host binary's simulated
 * initrd, the kernel's reserve_mem=) and offline RAM (the host's, the kernel's mem=); without them
 * the cases skip, saying so.
 */
#include "tests/ktest/ktest.h"
#include "lib/printk.h"
#include "lib/string.h"
#include "tests/ktest/text_capture.h"
#include "mm/contig_alloc.h"
#include "mm/memory_add.h"
#include "mm/mm_picture.h"
#include "mm/page_alloc.h"
#include "mm/pageblock.h"
#include "mm/pcp.h"
#include "mm/show_mem.h"

/* At most this much of a releasable range is given back per case, so that several cases can. */
#define GIVE_BACK_BYTES (64UL << 10)

static unsigned long managed_pages(void)
{
	unsigned long n = 0;

	for (int z = 0; z < (int)mm_nr_zone_ids; z++)
		n += mm_zones[z].managed_pages;
	return n;
}

/* Is frame pfn inside a free block of the buddy lists? (Lists drained: none on a CPU's.) */
static bool frame_is_free(unsigned long pfn)
{
	struct zone *zone = &mm_zones[pfn_zone(pfn)];
	unsigned long flags = zone_lock(zone);
	bool free = false;

	for (unsigned int o = 0; o <= MAX_ORDER && !free; o++) {
		unsigned long head = pfn & ~((1UL << o) - 1);

		free = pfn_valid(head) && PageBuddy(pfn_to_page(head)) && pfn_to_page(head)->private >= o;
	}
	zone_unlock(zone, flags);
	return free;
}

/* The first GIVE_BACK_BYTES (or less) of a releasable range still reserved, in *start, *end. */
static bool find_reserved(phys_addr_t *start, phys_addr_t *end)
{
	phys_addr_t base, limit;

	for (unsigned int i = 0; mm_releasable_range(i, &base, &limit); i++) {
		base = ALIGN_UP(base, PAGE_SIZE);
		limit = ALIGN_DOWN(limit, PAGE_SIZE);
		for (; base < limit; base += PAGE_SIZE)
			if (PageReserved(pfn_to_page(PFN_DOWN(base))))
				break;
		if (base < limit) {
			*start = base;
			*end = MIN(limit, base + GIVE_BACK_BYTES);
			for (phys_addr_t a = base; a < *end; a += PAGE_SIZE)
				if (!PageReserved(pfn_to_page(PFN_DOWN(a))))
					*end = a;
			return true;
		}
	}
	return false;
}

/* Offline RAM not added yet, 2 MiB aligned, up to max bytes, in *start, *end. */
static bool find_offline(phys_addr_t max, phys_addr_t *start, phys_addr_t *end)
{
	const phys_addr_t align = PAGE_SIZE << PAGEBLOCK_ORDER;
	phys_addr_t base, limit;

	for (unsigned int i = 0; mm_offline_ram(i, &base, &limit); i++) {
		base = ALIGN_UP(base, align);
		limit = ALIGN_DOWN(limit, align);
		while (base < limit && pfn_valid(PFN_DOWN(base)))
			base += align;
		if (base < limit && pfn_zone(PFN_DOWN(base)) == pfn_zone(PFN_DOWN(base + align) - 1)) {
			*start = base;
			*end = base + align;
			while (*end < limit && *end - base < max && !pfn_valid(PFN_DOWN(*end)) &&
			       pfn_zone(PFN_DOWN(*end)) == pfn_zone(PFN_DOWN(base)))
				*end += align;
			return true;
		}
	}
	return false;
}

static void a_reserved_range_given_back_is_free_memory(struct ktest *t)
{
	phys_addr_t start, end;
	unsigned long managed, n;
	struct meminfo before, after;

	if (!find_reserved(&start, &end)) {
		ktest_skip(t, "no releasable range left (boot the kernel with reserve_mem=)");
		return;
	}
	drain_pcp_lists();
	managed = managed_pages();
	before = meminfo_get();
	n = mm_free_reserved_range(start, end, "test range");
	KT_ASSERT(t, n == PFN_DOWN(end - start), "%lu frames given back of [%#llx, %#llx)", n,
		  (unsigned long long)start, (unsigned long long)end);
	after = meminfo_get();
	KT_EXPECT_EQ(t, managed_pages(), managed + n);
	KT_EXPECT_EQ(t, after.total, before.total + n);
	KT_EXPECT(t, after.free >= before.free + n, "MemFree %lu, then %lu; %lu frames given back", before.free,
		  after.free, n);
	for (unsigned long pfn = PFN_DOWN(start); pfn < PFN_DOWN(end); pfn++)
		if (!KT_EXPECT(t, !PageReserved(pfn_to_page(pfn)) && frame_is_free(pfn), "frame %#lx not free", pfn))
			break;
}

/* Frees what alloc_pages() handed out, a list linked through the pages themselves. */
static void free_chain(void *head)
{
	while (head) {
		void *next = *(void **)head;

		__free_pages(virt_to_page(head), 0);
		head = next;
	}
}

/* A given-back range is handed out: allocating until a frame of it comes, it does. */
static void a_given_back_frame_is_allocated(struct ktest *t)
{
	phys_addr_t start, end;
	void *chain = NULL;
	bool got = false;
	enum zone_type zone;
	gfp_t gfp;

	if (!find_reserved(&start, &end)) {
		ktest_skip(t, "no releasable range left (boot the kernel with reserve_mem=)");
		return;
	}
	KT_ASSERT(t, mm_free_reserved_range(start, end, "test range") == PFN_DOWN(end - start), "refused");
	zone = pfn_zone(PFN_DOWN(start));
	gfp = GFP_HIGHUSER_MOVABLE | __GFP_HIGH | __GFP_NOWARN | __GFP_NORECLAIM |
	      (zone == ZONE_DMA ? __GFP_DMA : zone == ZONE_DMA32 ? __GFP_DMA32 : 0);
	/*
	 * Movable allocations (which claim no pageblock for another type), down to the last free
	 * page of the zone if need be, until one of the range comes.
	 */
	for (unsigned long i = 0; i < mm_zones[zone].managed_pages && !got; i++) {
		struct page *page = alloc_pages(gfp, 0);

		if (!page)
			break;
		got = page_to_pfn(page) >= PFN_DOWN(start) && page_to_pfn(page) < PFN_DOWN(end);
		memset(page_address(page), 0x5a, PAGE_SIZE);
		*(void **)page_address(page) = chain;
		chain = page_address(page);
	}
	free_chain(chain);
	KT_EXPECT(t, got, "no frame of [%#llx, %#llx) was handed out", (unsigned long long)start,
		  (unsigned long long)end);
}

/* Runs call, capturing what it prints; true if that holds want. */
#define PRINTS(want, call)                                   \
	({                                                   \
		capture_console_start();                     \
		call;                                        \
		capture_console_stop();                      \
		strstr(captured.text, want) != NULL;         \
	})

static void giving_back_refuses_bad_ranges(struct ktest *t)
{
	unsigned long managed = managed_pages();
	struct page *page = alloc_pages(GFP_KERNEL, 0);
	phys_addr_t frame, chunk_map = (uintptr_t)mm_memmap_chunk_map - mm_direct_map_offset;
	unsigned long n = 1;

	KT_ASSERT(t, page, "no page");
	frame = PFN_PHYS(page_to_pfn(page));
	KT_EXPECT(t, PRINTS("not a page-aligned", n = mm_free_reserved_range(frame + 8, frame + PAGE_SIZE, "x")) && !n, "%s", captured.text);
	KT_EXPECT(t, PRINTS("not a page-aligned", n = mm_free_reserved_range(frame, frame, "x")) && !n, "%s", captured.text);
	KT_EXPECT(t, PRINTS("managed already", n = mm_free_reserved_range(frame, frame + PAGE_SIZE, "x")) && !n,
		  "%s", captured.text);
	KT_EXPECT(t, PRINTS("reserved for memmap", n = mm_free_reserved_range(chunk_map, chunk_map + PAGE_SIZE, "x")) && !n,
		  "%s", captured.text);
	KT_EXPECT(t, PRINTS("beyond the memmap", n = mm_free_reserved_range(PFN_PHYS(mm_hotplug_end_pfn()),
		  PFN_PHYS(mm_hotplug_end_pfn()) + PAGE_SIZE, "x")) && !n, "%s", captured.text);
	KT_EXPECT_EQ(t, managed_pages(), managed);
	__free_pages(page, 0);
}

static void giving_back_twice_is_refused(struct ktest *t)
{
	phys_addr_t start, end;
	unsigned long n = 1, managed;

	if (!find_reserved(&start, &end)) {
		ktest_skip(t, "no releasable range left (boot the kernel with reserve_mem=)");
		return;
	}
	if (end - start < 2 * PAGE_SIZE) {
		ktest_skip(t, "the releasable range left is a single page");
		return;
	}
	/* Two frames become one free block: the second is inside it, no block's first page. */
	end = start + 2 * PAGE_SIZE;
	KT_ASSERT(t, mm_free_reserved_range(start, end, "test range") == 2, "refused");
	managed = managed_pages();
	KT_EXPECT(t, PRINTS("managed already", n = mm_free_reserved_range(start, end, "test range")) && !n,
		  "n %lu: %s", n, captured.text);
	KT_EXPECT(t, PRINTS("managed already", n = mm_free_reserved_range(start + PAGE_SIZE, end, "test range")) && !n,
		  "n %lu: %s", n, captured.text);
	KT_EXPECT_EQ(t, managed_pages(), managed);
}

/* Writes a pattern naming each frame into [pfn, end); checks it back. */
static void fill(unsigned long pfn, unsigned long end)
{
	for (; pfn < end; pfn++)
		for (unsigned long *w = page_address(pfn_to_page(pfn)), i = 0; i < PAGE_SIZE / sizeof(long); i++)
			w[i] = pfn * 0x9e3779b97f4a7c15UL + i;
}

static unsigned long first_wrong(unsigned long pfn, unsigned long end)
{
	for (; pfn < end; pfn++)
		for (unsigned long *w = page_address(pfn_to_page(pfn)), i = 0; i < PAGE_SIZE / sizeof(long); i++)
			if (w[i] != pfn * 0x9e3779b97f4a7c15UL + i)
				return pfn;
	return end;
}

static void added_ram_is_allocatable_frame_by_frame(struct ktest *t)
{
	static char line[200];
	phys_addr_t start, end;
	unsigned long pfn, last, managed, present, span;
	struct zone *zone;
	struct meminfo before, after;
	int err;

	if (!find_offline(8UL << 20, &start, &end)) {
		ktest_skip(t, "no offline RAM left (boot the kernel with mem=)");
		return;
	}
	pfn = PFN_DOWN(start);
	last = PFN_DOWN(end);
	zone = &mm_zones[pfn_zone(pfn)];
	managed = zone->managed_pages;
	present = zone->present_pages;
	span = zone->end_pfn - zone->start_pfn;
	drain_pcp_lists();
	before = meminfo_get();
	err = mm_add_memory(start, end - start);
	KT_ASSERT(t, err == 0, "mm_add_memory([%#llx, %#llx)) = %d", (unsigned long long)start,
		  (unsigned long long)end, err);
	after = meminfo_get();
	KT_EXPECT_EQ(t, zone->managed_pages, managed + (last - pfn));
	KT_EXPECT_EQ(t, zone->present_pages, present + (last - pfn));
	KT_EXPECT(t, zone->end_pfn - zone->start_pfn >= span && zone->end_pfn >= last && zone->start_pfn <= pfn,
		  "zone %s spans [%#lx, %#lx)", zone->name, zone->start_pfn, zone->end_pfn);
	KT_EXPECT(t, mm_max_pfn >= last, "max_pfn %#lx, added up to %#lx", mm_max_pfn, last);
	KT_EXPECT_EQ(t, after.total, before.total + (last - pfn));
	KT_EXPECT(t, zone_picture_line(zone, line, sizeof(line)) > 0 && !strstr(line, "empty"), "%s", line);
	/* Every frame, taken a pageblock at a time, holds what was written into it. */
	for (unsigned long p = pfn; p < last; p += PAGEBLOCK_NR_PAGES) {
		err = alloc_contig_range(p, p + PAGEBLOCK_NR_PAGES, 0);
		KT_ASSERT(t, err == 0, "alloc_contig_range(%#lx) = %d", p, err);
		fill(p, p + PAGEBLOCK_NR_PAGES);
	}
	KT_EXPECT_EQ(t, first_wrong(pfn, last), last);
	for (unsigned long p = pfn; p < last; p += PAGEBLOCK_NR_PAGES)
		free_contig_range(p, PAGEBLOCK_NR_PAGES);
	drain_pcp_lists();
	for (unsigned long p = pfn; p < last; p += PAGEBLOCK_NR_PAGES)
		KT_EXPECT(t, frame_is_free(p), "frame %#lx not free after the range went back", p);
}

static void adding_refuses_bad_ranges(struct ktest *t)
{
	const phys_addr_t chunk = MM_ADD_MEMORY_ALIGN;
	phys_addr_t ram = PFN_PHYS(ALIGN_UP(mm_zones[mm_top_zone].start_pfn, MEMMAP_CHUNK_PAGES));
	phys_addr_t limit = PFN_PHYS(mm_hotplug_end_pfn()), start, end;
	unsigned long managed = managed_pages(), mp = mm_max_pfn;
	int err = 0;

	KT_EXPECT(t, PRINTS("its size is 0", err = mm_add_memory(limit, 0)) && err == -EINVAL, "%d %s", err, captured.text);
	KT_EXPECT(t, PRINTS("not multiples of a memmap chunk", err = mm_add_memory(limit + PAGE_SIZE, chunk)) && err == -EINVAL, "%d %s", err, captured.text);
	KT_EXPECT(t, PRINTS("not multiples of a memmap chunk", err = mm_add_memory(limit, chunk + PAGE_SIZE)) && err == -EINVAL, "%d %s", err, captured.text);
	KT_EXPECT(t, PRINTS("wraps around", err = mm_add_memory(-chunk, 2 * chunk)) && err == -EINVAL, "%d %s", err, captured.text);
	KT_EXPECT(t, PRINTS("beyond", err = mm_add_memory(limit, chunk)) && err == -ERANGE, "%d %s", err, captured.text);
	KT_EXPECT(t, PRINTS("have struct pages already", err = mm_add_memory(ram, chunk)) && err == -EINVAL,
		  "%d %s", err, captured.text);
	if (find_offline(~0UL, &start, &end) && start > ram) /* RAM in use and offline RAM together */
		KT_EXPECT(t, PRINTS("have struct pages already", err = mm_add_memory(ram, start + chunk - ram)) &&
			  err == -EINVAL, "%d %s", err, captured.text);
	KT_EXPECT_EQ(t, managed_pages(), managed);
	KT_EXPECT_EQ(t, mm_max_pfn, mp);
}

static void adding_the_same_range_twice_is_refused(struct ktest *t)
{
	phys_addr_t start, end;
	unsigned long managed;
	int err = 0;

	if (!find_offline(PAGE_SIZE << PAGEBLOCK_ORDER, &start, &end)) {
		ktest_skip(t, "no offline RAM left (boot the kernel with mem=)");
		return;
	}
	KT_ASSERT(t, (err = mm_add_memory(start, end - start)) == 0, "first add: %d", err);
	managed = managed_pages();
	KT_EXPECT(t, PRINTS("have struct pages already", err = mm_add_memory(start, end - start)) && err == -EINVAL,
		  "%d %s", err, captured.text);
	KT_EXPECT_EQ(t, managed_pages(), managed);
}

KTEST_SUITE(memory_add,
	    KTEST_CASE(giving_back_refuses_bad_ranges),
	    KTEST_CASE(a_reserved_range_given_back_is_free_memory),
	    KTEST_CASE(a_given_back_frame_is_allocated),
	    KTEST_CASE(giving_back_twice_is_refused),
	    KTEST_CASE(adding_refuses_bad_ranges),
	    KTEST_CASE(added_ram_is_allocatable_frame_by_frame),
	    KTEST_CASE(adding_the_same_range_twice_is_refused));
