/* SPDX-License-Identifier: MIT */
/*
 * The port kernel's page tables (4 KiB granule, 39-bit addresses, three levels from level 1):
 * RAM identity mapped in 1 GiB blocks of normal write-back memory, the UART's GiB as device
 * memory, the memmap region, where arch_map_memmap() (mm/arch.h) maps the pieces mm/ backs, and
 * vmalloc's range (vmalloc.c).
 *
 * Why the MMU is on at all: mm/ keeps its struct pages at a virtual address of its own
 * (mm_vmemmap_base) and asks the environment to map pieces of RAM there, which needs page
 * tables; and with the MMU off every access is to Device memory, where the exclusive loads and
 * stores behind the locks are not guaranteed to work and an unaligned access faults. The map is
 * one to one so the direct map's offset is 0 and the boot code needs no relocation.
 */
#include "tests/port/aarch64/port.h"

#include <stddef.h>

#include "lib/printk.h"
#include "mm/arch.h"
#include "tests/port/aarch64/pgtable.h"

#define RAM_BLOCK (DESC_BLOCK | ATTR_NORMAL | INNER_SHAREABLE | ACCESS_FLAG)
#define DEVICE_BLOCK (DESC_BLOCK | ATTR_DEVICE | ACCESS_FLAG | NEVER_EXECUTE)

#define MAIR_VALUE (0x00ULL | 0xffULL << 8)
/* T0SZ 25 (39 bits), walks write-back inner shareable, 4 KiB granule, no TTBR1 walks, 40-bit PA. */
#define TCR_VALUE (25ULL | 1ULL << 8 | 1ULL << 10 | 3ULL << 12 | 1ULL << 23 | 2ULL << 32)
#define SCTLR_M (1UL << 0)
#define SCTLR_A (1UL << 1)
#define SCTLR_C (1UL << 2)
#define SCTLR_I (1UL << 12)
#define SCTLR_WXN (1UL << 19)

/* The memmap region: 2 GiB of struct pages describe the 64 Mi frames below PORT_RAM_LIMIT. */
#define MEMMAP_GIBS 2
#define L3_TABLES 16 /* for memmap pieces that are not one aligned 2 MiB block */

uintptr_t mm_direct_map_offset = 0;
uintptr_t mm_vmemmap_base = PORT_RAM_LIMIT;

static uint64_t level1[ENTRIES] __attribute__((aligned(4096)));
static uint64_t memmap_level2[MEMMAP_GIBS][ENTRIES] __attribute__((aligned(4096)));
static uint64_t level3_pool[L3_TABLES][ENTRIES] __attribute__((aligned(4096)));
static unsigned int level3_used;

/* Maps every GiB that [base, base + size) touches as RAM. */
static int map_ram(uint64_t base, uint64_t size)
{
	if (base < GiB || base >= PORT_RAM_LIMIT || size > PORT_RAM_LIMIT - base) {
		printk("mmu: RAM [mem %#llx-%#llx] is outside [1 GiB, 256 GiB), which this kernel maps\n",
		       (unsigned long long)base, (unsigned long long)(base + size - 1));
		return -1;
	}
	for (uint64_t g = base / GiB; g <= (base + size - 1) / GiB; g++)
		level1[g] = g * GiB | RAM_BLOCK;
	return 0;
}

static void enable_mmu(void)
{
	unsigned long sctlr;

	__asm__ volatile("msr mair_el1, %0\n\tmsr tcr_el1, %1\n\tmsr ttbr0_el1, %2\n\tisb\n\t"
			 "tlbi vmalle1\n\tdsb nsh\n\tisb"
			 : : "r"(MAIR_VALUE), "r"(TCR_VALUE), "r"((uintptr_t)level1) : "memory");
	__asm__ volatile("mrs %0, sctlr_el1" : "=r"(sctlr));
	sctlr = (sctlr | SCTLR_M | SCTLR_C | SCTLR_I) & ~(SCTLR_A | SCTLR_WXN);
	__asm__ volatile("msr sctlr_el1, %0\n\tisb" : : "r"(sctlr) : "memory");
}

/*
 * The tables are written with the MMU and the caches off, and read by the walker as write-back
 * memory once they are on: on hardware a cache line of them could be stale (clean and invalidate
 * them first); QEMU models no caches.
 */
int mmu_init(const struct fdt_range *ram, unsigned int nram, uint64_t uart_base)
{
	for (unsigned int i = 0; i < nram; i++)
		if (map_ram(ram[i].base, ram[i].size))
			return -1;
	if (uart_base >= PORT_RAM_LIMIT || level1[uart_base / GiB]) {
		printk("mmu: the UART at %#llx shares a GiB with RAM or is above 256 GiB\n",
		       (unsigned long long)uart_base);
		return -1;
	}
	level1[uart_base / GiB] = uart_base / GiB * GiB | DEVICE_BLOCK;
	for (unsigned int g = 0; g < MEMMAP_GIBS; g++)
		level1[PORT_RAM_LIMIT / GiB + g] = (uintptr_t)memmap_level2[g] | DESC_TABLE;
	level1[PORT_VMALLOC_BASE / GiB] = vmalloc_tables();
	enable_mmu();
	return 0;
}

/* The level-2 entry of memmap address virt. */
static uint64_t *memmap_pmd(uintptr_t virt)
{
	uintptr_t off = virt - mm_vmemmap_base;

	return &memmap_level2[off / GiB][off % GiB / MiB2];
}

/* Maps [virt, virt + size), inside one 2 MiB block of the region, page by page. */
static int map_pages(uintptr_t virt, phys_addr_t phys, size_t size)
{
	uint64_t *pmd = memmap_pmd(virt);

	if (!(*pmd & DESC_VALID)) {
		if (level3_used == L3_TABLES) {
			printk("mmu: all %d level-3 tables of the memmap region are used\n", L3_TABLES);
			return -ENOMEM;
		}
		*pmd = (uintptr_t)level3_pool[level3_used++] | DESC_TABLE;
	}
	if ((*pmd & 3) != DESC_TABLE)
		return -ENOMEM; /* a block is there already: mm/ never maps a piece twice */
	uint64_t *pte = (uint64_t *)(uintptr_t)(*pmd & DESC_ADDR);
	for (size_t off = 0; off < size; off += PAGE_SIZE)
		pte[(virt + off) % MiB2 / PAGE_SIZE] = (phys + off) | DATA_ATTRS | DESC_PAGE;
	return 0;
}

/*
 * mm/arch.h: pieces of at most 2 MiB that never cross a 2 MiB boundary of the region. A whole
 * aligned 2 MiB piece is one level-2 block; anything else takes pages of a level-3 table. The
 * entries were invalid, so no TLB holds them: a barrier makes the walker see the new ones.
 */
int arch_map_memmap(uintptr_t virt, phys_addr_t phys, size_t size)
{
	int err = 0;

	if (virt % PAGE_SIZE || phys % PAGE_SIZE || size % PAGE_SIZE || virt < mm_vmemmap_base ||
	    virt - mm_vmemmap_base + size > MEMMAP_GIBS * GiB || virt / MiB2 != (virt + size - 1) / MiB2) {
		printk("mmu: memmap piece %#lx +%#zx -> %#llx outside the region or not aligned\n",
		       (unsigned long)virt, size, (unsigned long long)phys);
		return -ENOMEM;
	}
	if (size == MiB2 && phys % MiB2 == 0 && !*memmap_pmd(virt))
		*memmap_pmd(virt) = phys | DATA_ATTRS | DESC_BLOCK;
	else
		err = map_pages(virt, phys, size);
	__asm__ volatile("dsb ishst\n\tisb" : : : "memory");
	return err;
}
