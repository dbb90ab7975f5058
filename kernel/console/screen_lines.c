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

/* Shows one character, wrapping a line that would pass the last column. */
static void show(struct screen_lines *l, char ch)
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
			l->out("\n" SCREEN_LINE_INDENT, 1 + sizeof(SCREEN_LINE_INDENT) - 1);
			l->col = sizeof(SCREEN_LINE_INDENT) - 1;
		}
		l->col++;
	}
	l->out(&ch, 1);
}

/* A quiet line is decided by its first four characters: four spaces make it a KTAP line. */
static void decide(struct screen_lines *l)
{
	l->line_start = false;
	l->dropping = l->quiet && (l->nhead < 4 || memcmp(l->head, "    ", 4) != 0);
	if (l->dropping && l->nhead >= 4 && !memcmp(l->head, "BUG:", 4))
		l->dropped_reports++;
	if (!l->dropping)
		for (unsigned i = 0; i < l->nhead; i++)
			show(l, l->head[i]);
	l->nhead = 0;
}

static void put(struct screen_lines *l, char ch)
{
	if (l->line_start && l->quiet) {
		if (ch != '\n' && l->nhead < sizeof(l->head)) {
			l->head[l->nhead++] = ch;
			if (l->nhead < sizeof(l->head))
				return;
			decide(l);
			return;
		}
		decide(l);
	}
	l->line_start = false;
	if (!l->dropping)
		show(l, ch);
	if (ch == '\n') {
		l->line_start = true;
		l->dropping = false;
	}
}

void screen_lines_write(struct screen_lines *l, const char *s, size_t len)
{
	while (len--)
		put(l, *s++);
}

void screen_lines_quiet(struct screen_lines *l, bool quiet)
{
	if (l->line_start && l->nhead && !quiet)
		decide(l);
	l->quiet = quiet;
}
