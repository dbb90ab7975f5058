/* SPDX-License-Identifier: MIT */
/*
 * The rest of mm/arch.h for the AArch64 port kernel (the memmap's mapping is in mmu.c, vmalloc's
 * in vmalloc.c; printk, snprintf and the memory functions are lib/'s, as in the x86 kernel): the
 * virtual counter as the slab's seed, the cross-CPU call of its one CPU, and a panic that ends the run as failed.
 */
#include "mm/arch.h"

#include "lib/printk.h"
#include "tests/port/aarch64/port.h"

/* The generic timer's virtual count: ticks since reset, which vary with boot timing. */
unsigned long arch_random_seed(void)
{
	unsigned long count;

	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(count));
	return count;
}

/* One CPU: its part runs here, with interrupts masked as in an interrupt handler. */
void arch_run_on_cpus(void (*fn)(unsigned int cpu, void *arg), void *arg)
{
	unsigned long flags = arch_irq_save();

	fn(0, arg);
	arch_irq_restore(flags);
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
