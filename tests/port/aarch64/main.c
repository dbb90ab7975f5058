/* SPDX-License-Identifier: MIT */
/*
 * The AArch64 port kernel: mm/ on a machine that is not a PC. Reads RAM and the reserved ranges
 * from the device tree, turns the MMU on, hands it all to mm_init() as the x86 kernel does with
 * its firmware map, runs every self-test suite linked in (mm/'s own, from tests/ktest/) through
 * the same KTAP runner, and exits QEMU with the verdict.
 */
#include "tests/port/aarch64/port.h"

#include "lib/printk.h"
#include "mm/arch.h"
#include "mm/fw_map.h"
#include "mm/hugetlb.h"
#include "mm/init.h"
#include "mm/lock_check.h"
#include "mm/slab.h"
#include "tests/ktest/ktest.h"

extern char __image_start[], __image_end[];

struct port_boot port_boot;

/* The sanitized map's storage: every /memory range and every no-map reservation. */
static uint64_t map_storage[FW_MAP_STORAGE_BYTES(2 * FDT_MAX_RANGES) / sizeof(uint64_t)];
static struct fw_map firmware_map;

static void print_range(const char *kind, const struct fdt_range *r)
{
	printk("port: %s [mem %#018llx-%#018llx] %s\n", kind, (unsigned long long)r->base,
	       (unsigned long long)(r->base + r->size - 1), r->what);
}

/* The device tree's ranges, then the tree itself and this image: what mm/ must never hand out. */
static void collect_reserved(struct port_boot *b)
{
	for (unsigned int i = 0; i < b->fdt.nreserved; i++)
		b->reserved[b->nreserved++] = b->fdt.reserved[i];
	b->reserved[b->nreserved++] = (struct fdt_range){ b->dtb, b->fdt.totalsize, "device tree", false };
	b->reserved[b->nreserved++] = (struct fdt_range){ (uintptr_t)__image_start,
		(uintptr_t)(__image_end - __image_start), "kernel image", false };
	for (unsigned int i = 0; i < b->nreserved; i++)
		print_range("reserved", &b->reserved[i]);
	if (b->fdt.ndynamic)
		printk("port: %u /reserved-memory nodes have a size but no reg: nothing here allocates them\n",
		       b->fdt.ndynamic);
}

/* Reads the tree at dtb into port_boot; a tree that cannot be read ends the run. */
static void read_device_tree(uint64_t dtb)
{
	struct port_boot *b = &port_boot;

	b->dtb = dtb;
	if (!dtb || fdt_parse((const void *)(uintptr_t)dtb, &b->fdt)) {
		printk("port: the device tree at %#llx is refused: %s\n", (unsigned long long)dtb,
		       dtb ? parse_fail_message() : "x0 was 0 (not booted as an arm64 Image?)");
		port_exit(false);
	}
	for (unsigned int i = 0; i < b->fdt.nmemory; i++) {
		print_range("memory", &b->fdt.memory[i]);
		b->ram_bytes += b->fdt.memory[i].size;
	}
	collect_reserved(b);
	port_set_psci(b->fdt.psci);
}

/* RAM as usable, no-map reservations as reserved (not RAM to mm/); the rest goes to reserve[]. */
static unsigned int build_map(struct mm_reservation *reserve)
{
	const struct port_boot *b = &port_boot;
	unsigned int n = 0;
	int err = fw_map_init(&firmware_map, map_storage, sizeof(map_storage));

	for (unsigned int i = 0; !err && i < b->fdt.nmemory; i++)
		err = fw_map_add_range(&firmware_map, b->fdt.memory[i].base, b->fdt.memory[i].size, FW_USABLE);
	for (unsigned int i = 0; !err && i < b->nreserved; i++) {
		const struct fdt_range *r = &b->reserved[i];
		if (r->no_map)
			err = fw_map_add_range(&firmware_map, r->base, r->size, FW_RESERVED);
		else
			reserve[n++] = (struct mm_reservation){ r->base, r->size, r->what };
	}
	if (err) {
		printk("port: cannot build the firmware map (error %d)\n", err);
		port_exit(false);
	}
	return n;
}

static uint64_t read_counter(void)
{
	uint64_t count;

	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(count));
	return count;
}

/*
 * The zones: no ZONE_DMA (no ISA-style 16 MiB limit here), ZONE_DMA32 below 4 GiB (the virt
 * board's RAM from 1 GiB up to 3 GiB of it), ZONE_NORMAL above.
 */
static void setup_mm(void)
{
	static struct mm_reservation reserve[PORT_MAX_RESERVED];
	struct mm_init_params params = {
		.map = &firmware_map,
		.reserve = reserve,
		.nreserve = build_map(reserve),
		.zone_dma_end = 0,
		.zone_dma32_end = 4ULL << 30,
		.nr_cpus = 1,
		.cycles = read_counter,
	};

	if (mm_init(&params)) {
		printk("port: mm_init() failed (see above)\n");
		port_exit(false);
	}
	if (hugetlb_init())
		printk("port: the hugetlb pool is smaller than asked\n");
}

static void run_suites(void)
{
	int ran = 0, skipped = 0;
	int failed = ktest_run(NULL, &ran, &skipped);

	if (failed < 0)
		port_exit(false);
	slabinfo_show();
	lock_check_show();
	printk("ktest: summary: %d passed, %d failed, %d skipped\n", ran - failed - skipped, failed, skipped);
	if (ktest_leaky_suites())
		printk("ktest: %d suites leaked pages (see \"# leak:\")\n", ktest_leaky_suites());
	port_exit(failed == 0 && !ktest_leaky_suites());
}

void port_main(uint64_t dtb);

void port_main(uint64_t dtb)
{
	unsigned long el;

	pl011_console_init(PL011_VIRT_BASE);
	__asm__ volatile("mrs %0, CurrentEL" : "=r"(el));
	printk("port: AArch64 kernel [mem %#lx-%#lx] in EL%lu, device tree at %#llx\n",
	       (unsigned long)(uintptr_t)__image_start, (unsigned long)(uintptr_t)__image_end - 1, el >> 2 & 3,
	       (unsigned long long)dtb);
	read_device_tree(dtb);
	if (port_boot.fdt.uart_base && port_boot.fdt.uart_base != PL011_VIRT_BASE)
		pl011_console_init(port_boot.fdt.uart_base);
	uint64_t uart = port_boot.fdt.uart_base ? port_boot.fdt.uart_base : PL011_VIRT_BASE;
	if (mmu_init(port_boot.fdt.memory, port_boot.fdt.nmemory, uart))
		port_exit(false);
	printk("port: MMU on: RAM identity mapped, write-back; memmap region at %#lx\n",
	       (unsigned long)mm_vmemmap_base);
	setup_mm();
	/*
	 * IRQs unmasked, as a kernel runs: nothing raises one (the GIC is left off), but mm/ checks
	 * the state arch_irq_save() leaves and migration's owners must be called with them on.
	 */
	__asm__ volatile("msr daifclr, #2" : : : "memory");
	run_suites();
}
