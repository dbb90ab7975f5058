/* SPDX-License-Identifier: MIT */
/*
 * The memmap: one struct page per 4 KiB frame, in a virtually contiguous array at
 * mm_vmemmap_base, so pfn_to_page() and page_to_pfn() are one addition or subtraction.
 *
 * Only the parts of the array that describe RAM are backed by memory. The granularity is one
 * 4 KiB page of struct pages: 4096 / 32 = 128 struct pages, describing 128 frames = 512 KiB of
 * physical address space (a "memmap chunk"). A chunk is backed when any frame in it is usable RAM,
 * so a hole in the physical address space costs nothing beyond the chunks at its two edges:
 * the memmap of a map with a 2 GiB hole is as large as that of the same RAM without it.
 */
#ifndef MM_MEMMAP_H
#define MM_MEMMAP_H

#include "mm/arch.h"
#include "mm/node.h"
#include "mm/page.h"

#define MEMMAP_CHUNK_SHIFT 7 /* 128 frames per 4 KiB page of struct pages */
#define MEMMAP_CHUNK_PAGES (1UL << MEMMAP_CHUNK_SHIFT)
_Static_assert(sizeof(struct page) << MEMMAP_CHUNK_SHIFT == PAGE_SIZE, "a memmap chunk is one page");

/**
 * MEMMAP_BYTES() - Bytes of memmap for RAM ending at a physical address.
 * @ram_end: one past the highest RAM address.
 *
 * Struct pages for every frame below @ram_end, in whole chunks: what mm_init_params.memmap must
 * hold.
 *
 * Return: the size in bytes.
 */
#define MEMMAP_BYTES(ram_end) (ALIGN_UP(PFN_DOWN(ram_end), MEMMAP_CHUNK_PAGES) * sizeof(struct page))

extern unsigned long mm_max_pfn;        /* one past the highest usable frame */
extern unsigned long mm_memmap_bytes;   /* memory backing the memmap */
extern unsigned long mm_memmap_end_pfn; /* mm_max_pfn rounded up to a whole chunk */
/*
 * Byte c non-zero: chunk c (frames c*128..) is backed. A byte, not a bit, per chunk: pfn_valid()
 * is then one load and compare (kfree() calls it on every free); 2 KiB per GiB of the physical
 * address space below mm_memmap_limit_pfn.
 */
extern uint8_t *mm_memmap_chunk_map;
/* One past the last frame the chunk map has room for: memmap_add_chunk() stays below it. */
extern unsigned long mm_memmap_limit_pfn;
/*
 * With more than one node (mm/node.h), the memmap bytes placed in each node's own memory (the
 * struct pages of its frames), and those that had to go elsewhere (a node without free memory).
 */
extern unsigned long mm_memmap_node_bytes[MAX_NUMNODES];
extern unsigned long mm_memmap_off_node_bytes;

/*
 * The four conversions are C99 inline definitions (memmap.c holds their external copies), so a
 * file that only declares them still links.
 */
/**
 * pfn_to_page() - The struct page of a frame.
 * @pfn: the frame number (physical address >> PAGE_SHIFT); pfn_valid() says whether it has one.
 *
 * Return: its struct page.
 */
inline struct page *pfn_to_page(unsigned long pfn)
{
	return (struct page *)mm_vmemmap_base + pfn;
}

/**
 * page_to_pfn() - The frame a struct page describes.
 * @page: a struct page of the memmap.
 *
 * Return: its frame number.
 */
inline unsigned long page_to_pfn(const struct page *page)
{
	return (unsigned long)(page - (const struct page *)mm_vmemmap_base);
}

/**
 * page_address() - The direct-map address of the frame a struct page describes.
 * @page: a struct page of the memmap.
 *
 * Return: the address of the frame's first byte.
 */
inline void *page_address(const struct page *page)
{
	return (void *)(uintptr_t)(PFN_PHYS(page_to_pfn(page)) + mm_direct_map_offset);
}

/**
 * virt_to_page() - The struct page of the frame holding a direct-map address.
 * @addr: a direct-map address (any byte of the frame).
 *
 * Return: the frame's struct page.
 */
inline struct page *virt_to_page(const void *addr)
{
	return pfn_to_page(PFN_DOWN((uintptr_t)addr - mm_direct_map_offset));
}

/**
 * pfn_valid() - Does a frame have a struct page?
 * @pfn: the frame number.
 *
 * Return: true for usable RAM, or a non-RAM frame in a backed chunk.
 */
static inline bool pfn_valid(unsigned long pfn)
{
	return pfn < mm_memmap_end_pfn && mm_memmap_chunk_map[pfn >> MEMMAP_CHUNK_SHIFT];
}

/*
 * Work split in parts: fn(part, parts) does part's share (0 <= part < parts) of a job whose
 * parts may run at once on different CPUs. A run_parallel function calls fn once for every part,
 * parts chosen by it (1 or more), on as many CPUs as it has, and returns when every call has
 * (mm_init_params.run_parallel).
 */
typedef void mm_parallel_fn(unsigned int part, unsigned int parts);
typedef void mm_run_parallel_fn(mm_parallel_fn *fn);

/**
 * memmap_init() - Boot: build the memmap for memblock's memory.
 * @prebacked_bytes: 0, or how many bytes the caller has backed at mm_vmemmap_base already.
 * @limit_pfn: room to keep in the map of backed chunks for memory added later (memmap_add_chunk()),
 *             up to this frame; below mm_max_pfn it changes nothing.
 * @run_parallel: NULL, or how to run the struct pages' initialization on several CPUs at once.
 *
 * Allocates the backing of every chunk that holds RAM
 * from memblock (in pieces of up to 2 MiB, 2 MiB aligned when whole, so they can be mapped with
 * large pages), maps it with arch_map_memmap() and initializes every struct page as reserved, in
 * its zone, count 0. The buddy hand-off then clears PG_reserved on the frames it takes. With
 * @prebacked_bytes non-zero nothing is allocated or mapped, and fewer bytes than the map needs
 * (MEMMAP_BYTES) is refused. With @run_parallel the struct pages are initialized in parts, the
 * memmap split in ranges of chunks (mm_run_parallel_fn), once every chunk is backed; they come
 * out the same as with NULL.
 *
 * Return: 0, -ENOMEM (reported) when backing or page tables cannot be had, or -EINVAL (reported)
 * when the pre-backed array is too small.
 */
int memmap_init(size_t prebacked_bytes, unsigned long limit_pfn, mm_run_parallel_fn *run_parallel);

/**
 * memmap_prebacked_array() - Did the caller back the whole memmap array (mm_init_params.memmap)?
 *
 * Return: true if so: chunks added later need no page of their own.
 */
bool memmap_prebacked_array(void);

/**
 * memmap_chunk_backed() - Does a memmap chunk have its struct pages?
 * @c: the chunk number (frames c * MEMMAP_CHUNK_PAGES onwards).
 *
 * Return: true when it is backed.
 */
bool memmap_chunk_backed(unsigned long c);

/**
 * memmap_add_chunk() - After boot: back one more chunk of the memmap (memory added to mm/).
 * @c: the chunk number; not backed yet, and its frames below mm_memmap_limit_pfn.
 * @phys: a free page for its struct pages (unused when the caller backed the whole array at
 *        mm_init(): the array must then reach the chunk's end).
 *
 * Maps @phys with arch_map_memmap() at the chunk's place, initializes its struct pages as
 * reserved, in their zones, count 0, then marks it backed (pfn_valid() becomes true) and moves
 * mm_memmap_end_pfn past it. Serialized by the caller (mm/memory_add.c holds its lock).
 *
 * Return: 0; -EINVAL when @c is backed or beyond the limit; -ERANGE (reported) past the caller's
 * array; -ENOMEM (reported) when it cannot be mapped.
 */
int memmap_add_chunk(unsigned long c, phys_addr_t phys);

#endif
