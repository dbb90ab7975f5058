/* SPDX-License-Identifier: MIT */
/* The kernel's consoles for printk. */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

/* Registers the serial port and the screen with printk (call once the serial port is set up). */
void consoles_register(void);

/* From now on, consoles write without their lock: a stopped CPU may hold it (kernel/panic.c). */
void console_panic(void);

#endif
