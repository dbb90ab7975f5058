/* SPDX-License-Identifier: MIT */
/*
 * The legacy 8259 pair (kernel/pic.h). Initialization words from the 8259A data sheet: ICW1
 * starts the sequence, ICW2 sets the vector base, ICW3 wires the slave to the master's IRQ 2,
 * ICW4 selects 8086 mode; then the mask register (OCW1) masks every line.
 */
#include "kernel/pic.h"

#include "kernel/traps.h"
#include "kernel/x86.h"

#define PIC1_CMD  0x20
#define PIC1_DATA 0x21
#define PIC2_CMD  0xa0
#define PIC2_DATA 0xa1

#define ICW1_INIT_ICW4 0x11
#define ICW4_8086      0x01

/* A spurious IRQ 7 or 15 is not a real interrupt: nothing to acknowledge at the 8259. */
static void ignore_spurious(unsigned int vector)
{
	(void)vector;
}

/* Port 0x80 is unused: writing to it gives the old 8259s time between commands. */
static void io_wait(void) { outb(0x80, 0); }

void pic_disable(void)
{
	static const uint16_t cmd[2] = { PIC1_CMD, PIC2_CMD }, data[2] = { PIC1_DATA, PIC2_DATA };
	static const uint8_t icw3[2] = { 1u << 2, 2 }; /* master: slave on IRQ 2; slave: its id */

	for (int i = 0; i < 2; i++) {
		outb(cmd[i], ICW1_INIT_ICW4);
		io_wait();
		outb(data[i], (uint8_t)(PIC_VECTOR_BASE + 8 * i));
		io_wait();
		outb(data[i], icw3[i]);
		io_wait();
		outb(data[i], ICW4_8086);
		io_wait();
		outb(data[i], 0xff);
	}
	irq_register(PIC_VECTOR_BASE + 7, ignore_spurious);
	irq_register(PIC_VECTOR_BASE + 15, ignore_spurious);
}
