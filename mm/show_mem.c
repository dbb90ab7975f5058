/* SPDX-License-Identifier: MIT */
/* show_mem(): /proc/meminfo and /proc/zoneinfo, as Linux prints them. See mm/show_mem.h. */
#include "mm/show_mem.h"

#include "mm/node_stat.h"

#include "mm/arch.h"
#include "mm/pcp.h"
#include "mm/hugetlb.h"
#include "mm/page_alloc.h"
#include "mm/pageblock.h"
#include "mm/slab.h"
#include "mm/vmalloc.h"
#include "mm/vmstat_show.h"

#define KB_PER_PAGE (PAGE_SIZE / 1024)

struct meminfo meminfo_get(void)
{
	struct meminfo m = { 0, 0, 0 };

	for (int z = 0; z < (int)mm_nr_zone_ids; z++) {
		unsigned long free = zone_free_pages(&mm_zones[z]), min = mm_zones[z].watermark[WMARK_MIN];

		m.total += mm_zones[z].managed_pages;
		m.free += free;
		m.available += free > min ? free - min : 0;
	}
	return m;
}

/* snprintf at the end of what buf already holds (len bytes, maybe more than size). */
#define APPEND(buf, size, len, ...) \
	((len) += snprintf((buf) + MIN((size_t)(len), (size)), (size) - MIN((size_t)(len), (size)), __VA_ARGS__))

int meminfo_text(char *buf, size_t size)
{
	struct meminfo m = meminfo_get();
	unsigned long slab = nr_slab_pages(); /* one walk of the caches: a figure for both lines */
	int len = 0;

	APPEND(buf, size, len, "%-16s%8lu kB\n", "MemTotal:", m.total * KB_PER_PAGE);
	APPEND(buf, size, len, "%-16s%8lu kB\n", "MemFree:", m.free * KB_PER_PAGE);
	APPEND(buf, size, len, "%-16s%8lu kB\n", "MemAvailable:", m.available * KB_PER_PAGE);
	APPEND(buf, size, len, "%-16s%8lu kB\n", "Slab:", slab * KB_PER_PAGE);
	APPEND(buf, size, len, "%-16s%8lu kB\n", "SUnreclaim:", slab * KB_PER_PAGE); /* every slab */
	APPEND(buf, size, len, "%-16s%8lu kB\n", "VmallocUsed:", vmalloc_nr_pages() * KB_PER_PAGE);
	len += hugetlb_meminfo(buf + MIN((size_t)len, size), size - MIN((size_t)len, size));
	return len;
}

void show_meminfo(void)
{
	char buf[512];

	meminfo_text(buf, sizeof(buf));
	printk("%s", buf);
}

int zoneinfo_pcp_line(const struct zone *zone, unsigned int cpu, char *buf, size_t size)
{
	const struct per_cpu_pages *pcp = cpu_pcp(cpu, (unsigned long)(zone - mm_zones));

	return snprintf(buf, size, "    cpu: %u count: %lu high: %u batch: %u", cpu, mm_pcp_free_pages(pcp),
			(unsigned int)__atomic_load_n(&pcp->high[0], __ATOMIC_RELAXED),
			(unsigned int)__atomic_load_n(&pcp->batch[0], __ATOMIC_RELAXED));
}

static void show_zone_block(const struct zone *zone)
{
	char line[96];

	printk("Node %u, zone %8s\n", zone_to_nid(zone), zone->name);
	printk("  pages free     %lu\n", zone_free_pages(zone));
	printk("        min      %lu\n        low      %lu\n        high     %lu\n",
	       zone->watermark[WMARK_MIN], zone->watermark[WMARK_LOW], zone->watermark[WMARK_HIGH]);
	printk("        spanned  %lu\n        present  %lu\n        managed  %lu\n",
	       zone->end_pfn - zone->start_pfn, zone->present_pages, zone->managed_pages);
	printk("  pagesets\n");
	for (unsigned int cpu = 0; zone->present_pages && cpu < mm_pcp_nr_cpus; cpu++) {
		zoneinfo_pcp_line(zone, cpu, line, sizeof(line));
		printk("%s\n", line);
	}
	printk("  start_pfn:           %lu\n", zone->start_pfn);
}

void show_zoneinfo(void)
{
	for (int z = 0; z < (int)mm_nr_zone_ids; z++)
		show_zone_block(&mm_zones[z]);
}

/* The event counters, several to a line (vmstat_text()). */
static void show_vm_events(void)
{
	char buf[1024];

	vmstat_text(buf, sizeof(buf));
	printk("%s", buf);
}

__attribute__((noinline, used)) void show_mem(void)
{
	show_meminfo();
	if (mm_nr_node_ids > 1)
		show_node_meminfo();
	show_zoneinfo();
	show_pagetypeinfo();
	show_vm_events();
}
