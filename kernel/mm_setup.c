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
#include "kernel/memmap_cpus.h"
#include "kernel/numa.h"
#include "kernel/paging.h"
#include "kernel/panic.h"
#include "kernel/smp.h"
#include "kernel/x86.h"
#include "lib/printk.h"
#include "lib/string.h"
#include "mm/hugetlb.h"
#include "mm/init.h"
#include "mm/memblock.h"
#include "mm/memory_add.h"
#include "mm/mm_picture.h"
#include "mm/page_alloc.h"
#include "mm/slab.h"

#define BOOT_TABLE_LIMIT (4ULL << 30) /* early page tables must be in the boot direct map */

extern char __kernel_phys_start[], __kernel_phys_end[];

CMDLINE_OPTION(mm_picture, "mm_picture", CMDLINE_BARE); /* the memory picture's lines at boot and after the self-tests */
CMDLINE_OPTION(slub_debug, "slub_debug", CMDLINE_BARE); /* the slab allocator's debug mode (mm/slab.h) */
CMDLINE_OPTION(mem, "mem", CMDLINE_VALUE); /* use RAM below this at boot; the rest is offline, for mm_add_memory() */
CMDLINE_OPTION(reserve_mem, "reserve_mem", CMDLINE_VALUE); /* keep this much RAM reserved, releasable later */

static struct fw_map firmware_map;

/* mem=: the RAM above the limit, kept offline to be added after boot (mm/memory_add.h). */
static struct mm_reservation offline_ram[MM_MAX_OFFLINE];
static unsigned int nr_offline_ram;
/*
 * What mm_free_reserved_range() may take: the modules, reserve_mem='s range, the ACPI tables, the
 * areas of the CPUs that help initialize the struct pages.
 */
#define MAX_ACPI_RECLAIMABLE 8
#define MEMMAP_CPUS_AREAS "memmap CPUs' stacks"
static struct mm_reservation releasable[BOOT_MAX_MODULES + 2 + MAX_ACPI_RECLAIMABLE];
static unsigned int nr_releasable;

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

/* The size key=<n>[K|M|G] on the command line, in bytes; 0 when absent or not a size (warned). */
static uint64_t cmdline_size(const char *cmdline, const char *key)
{
	size_t len;
	const char *v = cmdline_value(cmdline, key, &len);
	unsigned int shift = 0;
	unsigned long n;

	if (!v)
		return 0;
	if (len && (v[len - 1] == 'K' || v[len - 1] == 'M' || v[len - 1] == 'G'))
		shift = v[len - 1] == 'K' ? 10 : v[len - 1] == 'M' ? 20 : 30;
	if (!cmdline_parse_ulong(v, len - (shift != 0), &n) || !n || n > (~0UL >> shift)) {
		printk("mm: ignoring %s=%.*s: not a size (a number, K, M or G after it)\n", key, (int)len, v);
		return 0;
	}
	return (uint64_t)n << shift;
}

/* Keeps usable RAM at and above limit out of the map; what is left out, 2 MiB aligned, is offline RAM. */
static void keep_ram_offline(struct fw_map *map, phys_addr_t limit)
{
	const phys_addr_t align = PAGE_SIZE << PAGEBLOCK_ORDER;

	for (unsigned int i = 0; i < map->nr; i++) {
		struct fw_map_entry *e = &map->entry[i];
		phys_addr_t base = MAX(e->base, limit), end = e->base + e->size;

		if (e->type != FW_USABLE || end <= limit)
			continue;
		e->size = e->base < limit ? limit - e->base : 0;
		base = ALIGN_UP(base, align);
		end = ALIGN_DOWN(end, align);
		if (base < end && nr_offline_ram < MM_MAX_OFFLINE)
			offline_ram[nr_offline_ram++] = (struct mm_reservation){ base, end - base, "offline RAM (mem=)" };
	}
	fw_map_sanitize(map);
	printk("mm: mem=: RAM from %#llx is offline (%u ranges), for mm_add_memory() after boot\n",
	       (unsigned long long)limit, nr_offline_ram);
}

/* Does [base, base + size) overlap one of the n reservations of r? */
static bool overlaps_reservation(phys_addr_t base, phys_addr_t size, const struct mm_reservation *r, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		if (r[i].base < base + size && base < r[i].base + r[i].size)
			return true;
	return false;
}

/* The largest usable range of map below 4 GiB, larger than size: its index + 1, or 0. */
static unsigned int largest_low_range(const struct fw_map *map, uint64_t size)
{
	unsigned int best = 0;

	for (unsigned int i = 0; i < map->nr; i++) {
		const struct fw_map_entry *e = &map->entry[i];

		if (e->type == FW_USABLE && e->base + e->size <= BOOT_TABLE_LIMIT && e->size > size &&
		    (!best || e->size > map->entry[best - 1].size))
			best = i + 1;
	}
	return best;
}

/*
 * Size bytes (page aligned) as high as they fit in the largest usable range below 4 GiB, clear of
 * the n reservations of r and of the releasable ranges so far: their base, or 0 when there is no
 * room.
 */
static phys_addr_t find_low_room(const struct fw_map *map, uint64_t size, const struct mm_reservation *r,
				 unsigned int n)
{
	unsigned int best = largest_low_range(map, size);
	phys_addr_t start = best ? map->entry[best - 1].base : 0, top = best ? start + map->entry[best - 1].size : 0;

	/* Each step lowers top below one range in the way: at most n + nr_releasable steps. */
	for (unsigned int step = 0; best && step <= n + nr_releasable; step++) {
		phys_addr_t base = top >= start + size ? ALIGN_DOWN(top - size, PAGE_SIZE) : 0;
		const struct mm_reservation *in_way = NULL;

		if (top < start + size || base < start)
			return 0;
		for (unsigned int i = 0; i < n + nr_releasable; i++) {
			const struct mm_reservation *x = i < n ? &r[i] : &releasable[i - n];

			if (overlaps_reservation(base, size, x, 1) && (!in_way || x->base < in_way->base))
				in_way = x;
		}
		if (!in_way)
			return base;
		top = in_way->base;
	}
	return 0;
}

/*
 * reserve_mem=: size bytes at the top of the largest usable range below 4 GiB, reserved and
 * releasable (the memory_add self-tests give it back); refused when it would overlap a reservation.
 */
static void reserve_releasable(const struct fw_map *map, uint64_t size, const struct mm_reservation *r, unsigned int n)
{
	unsigned int best;
	phys_addr_t base;

	size = ALIGN_UP(size, PAGE_SIZE);
	best = largest_low_range(map, size);
	base = best ? ALIGN_DOWN(map->entry[best - 1].base + map->entry[best - 1].size - size, PAGE_SIZE) : 0;
	if (!best || base < map->entry[best - 1].base || overlaps_reservation(base, size, r, n)) {
		printk("mm: reserve_mem=%llu: no room below 4 GiB; nothing reserved\n", (unsigned long long)size);
		return;
	}
	releasable[nr_releasable++] = (struct mm_reservation){ base, size, "reserve_mem" };
}

/*
 * The areas of the CPUs that help initialize the struct pages (kernel/memmap_cpus.h): releasable,
 * given back after mm_init(). Without room, the boot CPU initializes them alone (said so).
 */
static void reserve_memmap_cpus_areas(const struct fw_map *map, const struct mm_reservation *r, unsigned int n)
{
	size_t size = memmap_cpus_area_bytes();
	phys_addr_t base = size ? find_low_room(map, size, r, n) : 0;

	if (size && !base)
		printk("mm: no room below 4 GiB for %zu KiB of stacks: the boot CPU initializes the struct pages alone\n",
		       size >> 10);
	if (base)
		releasable[nr_releasable++] = (struct mm_reservation){ base, size, MEMMAP_CPUS_AREAS };
	memmap_cpus_set_areas(base);
}

/*
 * The ACPI tables' ranges (FW_ACPI, "ACPI reclaimable"): the kernel has read them (the CPUs, in
 * kmain()) before mm_setup(), and nothing reads them after. They become RAM that mm_init() keeps
 * reserved as releasable, given back by give_back_boot_ranges(). The map says so from then on.
 */
static void acpi_tables_releasable(struct fw_map *map)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < map->nr; i++) {
		struct fw_map_entry *e = &map->entry[i];
		phys_addr_t base = ALIGN_UP(e->base, PAGE_SIZE), end = ALIGN_DOWN(e->base + e->size, PAGE_SIZE);

		if (e->type != FW_ACPI || base >= end || n == MAX_ACPI_RECLAIMABLE)
			continue;
		e->type = FW_USABLE;
		releasable[nr_releasable++] = (struct mm_reservation){ base, end - base, "ACPI reclaimable" };
		n++;
	}
	if (n)
		fw_map_sanitize(map);
}

/* Gives back every releasable range named what (page aligned inward); returns the frames. */
static unsigned long give_back(const char *what, unsigned int *nranges)
{
	unsigned long frames = 0;

	*nranges = 0;
	for (unsigned int i = 0; i < nr_releasable; i++) {
		phys_addr_t start = ALIGN_UP(releasable[i].base, PAGE_SIZE);
		phys_addr_t end = ALIGN_DOWN(releasable[i].base + releasable[i].size, PAGE_SIZE);

		if (strcmp(releasable[i].what, what) || start >= end)
			continue;
		frames += mm_free_reserved_range(start, end, what);
		++*nranges;
	}
	return frames;
}

/*
 * What the kernel is done with once the allocator runs: the modules (no part of this kernel reads
 * one) and the ACPI tables (read before). reserve_mem='s range stays for the self-tests.
 */
static void give_back_boot_ranges(void)
{
	unsigned int nmod, nacpi;
	unsigned long modules = give_back("module", &nmod), acpi = give_back("ACPI reclaimable", &nacpi);

	printk("mm: gave back %lu KiB (%u multiboot2 modules: %lu KiB; %u ACPI reclaimable ranges: %lu KiB)\n",
	       (modules + acpi) * (PAGE_SIZE >> 10), nmod, modules * (PAGE_SIZE >> 10), nacpi,
	       acpi * (PAGE_SIZE >> 10));
}

/* mm_init() hook: every usable range into the direct map, then the 1 GiB hugetlb pages. */
static int map_all_ram(void)
{
	for (unsigned int i = 0; i < mm_memblock.memory.cnt; i++) {
		const struct memblock_region *r = &mm_memblock.memory.regions[i];
		int err = direct_map_range(r->base, r->size);
		if (err) {
			printk("mm: no memory for the page tables of the direct map of [mem %#llx-%#llx]\n",
			       (unsigned long long)r->base, (unsigned long long)(r->base + r->size - 1));
			return err;
		}
	}
	for (unsigned int i = 0; i < nr_offline_ram; i++) /* mm_add_memory() wants it mapped */
		if (direct_map_range(offline_ram[i].base, offline_ram[i].size))
			return -ENOMEM;
	memblock_set_current_limit(UINT64_MAX); /* all RAM is reachable now */
	hugetlb_reserve_gigantic_early();
	memmap_cpus_send_init(); /* their 10 ms after INIT pass while mm_init() backs the memmap */
	return 0;
}

/*
 * The ranges in use before mm/ runs, or never to be trusted: the first 1 MiB, the kernel image
 * (with its boot page tables), the boot information structure (which holds the firmware's map).
 * The modules go in releasable[] (mm_setup() hands both lists to boot_memmap_build()).
 */
static unsigned int boot_reservations(const struct boot_info *bi, struct mm_reservation *r)
{
	unsigned int n = 0;

	r[n++] = (struct mm_reservation){ 0, PC_LOW_RESERVE, "first 1 MiB" };
	phys_addr_t kstart = (uintptr_t)__kernel_phys_start, kend = (uintptr_t)__kernel_phys_end;

	r[n++] = (struct mm_reservation){ kstart, kend - kstart, "kernel image" };
	r[n++] = (struct mm_reservation){ bi->mbi_phys, bi->mbi_size, "multiboot2 information" };
	nr_releasable = 0;
	for (uint32_t i = 0; i < bi->nmodules; i++)
		releasable[nr_releasable++] = (struct mm_reservation){ bi->modules[i].start,
								       bi->modules[i].end - bi->modules[i].start, "module" };
	return n;
}

void mm_setup(const struct boot_info *bi, unsigned int nr_cpus)
{
	struct mm_reservation reserve[6 + BOOT_MAX_MODULES];
	struct boot_memmap raw;
	unsigned int nreserve = boot_reservations(bi, reserve);
	uint64_t mem_limit = cmdline_size(bi->cmdline, "mem"), reserve_size = cmdline_size(bi->cmdline, "reserve_mem");

	if (!boot_memmap_from_info(bi, &raw))
		panic("mm: the boot loader passed no memory map (neither tag 6 nor tag 17)");
	printk("mm: using the %s memory map (%u entries)\n", boot_memmap_name(&raw), raw.count);
	if (nr_cpus > 1)
		nreserve = smp_reserve_trampoline(&raw, reserve, nreserve);
	/* Both lists are to be avoided: the modules last, taken off again below. */
	for (unsigned int i = 0; i < nr_releasable; i++)
		reserve[nreserve + i] = releasable[i];
	/* The sanitized map's storage goes where the boot tables map it, and stays reserved. */
	if (boot_memmap_build(&raw, reserve, nreserve + nr_releasable, BOOT_TABLE_LIMIT, &firmware_map,
			      &reserve[nreserve + nr_releasable]))
		panic("mm: cannot use the firmware memory map (see above): no memory can be trusted");
	reserve[nreserve] = reserve[nreserve + nr_releasable];
	nreserve++;
	acpi_tables_releasable(&firmware_map);
	if (mem_limit)
		keep_ram_offline(&firmware_map, mem_limit);
	if (reserve_size)
		reserve_releasable(&firmware_map, reserve_size, reserve, nreserve);
	if (memmap_cpus_plan(bi->cmdline, nr_cpus, fw_map_usable_bytes(&firmware_map)) > 1)
		reserve_memmap_cpus_areas(&firmware_map, reserve, nreserve);

	hugetlb_setup_cmdline(bi->cmdline);
	page_table_alloc = early_table_alloc;
	struct mm_init_params params = {
		.map = &firmware_map,
		.reserve = reserve,
		.nreserve = nreserve,
		.releasable = releasable,
		.nreleasable = nr_releasable,
		.offline = offline_ram,
		.noffline = nr_offline_ram,
		.before_memmap = map_all_ram,
		.zone_dma_end = PC_ZONE_DMA_END,
		.zone_dma32_end = PC_ZONE_DMA32_END,
		.early_limit = BOOT_TABLE_LIMIT,
		.nr_cpus = nr_cpus,
		.numa = numa_mm_layout(cpu_initial_apic_id(), nr_cpus),
		.page_owner = cmdline_page_owner(bi->cmdline, printk),
		.cycles = rdtsc,
		.picture = cmdline_has(bi->cmdline, "mm_picture"),
		.run_parallel = memmap_cpus_run,
	};
	cpu_call_set_mm_cpus(nr_cpus);
	int err = mm_init(&params);
	if (err)
		panic("mm: cannot set up the page allocator (error %d)", err);
	if (cmdline_has(bi->cmdline, "slub_debug")) /* before anything is allocated from kmalloc */
		slab_set_debug(true);
	page_table_alloc = buddy_table_alloc;
	memmap_cpus_report();
	if (memmap_cpus_areas_unused()) {
		unsigned int n;

		give_back(MEMMAP_CPUS_AREAS, &n);
	}
	give_back_boot_ranges();
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
