/* SPDX-License-Identifier: MIT */
/* The legacy 8259 interrupt controllers: moved off the exception vectors and silenced. */
#ifndef KERNEL_PIC_H
#define KERNEL_PIC_H

#define PIC_VECTOR_BASE 0x20 /* IRQ 0-15 would arrive at vectors 0x20-0x2f */

/*
 * Reprograms both 8259s to deliver at PIC_VECTOR_BASE (the BIOS leaves IRQ 0-7 on vectors 8-15,
 * which are exceptions) and masks every line: the kernel uses the local APIC alone. The spurious
 * IRQ 7 and 15 a 8259 may still raise are ignored.
 */
void pic_disable(void);

#endif
