/* SPDX-License-Identifier: MIT */
/*
 * The periodic tick: each CPU's local APIC timer interrupts it TIMER_HZ times a second. Each tick
 * counts in that CPU's tick count and calls the hook, if one is set.
 */
#ifndef KERNEL_TIMER_H
#define KERNEL_TIMER_H

#include <stdint.h>

#define TIMER_HZ 100 /* modest: an emulated CPU spends every tick's work in software */

/*
 * On the boot CPU, after apic_init(): measures the APIC timer's rate against the TSC (its rate is
 * the same on every CPU) and starts the boot CPU's timer. Interrupts stay as they are.
 */
void timer_init(void);

/* On every other CPU, after apic_init_cpu(): starts its timer at the rate timer_init() measured. */
void timer_start_cpu(void);

/*
 * Sets the function every CPU's timer interrupt calls, with that CPU's number, in interrupt
 * context (interrupts off, on the interrupted code's stack; it must not sleep or take a lock
 * that code holds without masking interrupts). NULL removes it. A tick already running may still
 * call the old hook once after this returns.
 */
void timer_set_hook(void (*fn)(unsigned int cpu));

/* The ticks CPU cpu has taken since its timer started (0 for a CPU that is not online). */
uint64_t timer_ticks(unsigned int cpu);

#endif
