/* SPDX-License-Identifier: MIT */
/*
 * What a case's code under test printed, collected instead of reaching the console, so the case
 * can check the words. Two ways in: capture_printf() for functions that take a printk-like
 * callback, and capture_console_start()/stop() for code that calls printk() itself. One buffer
 * for all suites: the runner runs one case at a time, and a case forgets the text first.
 */
#ifndef TESTS_KTEST_TEXT_CAPTURE_H
#define TESTS_KTEST_TEXT_CAPTURE_H

#include "mm/types.h"

#define TEXT_CAPTURE_SIZE 16384 /* show_mem() on 8 CPUs fits */

struct text_capture {
	char text[TEXT_CAPTURE_SIZE]; /* always NUL-terminated; what does not fit is dropped */
	size_t len;
	unsigned int calls;           /* capture_printf() calls since the last forget */
};

extern struct text_capture captured;

/* Empties the buffer. */
void capture_forget(void);

/* printk's shape: appends the formatted text; returns what vsnprintf returned. */
int capture_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Forgets, then registers a console that appends everything printk writes, until stop. */
void capture_console_start(void);
void capture_console_stop(void);

#endif
