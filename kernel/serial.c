/* SPDX-License-Identifier: MIT */
/* The 16550 UART on COM1 at 115200 baud, 8N1, polled: the console every report goes to. */
#include "kernel/serial.h"

#include "kernel/x86.h"

#define COM1 0x3f8
#define REG_DATA 0
#define REG_IER 1
#define REG_FCR 2
#define REG_LCR 3
#define REG_MCR 4
#define REG_LSR 5
#define LSR_THR_EMPTY 0x20

static bool serial_present;

bool serial_init(void)
{
	outb(COM1 + REG_IER, 0x00);    /* no interrupts: we poll */
	outb(COM1 + REG_LCR, 0x80);    /* divisor latch on */
	outb(COM1 + REG_DATA, 1);      /* 115200 / 1 */
	outb(COM1 + REG_IER, 0);
	outb(COM1 + REG_LCR, 0x03);    /* 8 bits, no parity, 1 stop bit */
	outb(COM1 + REG_FCR, 0xc7);    /* FIFOs on and cleared */
	outb(COM1 + REG_MCR, 0x03);    /* DTR, RTS */
	/* A port that is absent reads back all ones: don't wait forever on it. */
	serial_present = inb(COM1 + REG_LSR) != 0xff;
	return serial_present;
}

static void serial_putc(char c)
{
	for (int spins = 0; spins < 100000 && !(inb(COM1 + REG_LSR) & LSR_THR_EMPTY); spins++)
		;
	outb(COM1 + REG_DATA, (uint8_t)c);
}

void serial_write(const char *s, size_t len)
{
	if (!serial_present)
		return;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\n')
			serial_putc('\r');
		serial_putc(s[i]);
	}
}
