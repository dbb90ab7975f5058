/* SPDX-License-Identifier: MIT */
/*
 * Self-test of the alloc fast path's table (struct pcp_cpu's gfp_lists[], mm/pcp.h), on the
 * machine it boots on: every gfp the fast path serves finds, in the table of the CPU that runs the
 * tests, that CPU's lists of its own mobility type in the zone its allocations come from (the first
 * zone with memory in the CPU's node's fallback order); a gfp of both mobility bits finds the
 * lists of no zone, which stay empty. The table is built at boot from the zones and nodes the
 * machine has: a node without memory, an empty DMA32 zone, a machine below 16 MiB.
 */
#include "tests/ktest/mm_helpers.h"

#include "mm/watermark.h"

static void each_gfps_table_entry_is_its_zones_lists_of_its_type(struct ktest *t)
{
	unsigned int cpu = arch_cpu_id(), checked = 0;

	for (gfp_t g = 0; g < PCP_NR_GFPS; g++) {
		struct pcp_type_lists *tl = pcp_gfp_table_lists(cpu, g);
		struct per_cpu_pages *pcp = pcp_of_type_lists(tl);
		unsigned int mt = gfp_migratetype(g), z = pcp_zone_index(pcp);
		struct page *page;

		if (g & ~(__GFP_ZONEMASK | __GFP_NOWARN | __GFP_HIGH | __GFP_MOBILITY))
			continue;
		if (mt >= MIGRATE_PCPTYPES) {
			KT_EXPECT(t, tl == &cpu_pcp(cpu, PCP_NO_ZONE)->types[0],
				  "gfp %#x (both mobility bits): lists of zone index %u, not the lists of no zone", g, z);
			continue;
		}
		if (!KT_EXPECT(t, pcp->cpu == cpu && tl == &pcp->types[mt],
			       "gfp %#x: CPU %u's lists of type %u, not CPU %u's of type %u", g, pcp->cpu,
			       (unsigned int)(tl - pcp->types), cpu, mt))
			continue;
		/* Its allocation comes from that zone while the zone has memory above its high watermark. */
		if (z >= mm_nr_zone_ids || !zone_watermark_ok(&mm_zones[z], 0, GFP_KERNEL | __GFP_NOWARN) ||
		    zone_free_pages(&mm_zones[z]) < mm_zones[z].watermark[WMARK_HIGH] + PAGEBLOCK_NR_PAGES)
			continue;
		page = alloc_pages(g | __GFP_NOWARN, 0);
		if (!KT_EXPECT(t, page != NULL, "alloc_pages(%#x, 0) failed", g))
			continue;
		KT_EXPECT(t, page_zonenum(page) == z, "gfp %#x: its block is from zone index %u, its table entry the lists "
			  "of zone index %u (%s)", g, page_zonenum(page), z, mm_zones[z].name);
		__free_pages(page, 0);
		checked++;
	}
	drain_pcp_lists();
	if (!checked) /* a machine whose hugetlb pool took every zone down to its watermarks */
		ktest_skip(t, "the table's entries checked, but no zone had memory enough to allocate from");
}

KTEST_SUITE(pcp_gfp_table, KTEST_CASE(each_gfps_table_entry_is_its_zones_lists_of_its_type));
