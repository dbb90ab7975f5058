/* SPDX-License-Identifier: MIT */
/*
 * A text console on a VGA text-mode screen: cells of two bytes (character, attribute) in
 * video memory, 80x25 under the BIOS. Writes text, wraps long lines, scrolls.
 */
#ifndef KERNEL_CONSOLE_VGA_TEXT_H
#define KERNEL_CONSOLE_VGA_TEXT_H

#include <stddef.h>
#include <stdint.h>

#define VGA_TEXT_ATTR 0x07   /* light grey on black */

struct vga_text {
	volatile uint16_t *cells;     /* the screen: rows * cols cells, row after row */
	unsigned cols, rows;
	unsigned col, row;            /* where the next character goes */
};

/* Takes over the screen at cells (cols x rows) and clears it. */
void vga_text_init(struct vga_text *v, volatile uint16_t *cells, unsigned cols, unsigned rows);

/* Writes len bytes: '\n' starts a line, '\r' returns to its start, '\t' moves to the next
 * multiple of 8, '\b' moves back; a full line continues on the next when another character
 * comes, and the screen scrolls up from the bottom line. */
void vga_text_write(struct vga_text *v, const char *s, size_t len);

#endif
