/* SPDX-License-Identifier: MIT */
/*
 * The rest of mm/arch.h for the AArch64 port kernel (the memmap's mapping is in mmu.c; printk,
 * snprintf and the memory functions are lib/'s, as in the x86 kernel): no vmalloc range, the
 * virtual counter as the slab's seed, and a panic that ends the run as failed.
 */
#include "mm/arch.h"

#include "lib/printk.h"
#include "tests/port/aarch64/port.h"

/* No vmalloc range: vmalloc() fails (said why), and mm/ never calls the four hooks. */
uintptr_t mm_vmalloc_start, mm_vmalloc_end;

int arch_vmalloc_map_page(uintptr_t va, phys_addr_t phys)
{
	panic("no vmalloc range: map %#lx -> %#llx", (unsigned long)va, (unsigned long long)phys);
}

void arch_vmalloc_unmap(uintptr_t start, uintptr_t end)
{
	panic("no vmalloc range: unmap %#lx-%#lx", (unsigned long)start, (unsigned long)end);
}

void arch_vmalloc_set_marker(uintptr_t va)
{
	panic("no vmalloc range: marker at %#lx", (unsigned long)va);
}

void arch_vmalloc_clear_marker(uintptr_t va, phys_addr_t phys)
{
	panic("no vmalloc range: marker at %#lx -> %#llx", (unsigned long)va, (unsigned long long)phys);
}

/* The generic timer's virtual count: ticks since reset, which vary with boot timing. */
unsigned long arch_random_seed(void)
{
	unsigned long count;

	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(count));
	return count;
}

/* mm/'s messages end without a newline: one is added. */
void panic(const char *fmt, ...)
{
	va_list ap;

	printk("PANIC: ");
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
	printk("\n");
	port_exit(false);
}
