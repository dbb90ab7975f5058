/* SPDX-License-Identifier: MIT */
/* Statistics: /proc/buddyinfo-style free lists, zone spans, and the memory summary. */
#include "mm/mm_stats.h"

#include "mm/arch.h"
#include "mm/page_alloc.h"

int buddyinfo_line(const struct zone *zone, char *buf, size_t size)
{
	int len = snprintf(buf, size, "Node %u, zone %8s", zone_to_nid(zone), zone->name);

	for (int o = 0; o < NR_ORDERS; o++)
		len += snprintf(buf + MIN((size_t)len, size), size - MIN((size_t)len, size), " %6lu",
				__atomic_load_n(&zone->free_area[o].nr_free, __ATOMIC_RELAXED));
	return len;
}

void show_buddyinfo(void)
{
	char line[160];

	for (unsigned int z = 0; z < mm_nr_zone_ids; z++) {
		if (!mm_zones[z].present_pages)
			continue;
		buddyinfo_line(&mm_zones[z], line, sizeof(line));
		printk("%s\n", line);
	}
}

/* With more than one node a zone's line names its node first; with one, as before nodes. */
static const char *node_prefix(const struct zone *zone, char *buf, size_t size)
{
	if (mm_nr_node_ids == 1)
		return "";
	snprintf(buf, size, "node %u ", zone_to_nid(zone));
	return buf;
}

static void show_zone(const struct zone *zone)
{
	char node[16];

	if (!zone->present_pages) {
		printk("%szone %-6s empty\n", node_prefix(zone, node, sizeof(node)), zone->name);
		return;
	}
	printk("%szone %-6s [mem 0x%016llx-0x%016llx] present %lu managed %lu free %lu pages, "
	       "watermarks min %lu low %lu high %lu\n",
	       node_prefix(zone, node, sizeof(node)), zone->name, (unsigned long long)PFN_PHYS(zone->start_pfn),
	       (unsigned long long)PFN_PHYS(zone->end_pfn) - 1, zone->present_pages,
	       zone->managed_pages, zone_free_pages(zone), zone->watermark[WMARK_MIN],
	       zone->watermark[WMARK_LOW], zone->watermark[WMARK_HIGH]);
}

void show_mem_summary(void)
{
	unsigned long present = 0, managed = 0, free = nr_free_pages();

	for (unsigned int z = 0; z < mm_nr_zone_ids; z++) {
		show_zone(&mm_zones[z]);
		present += mm_zones[z].present_pages;
		managed += mm_zones[z].managed_pages;
	}
	printk("struct page: %zu bytes; memmap: %lu bytes (%lu KiB) for frames up to pfn %#lx\n",
	       sizeof(struct page), mm_memmap_bytes, mm_memmap_bytes >> 10, mm_max_pfn);
	printk("usable pages: %lu\nreserved pages: %lu\nmemmap bytes: %lu\nfree pages: %lu\n", present,
	       present - managed, mm_memmap_bytes, free);
	printk("Memory: %luK total RAM, %luK reserved (%luK memmap), %luK free\n", present << 2,
	       (present - managed) << 2, mm_memmap_bytes >> 10, free << 2);
}
