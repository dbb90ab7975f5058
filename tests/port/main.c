/* SPDX-License-Identifier: MIT */
/*
 * The port test: mm/ set up and used exactly as mm/README.md tells a kernel lifting it to, over
 * the environment of env.c. A firmware map of its own (64 MiB with holes), mm_init(), the 2 MiB
 * hugetlb pool, allocations at several orders, a compound page held by a tail; then every count
 * must be back where it started. Prints each check and "N passed, N failed".
 */
#include <stdio.h>
#include <string.h>

#include "mm/bad_page.h"
#include "mm/compound.h"
#include "mm/fw_map.h"
#include "mm/hugetlb.h"
#include "mm/init.h"
#include "mm/page_alloc.h"
#include "mm/poison.h"
#include "env.h"

#define MiB (1ULL << 20)
#define RAM_END (64 * MiB)
#define HOLE_BASE (32 * MiB) /* a reserved hole in the middle of RAM */
#define HOLE_SIZE (1 * MiB)
#define KERNEL_BASE (1 * MiB) /* where this pretend kernel's image lies: reserved */
#define KERNEL_SIZE (2 * MiB)

static unsigned int passed, failed;

static void check(bool ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAILED", what);
	if (ok)
		passed++;
	else
		failed++;
}

/* The firmware's map, as the environment translates it to enum fw_type: out of order on purpose. */
static const struct fw_map_entry firmware[] = {
	{ HOLE_BASE + HOLE_SIZE, RAM_END - HOLE_BASE - HOLE_SIZE, FW_USABLE },
	{ 0, 0x9fc00, FW_USABLE },
	{ 0x9fc00, 0x60400, FW_RESERVED },
	{ MiB, HOLE_BASE - MiB, FW_USABLE },
	{ HOLE_BASE, HOLE_SIZE, FW_ACPI },
	{ 0xfffc0000, 0x40000, FW_RESERVED },
};

/* The map's storage, sized before it is filled, 8-byte aligned. */
static uint64_t map_storage[FW_MAP_STORAGE_BYTES(ARRAY_SIZE(firmware)) / sizeof(uint64_t)];
static struct fw_map map;

static int setup(void)
{
	static const struct mm_reservation reserve[] = {
		{ 0, MiB, "first 1 MiB" },
		{ KERNEL_BASE, KERNEL_SIZE, "kernel image" },
	};
	struct mm_init_params params = {
		.map = &map, .reserve = reserve, .nreserve = ARRAY_SIZE(reserve),
		.zone_dma_end = 16 * MiB, .zone_dma32_end = 4096 * MiB,
	};

	if (fw_map_init(&map, map_storage, sizeof(map_storage)))
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(firmware); i++)
		if (fw_map_add_range(&map, firmware[i].base, firmware[i].size, firmware[i].type))
			return -1;
	hugetlb_request(HPAGE_ORDER, 2);
	return mm_init(&params);
}

/* alloc_pages() and __free_pages() at one order: an aligned block, writable, counted. */
static void alloc_and_free(unsigned int order)
{
	unsigned long before = nr_free_pages();
	struct page *p = alloc_pages(GFP_KERNEL, order);
	char what[96];

	snprintf(what, sizeof(what), "order %u: allocated, aligned, %lu fewer free pages", order, 1UL << order);
	check(p && page_to_pfn(p) % (1UL << order) == 0 && nr_free_pages() == before - (1UL << order), what);
	if (!p)
		return;
	memset(page_address(p), 0x5a, PAGE_SIZE << order);
	__free_pages(p, order);
	snprintf(what, sizeof(what), "order %u: freed, free pages back to %lu", order, before);
	check(nr_free_pages() == before, what);
}

/* A compound page held through a tail: the last put_page() frees the whole unit. */
static void compound_by_tail(void)
{
	unsigned long before = nr_free_pages();
	struct page *head = alloc_pages(GFP_KERNEL | __GFP_COMP, 3);

	check(head && PageHead(head) && PageTail(head + 5) && compound_order(head) == 3 &&
	      compound_head(head + 5) == head, "compound order 3: head, tails and order marked");
	if (!head)
		return;
	get_page(head + 5);
	check(page_count(head) == 2, "get_page() on a tail counts on the head (2)");
	put_page(head + 5);
	check(page_count(head) == 1 && nr_free_pages() == before - 8, "put_page() on the tail: 1 left, not freed");
	put_page(head);
	check(nr_free_pages() == before, "last put_page() frees all 8 pages");
}

/* The 2 MiB pool that hugetlb_request() asked for: a page out and back through put_page(). */
static void huge_page(void)
{
	struct page *p = alloc_huge_page();

	check(p && hugetlb_counters(HPAGE_ORDER).free == 1, "hugetlb: a 2 MiB page out of a pool of 2");
	if (p)
		put_page(p + 100);
	check(hugetlb_counters(HPAGE_ORDER).free == 2 && !hugetlb_check(), "hugetlb: put_page() on a tail returns it");
}

/* Is every frame of [base, base + size) without a struct page (a hole) or reserved? */
static bool never_free(phys_addr_t base, phys_addr_t size)
{
	for (unsigned long pfn = PFN_DOWN(base); pfn < PFN_UP(base + size); pfn++)
		if (pfn_valid(pfn) && !PageReserved(pfn_to_page(pfn)))
			return false;
	return true;
}

int main(void)
{
	/* The memmap's region: 32 bytes per frame up to the highest usable one, whole chunks. */
	size_t memmap_region = ALIGN_UP(PFN_DOWN(RAM_END), MEMMAP_CHUNK_PAGES) * sizeof(struct page);

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (env_init(RAM_END, memmap_region)) {
		perror("env_init");
		return 1;
	}
	check(setup() == 0, "mm_init() on a 6-entry firmware map");
	check(env_map_stats.calls && !env_map_stats.bad && env_map_stats.largest <= 2 * MiB &&
	      env_map_stats.bytes <= memmap_region, "memmap mapped inside its region, pieces of at most 2 MiB");
	check(never_free(HOLE_BASE, HOLE_SIZE) && never_free(KERNEL_BASE, KERNEL_SIZE) && never_free(0, MiB),
	      "the firmware's hole and the reserved ranges hold no free page");
	check(hugetlb_init() == 0 && hugetlb_counters(HPAGE_ORDER).total == 2, "hugetlb_init(): 2 huge pages");

	unsigned long start = nr_free_pages();
	static const unsigned int orders[] = { 0, 1, 3, 10 };

	for (size_t i = 0; i < ARRAY_SIZE(orders); i++)
		alloc_and_free(orders[i]);
	compound_by_tail();
	huge_page();
	check(nr_free_pages() == start, "free pages back to where they started");
	check(bad_page_reports == 0 && poison_errors == 0, "no bad_page() reports, no poison errors");
	check(mm_debug_poison, "MM_DEBUG=1 build: page poisoning on by default");
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
