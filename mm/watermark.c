/* SPDX-License-Identifier: MIT */
/* Zone watermarks: the reserve's size, and each zone's share of it (see mm/watermark.h). */
#include "mm/watermark.h"

#define MIN_FREE_KBYTES_FLOOR 128UL
#define MIN_FREE_KBYTES_CEILING 65536UL

unsigned long mm_min_free_kbytes;

/* The largest r with r * r <= n. */
static unsigned long isqrt(unsigned long n)
{
	unsigned long r = 0;

	for (unsigned long bit = 1UL << 62; bit; bit >>= 2) {
		if (n >= r + bit) {
			n -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
	}
	return r;
}

void setup_zone_watermarks(void)
{
	unsigned long managed = 0, kbytes, min_pages;

	for (int z = 0; z < (int)mm_nr_zone_ids; z++)
		managed += mm_zones[z].managed_pages;
	kbytes = managed * (PAGE_SIZE / 1024);
	mm_min_free_kbytes = MIN(MAX(isqrt(kbytes * 16), MIN_FREE_KBYTES_FLOOR), MIN_FREE_KBYTES_CEILING);
	mm_min_free_kbytes = MIN(mm_min_free_kbytes, kbytes / 16);
	min_pages = mm_min_free_kbytes / (PAGE_SIZE / 1024);
	for (int z = 0; z < (int)mm_nr_zone_ids; z++) {
		struct zone *zone = &mm_zones[z];
		unsigned long min = managed ? min_pages * zone->managed_pages / managed : 0;

		zone->watermark[WMARK_MIN] = min;
		zone->watermark[WMARK_LOW] = min + min / 4;
		zone->watermark[WMARK_HIGH] = min + min / 2;
	}
}
