/* SPDX-License-Identifier: MIT */
/*
 * mm_setup(): from the boot information to a working page allocator. Builds the firmware map
 * (the EFI map when the loader passed one, as Linux prefers it, else the multiboot2 map), names
 * what must stay reserved (with a page below 1 MiB for the other CPUs' start-up code), maps all
 * RAM into the direct map, and runs mm_init() (mm/init.h).
 */
#include "kernel/mm_setup.h"

#include "kernel/boot_memmap.h"
#include "kernel/cpu_call.h"
#include "kernel/cmdline.h"
#include "kernel/hugetlb_cmdline.h"
#include "kernel/paging.h"
#include "kernel/panic.h"
#include "kernel/smp.h"
#include "kernel/x86.h"
#include "lib/printk.h"
#include "mm/hugetlb.h"
#include "mm/init.h"
#include "mm/memblock.h"
#include "mm/mm_picture.h"
#include "mm/page_alloc.h"
#include "mm/slab.h"

#define BOOT_TABLE_LIMIT (4ULL << 30) /* early page tables must be in the boot direct map */

extern char __kernel_phys_start[], __kernel_phys_end[];

CMDLINE_OPTION(mm_picture, "mm_picture", CMDLINE_BARE); /* the memory picture's lines at boot and after the self-tests */
CMDLINE_OPTION(slub_debug, "slub_debug", CMDLINE_BARE); /* the slab allocator's debug mode (mm/slab.h) */

static struct fw_map firmware_map;

/* Early page tables come from memblock, below 4 GiB; after the hand-off, from the buddy allocator. */
static phys_addr_t early_table_alloc(void)
{
	return memblock_alloc_named(PAGE_SIZE, PAGE_SIZE, BOOT_TABLE_LIMIT, "page tables");
}

static phys_addr_t buddy_table_alloc(void)
{
	struct page *p = alloc_pages(GFP_KERNEL, 0);
	return p ? PFN_PHYS(page_to_pfn(p)) : 0;
}

/* mm_init() hook: every usable range into the direct map, then the 1 GiB hugetlb pages. */
static int map_all_ram(void)
{
	for (unsigned int i = 0; i < memblock.memory.cnt; i++) {
		const struct memblock_region *r = &memblock.memory.regions[i];
		int err = direct_map_range(r->base, r->size);
		if (err) {
			printk("mm: no memory for the page tables of the direct map of [mem %#llx-%#llx]\n",
			       (unsigned long long)r->base, (unsigned long long)(r->base + r->size - 1));
			return err;
		}
	}
	memblock_set_current_limit(UINT64_MAX); /* all RAM is reachable now */
	hugetlb_reserve_gigantic_early();
	return 0;
}

/*
 * The ranges in use before mm/ runs, or never to be trusted: the first 1 MiB, the kernel image
 * (with its boot page tables), the boot information structure (which holds the firmware's map),
 * and every module.
 */
static unsigned int boot_reservations(const struct boot_info *bi, struct mm_reservation *r)
{
	unsigned int n = 0;

	r[n++] = (struct mm_reservation){ 0, PC_LOW_RESERVE, "first 1 MiB" };
	phys_addr_t kstart = (uintptr_t)__kernel_phys_start, kend = (uintptr_t)__kernel_phys_end;

	r[n++] = (struct mm_reservation){ kstart, kend - kstart, "kernel image" };
	r[n++] = (struct mm_reservation){ bi->mbi_phys, bi->mbi_size, "multiboot2 information" };
	for (uint32_t i = 0; i < bi->nmodules; i++)
		r[n++] = (struct mm_reservation){ bi->modules[i].start,
						  bi->modules[i].end - bi->modules[i].start, "module" };
	return n;
}

/*
 * A page below 1 MiB for the other CPUs' start-up code, which the firmware map says is RAM and
 * nothing of the boot loader's is in: reserved under its own name, though inside the first 1 MiB.
 */
void mm_setup(const struct boot_info *bi, unsigned int nr_cpus)
{
	struct mm_reservation reserve[5 + BOOT_MAX_MODULES];
	struct boot_memmap raw;
	unsigned int nreserve = boot_reservations(bi, reserve);

	if (!boot_memmap_from_info(bi, &raw))
		panic("mm: the boot loader passed no memory map (neither tag 6 nor tag 17)");
	printk("mm: using the %s memory map (%u entries)\n", boot_memmap_name(&raw), raw.count);
	if (nr_cpus > 1)
		nreserve = smp_reserve_trampoline(&raw, reserve, nreserve);
	/* The sanitized map's storage goes where the boot tables map it, and stays reserved. */
	if (boot_memmap_build(&raw, reserve, nreserve, BOOT_TABLE_LIMIT, &firmware_map, &reserve[nreserve]))
		panic("mm: cannot use the firmware memory map (see above): no memory can be trusted");
	nreserve++;

	hugetlb_setup_cmdline(bi->cmdline);
	page_table_alloc = early_table_alloc;
	struct mm_init_params params = {
		.map = &firmware_map,
		.reserve = reserve,
		.nreserve = nreserve,
		.before_memmap = map_all_ram,
		.zone_dma_end = PC_ZONE_DMA_END,
		.zone_dma32_end = PC_ZONE_DMA32_END,
		.early_limit = BOOT_TABLE_LIMIT,
		.nr_cpus = nr_cpus,
		.page_owner = cmdline_page_owner(bi->cmdline, printk),
		.cycles = rdtsc,
		.picture = cmdline_has(bi->cmdline, "mm_picture"),
	};
	cpu_call_set_mm_cpus(nr_cpus);
	int err = mm_init(&params);
	if (err)
		panic("mm: cannot set up the page allocator (error %d)", err);
	if (cmdline_has(bi->cmdline, "slub_debug")) /* before anything is allocated from kmalloc */
		slab_set_debug(true);
	page_table_alloc = buddy_table_alloc;
	printk("mm: page tables: %lu pages (%lu KiB) beyond the boot tables\n", page_table_pages,
	       page_table_pages * 4);
	if (hugetlb_init())
		printk("mm: the hugetlb pool is smaller than the command line asked\n");
	hugetlb_report();
}

void mm_show_picture_now(const char *cmdline)
{
	if (cmdline_has(cmdline, "mm_picture"))
		show_memory_picture(&firmware_map);
}
