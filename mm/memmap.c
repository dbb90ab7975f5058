/* SPDX-License-Identifier: MIT */
/*
 * Building the memmap: backing for the chunks of the struct page array that describe RAM,
 * mapped through arch_map_memmap() (or an array the caller backed itself), every struct page
 * initialized as reserved in its zone.
 */
#include "mm/memmap.h"

#include "mm/arch.h"
#include "mm/memblock.h"
#include "mm/node.h"
#include "mm/zone.h"

#define PIECE_CHUNKS 512UL /* 512 chunks of memmap = 2 MiB, mapped as one large page */

unsigned long mm_max_pfn;
unsigned long mm_memmap_bytes;
unsigned long mm_memmap_end_pfn;
uint8_t *mm_memmap_chunk_map;
unsigned long mm_memmap_limit_pfn;
unsigned long mm_memmap_node_bytes[MAX_NUMNODES];
unsigned long mm_memmap_off_node_bytes;
static bool memmap_prebacked; /* the caller backed the whole array (mm_init_params.memmap) */
static size_t memmap_prebacked_bytes;

extern inline struct page *pfn_to_page(unsigned long pfn);
extern inline unsigned long page_to_pfn(const struct page *page);
extern inline void *page_address(const struct page *page);
extern inline struct page *virt_to_page(const void *addr);

/* Initializes the struct pages of [pfn, end), all in one zone (its index), as reserved frames. */
static void init_pages(unsigned long pfn, unsigned long end, unsigned int zone)
{
	const uint32_t flags = (1u << PG_reserved) | (uint32_t)zone << ZONES_SHIFT;

	for (struct page *p = pfn_to_page(pfn), *last = pfn_to_page(end); p < last; p++)
		*p = (struct page){ .flags = flags };
}

/* Initializes the struct pages of [pfn, end), splitting the range where the zone changes. */
static void init_range(unsigned long pfn, unsigned long end)
{
	while (pfn < end) {
		unsigned long stop = MIN(end, pfn_zone_end(pfn));

		init_pages(pfn, stop, pfn_zone(pfn));
		pfn = stop;
	}
}

static void mark_chunks(unsigned long c, unsigned long end)
{
	for (; c < end; c++)
		mm_memmap_chunk_map[c] = 1;
}

/*
 * Memory for the struct pages of frames of node nid: in the node's own ranges (so that a node's
 * CPUs read their struct pages from near memory), or 0.
 */
static phys_addr_t alloc_in_node(unsigned int nid, size_t bytes, phys_addr_t align)
{
	unsigned int nr;
	const struct mm_node_range *r = mm_node_ranges(&nr);
	phys_addr_t phys = 0;

	for (unsigned int i = nr; i-- > 0 && !phys;)
		if (r[i].nid == nid)
			phys = memblock_alloc_within(bytes, align, r[i].start, r[i].end, "memmap");
	return phys;
}

/*
 * Memory for bytes of struct pages of frames of node nid, aligned to the size when it is a whole
 * 2 MiB piece (one large page); with more than one node, in nid's memory when it has any left
 * (else anywhere, reported).
 */
static phys_addr_t alloc_piece(unsigned int nid, size_t bytes, bool whole)
{
	phys_addr_t phys = 0;

	if (mm_nr_node_ids > 1) {
		if (whole)
			phys = alloc_in_node(nid, bytes, bytes);
		if (!phys)
			phys = alloc_in_node(nid, bytes, PAGE_SIZE);
		mm_memmap_node_bytes[nid] += phys ? bytes : 0;
		if (phys)
			return phys;
		mm_memmap_off_node_bytes += bytes;
		printk("memmap: node %u has no free memory for %zu bytes of its struct pages: placed in another node\n",
		       nid, bytes);
	}
	if (whole)
		phys = memblock_alloc_named(bytes, bytes, UINT64_MAX, "memmap");
	return phys ? phys : memblock_alloc_named(bytes, PAGE_SIZE, UINT64_MAX, "memmap");
}

/* Allocates backing for chunks [c, c + n) (all of one node) and maps it at their place in the memmap. */
static int map_piece(unsigned long c, unsigned long n)
{
	size_t bytes = n * PAGE_SIZE;
	uintptr_t virt = mm_vmemmap_base + c * PAGE_SIZE;
	phys_addr_t phys = alloc_piece(pfn_to_nid(c << MEMMAP_CHUNK_SHIFT), bytes, n == PIECE_CHUNKS);

	if (!phys) {
		printk("memmap: out of memory for %zu bytes of struct pages (frames %#lx-%#lx)\n", bytes,
		       c << MEMMAP_CHUNK_SHIFT, ((c + n) << MEMMAP_CHUNK_SHIFT) - 1);
		return -ENOMEM;
	}
	if (arch_map_memmap(virt, phys, bytes)) {
		printk("memmap: cannot map %zu bytes of struct pages at %#lx\n", bytes, (unsigned long)virt);
		return -ENOMEM;
	}
	return 0;
}

/*
 * Backs (unless the caller's array is) and maps chunks [c, c + n) (n <= PIECE_CHUNKS, not crossing
 * a 2 MiB piece), and marks them backed; init_part() initializes their struct pages.
 */
static int back_piece(unsigned long c, unsigned long n)
{
	int err = memmap_prebacked ? 0 : map_piece(c, n);

	if (err)
		return err;
	mm_memmap_bytes += n * PAGE_SIZE;
	mark_chunks(c, c + n);
	return 0;
}

static bool chunk_backed(unsigned long c)
{
	return mm_memmap_chunk_map[c];
}

/*
 * Initializes the struct pages of the backed chunks in part's share of the memmap: the chunks
 * [nchunks * part / parts, nchunks * (part + 1) / parts). The parts touch disjoint struct pages
 * and read only what memmap_init() set before them (the chunk map, the zones' spans), so
 * different CPUs may run them at once; together they write exactly what one CPU running them
 * in turn writes.
 */
static void init_part(unsigned int part, unsigned int parts)
{
	unsigned long nchunks = mm_memmap_end_pfn >> MEMMAP_CHUNK_SHIFT;
	unsigned long c = nchunks * part / parts, end = nchunks * (part + 1) / parts;

	while (c < end) {
		unsigned long run = c;

		while (run < end && chunk_backed(run))
			run++;
		init_range(c << MEMMAP_CHUNK_SHIFT, run << MEMMAP_CHUNK_SHIFT);
		c = run + 1;
	}
}

/*
 * The chunks from chunk c on whose frames start in c's node: up to the chunk where the next node
 * range starts (a chunk across a node boundary goes with the node of its first frame).
 */
static unsigned long chunks_in_node(unsigned long c)
{
	unsigned long end = pfn_node_end(c << MEMMAP_CHUNK_SHIFT);

	return end == ~0UL ? ~0UL : MAX(1UL, (end >> MEMMAP_CHUNK_SHIFT) - c);
}

/* Backs chunks [c, end) in pieces that never cross a 2 MiB boundary of the memmap, nor a node's start. */
static int back_chunks(unsigned long c, unsigned long end)
{
	while (c < end) {
		unsigned long n = MIN(MIN(end - c, PIECE_CHUNKS - c % PIECE_CHUNKS), chunks_in_node(c));
		int err = back_piece(c, n);

		if (err)
			return err;
		c += n;
	}
	return 0;
}

/* Allocates and clears the map of backed chunks, a byte for every chunk below mm_memmap_limit_pfn. */
static int alloc_chunk_map(void)
{
	unsigned long nchunks = mm_memmap_limit_pfn >> MEMMAP_CHUNK_SHIFT;
	size_t bytes = ALIGN_UP(nchunks, PAGE_SIZE);
	phys_addr_t phys = memblock_alloc_named(bytes, PAGE_SIZE, UINT64_MAX, "memmap");

	if (!phys) {
		printk("memmap: out of memory for the %zu-byte map of backed chunks\n", bytes);
		return -ENOMEM;
	}
	mm_memmap_chunk_map = phys_to_virt(phys);
	memset(mm_memmap_chunk_map, 0, bytes);
	return 0;
}

/* Is the caller's pre-backed array (if any) large enough for frames [0, mm_memmap_end_pfn)? */
static int check_prebacked(size_t prebacked_bytes)
{
	size_t needed = mm_memmap_end_pfn * sizeof(struct page);

	memmap_prebacked = prebacked_bytes != 0;
	memmap_prebacked_bytes = prebacked_bytes;
	if (!memmap_prebacked || prebacked_bytes >= needed)
		return 0;
	printk("memmap: the memmap array given to mm_init() has %zu bytes; this map needs %zu "
	       "(MEMMAP_BYTES(%#llx))\n", prebacked_bytes, needed, (unsigned long long)PFN_PHYS(mm_max_pfn));
	return -EINVAL;
}

int memmap_init(size_t prebacked_bytes, unsigned long limit_pfn, mm_run_parallel_fn *run_parallel)
{
	const struct memblock_type *mem = &mm_memblock.memory;
	unsigned long start = 0, done = 0; /* chunks [start, done) are still to be backed */
	int err;

	mm_memmap_bytes = 0;
	mm_memmap_off_node_bytes = 0;
	memset(mm_memmap_node_bytes, 0, sizeof(mm_memmap_node_bytes));
	mm_max_pfn = mem->cnt ? PFN_DOWN(mem->regions[mem->cnt - 1].base + mem->regions[mem->cnt - 1].size) : 0;
	mm_memmap_end_pfn = ALIGN_UP(mm_max_pfn, MEMMAP_CHUNK_PAGES);
	mm_memmap_limit_pfn = MAX(mm_memmap_end_pfn, ALIGN_DOWN(limit_pfn, MEMMAP_CHUNK_PAGES));
	err = check_prebacked(prebacked_bytes);
	if (!err)
		err = alloc_chunk_map();
	/* Neighbouring ranges often share chunks: back each run of touching chunks at once. */
	for (unsigned int i = 0; i < mem->cnt && !err; i++) {
		const struct memblock_region *r = &mem->regions[i];
		unsigned long c = PFN_DOWN(r->base) >> MEMMAP_CHUNK_SHIFT;
		unsigned long end = (PFN_UP(r->base + r->size) + MEMMAP_CHUNK_PAGES - 1) >> MEMMAP_CHUNK_SHIFT;

		if (c > done) {
			err = back_chunks(start, done);
			start = c;
		}
		done = MAX(done, end);
	}
	if (!err)
		err = back_chunks(start, done);
	if (err)
		return err;
	if (run_parallel)
		run_parallel(init_part);
	else
		init_part(0, 1);
	return 0;
}

bool memmap_prebacked_array(void)
{
	return memmap_prebacked;
}

bool memmap_chunk_backed(unsigned long c)
{
	return c < mm_memmap_end_pfn >> MEMMAP_CHUNK_SHIFT && pfn_valid(c << MEMMAP_CHUNK_SHIFT);
}

int memmap_add_chunk(unsigned long c, phys_addr_t phys)
{
	unsigned long end_pfn = (c + 1) << MEMMAP_CHUNK_SHIFT;

	if (end_pfn > mm_memmap_limit_pfn || memmap_chunk_backed(c))
		return -EINVAL;
	if (memmap_prebacked && end_pfn * sizeof(struct page) > memmap_prebacked_bytes) {
		printk("memmap: the memmap array given to mm_init() (%zu bytes) ends before frame %#lx\n",
		       memmap_prebacked_bytes, end_pfn - 1);
		return -ERANGE;
	}
	if (!memmap_prebacked && arch_map_memmap(mm_vmemmap_base + c * PAGE_SIZE, phys, PAGE_SIZE)) {
		printk("memmap: cannot map the struct pages of frames %#lx-%#lx\n", c << MEMMAP_CHUNK_SHIFT,
		       end_pfn - 1);
		return -ENOMEM;
	}
	init_range(c << MEMMAP_CHUNK_SHIFT, end_pfn);
	mm_memmap_bytes += PAGE_SIZE;
	/* The struct pages are written before pfn_valid() can say they exist. */
	__atomic_store_n(&mm_memmap_chunk_map[c], 1, __ATOMIC_RELEASE);
	if (end_pfn > mm_memmap_end_pfn)
		__atomic_store_n(&mm_memmap_end_pfn, end_pfn, __ATOMIC_RELEASE);
	return 0;
}
