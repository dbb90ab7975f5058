/* SPDX-License-Identifier: MIT */
/*
 * show_mem(): the state of the page allocator in the words of Linux's /proc/meminfo and
 * /proc/zoneinfo, for the boot report, the end of the self-tests, and a debugger
 * ("call show_mem()" in gdb). The fields keep Linux's names; what each means here:
 *
 * meminfo (kB)
 *   MemTotal         frames handed to the buddy allocator (every zone's managed pages): usable
 *                    RAM minus what the kernel image, the memmap, the early allocator's users and
 *                    the 1 GiB huge pages took at boot. Linux's totalram_pages, the same.
 *   MemFree          free frames: the buddy lists and every CPU's lists. Linux leaves the per-CPU
 *                    lists out; here they are free memory any allocation gets (it drains them
 *                    before failing), so they count.
 *   MemAvailable     what GFP_KERNEL allocations can still take: in each zone, the free frames
 *                    above its min watermark (mm/watermark.h), added up. Linux estimates the same
 *                    thing above the high watermark plus reclaimable caches; this allocator has
 *                    no caches to reclaim, and GFP_KERNEL stops at min, not high.
 *   Slab             pages held by slabs (mm/slab.h: nr_slab_pages()), objects in use or not
 *   SUnreclaim       the same: no slab's objects can be reclaimed (the slab's shrinker gives back
 *                    only empty slabs, which hold no object; Linux's SReclaimable is left out)
 *   VmallocUsed      pages vmalloc() holds (mm/vmalloc.h), as Linux counts them: not vmap()'s
 *                    pages, which are their callers', nor the areas' descriptors (kmalloc's)
 *   HugePages_Total, HugePages_Free, HugePages_Rsvd, HugePages_Surp, Hugepagesize
 *                    the 2 MiB pool, as in Linux (mm/hugetlb.h): pages, not kB
 *   Hugetlb          memory in both pools (2 MiB and 1 GiB), free or not, as in Linux
 *
 * zoneinfo, one block per zone ("Node 0, zone   Normal"), in pages
 *   pages free       the zone's free frames (buddy and per-CPU lists), as MemFree
 *   min, low, high   the watermarks (mm/watermark.h)
 *   spanned          frames from the zone's lowest usable frame to its highest, holes included
 *   present          usable frames in the zone (the firmware map)
 *   managed          frames of the zone handed to the buddy allocator
 *   cpu: N count: C high: H batch: B
 *                    CPU N's lists for the zone: C frames on them (all orders, whole pageblocks
 *                    too); H and B are the order-0 list's limit and batch (orders 1..3 and
 *                    whole pageblocks have their own, in blocks: struct per_cpu_pages, mm/zone.h)
 *   start_pfn        the zone's lowest usable frame
 */
#ifndef MM_SHOW_MEM_H
#define MM_SHOW_MEM_H

#include "mm/zone.h"

/* The /proc/meminfo figures, in pages. */
struct meminfo {
	unsigned long total;     /* MemTotal */
	unsigned long free;      /* MemFree */
	unsigned long available; /* MemAvailable */
};

/**
 * meminfo_get() - The /proc/meminfo figures now.
 *
 * Return: them, counts read atomically: exact when no CPU is allocating.
 */
struct meminfo meminfo_get(void);

/**
 * meminfo_text() - The /proc/meminfo lines.
 * @buf: where to write them, one per field ("MemTotal:         261628 kB").
 * @size: buf's size.
 *
 * Return: the length, as snprintf() returns it.
 */
int meminfo_text(char *buf, size_t size);

/**
 * zoneinfo_pcp_line() - A CPU's per-CPU list line of /proc/zoneinfo.
 * @zone: the zone.
 * @cpu: the CPU.
 * @buf: where to write "cpu: N count: C high: H batch: B" (no newline).
 * @size: buf's size.
 *
 * Return: the length, as snprintf() returns it.
 */
int zoneinfo_pcp_line(const struct zone *zone, unsigned int cpu, char *buf, size_t size);

/**
 * show_meminfo() - Print the meminfo lines.
 */
void show_meminfo(void);

/**
 * show_zoneinfo() - Print the zoneinfo block of every zone.
 */
void show_zoneinfo(void);

/**
 * show_mem() - Print everything there is to know about memory, from a debugger too.
 *
 * Prints meminfo, with more than one node each node's meminfo and numastat (show_node_meminfo(),
 * mm/node_stat.h), and zoneinfo, then /proc/pagetypeinfo's tables (free blocks per type and order, pageblocks per
 * type) and the mobility counters (show_pagetypeinfo(), mm/pageblock.h), then the counters
 * of /proc/vmstat (the NUMA sums, compaction, migration, shrinkers ...), several to a line
 * (vmstat_text(), mm/vmstat_show.h). Kept out of line and global, so that a debugger can call it when the kernel
 * is stopped anywhere outside mm/'s own locks (it takes only the zone locks, to count the free
 * lists by type; every other count is read atomically).
 */
void show_mem(void);

#endif
