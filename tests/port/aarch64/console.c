/* SPDX-License-Identifier: MIT */
/*
 * The PL011 UART as printk's console. QEMU's model needs no set-up (the firmware would program
 * the baud rate on a board); we wait for room in the transmit FIFO and write a byte, "\n" as
 * "\r\n" like the x86 kernel's serial port.
 */
#include "tests/port/aarch64/port.h"

#include <stddef.h>

#include "lib/printk.h"

#define UART_DR 0x00       /* data register */
#define UART_FR 0x18       /* flag register */
#define UART_FR_TXFF 0x20  /* transmit FIFO full */

static volatile uint32_t *uart;

static void put_byte(char c)
{
	while (uart[UART_FR / 4] & UART_FR_TXFF)
		;
	uart[UART_DR / 4] = (uint8_t)c;
}

static void pl011_write(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\n')
			put_byte('\r');
		put_byte(s[i]);
	}
}

static struct console pl011_console = { .name = "pl011", .write = pl011_write };

void pl011_console_init(uint64_t base)
{
	uart = (volatile uint32_t *)(uintptr_t)base;
	register_console(&pl011_console);
}
