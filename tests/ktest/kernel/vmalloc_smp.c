/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of vmalloc that need the CPU itself (mm/vmalloc.h, kernel/vmalloc_arch.c): the guard
 * page after an area and a freed area fault (through the fault probe, kernel/fault_probe.asm);
 * the page tables of the range come and go with its pages; and, the test the migration of
 * vmalloc pages is for, writers on every other CPU write their areas word by word, reading each
 * word back, while the boot CPU moves every page of every area again and again: afterwards every
 * word holds what its writer wrote last, and no read-back ever differed (no write lost).
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
#include "tests/ktest/ktest.h"
#include "tests/ktest/vmalloc_writers.h"

#define VEC_PF      14
#define PF_PRESENT  0x1
#define AREA_PAGES  8        /* each writer's area */
#define PASSES      24       /* times the boot CPU moves every page of every area */
#define MAX_PASSES  2400     /* ... until a writer has faulted on a migration marker */
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

KTEST_SUITE(vmalloc_smp, KTEST_CASE(the_guard_page_and_a_freed_area_fault),
	    KTEST_CASE(page_tables_come_and_go_with_the_pages),
	    KTEST_CASE(writers_on_other_cpus_lose_no_write_while_their_pages_move));
