/* SPDX-License-Identifier: MIT */
/*
 * The EFI loader's messages: every line goes to the UEFI console and to the serial port COM1, so a
 * failure can be read on a screen and in a serial log alike.
 */
#ifndef BOOT_EFI_SAY_H
#define BOOT_EFI_SAY_H

#include <efi.h>

/*
 * Finds out where messages can go: programs COM1 (115200 8N1) when a UART answers there and the
 * firmware does not already copy its console to a serial port (then ConOut reaches it).
 */
void say_init(void);

/* Prints a message formatted like gnu-efi's Print() (%a ASCII string, %lx, %d, %r status ...). */
void say(const CHAR16 *fmt, ...);

/*
 * From now on messages go to COM1 only: called once ExitBootServices() has been tried, after which
 * the console protocol may no longer work.
 */
void say_serial_only(void);

#endif
