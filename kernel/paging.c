/* SPDX-License-Identifier: MIT */
/*
 * The kernel's page tables after boot. The boot tables (boot/page_tables.asm) map the low 4 GiB;
 * map_range() adds the rest of RAM to the direct map and backs the memmap (mm/arch.h).
 */
#include "kernel/paging.h"

#include "kernel/x86.h"
#include "lib/string.h"
#include "mm/arch.h"
#include "mm/page_alloc.h"

phys_addr_t (*page_table_alloc)(void);
unsigned long page_table_pages;

extern char gdt64_pointer[];

void paging_drop_identity_map(void)
{
	/* The GDT pointer holds a physical base; reload it through the kernel mapping. */
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) gdtr;
	const void *ptr = (const void *)((uintptr_t)gdt64_pointer + KERNEL_VMA);
	memcpy(&gdtr, ptr, sizeof(gdtr));
	gdtr.base += KERNEL_VMA;
	__asm__ volatile("lgdt %0" : : "m"(gdtr));

	kernel_pml4()[0] = 0;
	write_cr3(read_cr3());
}

static bool cpu_has_1g_pages(void)
{
	uint32_t r[4];
	cpuid(0x80000001, 0, r);
	return r[3] & (1u << 26);
}

uint64_t *kernel_pml4(void)
{
	return phys_to_virt(read_cr3() & PTE_ADDR);
}

phys_addr_t page_table_new(void)
{
	phys_addr_t t = page_table_alloc ? page_table_alloc() : 0;

	if (!t)
		return 0;
	memset(phys_to_virt(t), 0, PAGE_SIZE);
	__atomic_fetch_add(&page_table_pages, 1, __ATOMIC_RELAXED);
	return t;
}

void page_table_free(phys_addr_t table)
{
	__free_pages(pfn_to_page(PFN_DOWN(table)), 0);
	__atomic_fetch_sub(&page_table_pages, 1, __ATOMIC_RELAXED);
}

/* The table that entry *e points to, allocating an empty one if *e is not present. */
static uint64_t *next_table(uint64_t *e)
{
	if (!(*e & PTE_PRESENT)) {
		phys_addr_t t = page_table_new();
		if (!t)
			return NULL;
		*e = t | PTE_TABLE;
	}
	return phys_to_virt(*e & PTE_ADDR);
}

/*
 * Maps one page of the largest size that fits at va (level shift 30, 21 or 12; only 12 when
 * small), with the extra PTE bits flags; returns the number of bytes it covered (a whole existing
 * huge page counts as covered), 0 on -ENOMEM.
 */
static uint64_t map_one(uintptr_t va, phys_addr_t pa, uint64_t size, bool gbpages, bool small,
			uint64_t flags)
{
	uint64_t *table = kernel_pml4();

	for (unsigned int shift = PML4_SHIFT; shift >= PAGE_SHIFT; shift -= 9) {
		uint64_t *e = &table[pt_index(va, shift)];
		uint64_t span = 1ULL << shift;
		bool huge_ok = !small && (shift == PD_SHIFT || (shift == PDPT_SHIFT && gbpages));

		if ((*e & PTE_PRESENT) && ((*e & PTE_HUGE) || shift == PAGE_SHIFT))
			return span - (va & (span - 1)); /* already mapped */
		if (shift == PAGE_SHIFT || (huge_ok && !(*e & PTE_PRESENT) && !(va & (span - 1)) &&
				    !(pa & (span - 1)) && size >= span)) {
			*e = pa | PTE_PRESENT | PTE_WRITE | PTE_NX | flags | (shift > PAGE_SHIFT ? PTE_HUGE : 0);
			return span;
		}
		table = next_table(e);
		if (!table)
			return 0;
	}
	return 0;
}

static int map_range_flags(uintptr_t va, phys_addr_t pa, uint64_t size, bool small, uint64_t flags)
{
	bool gbpages = cpu_has_1g_pages();

	while (size) {
		uint64_t done = map_one(va, pa, size, gbpages, small, flags);
		if (!done)
			return -ENOMEM;
		if (done > size)
			done = size;
		va += done;
		pa += done;
		size -= done;
	}
	return 0;
}

int map_range(uintptr_t va, phys_addr_t pa, uint64_t size)
{
	return map_range_flags(va, pa, size, false, 0);
}

void *map_mmio(phys_addr_t pa, uint64_t size)
{
	static uintptr_t next = MMIO_AREA;
	phys_addr_t start = ALIGN_DOWN(pa, PAGE_SIZE), end = ALIGN_UP(pa + size, PAGE_SIZE);
	uintptr_t va = next;

	if (va + (end - start) > MMIO_AREA + MMIO_AREA_SIZE ||
	    map_range_flags(va, start, end - start, true, PTE_PCD | PTE_PWT))
		return NULL;
	next += end - start;
	return (void *)(va + (pa - start));
}

int direct_map_range(phys_addr_t base, uint64_t size)
{
	phys_addr_t start = ALIGN_DOWN(base, PAGE_SIZE), end = ALIGN_UP(base + size, PAGE_SIZE);

	return map_range((uintptr_t)phys_to_virt(start), start, end - start);
}
