/* SPDX-License-Identifier: MIT */
/*
 * Per-CPU data: each CPU's struct cpu_local, reached through the GS segment base, which points
 * at the structure itself (so gs:0 holds its own address). The boot CPU's is static and set up
 * first thing in kmain(), before anything that asks which CPU it runs on.
 */
#ifndef KERNEL_PERCPU_H
#define KERNEL_PERCPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The most CPUs the kernel runs: a sanity ceiling, not a size. Every per-CPU array (the areas
 * below, mm/'s per-CPU lists and slab slots) is sized at boot for the CPUs actually found; CPUs
 * the firmware lists past this are left halted, and the boot says so (kernel/smp.h).
 */
#define NR_CPUS_MAX 1024

struct cpu_local {
	struct cpu_local *self; /* gs:0: this structure's own address */
	unsigned int cpu;       /* this CPU's number: 0 for the boot CPU, then 1, 2, ... */
	unsigned int apic_id;   /* its local APIC ID */
	uintptr_t stack_lo, stack_hi; /* its kernel stack, [lo, hi): where backtraces may read */
	unsigned int irq_depth; /* interrupt handlers running (nested), kept by kernel/traps.c */
	uint64_t ticks;         /* timer interrupts taken (kernel/timer.c); only this CPU writes it */
	unsigned long tlb_received; /* TLB shootdowns flushed here (kernel/tlb.c); only this CPU writes it */
	void *mm_pcp;           /* mm/'s per-CPU page lists of this CPU (arch_this_cpu_pcp(), kernel/mm_env.h) */
	/*
	 * Interrupts' mirror: 0 only while they are on (IF set). Nonzero does not say they are off:
	 * it only sends mm/'s fast paths the saving way (arch_irq_off_if_on(), kernel/mm_env.h).
	 * kernel/spinlock.h's masking keeps it, kernel/traps.c sets it for every handler, and
	 * percpu_install() sets it: a CPU starts with interrupts off.
	 */
	unsigned int irq_off;
};

/* The boot CPU's area (CPU 0). */
extern struct cpu_local boot_cpu_local;

/* Points this CPU's GS base at area (area->self is set here). */
void percpu_install(struct cpu_local *area);

/* This CPU's area and number; one instruction each. */
static inline struct cpu_local *this_cpu_local(void)
{
	struct cpu_local *p;

	__asm__("movq %%gs:%c1, %0" : "=r"(p) : "i"(offsetof(struct cpu_local, self)));
	return p;
}

/*
 * The load writes the 32-bit half of a 64-bit register, which zeroes the upper half; told so
 * (the unreachable branch), the compiler indexes per-CPU arrays with the register as it is,
 * without an instruction to zero-extend it.
 */
static inline unsigned int this_cpu_id(void)
{
	unsigned long cpu;

	__asm__("movl %%gs:%c1, %k0" : "=r"(cpu) : "i"(offsetof(struct cpu_local, cpu)));
	if (cpu > 0xffffffffUL)
		__builtin_unreachable();
	return (unsigned int)cpu;
}

/* Is this CPU running an interrupt handler? */
static inline bool in_interrupt(void)
{
	unsigned int depth;

	__asm__ volatile("movl %%gs:%c1, %0" : "=r"(depth) : "i"(offsetof(struct cpu_local, irq_depth)));
	return depth != 0;
}

#endif
