/* SPDX-License-Identifier: MIT */
/* CPU exceptions: the IDT, the saved register frame, and a way for self-tests to expect a fault. */
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

/* What the last expected exception looked like. */
struct trap_record {
	uint64_t vector, error_code, rip, cr2;
};

/* Loads an IDT whose 32 exception vectors report and stop (or resume an expected fault). */
void idt_init(void);

/*
 * Arms a one-shot expectation: the next exception with this vector is reported as a KTAP comment
 * and recorded in *seen instead of stopping the kernel. Faults inside probe_read64()/probe_ud2()
 * resume at their recovery point; a breakpoint resumes after the int3.
 */
void trap_expect(unsigned int vector, struct trap_record *seen);

/* Disarms the expectation; returns true if the expected exception happened. */
bool trap_expect_done(void);

/* Reads 8 bytes at addr; returns 0, or -1 if the read faulted (with an expectation armed). */
int probe_read64(const volatile void *addr, uint64_t *val);

/* Executes ud2; returns -1 after an expected #UD. */
int probe_ud2(void);

#endif
