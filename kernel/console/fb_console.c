/* SPDX-License-Identifier: MIT */
/*
 * The framebuffer console: text kept in a grid of cells, drawn glyph by glyph with the PSF font.
 * Scrolling moves the grid, and the redraw after each write touches only the cells whose
 * character changed (blank lines stay untouched), never reading video memory.
 */
#include "kernel/console/fb_console.h"
#include "lib/string.h"

/* One colour channel of 0xRRGGBB, scaled to a field of size bits at pos. */
static uint32_t channel(uint32_t rgb, unsigned shift, unsigned pos, unsigned size)
{
	uint32_t v = (rgb >> shift) & 0xff;
	v = size <= 8 ? v >> (8 - size) : v << (size - 8);
	return v << pos;
}

static uint32_t pixel_value(const struct boot_framebuffer *fb, uint32_t rgb)
{
	return channel(rgb, 16, fb->red_pos, fb->red_size) | channel(rgb, 8, fb->green_pos, fb->green_size) |
	       channel(rgb, 0, fb->blue_pos, fb->blue_size);
}

static void store(uint8_t *p, unsigned bytes, uint32_t v)
{
	if (bytes == 4) {
		*(volatile uint32_t *)p = v;
	} else if (bytes == 2) {
		*(volatile uint16_t *)p = (uint16_t)v;
	} else {
		((volatile uint8_t *)p)[0] = (uint8_t)v;
		((volatile uint8_t *)p)[1] = (uint8_t)(v >> 8);
		((volatile uint8_t *)p)[2] = (uint8_t)(v >> 16);
	}
}

/* Draws character ch in cell (col, row). */
static void draw_cell(struct fb_console *c, unsigned col, unsigned row, uint8_t ch)
{
	const struct psf_font *f = c->font;
	const uint8_t *glyph = psf_glyph(f, ch);
	unsigned bytes = c->fb.bpp / 8;

	for (unsigned y = 0; y < f->height; y++, glyph += f->bytes_per_row) {
		uint8_t *p = c->pixels + (size_t)(row * f->height + y) * c->fb.pitch +
			     (size_t)col * f->width * bytes;
		for (unsigned x = 0; x < f->width; x++, p += bytes)
			store(p, bytes, (glyph[x / 8] >> (7 - x % 8)) & 1 ? c->fg : c->bg);
	}
}

/* Redraws the cells whose character differs from what is on screen. */
static void flush(struct fb_console *c)
{
	for (unsigned r = 0; r < c->rows; r++) {
		for (unsigned col = 0; col < c->cols; col++) {
			if (c->text[r][col] == c->shown[r][col])
				continue;
			draw_cell(c, col, r, c->text[r][col]);
			c->shown[r][col] = c->text[r][col];
		}
	}
}

static void newline(struct fb_console *c)
{
	c->col = 0;
	if (++c->row < c->rows)
		return;
	memmove(c->text[0], c->text[1], (size_t)(c->rows - 1) * FB_CONSOLE_MAX_COLS);
	memset(c->text[c->rows - 1], ' ', FB_CONSOLE_MAX_COLS);
	c->row = c->rows - 1;
}

static void put(struct fb_console *c, char ch)
{
	switch (ch) {
	case '\n': newline(c); return;
	case '\r': c->col = 0; return;
	case '\t':
		c->col = (c->col + 8) & ~7u;
		if (c->col > c->cols)
			c->col = c->cols;
		return;
	case '\b': if (c->col) c->col--; return;
	default:
		/* A full line wraps when the next character comes (as on the VGA text console). */
		if (c->col >= c->cols)
			newline(c);
		c->text[c->row][c->col++] = (uint8_t)ch;
	}
}

/* Paints every pixel of the screen's visible width in the background colour. */
static void clear_screen(struct fb_console *c)
{
	unsigned bytes = c->fb.bpp / 8;

	for (uint32_t y = 0; y < c->fb.height; y++) {
		uint8_t *p = c->pixels + (size_t)y * c->fb.pitch;
		for (uint32_t x = 0; x < c->fb.width; x++, p += bytes)
			store(p, bytes, c->bg);
	}
}

static const char *check_framebuffer(const struct boot_framebuffer *fb, const struct psf_font *font)
{
	if (fb->type != 1)
		return "not a direct RGB framebuffer";
	if (fb->bpp != 16 && fb->bpp != 24 && fb->bpp != 32)
		return "not 16, 24 or 32 bits per pixel";
	if (fb->red_size == 0 || fb->green_size == 0 || fb->blue_size == 0)
		return "a colour field has no bits";
	if ((uint64_t)fb->pitch < (uint64_t)fb->width * (fb->bpp / 8))
		return "pitch smaller than a line of pixels";
	if (fb->width < font->width || fb->height < font->height)
		return "smaller than one character";
	return NULL;
}

int fb_console_init(struct fb_console *c, const struct boot_framebuffer *fb, void *pixels,
		    const struct psf_font *font, const char **err)
{
	if ((*err = check_framebuffer(fb, font)) != NULL)
		return -1;
	c->pixels = pixels;
	c->fb = *fb;
	c->font = font;
	c->fg = pixel_value(fb, FB_CONSOLE_FG);
	c->bg = pixel_value(fb, FB_CONSOLE_BG);
	c->cols = fb->width / font->width;
	c->rows = fb->height / font->height;
	if (c->cols > FB_CONSOLE_MAX_COLS)
		c->cols = FB_CONSOLE_MAX_COLS;
	if (c->rows > FB_CONSOLE_MAX_ROWS)
		c->rows = FB_CONSOLE_MAX_ROWS;
	c->col = c->row = 0;
	memset(c->text, ' ', sizeof(c->text));
	memset(c->shown, ' ', sizeof(c->shown));
	clear_screen(c);
	return 0;
}

void fb_console_clear(struct fb_console *c)
{
	c->col = c->row = 0;
	memset(c->text, ' ', sizeof(c->text));
	flush(c);
}

void fb_console_write(struct fb_console *c, const char *s, size_t len)
{
	while (len--)
		put(c, *s++);
	flush(c);
}
