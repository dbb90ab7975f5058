/* SPDX-License-Identifier: MIT */
/* What the page allocator holds, printed as Linux prints it: buddyinfo and the memory summary. */
#ifndef MM_MM_STATS_H
#define MM_MM_STATS_H

#include "mm/zone.h"

/*
 * Prints free blocks per zone and order in /proc/buddyinfo form
 * ("Node 0, zone   Normal      1      0 ...").
 */
void show_buddyinfo(void);

/* Writes one zone's buddyinfo line (no newline) into buf; returns the length as snprintf does. */
int buddyinfo_line(const struct zone *zone, char *buf, size_t size);

/* Prints each zone's span and pages, and the summary: total RAM, reserved, memmap, free. */
void show_mem_summary(void);

#endif
