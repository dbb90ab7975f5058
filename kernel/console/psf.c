/* SPDX-License-Identifier: MIT */
/*
 * PSF1 and PSF2 font reading: the header, the glyph bitmaps, and the Unicode table that says
 * which glyph draws which character (console fonts are not in ASCII order).
 */
#include "kernel/console/psf.h"

#define PSF1_MAGIC0 0x36
#define PSF1_MAGIC1 0x04
#define PSF1_MODE512 0x01
#define PSF1_MODEHASTAB 0x02
#define PSF1_MODESEQ 0x04
#define PSF1_SEPARATOR 0xffff
#define PSF1_STARTSEQ 0xfffe

#define PSF2_MAGIC 0x864ab572u
#define PSF2_HAS_UNICODE_TABLE 0x01
#define PSF2_SEPARATOR 0xff
#define PSF2_STARTSEQ 0xfe

#define UNMAPPED 0xffff
#define MAX_WIDTH 32
#define MAX_HEIGHT 64

struct psf2_header {
	uint32_t magic, version, header_size, flags, length, charsize, height, width;
};

static uint32_t le16(const uint8_t *p) { return p[0] | (uint32_t)p[1] << 8; }
static uint32_t le32(const uint8_t *p) { return le16(p) | le16(p + 2) << 16; }

static void map_char(struct psf_font *f, uint32_t cp, uint32_t glyph)
{
	if (cp < 256 && f->latin1[cp] == UNMAPPED)
		f->latin1[cp] = (uint16_t)glyph;
}

/* PSF1 table: per glyph, 16-bit code points up to 0xffff; after 0xfffe come sequences (skipped). */
static void read_psf1_table(struct psf_font *f, const uint8_t *p, const uint8_t *end)
{
	for (uint32_t g = 0; g < f->nglyphs && p + 2 <= end; g++) {
		int in_seq = 0;
		for (; p + 2 <= end; p += 2) {
			uint32_t cp = le16(p);
			if (cp == PSF1_SEPARATOR)
				break;
			if (cp == PSF1_STARTSEQ)
				in_seq = 1;
			else if (!in_seq)
				map_char(f, cp, g);
		}
		p += 2;
	}
}

/* Decodes one UTF-8 character at *pp (advancing it); malformed bytes decode as themselves. */
static uint32_t utf8_next(const uint8_t **pp, const uint8_t *end)
{
	const uint8_t *p = *pp;
	uint32_t cp = *p++;
	int more = cp >= 0xf0 ? 3 : cp >= 0xe0 ? 2 : cp >= 0xc0 ? 1 : 0;

	if (more)
		cp &= 0x3f >> more;
	for (; more && p < end && (*p & 0xc0) == 0x80; more--)
		cp = cp << 6 | (*p++ & 0x3f);
	*pp = p;
	return cp;
}

/* PSF2 table: per glyph, UTF-8 characters up to 0xff; after 0xfe come sequences (skipped). */
static void read_psf2_table(struct psf_font *f, const uint8_t *p, const uint8_t *end)
{
	for (uint32_t g = 0; g < f->nglyphs && p < end; g++) {
		int in_seq = 0;
		while (p < end && *p != PSF2_SEPARATOR) {
			if (*p == PSF2_STARTSEQ) {
				in_seq = 1;
				p++;
				continue;
			}
			uint32_t cp = utf8_next(&p, end);
			if (!in_seq)
				map_char(f, cp, g);
		}
		p++;
	}
}

static int parse_psf1(const uint8_t *d, size_t size, struct psf_font *f, const char **err)
{
	f->nglyphs = (d[2] & PSF1_MODE512) ? 512 : 256;
	f->width = 8;
	f->height = d[3];
	f->bytes_per_row = 1;
	f->bytes_per_glyph = d[3];
	f->glyphs = d + 4;
	if (f->height == 0 || f->height > MAX_HEIGHT)
		return *err = "PSF1 glyph height is 0 or above 64", -1;
	if ((size - 4) / f->bytes_per_glyph < f->nglyphs)
		return *err = "PSF1 font is shorter than its glyphs", -1;
	if (d[2] & (PSF1_MODEHASTAB | PSF1_MODESEQ))
		read_psf1_table(f, f->glyphs + f->nglyphs * f->bytes_per_glyph, d + size);
	return 0;
}

static int parse_psf2(const uint8_t *d, size_t size, struct psf_font *f, const char **err)
{
	struct psf2_header h = { le32(d), le32(d + 4), le32(d + 8), le32(d + 12), le32(d + 16),
				 le32(d + 20), le32(d + 24), le32(d + 28) };

	if (size < sizeof(h) || h.header_size < sizeof(h) || h.header_size > size)
		return *err = "PSF2 header is truncated", -1;
	if (h.width == 0 || h.width > MAX_WIDTH || h.height == 0 || h.height > MAX_HEIGHT || h.length == 0)
		return *err = "PSF2 glyphs are empty or larger than 32x64", -1;
	f->nglyphs = h.length;
	f->width = h.width;
	f->height = h.height;
	f->bytes_per_row = (h.width + 7) / 8;
	f->bytes_per_glyph = h.charsize;
	f->glyphs = d + h.header_size;
	if (h.charsize != f->bytes_per_row * h.height)
		return *err = "PSF2 charsize does not match its width and height", -1;
	if ((size - h.header_size) / h.charsize < h.length)
		return *err = "PSF2 font is shorter than its glyphs", -1;
	if (h.flags & PSF2_HAS_UNICODE_TABLE)
		read_psf2_table(f, f->glyphs + (size_t)h.length * h.charsize, d + size);
	return 0;
}

/* Characters the table left out: glyph N when there was no table, else the glyph of '?'. */
static void fill_unmapped(struct psf_font *f, int had_table)
{
	uint16_t fallback = f->latin1['?'] != UNMAPPED ? f->latin1['?'] : ('?' < f->nglyphs ? '?' : 0);

	for (uint32_t c = 0; c < 256; c++) {
		if (f->latin1[c] != UNMAPPED)
			continue;
		f->latin1[c] = (!had_table && c < f->nglyphs) ? (uint16_t)c : fallback;
	}
}

int psf_load(const void *data, size_t size, struct psf_font *f, const char **err)
{
	const uint8_t *d = data;
	int rc, had_table;

	for (int c = 0; c < 256; c++)
		f->latin1[c] = UNMAPPED;
	if (size >= 4 && d[0] == PSF1_MAGIC0 && d[1] == PSF1_MAGIC1) {
		rc = parse_psf1(d, size, f, err);
		had_table = d[2] & (PSF1_MODEHASTAB | PSF1_MODESEQ);
	} else if (size >= 32 && le32(d) == PSF2_MAGIC) {
		rc = parse_psf2(d, size, f, err);
		had_table = le32(d + 12) & PSF2_HAS_UNICODE_TABLE;
	} else {
		*err = "not a PSF1 or PSF2 font (bad magic)";
		return -1;
	}
	if (rc == 0)
		fill_unmapped(f, had_table);
	return rc;
}
