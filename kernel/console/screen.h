/* SPDX-License-Identifier: MIT */
/*
 * The screen console: everything printed on the serial port also goes to the screen, for
 * machines without a serial port. Under the BIOS it writes VGA text mode; under UEFI it draws into
 * the framebuffer the boot loader passed (multiboot2 tag 8) with the embedded PSF font.
 */
#ifndef KERNEL_CONSOLE_SCREEN_H
#define KERNEL_CONSOLE_SCREEN_H

#include <stddef.h>
#include "kernel/bootinfo.h"

/*
 * Picks the screen from the boot information: a direct RGB framebuffer, an EGA text framebuffer,
 * or, with no framebuffer tag and no EFI system table (so a BIOS machine), VGA text at 0xb8000.
 * "screen=off" on the command line keeps the screen out of it. Shows what was written before
 * (the last 4 KiB of it), then prints one line saying which screen is used, or why none.
 * Needs the direct map to cover the framebuffer.
 */
void screen_console_init(const struct boot_info *bi);

/* Writes len bytes on the screen. Before screen_console_init() it only keeps them for it. */
void screen_console_write(const char *s, size_t len);

#endif
