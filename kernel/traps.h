/* SPDX-License-Identifier: MIT */
/*
 * CPU exceptions and interrupts: the IDT, the saved register frame, interrupt handlers by vector,
 * and a way for self-tests to expect a fault.
 */
#ifndef KERNEL_TRAPS_H
#define KERNEL_TRAPS_H

#include <stdbool.h>
#include <stdint.h>

/* Registers as kernel/trap_entry.asm saves them, lowest address first. */
struct trap_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error_code;
	uint64_t rip, cs, rflags, rsp, ss; /* pushed by the CPU */
};

/* The most frames of the backtrace a trap_record keeps. */
#define TRAP_RECORD_FRAMES 8

/* What the last expected exception looked like. */
struct trap_record {
	uint64_t vector, error_code, rip, cr2;
	uintptr_t trace[TRAP_RECORD_FRAMES]; /* the return addresses from RBP, as the report prints */
	int trace_len;
};

/*
 * Builds and loads the IDT: the 32 exception vectors report and stop (or resume an expected
 * fault), vectors 32-255 go to the handler registered for them; the double fault runs on its own
 * stack (kernel/gdt.h). Call once, on the boot CPU.
 */
void idt_init(void);

/* Loads the IDT idt_init() built on this CPU (the other CPUs share it). */
void idt_load(void);

/*
 * Called with the vector, in interrupt context (interrupts off), for an interrupt on any CPU; it
 * acknowledges the interrupt itself (apic_eoi(), kernel/apic.h) when it must.
 */
typedef void irq_handler_fn(unsigned int vector);

/* Sends interrupt vector (32-255) to fn from now on. An interrupt with no handler is a panic. */
void irq_register(unsigned int vector, irq_handler_fn *fn);

/*
 * Arms a one-shot expectation: the next exception with this vector is reported as a KTAP comment
 * (the same report, backtrace included, that an unexpected one prints before the panic) and
 * recorded in *seen instead of stopping the kernel. Faults inside probe_read64(),
 * probe_write64() and probe_ud2() resume at their recovery point; a breakpoint resumes after the
 * int3. The expectation is the kernel's, not a CPU's: the fault may come on any CPU.
 */
void trap_expect(unsigned int vector, struct trap_record *seen);

/* Disarms the expectation; returns true if the expected exception happened. */
bool trap_expect_done(void);

/* Reads 8 bytes at addr; returns 0, or -1 if the read faulted (with an expectation armed). */
int probe_read64(const volatile void *addr, uint64_t *val);

/*
 * Writes val to the 8 bytes at addr; returns 0, or -1 if the write faulted (with an expectation
 * armed: a #PF on a read-only or unmapped page), in which case nothing was written.
 */
int probe_write64(volatile void *addr, uint64_t val);

/* Executes ud2; returns -1 after an expected #UD. */
int probe_ud2(void);

#endif
