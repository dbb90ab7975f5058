/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of the screen console's parts: the PSF reader on the embedded font and on crafted
 * fonts, the framebuffer console drawing into a framebuffer in memory, VGA text scrolling and
 * wrapping, and what the screen shows of each line (wrapped at 80 columns, expected reports out).
 */
#include "kernel/console/fb_console.h"
#include "kernel/console/psf.h"
#include "kernel/console/screen_lines.h"
#include "kernel/console/vga_text.h"
#include "tests/ktest/ktest.h"
#include "lib/string.h"

static struct psf_font font;
static struct fb_console fbc;
static uint32_t pixels32[2 * 16 * 4 * 8];   /* up to 4 cells wide, 2 rows of an 8x16 font */
static uint16_t pixels16[4 * 8 * 16];
static uint16_t vga_cells[80 * 25];

static bool load_font(struct ktest *t)
{
	const char *err = NULL;
	int rc = psf_load(console_font_psf, console_font_psf_size, &font, &err);
	return KT_EXPECT(t, rc == 0, "the embedded font did not load: %s", err ? err : "");
}

/* An 8-bit-wide framebuffer description: 32 bits per pixel, 0xRRGGBB. */
static struct boot_framebuffer fb32(unsigned cols, unsigned rows)
{
	return (struct boot_framebuffer){ .addr = 1, .pitch = cols * 8 * 4, .width = cols * 8,
		.height = rows * 16, .bpp = 32, .type = 1, .red_pos = 16, .red_size = 8,
		.green_pos = 8, .green_size = 8, .blue_pos = 0, .blue_size = 8 };
}

/* True when cell (col, row) of a 32-bit framebuffer shows character ch in fg on bg. */
static bool cell_shows(const uint32_t *px, unsigned pitch_px, unsigned col, unsigned row, char ch)
{
	const uint8_t *g = psf_glyph(&font, (unsigned char)ch);
	for (unsigned y = 0; y < font.height; y++)
		for (unsigned x = 0; x < font.width; x++) {
			bool on = (g[y * font.bytes_per_row + x / 8] >> (7 - x % 8)) & 1;
			uint32_t want = on ? FB_CONSOLE_FG : FB_CONSOLE_BG;
			if (px[(row * font.height + y) * pitch_px + col * font.width + x] != want)
				return false;
		}
	return true;
}

static void embedded_font_maps_ascii(struct ktest *t)
{
	if (!load_font(t))
		return;
	KT_EXPECT(t, font.width == 8 && font.height == 16, "font is %ux%u, expected 8x16", font.width,
		  font.height);
	KT_EXPECT(t, font.latin1['A'] != font.latin1['B'], "'A' and 'B' share glyph %u", font.latin1['A']);
	const uint8_t *a = psf_glyph(&font, 'A'), *sp = psf_glyph(&font, ' ');
	unsigned a_bits = 0, sp_bits = 0;
	for (unsigned i = 0; i < font.bytes_per_glyph * 8; i++) {
		a_bits += (a[i / 8] >> (i % 8)) & 1;
		sp_bits += (sp[i / 8] >> (i % 8)) & 1;
	}
	KT_EXPECT(t, a_bits > 10, "'A' has only %u pixels set", a_bits);
	KT_EXPECT_EQ(t, sp_bits, 0);
}

static void psf_rejects_bad_magic_and_truncation(struct ktest *t)
{
	static const uint8_t junk[64] = { 'n', 'o', 't', 'a', 'f', 'o', 'n', 't' };
	struct psf_font f;
	const char *err = NULL;

	KT_EXPECT(t, psf_load(junk, sizeof(junk), &f, &err) < 0 && err, "junk was accepted");
	err = NULL;
	KT_EXPECT(t, psf_load(console_font_psf, 200, &f, &err) < 0 && err,
		  "a font cut to 200 bytes was accepted");
}

/* A PSF2 font of two 8x2 glyphs whose table maps glyph 1 to 'x' and U+00E9, and a sequence. */
static void psf2_unicode_table_maps_characters(struct ktest *t)
{
	static const uint8_t f2[] = {
		0x72, 0xb5, 0x4a, 0x86, 0, 0, 0, 0, 32, 0, 0, 0, 1, 0, 0, 0,    /* magic, version, size, flags */
		2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 8, 0, 0, 0,                 /* 2 glyphs of 2 bytes, 8x2 */
		0x00, 0x00, 0xff, 0x81,                                         /* glyphs 0 and 1 */
		'?', 0xff,                                                      /* glyph 0: '?' */
		'x', 0xc3, 0xa9, 0xfe, 'a', 'b', 0xff,                          /* glyph 1: 'x', e-acute, "ab" */
	};
	struct psf_font f;
	const char *err = "";

	KT_ASSERT(t, psf_load(f2, sizeof(f2), &f, &err) == 0, "load failed: %s", err);
	KT_EXPECT_EQ(t, f.width, 8);
	KT_EXPECT_EQ(t, f.height, 2);
	KT_EXPECT_EQ(t, f.latin1['x'], 1);
	KT_EXPECT_EQ(t, f.latin1[0xe9], 1);
	KT_EXPECT_EQ(t, f.latin1['a'], 0);   /* only in a sequence: falls back to '?' */
	KT_EXPECT_EQ(t, psf_glyph(&f, 'x')[1], 0x81);
}

static void fb_console_draws_a_character(struct ktest *t)
{
	struct boot_framebuffer fb = fb32(2, 1);
	const char *err = "";

	if (!load_font(t))
		return;
	memset(pixels32, 0x55, sizeof(pixels32));
	KT_ASSERT(t, fb_console_init(&fbc, &fb, pixels32, &font, &err) == 0, "init failed: %s", err);
	KT_EXPECT(t, cell_shows(pixels32, 16, 1, 0, ' '), "init did not clear the screen");
	fb_console_write(&fbc, "A", 1);
	KT_EXPECT(t, cell_shows(pixels32, 16, 0, 0, 'A'), "cell (0,0) does not show 'A'");
	KT_EXPECT(t, cell_shows(pixels32, 16, 1, 0, ' '), "cell (1,0) is not blank");
}

static void fb_console_wraps_and_scrolls(struct ktest *t)
{
	struct boot_framebuffer fb = fb32(4, 2);
	const char *err = "";

	if (!load_font(t))
		return;
	KT_ASSERT(t, fb_console_init(&fbc, &fb, pixels32, &font, &err) == 0, "init failed: %s", err);
	fb_console_write(&fbc, "ab\ncd\nefghij", 12);
	/* "ab" scrolled away, then "cd"; "efgh" filled its line and "ij" wrapped. */
	const char *want[2] = { "efgh", "ij  " };
	for (unsigned r = 0; r < 2; r++)
		for (unsigned c = 0; c < 4; c++)
			KT_EXPECT(t, cell_shows(pixels32, 32, c, r, want[r][c]), "cell (%u,%u) is not '%c'", c,
				  r, want[r][c]);
}

static void fb_console_draws_16_bit_pixels(struct ktest *t)
{
	struct boot_framebuffer fb = { .addr = 1, .pitch = 4 * 8 * 2, .width = 4 * 8, .height = 16,
		.bpp = 16, .type = 1, .red_pos = 11, .red_size = 5, .green_pos = 5, .green_size = 6,
		.blue_pos = 0, .blue_size = 5 };
	const char *err = "";
	unsigned on = 0, wrong = 0;

	if (!load_font(t))
		return;
	KT_ASSERT(t, fb_console_init(&fbc, &fb, pixels16, &font, &err) == 0, "init failed: %s", err);
	fb_console_write(&fbc, "#", 1);
	for (unsigned i = 0; i < 8 * 16; i++) {
		uint16_t p = pixels16[(i / 8) * 32 + i % 8];
		on += p == 0xc618;
		wrong += p != 0xc618 && p != 0;
	}
	KT_EXPECT(t, on > 10 && wrong == 0, "'#' drew %u grey (0xc618) and %u other pixels", on, wrong);
}

static void fb_console_refuses_unusable_framebuffers(struct ktest *t)
{
	struct boot_framebuffer fb = fb32(2, 1);
	const char *err = NULL;

	if (!load_font(t))
		return;
	fb.type = 0;
	KT_EXPECT(t, fb_console_init(&fbc, &fb, pixels32, &font, &err) < 0 && err, "indexed colour accepted");
	fb = fb32(2, 1);
	fb.bpp = 8;
	KT_EXPECT(t, fb_console_init(&fbc, &fb, pixels32, &font, &err) < 0, "8 bits per pixel accepted");
	fb = fb32(2, 1);
	fb.pitch = 8;
	KT_EXPECT(t, fb_console_init(&fbc, &fb, pixels32, &font, &err) < 0, "a pitch of 8 bytes accepted");
	fb = fb32(2, 1);
	fb.height = 15;
	KT_EXPECT(t, fb_console_init(&fbc, &fb, pixels32, &font, &err) < 0, "a 15-pixel screen accepted");
}

static void vga_text_scrolls_at_the_bottom(struct ktest *t)
{
	struct vga_text v;
	char line[8] = "line  \n";

	vga_text_init(&v, vga_cells, 80, 25);
	for (int i = 0; i < 26; i++) {
		line[5] = (char)('A' + i);
		vga_text_write(&v, line, 7);
	}
	/* 26 lines and a newline: lines A and B scrolled away, the last row is empty. */
	KT_EXPECT_EQ(t, vga_cells[5], VGA_TEXT_ATTR << 8 | 'C');
	KT_EXPECT_EQ(t, vga_cells[23 * 80 + 5], VGA_TEXT_ATTR << 8 | 'Z');
	KT_EXPECT_EQ(t, vga_cells[24 * 80], VGA_TEXT_ATTR << 8 | ' ');
	KT_EXPECT(t, v.row == 24 && v.col == 0, "cursor at row %u col %u, expected 24, 0", v.row, v.col);
}

static void vga_text_full_width_line_takes_one_row(struct ktest *t)
{
	struct vga_text v;
	char line[81];

	memset(line, 'x', 80);
	line[80] = '\n';
	vga_text_init(&v, vga_cells, 80, 25);
	vga_text_write(&v, line, 81);
	vga_text_write(&v, "y", 1);
	KT_EXPECT(t, v.row == 1 && v.col == 1, "cursor at row %u col %u, expected 1, 1", v.row, v.col);
	KT_EXPECT_EQ(t, vga_cells[80], VGA_TEXT_ATTR << 8 | 'y');
}

/* What screen_lines passes on, NUL-terminated. */
static char shown[1024];
static size_t nshown;

static unsigned ncalls;

static void collect(const char *s, size_t len)
{
	ncalls++;
	while (len-- && nshown + 1 < sizeof(shown))
		shown[nshown++] = *s++;
	shown[nshown] = '\0';
}

static void screen_lines_wrap_wide_lines_at_80_columns(struct ktest *t)
{
	struct screen_lines l;
	char line[101], want[128];

	memset(line, 'a', 100);
	line[100] = '\n';
	memset(want, 'a', 80);
	memcpy(want + 80, "\n  ", 3);
	memset(want + 83, 'a', 20);
	memcpy(want + 103, "\n", 2);
	nshown = 0;
	screen_lines_init(&l, collect);
	screen_lines_write(&l, line, 50);
	screen_lines_write(&l, line + 50, 51);
	KT_EXPECT(t, !strcmp(shown, want), "a 100-column line shows as \"%s\"", shown);
	nshown = 0;
	screen_lines_write(&l, line, 80);
	screen_lines_write(&l, "\n", 1);
	KT_EXPECT(t, nshown == 81 && shown[80] == '\n', "an 80-column line was wrapped: %zu bytes", nshown);
}

static void screen_lines_quiet_shows_only_ktap_lines(struct ktest *t)
{
	static const char out[] = "BUG: Bad page state: pfn 0x10\npage: pfn 0x10\n  compound: head\n"
				  "    # file.c:1: expected x\n\nBUG: again\n";
	struct screen_lines l;

	nshown = 0;
	screen_lines_init(&l, collect);
	screen_lines_quiet(&l, true);
	for (size_t i = 0; i < sizeof(out) - 1; i++) /* a byte at a time: lines split across writes */
		screen_lines_write(&l, out + i, 1);
	screen_lines_quiet(&l, false);
	screen_lines_write(&l, "BUG: real\n", 10);
	KT_EXPECT(t, !strcmp(shown, "    # file.c:1: expected x\nBUG: real\n"), "the screen got \"%s\"", shown);
	KT_EXPECT_EQ(t, l.dropped_reports, 2);
}

/* The framebuffer console redraws after every call: a write must reach it in one. */
static void screen_lines_pass_a_write_on_in_one_call(struct ktest *t)
{
	static const char text[] = "Node 0, zone      DMA      2      2      1      2      2      1      2      1"
				   "      1      0      3\nline two\n";
	struct screen_lines l;

	nshown = 0;
	ncalls = 0;
	screen_lines_init(&l, collect);
	screen_lines_write(&l, text, sizeof(text) - 1);
	KT_EXPECT(t, ncalls == 1, "%u calls for one write of %zu bytes", ncalls, sizeof(text) - 1);
	KT_EXPECT_EQ(t, nshown, sizeof(text) - 1 + 3); /* one wrap: "\n  " */
}

KTEST_SUITE(screen_console,
	    KTEST_CASE(embedded_font_maps_ascii),
	    KTEST_CASE(psf_rejects_bad_magic_and_truncation),
	    KTEST_CASE(psf2_unicode_table_maps_characters),
	    KTEST_CASE(fb_console_draws_a_character),
	    KTEST_CASE(fb_console_wraps_and_scrolls),
	    KTEST_CASE(fb_console_draws_16_bit_pixels),
	    KTEST_CASE(fb_console_refuses_unusable_framebuffers),
	    KTEST_CASE(vga_text_scrolls_at_the_bottom),
	    KTEST_CASE(vga_text_full_width_line_takes_one_row),
	    KTEST_CASE(screen_lines_wrap_wide_lines_at_80_columns),
	    KTEST_CASE(screen_lines_quiet_shows_only_ktap_lines),
	    KTEST_CASE(screen_lines_pass_a_write_on_in_one_call));
