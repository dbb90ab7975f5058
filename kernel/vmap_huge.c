/* SPDX-License-Identifier: MIT */
/*
 * HUGE_MAP_AREA: whole 2 MiB mappings of compound pages, and their split on a protection change
 * (kernel/vmap_huge.h). One lock, taken with interrupts on (a TLB shootdown is made while it is
 * held, and waits for the other CPUs' interrupts), guards the slots and the area's page tables.
 */
#include "kernel/vmap_huge.h"

#include "kernel/spinlock.h"
#include "kernel/tlb.h"
#include "kernel/x86.h"
#include "lib/printk.h"
#include "mm/compound.h"
#include "mm/memmap.h"

/* A 2 MiB leaf: present, writable, no-execute, PS. Its 4 KiB entries keep all but PS. */
#define HUGE_LEAF   (PTE_PRESENT | PTE_WRITE | PTE_NX | PTE_HUGE)
#define LEAF_FLAGS  (PTE_PRESENT | PTE_WRITE | PTE_NX | PTE_PWT | PTE_PCD)
#define HUGE_ADDR   (PTE_ADDR & ~(HUGE_MAP_SIZE - 1))

_Static_assert(HUGE_MAP_AREA_SIZE == 1UL << PDPT_SHIFT, "the area is one page directory");
_Static_assert((HUGE_MAP_AREA & ((1UL << PML4_SHIFT) - 1)) == 0, "the area starts a PML4 entry");

static spinlock_t huge_map_lock;
static unsigned long used[HUGE_MAP_SLOTS / BITS_PER_LONG]; /* slot s mapped: bit s */
static unsigned int nr_mapped;                              /* the page tables exist iff > 0 */

static uint64_t *table_at(uint64_t entry) { return phys_to_virt(entry & PTE_ADDR); }
static uintptr_t slot_base(unsigned int slot) { return HUGE_MAP_AREA + (uintptr_t)slot * HUGE_MAP_SIZE; }
static bool slot_used(unsigned int slot) { return used[slot / BITS_PER_LONG] >> (slot % BITS_PER_LONG) & 1; }

static uint64_t *pml4_entry(void)
{
	return &kernel_pml4()[pt_index(HUGE_MAP_AREA, PML4_SHIFT)];
}

/* The area's PDPT entry, which points to its page directory; NULL while there is no PDPT. */
static uint64_t *pdpt_entry(void)
{
	uint64_t *e = pml4_entry();

	return *e & PTE_PRESENT ? &table_at(*e)[pt_index(HUGE_MAP_AREA, PDPT_SHIFT)] : NULL;
}

/* The page directory of the area, NULL while it has none. Lock held. */
static uint64_t *page_directory(void)
{
	uint64_t *e = pdpt_entry();

	return e && (*e & PTE_PRESENT) ? table_at(*e) : NULL;
}

/* Builds the PDPT and the page directory for the first mapping; false if memory ran out. */
static bool build_tables(void)
{
	phys_addr_t pdpt = page_table_new(), pd = pdpt ? page_table_new() : 0;

	if (!pd) {
		if (pdpt)
			page_table_free(pdpt); /* never hooked: no CPU can have cached it */
		return false;
	}
	((uint64_t *)phys_to_virt(pdpt))[pt_index(HUGE_MAP_AREA, PDPT_SHIFT)] = pd | PTE_TABLE;
	/* x86 keeps stores in order: the tables are complete before the PML4 entry shows them. */
	__atomic_store_n(pml4_entry(), pdpt | PTE_TABLE, __ATOMIC_RELEASE);
	return true;
}

/* The slot addr falls in, or -1 when addr is outside the area or its slot is not mapped. */
static int slot_of(uintptr_t addr)
{
	unsigned int slot;

	if (addr < HUGE_MAP_AREA || addr - HUGE_MAP_AREA >= HUGE_MAP_AREA_SIZE)
		return -1;
	slot = (unsigned int)((addr - HUGE_MAP_AREA) / HUGE_MAP_SIZE);
	return slot_used(slot) ? (int)slot : -1;
}

/* The frame a used slot maps: its 2 MiB entry's, or its first 4 KiB entry's once split. Lock held. */
static phys_addr_t slot_phys(const uint64_t *pd, unsigned int slot)
{
	uint64_t e = pd[slot];

	return e & PTE_HUGE ? e & HUGE_ADDR : table_at(e)[0] & PTE_ADDR;
}

/*
 * Is the 2 MiB page at phys mapped by a slot already? A second mapping would keep its own rights:
 * set_memory_ro() through one would leave the other writable. Lock held.
 */
static bool phys_mapped(phys_addr_t phys)
{
	const uint64_t *pd = nr_mapped ? page_directory() : NULL;

	for (unsigned int slot = 0; pd && slot < HUGE_MAP_SLOTS; slot++)
		if (slot_used(slot) && slot_phys(pd, slot) == phys)
			return true;
	return false;
}

/*
 * A free slot for the page at phys, its page tables built: the slot in *slotp and NULL, or why
 * there is none. Lock held.
 */
static const char *take_slot(phys_addr_t phys, unsigned int *slotp)
{
	unsigned int slot;

	if (phys_mapped(phys))
		return "the page is mapped already (one mapping per page)";
	for (slot = 0; slot < HUGE_MAP_SLOTS && slot_used(slot); slot++)
		;
	if (slot == HUGE_MAP_SLOTS)
		return "HUGE_MAP_AREA is full";
	if (!nr_mapped && !build_tables())
		return "no memory for the page tables";
	*slotp = slot;
	return NULL;
}

void *vmap_huge(struct page *page)
{
	phys_addr_t phys = PFN_PHYS(page_to_pfn(page));
	unsigned int slot;
	const char *why;
	uint64_t *pd;

	if (!PageHead(page) || compound_order(page) != HUGE_MAP_ORDER || (phys & (HUGE_MAP_SIZE - 1))) {
		printk("vmap_huge: pfn %#lx is not the head of a 2 MiB compound page\n", page_to_pfn(page));
		return NULL;
	}
	spin_lock(&huge_map_lock);
	why = take_slot(phys, &slot);
	if (why) {
		spin_unlock(&huge_map_lock);
		printk("vmap_huge: pfn %#lx: %s\n", page_to_pfn(page), why);
		return NULL;
	}
	pd = page_directory();
	/* A new entry over a not-present one: no CPU caches a not-present entry, nothing to flush. */
	__atomic_store_n(&pd[slot], phys | HUGE_LEAF, __ATOMIC_RELEASE);
	used[slot / BITS_PER_LONG] |= 1UL << (slot % BITS_PER_LONG);
	nr_mapped++;
	spin_unlock(&huge_map_lock);
	return (void *)slot_base(slot);
}

int vunmap_huge(void *addr)
{
	uintptr_t va = (uintptr_t)addr;
	phys_addr_t freed[3] = { 0 }; /* the split mapping's table, the PD, the PDPT */
	int slot;

	spin_lock(&huge_map_lock);
	slot = slot_of(va);
	if (slot < 0 || va != slot_base((unsigned int)slot)) {
		spin_unlock(&huge_map_lock);
		printk("vunmap_huge: %p is not a mapping of HUGE_MAP_AREA\n", addr);
		return -EINVAL;
	}
	uint64_t *pd = page_directory(), pde = pd[slot];

	__atomic_store_n(&pd[slot], 0, __ATOMIC_RELEASE);
	if (!(pde & PTE_HUGE))
		freed[0] = pde & PTE_ADDR;
	used[slot / BITS_PER_LONG] &= ~(1UL << (slot % BITS_PER_LONG));
	if (!--nr_mapped) {
		uint64_t *pml4e = pml4_entry(), *pdpte = pdpt_entry();

		freed[1] = *pdpte & PTE_ADDR;
		freed[2] = *pml4e & PTE_ADDR;
		__atomic_store_n(pml4e, 0, __ATOMIC_RELEASE);
	}
	/*
	 * Every CPU forgets the mapping and, as invlpg and a CR3 reload also drop the cached upper
	 * entries, the tables about to be freed: no CPU may walk them once they are reused.
	 */
	flush_tlb_kernel_range(va, va + HUGE_MAP_SIZE);
	for (int i = 0; i < 3; i++)
		if (freed[i])
			page_table_free(freed[i]);
	spin_unlock(&huge_map_lock);
	return 0;
}

/*
 * Replaces the 2 MiB entry *pde, which maps the compound page that the frame at va belongs to,
 * by a page table of 4 KiB entries with the same protection; splits the compound page too unless
 * it is a hugetlb pool page. Returns 0, -ENOMEM, -EBUSY, or -EINVAL (split_huge_page() refused a
 * page another owner frees, mm/block_owner.h) with nothing changed. Lock held.
 */
static int split_mapping(uint64_t *pde, uintptr_t va)
{
	uint64_t old = *pde, *pt;
	unsigned long pfn = PFN_DOWN(old & HUGE_ADDR), sub = (va & (HUGE_MAP_SIZE - 1)) >> PAGE_SHIFT;
	struct page *page = pfn_to_page(pfn + sub), *head = compound_head(page);
	phys_addr_t table = page_table_new();

	if (!table)
		return -ENOMEM;
	if (!PageHugeTLB(head)) {
		int err = split_huge_page(page);

		if (err) {
			page_table_free(table); /* never hooked */
			return err;
		}
	}
	pt = phys_to_virt(table);
	for (unsigned long i = 0; i < (1UL << HUGE_MAP_ORDER); i++)
		pt[i] = (PFN_PHYS(pfn + i)) | (old & LEAF_FLAGS);
	/*
	 * The same translations, so a CPU still using the 2 MiB entry does no harm until the flush
	 * that set_memory() makes of the whole 2 MiB once the protection has changed.
	 */
	__atomic_store_n(pde, table | PTE_TABLE, __ATOMIC_RELEASE);
	return 0;
}

static int set_memory(unsigned long addr, int numpages, bool writable)
{
	uintptr_t end = addr + (uintptr_t)numpages * PAGE_SIZE, base, flush_from, flush_to;
	int slot, err = 0;
	uint64_t *pde, *pt;

	if (numpages < 1 || (addr & (PAGE_SIZE - 1)))
		return -EINVAL;
	spin_lock(&huge_map_lock);
	slot = slot_of(addr);
	base = slot < 0 ? 0 : slot_base((unsigned int)slot);
	if (slot < 0 || end > base + HUGE_MAP_SIZE || end <= addr) {
		spin_unlock(&huge_map_lock);
		return -EINVAL;
	}
	pde = &page_directory()[slot];
	flush_from = addr;
	flush_to = end;
	if (*pde & PTE_HUGE) {
		if (!!(*pde & PTE_WRITE) == writable)
			goto out; /* already so: a 2 MiB mapping stays whole */
		err = split_mapping(pde, addr);
		if (err)
			goto out;
		flush_from = base; /* a TLB may hold the 2 MiB entry for any address of it */
		flush_to = base + HUGE_MAP_SIZE;
	}
	pt = table_at(*pde);
	for (uintptr_t va = addr; va < end; va += PAGE_SIZE) {
		uint64_t *e = &pt[pt_index(va, PAGE_SHIFT)];
		uint64_t v = writable ? *e | PTE_WRITE : *e & ~PTE_WRITE;

		__atomic_store_n(e, v, __ATOMIC_RELAXED);
	}
	flush_tlb_kernel_range(flush_from, flush_to);
out:
	spin_unlock(&huge_map_lock);
	return err;
}

int set_memory_ro(unsigned long addr, int numpages) { return set_memory(addr, numpages, false); }
int set_memory_rw(unsigned long addr, int numpages) { return set_memory(addr, numpages, true); }

uint64_t huge_map_entry(const void *addr)
{
	uintptr_t va = (uintptr_t)addr;
	uint64_t e = 0;
	int slot;

	spin_lock(&huge_map_lock);
	slot = slot_of(va);
	if (slot >= 0) {
		e = page_directory()[slot];
		if (!(e & PTE_HUGE))
			e = table_at(e)[pt_index(va, PAGE_SHIFT)];
	}
	spin_unlock(&huge_map_lock);
	return e;
}

struct page *huge_map_to_page(const void *addr)
{
	uintptr_t va = (uintptr_t)addr;
	uint64_t e = huge_map_entry(addr);

	if (!(e & PTE_PRESENT))
		return NULL;
	if (e & PTE_HUGE)
		return pfn_to_page(PFN_DOWN(e & HUGE_ADDR) + ((va & (HUGE_MAP_SIZE - 1)) >> PAGE_SHIFT));
	return pfn_to_page(PFN_DOWN(e & PTE_ADDR));
}
