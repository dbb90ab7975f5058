/* SPDX-License-Identifier: MIT */
/*
 * vmalloc's migration on the host, with threads as CPUs (host_mm_set_cpu()): writer threads write
 * their vmalloc'd areas word by word while the main thread moves every page again and again
 * (tests/ktest/vmalloc_writers.h, the core the kernel's vmalloc_smp suite shares). A writer that
 * touches a page under its migration marker (PROT_NONE) gets a SIGSEGV, and the harness's handler
 * (tests/mm/host_arch.c) waits in vmalloc_fault() and retries the access. Also: vfree() of an area
 * one of whose pages a migration holds waits until the page is put back.
 */
#include <pthread.h>
#include <sched.h>

#include "lib/printk.h"
#include "tests/ktest/ktest.h"
#include "tests/ktest/vmalloc_writers.h"
#include "tests/mm/host_mm.h"

#define WRITERS     3
#define AREA_PAGES  8
#define PASSES      40
#define MAX_PASSES  4000
#define MIN_ROUNDS  2

static struct vmalloc_writer writers[WRITERS];
static bool stop;

static void *writer_thread(void *arg)
{
	struct vmalloc_writer *w = arg;

	host_mm_set_cpu(w->id);
	writer_run(w, &stop, MIN_ROUNDS);
	return NULL;
}

static void writers_lose_no_write_while_their_pages_move(struct ktest *t)
{
	unsigned long moved = 0, faults0 = vmalloc_marker_faults();
	pthread_t th[WRITERS];
	unsigned int pass;

	stop = false;
	for (unsigned int i = 0; i < WRITERS; i++) {
		writers[i] = (struct vmalloc_writer){ .area = vmalloc(AREA_PAGES * PAGE_SIZE), .id = i + 1,
						      .words = AREA_PAGES * PAGE_SIZE / 8 };
		KT_ASSERT(t, writers[i].area != NULL, "vmalloc failed");
	}
	for (unsigned int i = 0; i < WRITERS; i++)
		KT_ASSERT(t, pthread_create(&th[i], NULL, writer_thread, &writers[i]) == 0, "pthread_create failed");
	for (unsigned int i = 0; i < WRITERS; i++)
		while (!__atomic_load_n(&writers[i].started, __ATOMIC_ACQUIRE))
			sched_yield();
	for (pass = 0; pass < PASSES || (vmalloc_marker_faults() == faults0 && pass < MAX_PASSES); pass++)
		for (unsigned int i = 0; i < WRITERS; i++)
			moved += migrate_vmalloc_area(writers[i].area, AREA_PAGES);
	__atomic_store_n(&stop, true, __ATOMIC_RELEASE);
	for (unsigned int i = 0; i < WRITERS; i++)
		pthread_join(th[i], NULL);
	KT_EXPECT_EQ(t, moved, (unsigned long)pass * WRITERS * AREA_PAGES);
	KT_EXPECT(t, vmalloc_marker_faults() > faults0, "no writer touched a page while it moved, in %u passes", pass);
	for (unsigned int i = 0; i < WRITERS; i++) {
		struct vmalloc_writer *w = &writers[i];

		KT_EXPECT(t, w->bad_reads == 0, "writer %u: %lu words read back other than written", w->id, w->bad_reads);
		KT_EXPECT(t, writer_lost_words(w) == 0, "writer %u: %lu words of round %lu lost", w->id,
			  writer_lost_words(w), w->rounds);
		vfree(w->area);
	}
	printk("    # %lu pages moved in %u passes under %u writers, who waited for a move %lu times\n", moved, pass,
	       WRITERS, vmalloc_marker_faults() - faults0);
}

static struct {
	struct page *page;
	bool isolated, freeing, put_back;
} held;

/* Isolates the page, waits until the main thread is in vfree(), then puts the page back. */
static void *isolating_thread(void *arg)
{
	(void)arg;
	host_mm_set_cpu(1);
	__atomic_store_n(&held.isolated, isolate_movable_page(held.page) == 0, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&held.freeing, __ATOMIC_ACQUIRE))
		sched_yield();
	for (int i = 0; i < 1000; i++) /* vfree() has had time to get far, if it does not wait */
		sched_yield();
	__atomic_store_n(&held.put_back, true, __ATOMIC_RELEASE);
	putback_movable_page(held.page);
	return NULL;
}

static void vfree_waits_for_a_page_a_migration_holds(struct ktest *t)
{
	unsigned long used = vmalloc_nr_pages();
	void *p = vmalloc(2 * PAGE_SIZE);
	pthread_t th;

	KT_ASSERT(t, p != NULL, "vmalloc failed");
	held = (typeof(held)){ .page = vmalloc_to_page((char *)p + PAGE_SIZE) };
	KT_ASSERT(t, pthread_create(&th, NULL, isolating_thread, NULL) == 0, "pthread_create failed");
	while (!__atomic_load_n(&held.isolated, __ATOMIC_ACQUIRE))
		sched_yield();
	__atomic_store_n(&held.freeing, true, __ATOMIC_RELEASE);
	vfree(p);
	KT_EXPECT(t, __atomic_load_n(&held.put_back, __ATOMIC_ACQUIRE), "vfree() returned while the page was isolated");
	pthread_join(th, NULL);
	KT_EXPECT_EQ(t, vmalloc_nr_pages(), used);
}

/* host_vmalloc_unmapped: no mapping made, the pages still counted, found and moved. */
static void without_mappings_pages_are_still_found_and_moved(struct ktest *t)
{
	unsigned long used = vmalloc_nr_pages();
	void *p;
	struct page *old;

	host_vmalloc_unmapped = true;
	p = vmalloc(4 * PAGE_SIZE);
	old = p ? vmalloc_to_page((char *)p + PAGE_SIZE) : NULL;
	if (KT_EXPECT(t, old != NULL, "vmalloc failed")) {
		KT_EXPECT_EQ(t, vmalloc_nr_pages(), used + 4);
		KT_EXPECT_EQ(t, migrate_vmalloc_area(p, 4), 4);
		KT_EXPECT(t, vmalloc_to_page((char *)p + PAGE_SIZE) != old, "the page did not move");
		vfree(p);
	}
	host_vmalloc_unmapped = false;
	KT_EXPECT_EQ(t, vmalloc_nr_pages(), used);
}

KTEST_SUITE(vmalloc_host, KTEST_CASE(writers_lose_no_write_while_their_pages_move),
	    KTEST_CASE(vfree_waits_for_a_page_a_migration_holds),
	    KTEST_CASE(without_mappings_pages_are_still_found_and_moved));
