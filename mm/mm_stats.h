/* SPDX-License-Identifier: MIT */
/* What the page allocator holds, printed as Linux prints it: buddyinfo and the memory summary. */
#ifndef MM_MM_STATS_H
#define MM_MM_STATS_H

#include "mm/zone.h"

/**
 * show_buddyinfo() - Print free blocks per zone and order.
 *
 * In /proc/buddyinfo form
 * ("Node 0, zone   Normal      1      0 ..."): the buddy lists only, as Linux's does; blocks on the
 * per-CPU lists show after drain_pcp_lists().
 */
void show_buddyinfo(void);

/**
 * buddyinfo_line() - One zone's buddyinfo line.
 * @zone: the zone.
 * @buf: where to write it (no newline).
 * @size: buf's size.
 *
 * Return: the length, as snprintf does.
 */
int buddyinfo_line(const struct zone *zone, char *buf, size_t size);

/**
 * show_mem_summary() - Print each zone and the memory summary.
 *
 * Each zone's span, pages and watermarks (mm/watermark.h), and the summary: total RAM, reserved,
 * memmap, free. Free pages include every CPU's lists.
 */
void show_mem_summary(void);

#endif
