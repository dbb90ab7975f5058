/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of vmalloc that need the CPU itself (mm/vmalloc.h, kernel/vmalloc_arch.c): the guard
 * page after an area and a freed area fault (through the fault probe, kernel/fault_probe.asm);
 * the page tables of the range come and go with its pages; and, the test the migration of
 * vmalloc pages is for, writers on every other CPU write their areas word by word, reading each
 * word back, while the boot CPU moves every page of every area again and again: afterwards every
 * word holds what its writer wrote last, and no read-back ever differed (no write lost). The
 * same writers again while compaction (compact_memory()) is what moves their pages: the test
 * holds every free page, so that each pass has targets in one pageblock above the writers' pages
 * and nowhere else, and the pages climb a pageblock per pass.
 */
#include "kernel/paging.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/tlb.h"
#include "kernel/traps.h"
#include "kernel/tsc.h"
#include "kernel/x86.h"
#include "kernel/percpu.h"
#include "lib/printk.h"
#include "mm/compaction.h"
#include "mm/memmap.h"
#include "mm/page_alloc.h"
#include "mm/pageblock.h"
#include "mm/pcp.h"
#include "mm/slab.h"
#include "mm/vmstat.h"
#include "tests/ktest/ktest.h"
#include "tests/ktest/vmalloc_writers.h"

#define VEC_PF      14
#define PF_PRESENT  0x1
#define AREA_PAGES  8        /* each writer's area */
#define PASSES      24       /* times the boot CPU moves every page of every area */
#define MAX_PASSES  2400     /* ... until a writer has faulted on a migration marker */
#define COMPACT_PASSES 8    /* compact_memory() runs at least, each a scan of the whole memory */
#define MIN_ROUNDS  2        /* rounds each writer makes at least, whatever the passes */
#define WAIT_US     20000000u /* emulated CPUs may be slow to get a turn: be generous */

static unsigned long pt_pages(void) { return __atomic_load_n(&page_table_pages, __ATOMIC_RELAXED); }

/* Does a read of p fault as an access to a page that is not present, at p? */
static bool read_faults(struct ktest *t, const void *p)
{
	struct trap_record seen = { 0 };
	uint64_t val;
	int r;

	trap_expect(VEC_PF, &seen);
	r = probe_read64(p, &val);
	if (!trap_expect_done())
		return false;
	KT_EXPECT_EQ(t, r, -1);
	KT_EXPECT_EQ(t, seen.cr2, (uintptr_t)p);
	KT_EXPECT(t, !(seen.error_code & PF_PRESENT), "error code %#llx: a protection fault",
		  (unsigned long long)seen.error_code);
	return true;
}

static void the_guard_page_and_a_freed_area_fault(struct ktest *t)
{
	char *p = vmalloc(2 * PAGE_SIZE);
	uint64_t val;

	KT_ASSERT(t, p != NULL, "vmalloc failed");
	KT_EXPECT(t, probe_write64(p + PAGE_SIZE + 8, 7) == 0 && probe_read64(p + PAGE_SIZE + 8, &val) == 0 && val == 7,
		  "the area's last page is not readable and writable");
	KT_EXPECT(t, read_faults(t, p + 2 * PAGE_SIZE), "reading the guard page did not fault");
	KT_EXPECT(t, read_faults(t, p + 3 * PAGE_SIZE - 8), "reading the guard page's last word did not fault");
	vfree(p);
	KT_EXPECT(t, read_faults(t, p), "reading a freed area did not fault");
}

static void page_tables_come_and_go_with_the_pages(struct ktest *t)
{
	unsigned long pt0 = pt_pages();
	void *p = vmalloc(3 << 20); /* two page tables at least, and the tables above them */

	KT_ASSERT(t, p != NULL, "vmalloc failed");
	KT_EXPECT(t, pt_pages() >= pt0 + 2, "%lu page-table pages, %lu before", pt_pages(), pt0);
	vfree(p);
	KT_EXPECT_EQ(t, pt_pages(), pt0);
}

static struct {
	struct vmalloc_writer w[NR_CPUS_MAX];
	bool stop;
} smp;

static void writer_on_this_cpu(void *arg)
{
	(void)arg;
	writer_run(&smp.w[this_cpu_id()], &smp.stop, MIN_ROUNDS);
}

static void nothing(void *arg) { (void)arg; }

/* Waits until every writer has started (or, with done, stopped); false on time out. */
static bool wait_writers(unsigned int n, bool done)
{
	uint64_t deadline = tsc_deadline_us(WAIT_US);

	for (unsigned int cpu = 1; cpu < n; cpu++)
		while (!__atomic_load_n(done ? &smp.w[cpu].done : &smp.w[cpu].started, __ATOMIC_ACQUIRE))
			if (rdtsc() > deadline)
				return false;
			else
				cpu_relax();
	return true;
}

static void writers_on_other_cpus_lose_no_write_while_their_pages_move(struct ktest *t)
{
	unsigned int n = smp_num_cpus();
	unsigned long moved = 0, faults0 = vmalloc_marker_faults();
	unsigned int pass;

	if (n < 2) {
		ktest_skip(t, "one CPU: no other CPU to write");
		return;
	}
	smp.stop = false;
	for (unsigned int cpu = 1; cpu < n; cpu++) {
		smp.w[cpu] = (struct vmalloc_writer){ .area = vmalloc(AREA_PAGES * PAGE_SIZE), .id = cpu,
						      .words = AREA_PAGES * PAGE_SIZE / 8 };
		KT_ASSERT(t, smp.w[cpu].area != NULL, "vmalloc for CPU %u failed", cpu);
	}
	smp_call_function(writer_on_this_cpu, NULL, false);
	KT_EXPECT(t, wait_writers(n, false), "the writers did not start");
	/* Until a writer has met a marker (it nearly always has by then), but PASSES at least. */
	for (pass = 0; pass < PASSES || (vmalloc_marker_faults() == faults0 && pass < MAX_PASSES); pass++)
		for (unsigned int cpu = 1; cpu < n; cpu++)
			moved += migrate_vmalloc_area(smp.w[cpu].area, AREA_PAGES);
	__atomic_store_n(&smp.stop, true, __ATOMIC_RELEASE);
	KT_EXPECT(t, wait_writers(n, true), "the writers did not stop");
	smp_call_function(nothing, NULL, true); /* every CPU is out of writer_on_this_cpu() */
	KT_EXPECT_EQ(t, moved, (unsigned long)pass * (n - 1) * AREA_PAGES);
	KT_EXPECT(t, vmalloc_marker_faults() > faults0, "no writer touched a page while it moved, in %u passes", pass);
	for (unsigned int cpu = 1; cpu < n; cpu++) {
		struct vmalloc_writer *w = &smp.w[cpu];

		KT_EXPECT(t, w->bad_reads == 0, "CPU %u: %lu words read back other than written", cpu, w->bad_reads);
		KT_EXPECT(t, writer_lost_words(w) == 0, "CPU %u: %lu words of round %lu lost", cpu,
			  writer_lost_words(w), w->rounds);
		printk("    # CPU %u: %lu rounds of %lu words\n", cpu, w->rounds, w->words);
		vfree(w->area);
	}
	printk("    # %lu pages moved under %u writers, who waited for a move %lu times\n", moved, n - 1,
	       vmalloc_marker_faults() - faults0);
}

/* ---- compaction moves the writers' pages ------------------------------------------------ */

#define BLOCK_PAGES (1UL << PAGEBLOCK_ORDER)

/* Every page the test holds (allocated, private marking it as the test's), and full pageblocks. */
static struct {
	struct page **pages;
	unsigned long nr, cap;
	unsigned long *blocks; /* first pfns of movable pageblocks the test holds whole, ascending */
	unsigned long nr_blocks;
} hold;

static unsigned long held_mark(void) { return (unsigned long)&hold; }

static bool is_held(const struct page *page)
{
	return !PageBuddy(page) && page_count(page) == 1 && page->private == held_mark();
}

/* Takes free pages (down to none: __GFP_HIGH) until the allocator fails or the array is full. */
static void hold_every_free_page(void)
{
	struct page *page;

	while (hold.nr < hold.cap && (page = alloc_pages(GFP_HIGHUSER_MOVABLE | __GFP_HIGH | __GFP_NOWARN, 0))) {
		page->private = held_mark();
		hold.pages[hold.nr++] = page;
	}
}

/*
 * Takes exactly the pages free now: no allocation fails, so the slow path's shrinkers do not run
 * and the slab keeps its free objects (vmalloc's descriptors come from them).
 */
static void hold_the_free_pages_now(void)
{
	drain_pcp_lists();
	for (unsigned long k = nr_free_pages(); k && hold.nr < hold.cap; k--) {
		struct page *page = alloc_pages(GFP_HIGHUSER_MOVABLE | __GFP_HIGH | __GFP_NOWARN, 0);

		if (!page)
			return;
		page->private = held_mark();
		hold.pages[hold.nr++] = page;
	}
}

static void release_held(struct page *page)
{
	page->private = 0;
	__free_pages(page, 0);
}

/* Is the pageblock at pfn movable and every page of it the test's? */
static bool block_held_whole(unsigned long pfn)
{
	if (!pfn_valid(pfn) || get_pageblock_migratetype(pfn_to_page(pfn)) != MIGRATE_MOVABLE)
		return false; /* a hole of the memory map has no struct page to read the zone from */
	for (unsigned long i = 0; i < BLOCK_PAGES; i++)
		if (!pfn_valid(pfn + i) || !is_held(pfn_to_page(pfn + i)))
			return false;
	return true;
}

/* Lists zone's pageblocks the test holds whole, ascending. */
static void find_held_blocks(const struct zone *zone, unsigned long max)
{
	hold.nr_blocks = 0;
	for (unsigned long pfn = ALIGN_UP(zone->start_pfn, BLOCK_PAGES); pfn + BLOCK_PAGES <= zone->end_pfn &&
	     hold.nr_blocks < max; pfn += BLOCK_PAGES)
		if (block_held_whole(pfn))
			hold.blocks[hold.nr_blocks++] = pfn;
}

/* Frees the pages of the pageblock at pfn whose offset is a multiple of step (1: all of it). */
static void release_block(unsigned long pfn, unsigned long step)
{
	for (unsigned long i = 0; i < BLOCK_PAGES; i += step)
		release_held(pfn_to_page(pfn + i));
	drain_pcp_lists(); /* into the buddy lists, where compaction's free scanner looks */
}

/* Frees every page the test still holds, and its arrays. */
static void release_all_held(void)
{
	for (unsigned long i = 0; i < hold.nr; i++)
		if (is_held(hold.pages[i]))
			release_held(hold.pages[i]);
	kfree(hold.pages); /* NULL: nothing */
	kfree(hold.blocks);
	hold = (typeof(hold)){ 0 };
}

/* The zone with the most memory: the one the test confines the writers' pages to. */
static struct zone *largest_zone(void)
{
	struct zone *best = &mm_zones[0];

	for (int z = 1; z < (int)mm_nr_zone_ids; z++)
		if (mm_zones[z].managed_pages > best->managed_pages)
			best = &mm_zones[z];
	return best;
}

/* The page behind page i of CPU cpu's area. */
static struct page *writer_page(unsigned int cpu, unsigned long i)
{
	return vmalloc_to_page((char *)smp.w[cpu].area + i * PAGE_SIZE);
}

static unsigned long writers_top_pfn(unsigned int n)
{
	unsigned long top = 0;

	for (unsigned int cpu = 1; cpu < n; cpu++)
		for (unsigned long i = 0; i < AREA_PAGES; i++)
			top = MAX(top, page_to_pfn(writer_page(cpu, i)));
	return top;
}

/*
 * Gives every writer a new area, all its pages from the pageblock at pfn, the only free memory
 * (__GFP_HIGH: below the min watermark); the descriptors reuse the slab objects the old areas
 * freed, so no slab page is taken from it. Returns how many pages landed there.
 */
static unsigned long new_areas_in(unsigned int n, unsigned long pfn)
{
	unsigned long landed = 0;

	for (unsigned int cpu = 1; cpu < n; cpu++) {
		smp.w[cpu].area = __vmalloc(AREA_PAGES * PAGE_SIZE, __GFP_HIGH | __GFP_NOWARN);
		for (unsigned long i = 0; smp.w[cpu].area && i < AREA_PAGES; i++)
			landed += page_to_pfn(writer_page(cpu, i)) - pfn < BLOCK_PAGES;
	}
	return landed;
}

static bool writers_have_areas(unsigned int n)
{
	for (unsigned int cpu = 1; cpu < n; cpu++)
		if (!smp.w[cpu].area)
			return false;
	return true;
}

static void free_writer_areas(unsigned int n)
{
	for (unsigned int cpu = 1; cpu < n; cpu++) {
		vfree(smp.w[cpu].area);
		smp.w[cpu].area = NULL;
	}
}

/* One compact_memory(); returns how many writer pages it moved. */
static unsigned long compact_under_writers(unsigned int n)
{
	static struct page *before[NR_CPUS_MAX][AREA_PAGES]; /* static: too big for a stack */
	unsigned long moved = 0;

	for (unsigned int cpu = 1; cpu < n; cpu++)
		for (unsigned long i = 0; i < AREA_PAGES; i++)
			before[cpu][i] = writer_page(cpu, i);
	compact_memory();
	for (unsigned int cpu = 1; cpu < n; cpu++)
		for (unsigned long i = 0; i < AREA_PAGES; i++)
			moved += writer_page(cpu, i) != before[cpu][i];
	return moved;
}

/*
 * The setup: every free page held; the writers' areas freed (their descriptors' slab objects
 * kept free for the new ones), their pages held too; the lowest
 * held pageblock freed and the writers' new areas made in it; every page free again held; then enough whole pageblocks freed to keep the zone above
 * its min watermark (compaction takes targets only above it) as free 2 MiB blocks, which its
 * free scanner leaves alone. Returns the index in hold.blocks of the first block left for the
 * passes, 0 when memory is too small (the case is skipped) or something failed (reported).
 */
static unsigned long confine_writers(struct ktest *t, unsigned int n, struct zone *zone)
{
	unsigned long reserve = (zone->watermark[WMARK_MIN] + BLOCK_PAGES / 2) / BLOCK_PAGES + 1;
	unsigned long landed;

	hold_every_free_page();
	find_held_blocks(zone, hold.cap / BLOCK_PAGES);
	if (!KT_EXPECT(t, hold.nr < hold.cap, "%lu pages held, room for %lu", hold.nr, hold.cap))
		return 0;
	if (hold.nr_blocks < reserve + 4) {
		static char reason[120];

		snprintf(reason, sizeof(reason), "needs %lu movable pageblocks of free memory, the zone has %lu",
			 reserve + 4, hold.nr_blocks);
		ktest_skip(t, reason);
		return 0;
	}
	free_writer_areas(n);
	hold_the_free_pages_now();
	release_block(hold.blocks[0], 1);
	landed = new_areas_in(n, hold.blocks[0]);
	hold_the_free_pages_now();
	if (!KT_EXPECT(t, writers_have_areas(n) && landed == (n - 1) * AREA_PAGES,
		       "%lu of the writers' pages in the pageblock at pfn %#lx, %lu expected", landed, hold.blocks[0],
		       (unsigned long)(n - 1) * AREA_PAGES))
		return 0;
	for (unsigned long b = 1; b <= reserve; b++)
		release_block(hold.blocks[b], 1);
	return reserve + 1;
}

/* The passes of compaction_moves_the_pages_of_writers_on_other_cpus_and_loses_no_write(), from hold.blocks[next]. */
static void compact_under_writers_passes(struct ktest *t, unsigned int n, unsigned long next)
{
	unsigned long moved = 0, faults0 = vmalloc_marker_faults(), migrated0;
	unsigned int pass = 0;

	smp_call_function(writer_on_this_cpu, NULL, false);
	KT_EXPECT(t, wait_writers(n, false), "the writers did not start");
	migrated0 = vm_event_count(PGMIGRATE_SUCCESS);
	/*
	 * Each pass: half the pages of the lowest whole block above the writers' pages freed, the
	 * only targets compaction finds; COMPACT_PASSES at least, then until a writer met a marker.
	 */
	for (; next < hold.nr_blocks && (pass < COMPACT_PASSES || vmalloc_marker_faults() == faults0); pass++) {
		unsigned long top = writers_top_pfn(n);

		while (next < hold.nr_blocks && hold.blocks[next] <= top)
			next++;
		if (next == hold.nr_blocks)
			break;
		release_block(hold.blocks[next++], 2);
		moved += compact_under_writers(n);
	}
	__atomic_store_n(&smp.stop, true, __ATOMIC_RELEASE);
	KT_EXPECT(t, wait_writers(n, true), "the writers did not stop");
	smp_call_function(nothing, NULL, true);
	KT_EXPECT(t, moved > 0, "compaction moved none of the writers' pages in %u passes", pass);
	KT_EXPECT(t, vm_event_count(PGMIGRATE_SUCCESS) - migrated0 >= moved, "pgmigrate_success grew by %lu, %lu moved",
		  vm_event_count(PGMIGRATE_SUCCESS) - migrated0, moved);
	KT_EXPECT(t, vmalloc_marker_faults() > faults0, "no writer touched a page while compaction moved it, in %u passes",
		  pass);
	for (unsigned int cpu = 1; cpu < n; cpu++) {
		struct vmalloc_writer *w = &smp.w[cpu];

		KT_EXPECT(t, w->bad_reads == 0, "CPU %u: %lu words read back other than written", cpu, w->bad_reads);
		KT_EXPECT(t, writer_lost_words(w) == 0, "CPU %u: %lu words of round %lu lost", cpu,
			  writer_lost_words(w), w->rounds);
	}
	printk("    # compaction moved %lu writer pages in %u passes under %u writers, who waited for a move %lu times\n",
	       moved, pass, n - 1, vmalloc_marker_faults() - faults0);
}

static void compaction_moves_the_pages_of_writers_on_other_cpus_and_loses_no_write(struct ktest *t)
{
	unsigned int n = smp_num_cpus();
	struct zone *zone = largest_zone();
	void *keeper[2] = { NULL, NULL };
	unsigned long next = 0;

	if (n < 2) {
		ktest_skip(t, "one CPU: no other CPU to write");
		return;
	}
	hold.cap = nr_free_pages() + 4096;
	if (hold.cap * sizeof(*hold.pages) > KMALLOC_MAX_SIZE) {
		/* the array of every free page is kmalloc's: at most 4 MiB, 2 GiB of pages */
		ktest_skip(t, "more free memory than the array of held pages can list (2 GiB)");
		hold.cap = 0;
		return;
	}
	hold.pages = kmalloc(hold.cap * sizeof(*hold.pages), GFP_KERNEL);
	hold.blocks = kmalloc(hold.cap / BLOCK_PAGES * sizeof(*hold.blocks), GFP_KERNEL);
	smp.stop = false;
	/*
	 * The keepers, one page each, either side of the writers' areas: the page tables of these
	 * addresses stay while the areas are made again (a page-table page is unmovable, and would
	 * take the pageblock the new areas are to be in).
	 */
	keeper[0] = vmalloc(PAGE_SIZE);
	for (unsigned int cpu = 1; cpu < n; cpu++)
		smp.w[cpu] = (struct vmalloc_writer){ .area = vmalloc(AREA_PAGES * PAGE_SIZE), .id = cpu,
						      .words = AREA_PAGES * PAGE_SIZE / 8 };
	keeper[1] = vmalloc(PAGE_SIZE);
	if (KT_EXPECT(t, hold.pages && hold.blocks && keeper[0] && keeper[1] && writers_have_areas(n),
		      "no memory for the arrays of %lu pages or the writers' areas", hold.cap) &&
	    (next = confine_writers(t, n, zone)))
		compact_under_writers_passes(t, n, next);
	free_writer_areas(n);
	vfree(keeper[0]);
	vfree(keeper[1]);
	release_all_held();
}

KTEST_SUITE(vmalloc_smp, KTEST_CASE(the_guard_page_and_a_freed_area_fault),
	    KTEST_CASE(page_tables_come_and_go_with_the_pages),
	    KTEST_CASE(writers_on_other_cpus_lose_no_write_while_their_pages_move),
	    KTEST_CASE(compaction_moves_the_pages_of_writers_on_other_cpus_and_loses_no_write));
