/* SPDX-License-Identifier: MIT */
/*
 * The local APIC of each CPU: its registers (through x2APIC MSRs when the CPU has x2APIC, else
 * through its memory-mapped xAPIC page), end of interrupt, and interprocessor interrupts.
 * Register offsets and bits from the Intel SDM vol. 3, chapter "Advanced Programmable Interrupt
 * Controller (APIC)".
 */
#ifndef KERNEL_APIC_H
#define KERNEL_APIC_H

#include <stdbool.h>
#include <stdint.h>

/* The interrupt vectors the kernel uses; the legacy 8259s sit at 0x20-0x2f (kernel/pic.h). */
#define APIC_VECTOR_TIMER    0xec
#define APIC_VECTOR_CALL     0xf0 /* kernel/smp.c: work has been posted for this CPU */
#define APIC_VECTOR_STOP     0xf1 /* kernel/smp.c: stop for good (a panic elsewhere) */
#define APIC_VECTOR_TLB      0xf2 /* kernel/tlb.c: flush a range of this CPU's TLB (a shootdown) */
#define APIC_VECTOR_MM_CALL  0xf3 /* kernel/cpu_call.c: run mm/'s function for this CPU (arch_run_on_cpus) */
#define APIC_VECTOR_SPURIOUS 0xff

/* Registers, by their xAPIC offset (the x2APIC MSR is 0x800 + offset / 16). */
#define APIC_ID        0x020
#define APIC_TPR       0x080
#define APIC_EOI       0x0b0
#define APIC_SVR       0x0f0
#define APIC_ICR       0x300
#define APIC_LVT_TIMER 0x320
#define APIC_LVT_ERROR 0x370
#define APIC_TIMER_INIT 0x380
#define APIC_TIMER_CUR 0x390
#define APIC_TIMER_DIV 0x3e0

#define APIC_LVT_MASKED   (1u << 16)
#define APIC_LVT_PERIODIC (1u << 17)

/*
 * On the boot CPU, once page tables can be allocated: picks x2APIC when CPUID has it (else maps
 * the xAPIC page, at the address IA32_APIC_BASE gives, uncached), then sets up this CPU's APIC.
 * Returns false, saying why, when there is no local APIC.
 */
bool apic_init(void);

/* On every other CPU: switches its APIC to the mode the boot CPU chose and sets it up. */
void apic_init_cpu(void);

/* True once apic_init() has set up the boot CPU's APIC. */
bool apic_enabled(void);

/* True when the APICs run in x2APIC mode. */
bool apic_is_x2apic(void);

uint32_t apic_read(uint32_t reg);
void apic_write(uint32_t reg, uint32_t value);

/* This CPU's APIC id (32 bits in x2APIC mode, 8 in xAPIC mode). */
uint32_t apic_id(void);

/* Ends the interrupt being handled on this CPU. */
void apic_eoi(void);

/*
 * Sends vector to the CPU with APIC id dest (a fixed interrupt, physical destination). Returns
 * false, sending nothing and saying why, when dest is not one CPU's id in this mode: above 254
 * in xAPIC mode (8 bits; 255 is the broadcast), 0xffffffff in x2APIC mode.
 */
bool apic_send_ipi(uint32_t dest, uint8_t vector);

/*
 * The start-up messages: INIT, and a start-up IPI that runs the CPU at page << 12 in real mode.
 * They refuse the destinations apic_send_ipi() refuses, the same way.
 */
bool apic_send_init(uint32_t dest);
bool apic_send_startup(uint32_t dest, uint8_t page);

#endif
