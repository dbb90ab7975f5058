/* SPDX-License-Identifier: MIT */
/*
 * The x86-64 side of mm/arch.h: where the direct map and the memmap live in the address space,
 * and how the memmap is mapped.
 */
#include "mm/arch.h"

#include "kernel/paging.h"
#include "kernel/percpu.h"
#include "kernel/x86.h"

/* PML4 entry 273: the boot page tables map the low 4 GiB here; kernel/paging.c maps the rest. */
uintptr_t mm_direct_map_offset = 0xffff888000000000UL;

/* PML4 entry 468: room for the struct pages of 2^46 bytes (64 TiB) of physical address space. */
uintptr_t mm_vmemmap_base = 0xffffea0000000000UL;

/* The time-stamp counter: cycles since reset, which vary with firmware and boot timing. */
unsigned long arch_random_seed(void)
{
	return rdtsc();
}

/* The memmap is mapped like any kernel range: with the largest pages that fit. */
int arch_map_memmap(uintptr_t virt, phys_addr_t phys, size_t size)
{
	return map_range(virt, phys, size);
}

/*
 * Every CPU's per-CPU page lists, as mm_init() hands them over: the other CPUs' areas do not
 * exist yet then (kernel/smp.c makes them later and copies their pointer in).
 */
static void *cpu_pcp_lists[NR_CPUS_MAX];

void arch_set_cpu_pcp(unsigned int cpu, void *lists)
{
	if (cpu >= NR_CPUS_MAX)
		return;
	cpu_pcp_lists[cpu] = lists;
	if (cpu == boot_cpu_local.cpu)
		boot_cpu_local.mm_pcp = lists;
}

void *mm_arch_cpu_pcp(unsigned int cpu)
{
	return cpu < NR_CPUS_MAX ? cpu_pcp_lists[cpu] : NULL;
}
