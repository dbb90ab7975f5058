/* SPDX-License-Identifier: MIT */
/* console_write(): where printk's output goes. Every console gets every byte. */
#include "kernel/console/screen.h"
#include "kernel/serial.h"
#include "lib/printk.h"

void console_write(const char *s, size_t len)
{
	serial_write(s, len);
	screen_console_write(s, len);
}
