/* SPDX-License-Identifier: MIT */
/*
 * The page the screen shows when the self-tests end. On a machine without a serial port the screen
 * is all a person has, and the run's report has scrolled far past it: this page, which fits an
 * 80x25 screen, says what they need to know, and a photograph of it is a bug report.
 */
#include "tests/ktest/kernel/ktest_page.h"

#include "kernel/console/screen.h"
#include "tests/ktest/ktest.h"
#include "lib/printk.h"
#include "lib/string.h"
#include "mm/mm_picture.h"
#include "mm/page_alloc.h"
#include "mm/zone.h"

#define PAGE_BYTES 2048
#define PAGE_ROWS 25

struct page_text {
	char buf[PAGE_BYTES];
	size_t len;
};

static void add(struct page_text *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends one formatted line (the caller's text ends in "\n"); what does not fit is dropped. */
static void add(struct page_text *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(p->buf + p->len, sizeof(p->buf) - p->len, fmt, ap);
	va_end(ap);
	if (n > 0 && (size_t)n < sizeof(p->buf) - p->len)
		p->len += (size_t)n;
}

static void add_memory(struct page_text *p)
{
	unsigned long present = 0;

	for (int z = 0; z < (int)mm_nr_zone_ids; z++)
		present += mm_zones[z].present_pages;
	add(p, "Memory: %luK present, %luK free\n", present * 4, nr_free_pages() * 4);
	for (int z = 0; z < (int)mm_nr_zone_ids; z++) {
		const struct zone *zone = &mm_zones[z];

		if (!zone->present_pages)
			add(p, "  zone %-6s empty\n", zone->name);
		else
			add(p, "  zone %-6s present %8lu  managed %8lu  free %8lu pages\n", zone->name,
			    zone->present_pages, zone->managed_pages, zone_free_pages(zone));
	}
}

static int rows(const struct page_text *p)
{
	int n = 0;

	for (size_t i = 0; i < p->len; i++)
		n += p->buf[i] == '\n';
	return n;
}

/* The text picture of each zone (mm/mm_picture.h): 74 columns with the indent. */
static void add_pictures(struct page_text *p)
{
	char line[ZONE_PICTURE_COLS + 16];

	add(p, "%s\n", ZONE_PICTURE_LEGEND);
	for (int z = 0; z < (int)mm_nr_zone_ids; z++) {
		if (!mm_zones[z].present_pages)
			continue;
		zone_picture_line(&mm_zones[z], line, sizeof(line));
		add(p, "  %s\n", line);
	}
}

/* Lists the failed cases in the rows left above the page's last `below` rows. */
static void add_failures(struct page_text *p, int failed, int below)
{
	const struct ktest_failure *f;
	size_t n = ktest_failures(&f);
	int room = PAGE_ROWS - below - rows(p) - 1; /* rows for case lines, after the heading */

	if (!failed) {
		add(p, "Failed cases: none\n");
		return;
	}
	add(p, "Failed cases (%d):\n", failed);
	/* Keep one row for the "and more" line when not every failure fits. */
	if ((size_t)failed > (size_t)room)
		n = n < (size_t)(room - 1) ? n : (size_t)(room - 1);
	for (size_t i = 0; i < n; i++) {
		/* "  suite/case" in 78 columns: a long case name is cut, not wrapped. */
		int suite = (int)strnlen(f[i].suite, 30);
		add(p, "  %.*s/%.*s\n", suite, f[i].suite, 75 - suite, f[i].name);
	}
	if ((size_t)failed > n)
		add(p, "  and %zu more: see the serial port\n", (size_t)failed - n);
}

void ktest_show_page(int passed, int failed, int skipped)
{
	static struct page_text p;
	unsigned long reports = screen_console_expected_reports();

	p.len = 0;
	add(&p, "Self-tests: %s\n", failed ? "FAILED" : "PASSED");
	add(&p, "ktest: summary: %d passed, %d failed, %d skipped\n\n", passed, failed, skipped);
	add_memory(&p);
	add_pictures(&p);
	add(&p, "\n");
	add_failures(&p, failed, reports ? 3 : 2);
	add(&p, "\n");
	if (reports)
		add(&p, "%lu expected reports (misuse self-tests): on the serial port only.\n", reports);
	add(&p, "The full report (KTAP) is on the serial port: COM1, 115200 8N1.\n");
	screen_console_page(p.buf, p.len);
}
