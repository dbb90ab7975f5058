/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of the struct pages as the boot left them (mm/memmap.h), whichever CPUs wrote them
 * (the kernel's memmap_init_cpus=, the host's THREADS=): every struct page of a backed chunk says
 * the zone its frame is in. A part of the memmap that no CPU initialized keeps what the memory
 * held (zeroes: zone 0), and fails this above the first zone.
 */
#include "mm/memmap.h"
#include "mm/page.h"
#include "mm/zone.h"
#include "tests/ktest/ktest.h"

#define MAX_REPORTED 4

static void every_struct_page_names_the_zone_of_its_frame(struct ktest *t)
{
	unsigned long checked = 0, wrong = 0;

	for (unsigned long pfn = 0; pfn < mm_memmap_end_pfn; pfn++) {
		const struct page *page;

		if (!pfn_valid(pfn))
			continue;
		page = pfn_to_page(pfn);
		checked++;
		if (page_zonenum(page) != pfn_zone(pfn) && wrong++ < MAX_REPORTED)
			ktest_fail(t, __FILE__, __LINE__, "frame %#lx: struct page in zone %u, the frame in zone %u (flags %#lx)",
				   pfn, page_zonenum(page), pfn_zone(pfn), (unsigned long)page->flags);
	}
	KT_EXPECT(t, wrong == 0, "%lu of %lu struct pages name another zone than their frame's", wrong, checked);
	KT_EXPECT(t, checked > 0, "no backed chunk below frame %#lx", mm_memmap_end_pfn);
}

KTEST_SUITE(memmap_zones,
	    KTEST_CASE(every_struct_page_names_the_zone_of_its_frame));
