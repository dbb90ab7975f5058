/* SPDX-License-Identifier: MIT */
/*
 * The kernel's consoles: the serial port and the screen (which keeps early output until it can
 * show it), registered with printk in that order.
 */
#include "kernel/console.h"

#include "kernel/console/screen.h"
#include "kernel/serial.h"
#include "lib/printk.h"

static struct console serial_console = { .name = "serial", .write = serial_write };
static struct console screen_console = { .name = "screen", .write = screen_console_write };

void consoles_register(void)
{
	register_console(&serial_console);
	register_console(&screen_console);
}
