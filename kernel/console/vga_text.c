/* SPDX-License-Identifier: MIT */
/* The VGA text-mode console: characters go straight into the screen's cells. */
#include "kernel/console/vga_text.h"

static uint16_t blank(void) { return (uint16_t)(VGA_TEXT_ATTR << 8 | ' '); }

static void clear_row(struct vga_text *v, unsigned row)
{
	for (unsigned c = 0; c < v->cols; c++)
		v->cells[row * v->cols + c] = blank();
}

/* Moves every line up one and blanks the bottom one. */
static void scroll(struct vga_text *v)
{
	for (unsigned i = 0; i < (v->rows - 1) * v->cols; i++)
		v->cells[i] = v->cells[i + v->cols];
	clear_row(v, v->rows - 1);
}

static void newline(struct vga_text *v)
{
	v->col = 0;
	if (++v->row == v->rows) {
		scroll(v);
		v->row = v->rows - 1;
	}
}

static void put(struct vga_text *v, char ch)
{
	switch (ch) {
	case '\n': newline(v); return;
	case '\r': v->col = 0; return;
	case '\t':
		v->col = (v->col + 8) & ~7u;
		if (v->col > v->cols)
			v->col = v->cols;
		return;
	case '\b': if (v->col) v->col--; return;
	default:
		/* A full line wraps when the next character comes, so a line of exactly the screen's
		 * width followed by '\n' takes one row, not two. */
		if (v->col >= v->cols)
			newline(v);
		v->cells[v->row * v->cols + v->col] = (uint16_t)(VGA_TEXT_ATTR << 8 | (uint8_t)ch);
		v->col++;
	}
}

void vga_text_init(struct vga_text *v, volatile uint16_t *cells, unsigned cols, unsigned rows)
{
	*v = (struct vga_text){ .cells = cells, .cols = cols, .rows = rows };
	for (unsigned r = 0; r < rows; r++)
		clear_row(v, r);
}

void vga_text_write(struct vga_text *v, const char *s, size_t len)
{
	while (len--)
		put(v, *s++);
}
