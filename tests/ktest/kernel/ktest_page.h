/* SPDX-License-Identifier: MIT */
/* The page the screen shows when the self-tests end (tests/ktest/kernel/ktest_page.c). */
#ifndef KERNEL_KTEST_PAGE_H
#define KERNEL_KTEST_PAGE_H

/*
 * Clears the screen and shows, within 80x25: the verdict and the summary line, the memory (total
 * and free, one line per zone), each zone's text picture (mm/mm_picture.h), the failed cases by
 * name (as many as fit), how many expected reports (bad page, slab) went to the serial port only, and
 * where the full report is. The serial port does not get it.
 */
void ktest_show_page(int passed, int failed, int skipped);

#endif
