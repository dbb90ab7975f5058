/* SPDX-License-Identifier: MIT */
/*
 * What the screen shows of each line printk writes. The screen is read by a person, often on a
 * machine without a serial port, so it differs from the serial log in two ways:
 *  - lines wider than SCREEN_LINE_WIDTH columns (buddyinfo, zone lines) wrap there, the rest of
 *    the line indented by two spaces, whatever the width of the screen: every screen line fits 80;
 *  - while "quiet" (a self-test provokes bad page reports on purpose), only KTAP lines, which are
 *    indented by four spaces, are shown: the expected reports stay on the serial port, so that a
 *    BUG: on screen is always a real one. The lines kept off that start with "BUG:" are counted.
 */
#ifndef KERNEL_CONSOLE_SCREEN_LINES_H
#define KERNEL_CONSOLE_SCREEN_LINES_H

#include <stdbool.h>
#include <stddef.h>

#define SCREEN_LINE_WIDTH 80
#define SCREEN_LINE_INDENT "  "

struct screen_lines {
	void (*out)(const char *s, size_t len); /* where the shown text goes */
	unsigned col;                            /* column of the next character shown */
	bool quiet;
	bool line_start;      /* nothing of the current line decided yet */
	bool dropping;        /* the current line is kept off the screen */
	char head[4];         /* a quiet line's first characters, until it is known to be KTAP */
	unsigned nhead;
	unsigned long dropped_reports; /* lines starting with "BUG:" kept off while quiet */
};

/* Starts at the beginning of a line, not quiet, showing through out. */
void screen_lines_init(struct screen_lines *l, void (*out)(const char *s, size_t len));

/* Feeds len bytes of printk output. */
void screen_lines_write(struct screen_lines *l, const char *s, size_t len);

/*
 * Starts or ends the quiet mode. A line already shown goes on being shown; a line begun while quiet
 * whose first characters are still held is decided as a quiet one.
 */
void screen_lines_quiet(struct screen_lines *l, bool quiet);

#endif
