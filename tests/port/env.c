/* SPDX-License-Identifier: MIT */
/*
 * What mm/arch.h asks of the environment, in a host program: a static array plays 64 MiB of RAM
 * at physical 0, the memmap is an array mm_init() is given, the console is stdout.
 */
#include <stdio.h>
#include <stdlib.h>

#include "mm/init.h"

bool env_irqs_off;
uintptr_t mm_direct_map_offset, mm_vmemmap_base, mm_vmalloc_start, mm_vmalloc_end;

/* Never called: the vmalloc range is empty (both ends 0) and the memmap is pre-backed. */
int arch_vmalloc_map_page(uintptr_t va, phys_addr_t phys) { (void)va, (void)phys; return -ENOMEM; }
void arch_vmalloc_unmap(uintptr_t start, uintptr_t end) { (void)start, (void)end; }
void arch_vmalloc_set_marker(uintptr_t va) { (void)va; }
void arch_vmalloc_clear_marker(uintptr_t va, phys_addr_t phys) { (void)va, (void)phys; }
int arch_map_memmap(uintptr_t va, phys_addr_t phys, size_t size) { (void)va, (void)phys, (void)size; return -ENOMEM; }

/* One CPU: its part runs here, with interrupts "off" as in the interrupt a kernel would send. */
void arch_run_on_cpus(void (*fn)(unsigned int, void *), void *arg) { bool was = env_irqs_off; env_irqs_off = true; fn(0, arg); env_irqs_off = was; }

/* Differs from run to run with the program's address-space layout. */
unsigned long arch_random_seed(void) { return (uintptr_t)&env_irqs_off; }

int printk(const char *fmt, ...) { va_list ap; va_start(ap, fmt); int n = vprintf(fmt, ap); va_end(ap); return n; }

/* mm/'s messages come without their newline: panic() ends the line. */
void panic(const char *fmt, ...) { va_list ap; va_start(ap, fmt); vfprintf(stderr, fmt, ap); fputs("\n", stderr); abort(); }

static char ram[64 << 20] __attribute__((aligned(PAGE_SIZE)));
static struct page memmap[MEMMAP_BYTES(sizeof(ram)) / sizeof(struct page)] __attribute__((aligned(PAGE_SIZE)));
static uint64_t map_storage[FW_MAP_STORAGE_BYTES(1) / sizeof(uint64_t)];
static struct fw_map map;

/* The firmware map (all of ram usable), the direct map, then mm_init(): 0, or a negative errno. */
int env_boot(void)
{
	struct mm_init_params params = { .map = &map, .memmap = memmap, .memmap_size = sizeof(memmap) };

	mm_direct_map_offset = (uintptr_t)ram;
	if (fw_map_init(&map, map_storage, sizeof(map_storage)) || fw_map_add_range(&map, 0, sizeof(ram), FW_USABLE))
		return -EINVAL;
	return mm_init(&params);
}
