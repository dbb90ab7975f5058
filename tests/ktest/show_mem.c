/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of show_mem() (mm/show_mem.h): the meminfo figures add up the zones as documented,
 * the lines have Linux's form within 80 columns, a CPU's zoneinfo line counts its lists, and the
 * counters' compact lines (mm/vmstat_show.h) name every counter, NUMA sums and events, with its value.
 */
#include "tests/ktest/ktest.h"
#include "lib/printk.h"
#include "lib/string.h"
#include "tests/ktest/text_capture.h"
#include "mm/pcp.h"
#include "mm/page_alloc.h"
#include "mm/show_mem.h"
#include "mm/shrinker.h"
#include "mm/vmstat_show.h"
#include "mm/watermark.h"

static void meminfo_adds_up_the_zones(struct ktest *t)
{
	unsigned long managed = 0, above_min = 0;
	struct meminfo m;

	drain_pcp_lists();
	for (int z = 0; z < (int)mm_nr_zone_ids; z++) {
		unsigned long free = zone_free_pages(&mm_zones[z]), min = mm_zones[z].watermark[WMARK_MIN];

		managed += mm_zones[z].managed_pages;
		above_min += free > min ? free - min : 0;
	}
	m = meminfo_get();
	KT_EXPECT_EQ(t, m.total, managed);
	KT_EXPECT_EQ(t, m.free, nr_free_pages());
	KT_EXPECT_EQ(t, m.available, above_min);
	KT_EXPECT(t, m.available <= m.free && m.free <= m.total, "available %lu free %lu total %lu",
		  m.available, m.free, m.total);
}

/* An allocation takes from MemFree and MemAvailable, not from MemTotal. */
static void an_allocation_shows_in_memfree(struct ktest *t)
{
	struct meminfo before, after;
	struct page *page;

	drain_pcp_lists();
	before = meminfo_get();
	page = alloc_pages(GFP_KERNEL, 3);
	KT_ASSERT(t, page, "allocation failed");
	after = meminfo_get();
	__free_pages(page, 3);
	KT_EXPECT_EQ(t, after.total, before.total);
	KT_EXPECT_EQ(t, before.free - after.free, 8);
}

/* Every line: a known name, a colon, the value right-aligned, within 80 columns. */
static void meminfo_lines_have_the_proc_form(struct ktest *t)
{
	static const char *const names[] = { "MemTotal:", "MemFree:", "MemAvailable:", "Slab:", "SUnreclaim:", "VmallocUsed:",
					     "HugePages_Total:",
					     "HugePages_Free:", "HugePages_Rsvd:", "HugePages_Surp:",
					     "Hugepagesize:", "Hugetlb:" };
	char buf[1024], want[64];
	const char *line = buf;
	int len = meminfo_text(buf, sizeof(buf));

	KT_ASSERT(t, len > 0 && (size_t)len < sizeof(buf), "length %d", len);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		const char *end = strchr(line, '\n');

		KT_ASSERT(t, end, "line %zu (%s) missing", i, names[i]);
		KT_EXPECT(t, !strncmp(line, names[i], strlen(names[i])), "line %zu is \"%.*s\", want %s", i,
			  (int)(end - line), line, names[i]);
		KT_EXPECT(t, end - line <= 80, "line %zu has %d columns", i, (int)(end - line));
		line = end + 1;
	}
	KT_EXPECT_EQ(t, *line, '\0');
	snprintf(want, sizeof(want), "MemTotal:       %8lu kB\n", meminfo_get().total * (PAGE_SIZE / 1024));
	KT_EXPECT(t, !strncmp(buf, want, strlen(want)), "\"%.26s\", want \"%s\"", buf, want);
}

static void a_cpu_line_counts_its_lists(struct ktest *t)
{
	struct page *page = alloc_pages(GFP_KERNEL, 0);
	char line[96], want[96];
	unsigned long flags;
	unsigned int z;
	bool bypassed;

	KT_ASSERT(t, page, "allocation failed");
	z = page_zonenum(page);
	drain_pcp_lists();
	flags = arch_irq_save(); /* stay on this CPU between the free and the line */
	bypassed = mm_pcp_free_bypasses(page); /* the lists off, or a busy zone (hugepages=) */
	__free_pages(page, 0);
	zoneinfo_pcp_line(&mm_zones[z], arch_cpu_id(), line, sizeof(line));
	snprintf(want, sizeof(want), "    cpu: %u count: %u high: %u batch: %u", arch_cpu_id(),
		 bypassed ? 0u : 1u, cpu_pcp(arch_cpu_id(), z)->high[0],
		 cpu_pcp(arch_cpu_id(), z)->batch[0]);
	arch_irq_restore(flags);
	KT_EXPECT(t, !strcmp(line, want), "\"%s\", want \"%s\"", line, want);
}

/* Every counter once, as "name value" after a line start or a space, in lines of at most 80 columns. */
static void vmstat_lines_name_every_counter_with_its_value(struct ktest *t)
{
	char buf[1024], pair[64];
	int len;

	mm_shrink(GFP_KERNEL, 0); /* shrinker_runs is not 0: a value, not only a name, is checked */
	len = vmstat_text(buf, sizeof(buf));
	KT_ASSERT(t, len > 0 && (size_t)len < sizeof(buf) && buf[len - 1] == '\n', "length %d", len);
	for (unsigned int i = 0; i < NR_NODE_STAT_ITEMS + NR_VM_EVENT_ITEMS; i++) {
		const char *at;

		if (i < NR_NODE_STAT_ITEMS)
			snprintf(pair, sizeof(pair), "%s %lu", numa_stat_name(i), global_numa_stat(i));
		else
			snprintf(pair, sizeof(pair), "%s %lu", vm_event_name(i - NR_NODE_STAT_ITEMS),
				 vm_event_count(i - NR_NODE_STAT_ITEMS));
		at = strstr(buf, pair);
		KT_EXPECT(t, at && (at == buf || at[-1] == ' ' || at[-1] == '\n') &&
				     (at[strlen(pair)] == ' ' || at[strlen(pair)] == '\n'),
			  "\"%s\" not in:\n%s", pair, buf);
	}
	for (const char *line = buf, *end; *line; line = end + 1) {
		end = strchr(line, '\n');
		KT_ASSERT(t, end, "the last line has no newline");
		KT_EXPECT(t, end - line <= VMSTAT_TEXT_COLS && end > line, "a line of %d columns", (int)(end - line));
	}
	KT_EXPECT(t, strchr(buf, '\n') != buf + len - 1, "all %u counters on one line", NR_VM_EVENT_ITEMS);
}

/* show_mem() ends with those lines, after the pagetypeinfo tables. */
static void show_mem_ends_with_pageblocks_and_counters(struct ktest *t)
{
	char want[1024];
	const char *blocks, *counters;

	capture_console_start();
	show_mem();
	capture_console_stop();
	vmstat_text(want, sizeof(want));
	blocks = strstr(captured.text, "Number of blocks type");
	counters = strstr(captured.text, want);
	KT_EXPECT(t, blocks != NULL, "no pageblocks per type in show_mem()'s last %zu bytes", captured.len);
	KT_EXPECT(t, counters && counters > blocks && counters[strlen(want)] == '\0',
		  "show_mem() does not end with the counters:\n%s", want);
}

KTEST_SUITE(show_mem,
	    KTEST_CASE(meminfo_adds_up_the_zones),
	    KTEST_CASE(an_allocation_shows_in_memfree),
	    KTEST_CASE(meminfo_lines_have_the_proc_form),
	    KTEST_CASE(a_cpu_line_counts_its_lists),
	    KTEST_CASE(vmstat_lines_name_every_counter_with_its_value),
	    KTEST_CASE(show_mem_ends_with_pageblocks_and_counters));
