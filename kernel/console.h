/* SPDX-License-Identifier: MIT */
/* The kernel's consoles for printk. */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

/* Registers the serial port and the screen with printk (call once the serial port is set up). */
void consoles_register(void);

#endif
