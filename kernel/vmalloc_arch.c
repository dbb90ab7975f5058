/* SPDX-License-Identifier: MIT */
/*
 * The x86-64 side of vmalloc (mm/arch.h): VMALLOC_AREA (kernel/paging.h, PML4 entry 408) mapped
 * with 4 KiB entries, one page at a time, and the migration marker.
 *
 * Page tables. A table under VMALLOC_AREA (its page-directory pointer table, page directories,
 * page tables) is made when the first page under it is mapped and freed when the last goes, so
 * the range costs page tables only while it is used; each counts its entries in use in its
 * struct page's private word (the owner's; the tables come from page_table_new(), the buddy
 * allocator after boot: unmovable pages, counted in page_table_pages). An emptied table is
 * unhooked, every CPU's TLB and paging-structure caches are flushed, and only then is it freed.
 * vmalloc_pt_lock serialises every change of the tables and the counts; it is held across the
 * flush (interrupts stay on: a CPU spinning on it still takes the shootdown's interrupt).
 * arch_vmalloc_set_marker() and arch_vmalloc_clear_marker() walk without it: their entry is in
 * use, so no table on their way can go.
 *
 * The marker is a not-present entry with a software bit (VMALLOC_MARKER): a CPU that touches the
 * page faults, and trap_handler() asks vmalloc_fault() (kernel/traps.c).
 */
#include "kernel/paging.h"
#include "kernel/spinlock.h"
#include "kernel/tlb.h"
#include "mm/arch.h"
#include "mm/list.h"
#include "mm/memmap.h"

#define VMALLOC_LEAF   (PTE_PRESENT | PTE_WRITE | PTE_NX)
#define VMALLOC_MARKER (1ULL << 9) /* bit 9: available to software; not present */
#define LEVELS 4                   /* the PML4 entry, then the PDPT, PD and PT entries */

uintptr_t mm_vmalloc_start = VMALLOC_AREA;
uintptr_t mm_vmalloc_end = VMALLOC_AREA + VMALLOC_AREA_SIZE;

static spinlock_t vmalloc_pt_lock;

static unsigned int level_shift(int level) { return PML4_SHIFT - 9 * (unsigned int)level; }
static uint64_t *table_at(uint64_t entry) { return phys_to_virt(entry & PTE_ADDR); }

/* The entries in use of a table under VMALLOC_AREA (not of the PML4, which is everybody's). */
static unsigned long *entries_used(const uint64_t *table) { return &virt_to_page(table)->private; }

/* The table that holds entry e of level (the PML4 for 0), from va. */
static uint64_t *table_of(uint64_t *e, uintptr_t va, int level) { return e - pt_index(va, level_shift(level)); }

/*
 * The entries on the way to va's 4 KiB entry, from the PML4 entry (path[0]) to the PTE
 * (path[LEVELS - 1]), making (zeroed) the tables that are missing when create. Returns false when a
 * table is missing (and could not be made); path then ends at the entry that has none.
 * vmalloc_pt_lock held when create.
 */
static bool walk(uintptr_t va, bool create, uint64_t *path[LEVELS])
{
	uint64_t *table = kernel_pml4();

	for (int level = 0;; level++) {
		uint64_t *e = &table[pt_index(va, level_shift(level))];

		path[level] = e;
		if (level == LEVELS - 1)
			return true;
		if (!(__atomic_load_n(e, __ATOMIC_ACQUIRE) & PTE_PRESENT)) {
			phys_addr_t t = create ? page_table_new() : 0;

			if (!t)
				return false;
			*entries_used(phys_to_virt(t)) = 0;
			if (level > 0)
				(*entries_used(table_of(e, va, level)))++;
			/* x86 keeps stores in order: the zeroed table is there before the entry shows it. */
			__atomic_store_n(e, t | PTE_TABLE, __ATOMIC_RELEASE);
		}
		table = table_at(*e);
	}
}

/*
 * Unhooks, bottom up, the tables on va's path (as deep as path reaches, to depth) that have no
 * entry in use, and queues them on freed: each is freed after the flush. Lock held.
 */
static void prune(uintptr_t va, uint64_t *path[LEVELS], int depth, struct list_head *freed)
{
	for (int level = depth; level >= 1; level--) {
		uint64_t *table = table_of(path[level], va, level);

		if (*entries_used(table))
			return;
		__atomic_store_n(path[level - 1], 0, __ATOMIC_RELEASE);
		list_add(&virt_to_page(table)->lru, freed);
		if (level > 1)
			(*entries_used(table_of(path[level - 1], va, level - 1)))--;
	}
}

/* Flushes [start, end) on every CPU, then frees the tables on freed. */
static void flush_and_free(uintptr_t start, uintptr_t end, struct list_head *freed)
{
	flush_tlb_kernel_range(start, end);
	while (!list_empty(freed)) {
		struct page *table = lru_to_page(freed->next);

		list_del(&table->lru);
		table->private = 0;
		page_table_free(PFN_PHYS(page_to_pfn(table)));
	}
}

int arch_vmalloc_map_page(uintptr_t va, phys_addr_t phys)
{
	struct list_head freed;
	uint64_t *path[LEVELS] = { 0 };
	int depth;

	spin_lock(&vmalloc_pt_lock);
	if (walk(va, true, path)) {
		(*entries_used(table_of(path[LEVELS - 1], va, LEVELS - 1)))++;
		__atomic_store_n(path[LEVELS - 1], phys | VMALLOC_LEAF, __ATOMIC_RELEASE);
		spin_unlock(&vmalloc_pt_lock);
		return 0;
	}
	/* Out of memory for a table: give back the empty ones made on the way. */
	list_init(&freed);
	for (depth = 0; depth < LEVELS - 1 && path[depth + 1]; depth++)
		;
	prune(va, path, depth, &freed);
	flush_and_free(va, va + PAGE_SIZE, &freed);
	spin_unlock(&vmalloc_pt_lock);
	return -ENOMEM;
}

void arch_vmalloc_unmap(uintptr_t start, uintptr_t end)
{
	struct list_head freed;
	uint64_t *path[LEVELS];

	list_init(&freed);
	spin_lock(&vmalloc_pt_lock);
	for (uintptr_t va = start; va < end; va += PAGE_SIZE) {
		if (!walk(va, false, path) || !*path[LEVELS - 1])
			continue;
		__atomic_store_n(path[LEVELS - 1], 0, __ATOMIC_RELEASE);
		(*entries_used(table_of(path[LEVELS - 1], va, LEVELS - 1)))--;
		prune(va, path, LEVELS - 1, &freed);
	}
	flush_and_free(start, end, &freed);
	spin_unlock(&vmalloc_pt_lock);
}

void arch_vmalloc_set_marker(uintptr_t va)
{
	uint64_t *path[LEVELS];

	if (!walk(va, false, path) || !(*path[LEVELS - 1] & PTE_PRESENT))
		panic("arch_vmalloc_set_marker: %#lx is not mapped", (unsigned long)va);
	__atomic_store_n(path[LEVELS - 1], (*path[LEVELS - 1] & PTE_ADDR) | VMALLOC_MARKER, __ATOMIC_RELEASE);
	flush_tlb_kernel_range(va, va + PAGE_SIZE);
}

void arch_vmalloc_clear_marker(uintptr_t va, phys_addr_t phys)
{
	uint64_t *path[LEVELS];

	if (!walk(va, false, path) || !(*path[LEVELS - 1] & VMALLOC_MARKER))
		panic("arch_vmalloc_clear_marker: no migration marker at %#lx", (unsigned long)va);
	__atomic_store_n(path[LEVELS - 1], phys | VMALLOC_LEAF, __ATOMIC_RELEASE);
}
