/* SPDX-License-Identifier: MIT */
/* Per-CPU data (kernel/percpu.h): the boot CPU's area, and pointing GS at an area. */
#include "kernel/percpu.h"

#include "kernel/x86.h"

#define MSR_GS_BASE 0xc0000101u

extern char kernel_stack_bottom[], kernel_stack_top[]; /* boot/entry.asm */

struct cpu_local boot_cpu_local = {
	.stack_lo = (uintptr_t)kernel_stack_bottom,
	.stack_hi = (uintptr_t)kernel_stack_top,
	.irq_off = 1,
};

void percpu_install(struct cpu_local *area)
{
	area->self = area;
	area->irq_off = 1; /* a CPU starts with interrupts off (struct cpu_local) */
	wrmsr(MSR_GS_BASE, (uintptr_t)area);
}
