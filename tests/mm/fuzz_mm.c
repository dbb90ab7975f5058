/*
 * libFuzzer target for mm/: an arbitrary memory map goes through the whole boot path, then an
 * arbitrary sequence of allocations, frees and misuses runs against it; afterwards every free
 * list must be consistent with the map, and freeing everything must restore the first shape.
 * Any broken check aborts (a crash for libFuzzer); sanitizers catch the rest.
 *
 * Input: either a text map (tests/mm/map_text.h; the fixture maps are the seeds), or binary entries;
 * after a NUL byte (text) or the entries (binary), one byte per operation.
 *   binary: byte 0: number of entries (low 5 bits), poisoning on (bit 7)
 *           each entry: kind (1 byte), base (8 bytes), size (4 bytes), scale (1 byte)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/mm/map_text.h"
#include "tests/mm/host_mm.h"
#include "tests/mm/mm_check.h"

#define MAX_RAM (1ULL << 30) /* larger maps cost memmap memory and time; the replay covers them */
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

static uint64_t get_le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Binary entries: returns the bytes used. */
static size_t read_binary_map(const uint8_t *data, size_t size)
{
	unsigned int n = data[0] & 31;
	size_t used = 1;

	host_fw_map_init(&map, 32);
	for (unsigned int i = 0; i < n && used + ENTRY_BYTES <= size; i++, used += ENTRY_BYTES) {
		const uint8_t *e = data + used;
		unsigned int kind = e[0], scale = e[13];
		uint64_t base = get_le(e + 1, 8) >> (scale & 63), len = get_le(e + 9, 4) << (scale >> 6 << 3);

		if (kind & 0x80)
			fw_map_add_efi(&map, kind & 15, (uint64_t)(kind & 0x40) << 57, base, len >> PAGE_SHIFT);
		else
			fw_map_add_e820(&map, base, len, kind & 7);
	}
	return used;
}

/* Text map up to the first NUL: returns the bytes used, or 0 if it is not a map. */
static size_t read_text_map(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t len = nul ? (size_t)(nul - data) : size;

	struct map_text mt = { 0 };
	struct boot_memmap raw;
	struct fw_map_entry e;
	bool ok = map_text_parse(&mt, (const char *)data, len) >= 0 && map_text_raw(&mt, &raw) &&
		  raw.count <= 512;

	host_fw_map_init(&map, ok ? raw.count : 1);
	for (uint32_t i = 0; ok && i < raw.count; i++) {
		boot_memmap_entry(&raw, i, &e);
		fw_map_add_range(&map, e.base, e.size, e.type);
	}
	map_text_free(&mt);
	return !ok ? 0 : nul ? len + 1 : len;
}

struct held {
	struct page *page;
	unsigned int order;
};

static struct held held[MAX_HELD];
static unsigned int nheld;

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

static void op_alloc(uint8_t b)
{
	static const gfp_t gfps[] = { GFP_KERNEL, __GFP_DMA32, __GFP_DMA, GFP_KERNEL | __GFP_COMP };
	unsigned int order = (b >> 2) % (MAX_ORDER + 2); /* MAX_ORDER + 1 must be refused */
	struct page *page = alloc_pages(gfps[b & 3] | __GFP_NOWARN, order);

	check(!page || order <= MAX_ORDER, "alloc_pages above MAX_ORDER succeeded", NULL);
	if (page && nheld < MAX_HELD)
		held[nheld++] = (struct held){ page, order };
	else if (page)
		__free_pages(page, order);
}

static void op_free(uint8_t b, struct page **last_freed)
{
	unsigned int i = b % nheld;

	*last_freed = held[i].page;
	if (held[i].order && PageHead(held[i].page))
		put_page(held[i].page);
	else
		__free_pages(held[i].page, held[i].order);
	held[i] = held[--nheld];
}

/* A misuse that must be reported and change nothing. */
static void op_misuse(uint8_t b, struct page *last_freed)
{
	unsigned long reports = bad_page_reports, free0 = nr_free_pages();
	struct page *target = nheld ? held[b % nheld].page : NULL;

	if ((b & 3) == 0 && last_freed && !is_held(page_to_pfn(last_freed)))
		__free_pages(last_freed, 0); /* double free */
	else if ((b & 3) == 1 && target && held[b % nheld].order < MAX_ORDER)
		__free_pages(target, held[b % nheld].order + 1); /* wrong order */
	else if ((b & 3) == 2 && target && held[b % nheld].order)
		__free_pages(target + 1, 0); /* tail or inner page */
	else
		return;
	check(bad_page_reports == reports + 1, "misuse not reported exactly once", NULL);
	check(nr_free_pages() == free0, "misuse changed the free count", NULL);
}

static void run_ops(const uint8_t *ops, size_t n)
{
	struct page *last_freed = NULL;

	nheld = 0;
	for (size_t i = 0; i + 1 < n; i += 2) {
		switch (ops[i] & 3) {
		case 0: case 1:
			op_alloc(ops[i + 1]);
			break;
		case 2:
			if (nheld)
				op_free(ops[i + 1], &last_freed);
			break;
		default:
			op_misuse(ops[i + 1], last_freed);
		}
	}
	while (nheld)
		op_free(0, &last_freed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buddy_shape before, after;
	size_t used;

	if (size == 0)
		return 0;
	host_console_quiet = true;
	used = (data[0] == '#' || data[0] == 'B' || data[0] == 'e') ? read_text_map(data, size)
								  : read_binary_map(data, size);
	mm_debug_poison = data[0] & 0x80;
	fw_map_sanitize(&map);
	if (!used || fw_map_usable_bytes(&map) > MAX_RAM || host_mm_init(&map, true))
		return 0; /* a map with no RAM, too much, or not enough for the memmap */
	check(!mm_check_free_lists(&map), "free lists after boot", mm_check_free_lists(&map));
	check(!mm_check_reserved(), "reserved frames", mm_check_reserved());
	check(!mm_check_memmap_size(), "memmap size", mm_check_memmap_size());
	buddy_shape_take(&before);
	run_ops(data + used, size - used);
	buddy_shape_take(&after);
	check(buddy_shape_equal(&before, &after), "shape not restored after freeing everything", NULL);
	check(!mm_check_free_lists(&map), "free lists after the operations", mm_check_free_lists(&map));
	if (fw_map_usable_bytes(&map) <= (64ULL << 20))
		check(!mm_check_exhaustive(&map), "exhaustive check", mm_check_exhaustive(&map));
	return 0;
}
