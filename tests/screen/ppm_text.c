/* SPDX-License-Identifier: MIT */
/*
 * Reads the text the framebuffer console drew back out of a screen dump: takes a binary PPM (P6,
 * as QEMU's "screendump" writes), cuts it into cells of the console font from the top-left
 * corner, as kernel/console/fb_console.c lays them out, and prints each row of cells as a line of
 * ASCII (trailing blanks dropped; a cell that is no printable character prints as '?').
 *
 *   ppm_text SCREEN.ppm
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/console/psf.h"

struct image {
	unsigned w, h;
	unsigned char *rgb;
};

static int read_ppm(const char *path, struct image *im)
{
	FILE *f = fopen(path, "rb");
	unsigned maxval;

	if (!f)
		return perror(path), -1;
	if (fscanf(f, "P6 %u %u %u", &im->w, &im->h, &maxval) != 3 || maxval != 255 || fgetc(f) == EOF ||
	    im->w == 0 || im->h == 0 || im->w > 16384 || im->h > 16384) {
		fprintf(stderr, "%s: not a binary PPM (P6, maxval 255)\n", path);
		fclose(f);
		return -1;
	}
	size_t n = (size_t)im->w * im->h * 3;
	im->rgb = malloc(n);
	if (!im->rgb || fread(im->rgb, 1, n, f) != n) {
		fprintf(stderr, "%s: truncated (%ux%u)\n", path, im->w, im->h);
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

/* A pixel is lit when any channel is brighter than a quarter: the console draws grey on black. */
static int lit(const struct image *im, unsigned x, unsigned y)
{
	const unsigned char *p = im->rgb + ((size_t)y * im->w + x) * 3;
	return p[0] > 0x40 || p[1] > 0x40 || p[2] > 0x40;
}

/* True when the cell whose top-left pixel is (x0, y0) shows glyph exactly. */
static int cell_is(const struct image *im, const struct psf_font *f, unsigned x0, unsigned y0,
		   const unsigned char *glyph)
{
	for (unsigned y = 0; y < f->height; y++)
		for (unsigned x = 0; x < f->width; x++) {
			int on = (glyph[y * f->bytes_per_row + x / 8] >> (7 - x % 8)) & 1;
			if (on != lit(im, x0 + x, y0 + y))
				return 0;
		}
	return 1;
}

static char read_cell(const struct image *im, const struct psf_font *f, unsigned x0, unsigned y0)
{
	for (int c = ' '; c < 127; c++)
		if (cell_is(im, f, x0, y0, psf_glyph(f, (unsigned char)c)))
			return (char)c;
	return '?';
}

int main(int argc, char **argv)
{
	struct psf_font font;
	struct image im;
	const char *err;

	if (argc != 2) {
		fprintf(stderr, "usage: %s SCREEN.ppm\n", argv[0]);
		return 2;
	}
	if (psf_load(console_font_psf, console_font_psf_size, &font, &err) < 0) {
		fprintf(stderr, "ppm_text: the console font does not load: %s\n", err);
		return 1;
	}
	if (read_ppm(argv[1], &im) < 0)
		return 1;
	unsigned cols = im.w / font.width, rows = im.h / font.height;
	char *line = malloc(cols + 1);
	for (unsigned r = 0; line && r < rows; r++) {
		unsigned n = 0;
		for (unsigned c = 0; c < cols; c++)
			line[n++] = read_cell(&im, &font, c * font.width, r * font.height);
		while (n > 0 && line[n - 1] == ' ')
			n--;
		line[n] = 0;
		puts(line);
	}
	free(line);
	free(im.rgb);
	return 0;
}
