/* SPDX-License-Identifier: MIT */
/*
 * The screen console: everything printed on the serial port also goes to the screen, for
 * machines without a serial port. Under the BIOS it writes VGA text mode; under UEFI it draws into
 * the framebuffer the boot loader passed (multiboot2 tag 8) with the embedded PSF font.
 */
#ifndef KERNEL_CONSOLE_SCREEN_H
#define KERNEL_CONSOLE_SCREEN_H

#include <stdbool.h>
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

/*
 * Writes len bytes on the screen, lines wider than 80 columns wrapped (kernel/console/
 * screen_lines.h). Before screen_console_init() it only keeps them for it.
 */
void screen_console_write(const char *s, size_t len);

/*
 * quiet true: from now on the screen shows only KTAP lines (indented by four spaces), for a
 * self-test that provokes reports on purpose; the serial port still gets everything.
 * quiet false: back to everything, with a line on the screen saying how many reports it kept off.
 */
void screen_console_quiet(bool quiet);

/* The number of reports ("BUG: ..." lines: bad page, slab) kept off the screen while quiet, since boot. */
unsigned long screen_console_expected_reports(void);

/*
 * Clears the screen and shows text from its top-left corner: the page a person reads when the run
 * ends. The serial port does not get it. Does nothing without a screen.
 *
 * screen_console_quiet() and screen_console_page() write without the console lock: call them
 * while the other CPUs print nothing (between self-tests, when they wait for work).
 */
void screen_console_page(const char *text, size_t len);

#endif
