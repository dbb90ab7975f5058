/* SPDX-License-Identifier: MIT */
/* COM1 serial port. */
#ifndef KERNEL_SERIAL_H
#define KERNEL_SERIAL_H

#include <stdbool.h>
#include <stddef.h>

/* Programs COM1 for 115200 8N1; returns false when no UART answers. */
bool serial_init(void);

/* Writes len bytes, turning "\n" into "\r\n". Does nothing before serial_init() or without a UART. */
void serial_write(const char *s, size_t len);

#endif
