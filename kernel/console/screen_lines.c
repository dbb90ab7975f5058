/* SPDX-License-Identifier: MIT */
/* What the screen shows of each line: wrapped at 80 columns, expected reports left out. */
#include "kernel/console/screen_lines.h"

#include "lib/string.h"

void screen_lines_init(struct screen_lines *l, void (*out)(const char *s, size_t len))
{
	memset(l, 0, sizeof(*l));
	l->out = out;
	l->line_start = true;
}

/*
 * What one write shows, passed on in one call at the end (or when full): the framebuffer console
 * redraws after each call it gets, so a call per character would redraw per character.
 */
struct shown {
	char buf[256];
	size_t len;
};

static void emit(struct screen_lines *l, struct shown *o, const char *s, size_t len)
{
	while (len--) {
		if (o->len == sizeof(o->buf)) {
			l->out(o->buf, o->len);
			o->len = 0;
		}
		o->buf[o->len++] = *s++;
	}
}

/* Shows one character, wrapping a line that would pass the last column. */
static void show(struct screen_lines *l, struct shown *o, char ch)
{
	switch (ch) {
	case '\n':
	case '\r':
		l->col = 0;
		break;
	case '\b':
		if (l->col)
			l->col--;
		break;
	case '\t':
		l->col = (l->col + 8) & ~7u;
		if (l->col > SCREEN_LINE_WIDTH)
			l->col = SCREEN_LINE_WIDTH;
		break;
	default:
		if (l->col >= SCREEN_LINE_WIDTH) {
			emit(l, o, "\n" SCREEN_LINE_INDENT, 1 + sizeof(SCREEN_LINE_INDENT) - 1);
			l->col = sizeof(SCREEN_LINE_INDENT) - 1;
		}
		l->col++;
	}
	emit(l, o, &ch, 1);
}

/* A quiet line is decided by its first four characters: four spaces make it a KTAP line. */
static void decide(struct screen_lines *l, struct shown *o)
{
	l->line_start = false;
	l->dropping = l->quiet && (l->nhead < 4 || memcmp(l->head, "    ", 4) != 0);
	if (l->dropping && l->nhead >= 4 && !memcmp(l->head, "BUG:", 4))
		l->dropped_reports++;
	if (!l->dropping)
		for (unsigned i = 0; i < l->nhead; i++)
			show(l, o, l->head[i]);
	l->nhead = 0;
}

static void put(struct screen_lines *l, struct shown *o, char ch)
{
	if (l->line_start && l->quiet) {
		if (ch != '\n' && l->nhead < sizeof(l->head)) {
			l->head[l->nhead++] = ch;
			if (l->nhead < sizeof(l->head))
				return;
			decide(l, o);
			return;
		}
		decide(l, o);
	}
	l->line_start = false;
	if (!l->dropping)
		show(l, o, ch);
	if (ch == '\n') {
		l->line_start = true;
		l->dropping = false;
	}
}

void screen_lines_write(struct screen_lines *l, const char *s, size_t len)
{
	struct shown o = { .len = 0 };

	while (len--)
		put(l, &o, *s++);
	if (o.len)
		l->out(o.buf, o.len);
}

void screen_lines_quiet(struct screen_lines *l, bool quiet)
{
	struct shown o = { .len = 0 };

	if (l->line_start && l->nhead && !quiet)
		decide(l, &o);
	if (o.len)
		l->out(o.buf, o.len);
	l->quiet = quiet;
}
