/* SPDX-License-Identifier: MIT */
/*
 * A text console drawn into a linear framebuffer (direct RGB, 16, 24 or 32 bits per pixel) with
 * a PSF bitmap font. It keeps the text in a grid of cells and, after each write, redraws only
 * the cells that changed, so scrolling never reads video memory back.
 */
#ifndef KERNEL_CONSOLE_FB_CONSOLE_H
#define KERNEL_CONSOLE_FB_CONSOLE_H

#include <stddef.h>
#include <stdint.h>
#include "kernel/bootinfo.h"
#include "kernel/console/psf.h"

/* The largest text grid kept; a bigger screen uses its top-left part (e.g. 240x100 cells is
 * 1920x1600 pixels with an 8x16 font). */
#define FB_CONSOLE_MAX_COLS 240
#define FB_CONSOLE_MAX_ROWS 100

#define FB_CONSOLE_FG 0xc0c0c0   /* light grey, as 0xRRGGBB */
#define FB_CONSOLE_BG 0x000000

struct fb_console {
	uint8_t *pixels;                  /* the framebuffer, mapped */
	struct boot_framebuffer fb;       /* its geometry and pixel format */
	const struct psf_font *font;
	uint32_t fg, bg;                  /* the two colours in the framebuffer's pixel format */
	unsigned cols, rows, col, row;
	uint8_t text[FB_CONSOLE_MAX_ROWS][FB_CONSOLE_MAX_COLS];   /* what should be on screen */
	uint8_t shown[FB_CONSOLE_MAX_ROWS][FB_CONSOLE_MAX_COLS];  /* what is on screen */
};

/*
 * Takes over the framebuffer fb, mapped at pixels, and clears it. Returns 0, or -1 with *err
 * saying why it cannot be used (not direct RGB, an unsupported depth, a pitch too small for
 * the width, smaller than one character).
 */
int fb_console_init(struct fb_console *c, const struct boot_framebuffer *fb, void *pixels,
		    const struct psf_font *font, const char **err);

/* Blanks every cell and puts the cursor in the top-left corner. */
void fb_console_clear(struct fb_console *c);

/* Writes len bytes, with the same control characters as the VGA text console, and scrolls. */
void fb_console_write(struct fb_console *c, const char *s, size_t len);

#endif
