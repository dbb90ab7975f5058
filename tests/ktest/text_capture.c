/* SPDX-License-Identifier: MIT */
/* What the code under test printed (tests/ktest/text_capture.h). */
#include "tests/ktest/text_capture.h"

#include <stdarg.h>

#include "lib/printk.h"
#include "lib/string.h"

struct text_capture captured;

void capture_forget(void)
{
	captured.text[0] = '\0';
	captured.len = 0;
	captured.calls = 0;
}

static void append(const char *s, size_t len)
{
	len = MIN(len, sizeof(captured.text) - 1 - captured.len);
	memcpy(captured.text + captured.len, s, len);
	captured.len += len;
	captured.text[captured.len] = '\0';
}

int capture_printf(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n > 0)
		append(line, MIN((size_t)n, sizeof(line) - 1));
	captured.calls++;
	return n;
}

static struct console capture_console = { .name = "capture", .write = append };

void capture_console_start(void)
{
	capture_forget();
	register_console(&capture_console);
}

void capture_console_stop(void)
{
	unregister_console(&capture_console);
}
