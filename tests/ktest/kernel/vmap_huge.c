/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of HUGE_MAP_AREA (kernel/vmap_huge.h): a 2 MiB compound page mapped by one PDE;
 * set_memory_ro() on part of it splits the mapping and the page, and writes there fault (the
 * faults are expected and reported) while writes elsewhere do not; -EBUSY with nothing changed
 * while another reference is held; a hugetlb pool page keeps its page whole; set_memory_rw()
 * gives the writes back; a large kmalloc's page is mapped but never split (kmalloc frees it
 * whole); a page is mapped once at most; and on another CPU, whose TLB holds the old entry, a write faults once
 * the page is read-only (the TLB shootdown, kernel/tlb.h). Each case gives back every page and
 * every page-table page it used.
 */
#include "kernel/paging.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/tlb.h"
#include "kernel/traps.h"
#include "kernel/tsc.h"
#include "kernel/vmap_huge.h"
#include "kernel/x86.h"
#include "mm/hugetlb.h"
#include "mm/slab.h"
#include "tests/ktest/compound_helpers.h"

#define VEC_PF       14
#define PF_PRESENT   0x1 /* error code: a protection violation, not a missing page */
#define PF_WRITE     0x2
#define RO_FIRST     3   /* the pages the cases make read-only: 3, 4 and 5 */
#define RO_COUNT     3
#define WAIT_US      3000000u /* emulated CPUs may be slow to get a turn: be generous */
#define NR_SUB       (1UL << HUGE_MAP_ORDER)

static unsigned long pt_pages(void) { return __atomic_load_n(&page_table_pages, __ATOMIC_RELAXED); }
static volatile uint64_t *sub(char *map, unsigned long i) { return (volatile uint64_t *)(map + i * PAGE_SIZE); }
static bool in_ro(unsigned long i) { return i >= RO_FIRST && i < RO_FIRST + RO_COUNT; }

/* An order-9 compound page from the buddy allocator; the case skips when RAM cannot hold one. */
static struct page *alloc_huge_compound(struct ktest *t)
{
	if (mm_skip_without_blocks(t, HUGE_MAP_ORDER, 1, GFP_KERNEL))
		return NULL;
	return alloc_pages(GFP_KERNEL | __GFP_COMP, HUGE_MAP_ORDER);
}

/*
 * A fresh order-9 compound page mapped whole by vmap_huge(): its address, and the page in *headp.
 * NULL when the case is skipped (RAM here has no 2 MiB block) or failed; it then keeps nothing.
 */
static char *map_huge_compound(struct ktest *t, struct page **headp)
{
	struct page *head = alloc_huge_compound(t);
	char *map;

	*headp = head;
	if (t->skip_reason || !KT_EXPECT(t, head != NULL, "alloc_pages(__GFP_COMP, 9) failed"))
		return NULL;
	map = vmap_huge(head);
	if (!KT_EXPECT(t, map != NULL, "vmap_huge failed"))
		put_page(head);
	return map;
}

/* Frees what a case mapped: the whole compound page, or each page of a split one. */
static void free_huge_compound(struct page *head)
{
	if (PageHead(head)) {
		put_page(head);
		return;
	}
	for (unsigned long i = 0; i < NR_SUB; i++)
		put_page(&head[i]);
}

/* Does a write of val at p fault? Checks that a fault is the write-protection one, at p. */
static bool write_faults(struct ktest *t, volatile uint64_t *p, uint64_t val)
{
	struct trap_record seen = { 0 };
	int r;

	trap_expect(VEC_PF, &seen);
	r = probe_write64(p, val);
	if (!trap_expect_done()) {
		KT_EXPECT_EQ(t, r, 0);
		return false;
	}
	KT_EXPECT_EQ(t, r, -1);
	KT_EXPECT_EQ(t, seen.cr2, (uintptr_t)p);
	KT_EXPECT(t, (seen.error_code & (PF_PRESENT | PF_WRITE)) == (PF_PRESENT | PF_WRITE),
		  "error code %#llx: not a write to a present page", (unsigned long long)seen.error_code);
	return true;
}

static void order9_page_is_mapped_by_one_pde(struct ktest *t)
{
	unsigned long pt0 = pt_pages();
	struct page *head;
	char *map;
	uint64_t e;

	map = map_huge_compound(t, &head);
	if (!map)
		return;
	KT_EXPECT(t, (uintptr_t)map >= HUGE_MAP_AREA && (uintptr_t)map < HUGE_MAP_AREA + HUGE_MAP_AREA_SIZE &&
		  !((uintptr_t)map & (HUGE_MAP_SIZE - 1)), "mapped at %p", (void *)map);
	e = huge_map_entry(map + 7 * PAGE_SIZE);
	KT_EXPECT(t, (e & (PTE_PRESENT | PTE_WRITE | PTE_HUGE | PTE_NX)) == (PTE_PRESENT | PTE_WRITE | PTE_HUGE | PTE_NX),
		  "entry %#llx is not a present, writable, no-execute 2 MiB PDE", (unsigned long long)e);
	KT_EXPECT_EQ(t, e & PTE_ADDR, PFN_PHYS(page_to_pfn(head)));
	KT_EXPECT(t, huge_map_to_page(map + 7 * PAGE_SIZE + 40) == &head[7], "sub-page 7 not found from its address");
	/* The first mapping brings its PDPT and page directory; no page table under a 2 MiB entry. */
	KT_EXPECT_EQ(t, pt_pages(), pt0 + 2);
	for (unsigned long i = 0; i < NR_SUB; i += 73)
		*sub(map, i) = 0x600d0000 + i;
	for (unsigned long i = 0; i < NR_SUB; i += 73)
		KT_EXPECT_EQ(t, *(uint64_t *)page_address(&head[i]), 0x600d0000 + i);
	KT_EXPECT_EQ(t, vunmap_huge(map), 0);
	KT_EXPECT_EQ(t, huge_map_entry(map), 0);
	KT_EXPECT_EQ(t, pt_pages(), pt0);
	KT_EXPECT(t, PageHead(head) && compound_check(head, HUGE_MAP_ORDER) == NULL, "mapping changed the page");
	put_page(head);
}

static void vmap_huge_refuses_what_is_not_a_2mib_compound_page(struct ktest *t)
{
	unsigned long pt0 = pt_pages();
	struct page *plain = alloc_pages(GFP_KERNEL | __GFP_NOWARN, HUGE_MAP_ORDER);
	struct page *small = alloc_pages(GFP_KERNEL | __GFP_COMP, 4);

	if (plain) {
		KT_EXPECT(t, vmap_huge(plain) == NULL, "mapped a plain order-9 block");
		__free_pages(plain, HUGE_MAP_ORDER);
	}
	KT_ASSERT(t, small != NULL, "alloc_pages(__GFP_COMP, 4) failed");
	KT_EXPECT(t, vmap_huge(small) == NULL, "mapped an order-4 compound page");
	KT_EXPECT(t, vmap_huge(&small[1]) == NULL, "mapped from a tail page");
	put_page(small);
	KT_EXPECT_EQ(t, vunmap_huge((void *)HUGE_MAP_AREA), -EINVAL);
	KT_EXPECT_EQ(t, pt_pages(), pt0);
}

static void set_memory_ro_splits_the_mapping_and_the_page(struct ktest *t)
{
	unsigned long pt0 = pt_pages(), faults = 0, quiet = 0, checked = 0;
	struct page *head;
	char *map;

	map = map_huge_compound(t, &head);
	if (!map)
		return;
	for (unsigned long i = 0; i < NR_SUB; i++)
		*sub(map, i) = i;
	/* Located from a sub-page's address in the middle of the range. */
	KT_EXPECT_EQ(t, set_memory_ro((unsigned long)map + RO_FIRST * PAGE_SIZE, RO_COUNT), 0);
	KT_EXPECT(t, !(huge_map_entry(map) & PTE_HUGE), "the 2 MiB entry is still there");
	KT_EXPECT_EQ(t, pt_pages(), pt0 + 3);
	for (unsigned long i = 0; i < NR_SUB; i++) {
		uint64_t e = huge_map_entry(map + i * PAGE_SIZE);

		if (!KT_EXPECT(t, (e & PTE_ADDR) == PFN_PHYS(page_to_pfn(&head[i])) && (e & PTE_PRESENT) &&
			       !(e & PTE_WRITE) == in_ro(i), "page %lu: entry %#llx", i, (unsigned long long)e))
			break;
	}
	/* The compound page was split: 512 independent pages, each with its own count. */
	expect_no_compound(t, head, HUGE_MAP_ORDER);
	for (unsigned long i = 0; i < NR_SUB; i++)
		if (!KT_EXPECT(t, !PageTail(&head[i]) && page_count(&head[i]) == 1,
			       "page %lu: tail %d count %d", i, PageTail(&head[i]), page_count(&head[i])))
			break;
	for (unsigned long i = 0; i < NR_SUB; i++) {
		if (!in_ro(i) && i % 64 != 2 && i != NR_SUB - 1 && i != RO_FIRST - 1 && i != RO_FIRST + RO_COUNT)
			continue;
		checked += !in_ro(i);
		if (write_faults(t, sub(map, i), 0xbad))
			faults += in_ro(i);
		else
			quiet += !in_ro(i);
	}
	KT_EXPECT_EQ(t, faults, RO_COUNT);
	KT_EXPECT_EQ(t, quiet, checked); /* 2, 66, ..., 450, 511 and 6, the neighbours of 3..5 */
	for (unsigned long i = RO_FIRST; i < RO_FIRST + RO_COUNT; i++)
		KT_EXPECT_EQ(t, *sub(map, i), i); /* a faulting write writes nothing */
	/* Writable again, without a second split. */
	KT_EXPECT_EQ(t, set_memory_rw((unsigned long)map + RO_FIRST * PAGE_SIZE, RO_COUNT), 0);
	KT_EXPECT_EQ(t, pt_pages(), pt0 + 3);
	for (unsigned long i = RO_FIRST; i < RO_FIRST + RO_COUNT; i++)
		KT_EXPECT(t, !write_faults(t, sub(map, i), 0x900d), "page %lu still read-only", i);
	KT_EXPECT_EQ(t, *(uint64_t *)page_address(&head[RO_FIRST]), 0x900d);
	KT_EXPECT_EQ(t, vunmap_huge(map), 0);
	KT_EXPECT_EQ(t, pt_pages(), pt0);
	free_huge_compound(head);
}

static void set_memory_ro_is_refused_while_a_reference_is_held(struct ktest *t)
{
	unsigned long pt0 = pt_pages();
	struct page *head;
	char *map;

	map = map_huge_compound(t, &head);
	if (!map)
		return;
	get_page(&head[100]);
	KT_EXPECT_EQ(t, set_memory_ro((unsigned long)map + RO_FIRST * PAGE_SIZE, RO_COUNT), -EBUSY);
	/* Nothing changed: the mapping is whole and writable, the page whole, its count 2. */
	KT_EXPECT(t, (huge_map_entry(map) & (PTE_HUGE | PTE_WRITE)) == (PTE_HUGE | PTE_WRITE),
		  "the mapping changed: %#llx", (unsigned long long)huge_map_entry(map));
	KT_EXPECT(t, compound_check(head, HUGE_MAP_ORDER) == NULL, "the refused split changed the page");
	KT_EXPECT_EQ(t, page_count(&head[RO_FIRST]), 2);
	KT_EXPECT_EQ(t, pt_pages(), pt0 + 2);
	KT_EXPECT(t, !write_faults(t, sub(map, RO_FIRST + 1), 1), "a write faulted after -EBUSY");
	put_page(&head[100]);
	/* With the other reference gone, the same call goes through. */
	KT_EXPECT_EQ(t, set_memory_ro((unsigned long)map + RO_FIRST * PAGE_SIZE, RO_COUNT), 0);
	KT_EXPECT(t, write_faults(t, sub(map, RO_FIRST + 1), 2), "no fault after the split");
	KT_EXPECT_EQ(t, vunmap_huge(map), 0);
	KT_EXPECT_EQ(t, pt_pages(), pt0);
	free_huge_compound(head);
}

/*
 * A page of the 2 MiB pool, which grows by one for it (*persistent: its size before), mapped at
 * *map (NULL, failed, if it cannot be); NULL (the case skipped, or failed) with the pool as it was.
 */
static struct page *pool_page_mapped(struct ktest *t, unsigned long *persistent, char **map)
{
	struct hugetlb_counters c = hugetlb_counters(HPAGE_ORDER);
	struct page *head;

	*persistent = c.total - c.surplus;
	if (mm_skip_without_blocks(t, HPAGE_ORDER, 1, GFP_KERNEL)) /* the pool grows by one */
		return NULL;
	hugetlb_set_pool_size(*persistent + 1);
	head = alloc_huge_page();
	if (!KT_EXPECT(t, head != NULL, "no huge page from the pool")) {
		hugetlb_set_pool_size(*persistent);
		return NULL;
	}
	*map = vmap_huge(head);
	KT_EXPECT(t, *map != NULL, "vmap_huge of a pool page failed");
	return head;
}

/* The pool back to its size before pool_page_take() (its page given back), and still sound. */
static void pool_restore(struct ktest *t, unsigned long persistent)
{
	hugetlb_set_pool_size(persistent);
	KT_EXPECT(t, hugetlb_check() == NULL, "%s", hugetlb_check());
}

static void hugetlb_page_mapping_splits_but_page_stays_whole(struct ktest *t)
{
	struct hugetlb_counters c0 = hugetlb_counters(HPAGE_ORDER);
	unsigned long pt0 = pt_pages(), persistent;
	char *map;
	struct page *head = pool_page_mapped(t, &persistent, &map);

	if (!head)
		return;
	if (map) {
		get_page(&head[7]); /* the pool's page is not split, so other references do not matter */
		KT_EXPECT_EQ(t, set_memory_ro((unsigned long)map + RO_FIRST * PAGE_SIZE, RO_COUNT), 0);
		KT_EXPECT(t, !(huge_map_entry(map) & PTE_HUGE), "the 2 MiB entry is still there");
		KT_EXPECT(t, PageHead(head) && PageHugeTLB(head) && compound_check(head, HPAGE_ORDER) == NULL,
			  "the pool's page was split");
		KT_EXPECT(t, PageTail(&head[RO_FIRST]), "sub-page %d is no longer a tail", RO_FIRST);
		KT_EXPECT(t, write_faults(t, sub(map, RO_FIRST + 1), 1), "no fault on a read-only page");
		KT_EXPECT(t, !write_faults(t, sub(map, 0), 1), "a write to a writable page faulted");
		put_page(&head[7]);
		KT_EXPECT_EQ(t, vunmap_huge(map), 0);
	}
	KT_EXPECT_EQ(t, pt_pages(), pt0);
	put_page(head);
	KT_EXPECT_EQ(t, hugetlb_counters(HPAGE_ORDER).free, c0.free + 1);
	pool_restore(t, persistent);
	KT_EXPECT_EQ(t, hugetlb_counters(HPAGE_ORDER).total, c0.total);
}

static void set_memory_checks_its_range(struct ktest *t)
{
	unsigned long pt0 = pt_pages();
	struct page *head;
	unsigned long a;
	char *map;

	map = map_huge_compound(t, &head);
	if (!map)
		return;
	a = (unsigned long)map;
	KT_EXPECT_EQ(t, set_memory_ro(a + 8, 1), -EINVAL);
	KT_EXPECT_EQ(t, set_memory_ro(a, 0), -EINVAL);
	KT_EXPECT_EQ(t, set_memory_ro(a + (NR_SUB - 1) * PAGE_SIZE, 2), -EINVAL);
	KT_EXPECT_EQ(t, set_memory_ro(a + HUGE_MAP_SIZE, 1), -EINVAL);
	KT_EXPECT_EQ(t, set_memory_ro((unsigned long)page_address(head), 1), -EINVAL);
	KT_EXPECT_EQ(t, vunmap_huge(map + PAGE_SIZE), -EINVAL);
	/* Already writable: nothing to do, the 2 MiB entry stays. */
	KT_EXPECT_EQ(t, set_memory_rw(a, (int)NR_SUB), 0);
	KT_EXPECT(t, huge_map_entry(map) & PTE_HUGE, "set_memory_rw split a writable mapping");
	KT_EXPECT(t, PageHead(head), "set_memory_rw split the page");
	/* Read-only as a whole is still a split: the page stops being a unit. */
	KT_EXPECT_EQ(t, set_memory_ro(a, (int)NR_SUB), 0);
	KT_EXPECT(t, write_faults(t, sub(map, NR_SUB - 1), 1), "no fault on the last page");
	KT_EXPECT_EQ(t, vunmap_huge(map), 0);
	KT_EXPECT_EQ(t, vunmap_huge(map), -EINVAL);
	KT_EXPECT_EQ(t, pt_pages(), pt0);
	free_huge_compound(head);
}

static void two_mappings_share_the_area_tables(struct ktest *t)
{
	unsigned long pt0 = pt_pages();
	struct page *a, *b;
	char *ma, *mb;

	if (mm_skip_without_blocks(t, HUGE_MAP_ORDER, 2, GFP_KERNEL))
		return;
	a = alloc_pages(GFP_KERNEL | __GFP_COMP, HUGE_MAP_ORDER);
	b = alloc_pages(GFP_KERNEL | __GFP_COMP, HUGE_MAP_ORDER);
	KT_ASSERT(t, a && b, "alloc_pages failed");
	ma = vmap_huge(a);
	mb = vmap_huge(b);
	KT_ASSERT(t, ma && mb && ma != mb, "mapped at %p and %p", (void *)ma, (void *)mb);
	KT_EXPECT_EQ(t, pt_pages(), pt0 + 2);
	KT_EXPECT_EQ(t, set_memory_ro((unsigned long)mb, 1), 0);
	KT_EXPECT_EQ(t, pt_pages(), pt0 + 3);
	KT_EXPECT_EQ(t, vunmap_huge(mb), 0); /* frees b's page table; the area's tables stay for a */
	KT_EXPECT_EQ(t, pt_pages(), pt0 + 2);
	*sub(ma, 9) = 9;
	KT_EXPECT_EQ(t, *(uint64_t *)page_address(&a[9]), 9);
	KT_EXPECT_EQ(t, vunmap_huge(ma), 0);
	KT_EXPECT_EQ(t, pt_pages(), pt0);
	free_huge_compound(a);
	free_huge_compound(b);
}

static void set_memory_ro_refuses_a_large_kmalloc_page(struct ktest *t)
{
	unsigned long pt0 = pt_pages(), reports = mm_slab_reports;
	struct page *head;
	char *p, *map;

	if (mm_skip_without_blocks(t, HUGE_MAP_ORDER, 1, GFP_KERNEL))
		return;
	p = kmalloc(HUGE_MAP_SIZE, GFP_KERNEL);
	KT_ASSERT(t, p != NULL, "kmalloc(2 MiB) failed");
	head = virt_to_page(p);
	map = vmap_huge(head);
	KT_EXPECT(t, map != NULL, "vmap_huge of a kmalloc'd 2 MiB page failed");
	if (map) {
		/* kmalloc frees the page whole: no split, so no read-only part either. */
		KT_EXPECT_EQ(t, set_memory_ro((unsigned long)map + RO_FIRST * PAGE_SIZE, RO_COUNT), -EINVAL);
		KT_EXPECT(t, (huge_map_entry(map) & (PTE_HUGE | PTE_WRITE)) == (PTE_HUGE | PTE_WRITE),
			  "the mapping changed: %#llx", (unsigned long long)huge_map_entry(map));
		KT_EXPECT(t, !write_faults(t, sub(map, RO_FIRST + 1), 1), "a write faulted after -EINVAL");
		KT_EXPECT_EQ(t, vunmap_huge(map), 0);
	}
	KT_EXPECT(t, compound_check(head, HUGE_MAP_ORDER) == NULL && page_count(head) == 1,
		  "the refused split changed the page");
	KT_EXPECT_EQ(t, ksize(p), HUGE_MAP_SIZE);
	kfree(p);
	KT_EXPECT_EQ(t, mm_slab_reports, reports);
	KT_EXPECT_EQ(t, pt_pages(), pt0);
}

static void vmap_huge_refuses_a_second_mapping_of_a_page(struct ktest *t)
{
	unsigned long pt0 = pt_pages();
	struct page *head;
	char *map;

	map = map_huge_compound(t, &head);
	if (!map)
		return;
	KT_EXPECT(t, vmap_huge(head) == NULL, "mapped one page twice");
	KT_EXPECT_EQ(t, set_memory_ro((unsigned long)map, 1), 0);
	/* Split, the page is no longer a 2 MiB head; and its first frame is still mapped once only. */
	KT_EXPECT(t, vmap_huge(head) == NULL, "mapped a split page");
	KT_EXPECT_EQ(t, vunmap_huge(map), 0);
	KT_EXPECT_EQ(t, pt_pages(), pt0);
	free_huge_compound(head);
	/* Unmapped, a page may be mapped again. */
	map = map_huge_compound(t, &head);
	if (!map)
		return;
	KT_EXPECT(t, (huge_map_entry(map) & (PTE_HUGE | PTE_WRITE)) == (PTE_HUGE | PTE_WRITE),
		  "a fresh mapping is not a writable 2 MiB entry");
	KT_EXPECT_EQ(t, vunmap_huge(map), 0);
	KT_EXPECT_EQ(t, pt_pages(), pt0);
	free_huge_compound(head);
}

static void hugetlb_page_is_mapped_once(struct ktest *t)
{
	struct hugetlb_counters c0 = hugetlb_counters(HPAGE_ORDER);
	unsigned long pt0 = pt_pages(), persistent;
	char *map;
	struct page *head = pool_page_mapped(t, &persistent, &map);

	if (!head)
		return;
	if (map) {
		KT_EXPECT_EQ(t, set_memory_ro((unsigned long)map, 1), 0);
		/* The pool's page stays a 2 MiB head: a second mapping would stay writable. */
		KT_EXPECT(t, vmap_huge(head) == NULL, "mapped a pool page twice");
		KT_EXPECT_EQ(t, vunmap_huge(map), 0);
	}
	KT_EXPECT_EQ(t, pt_pages(), pt0);
	put_page(head);
	pool_restore(t, persistent);
	KT_EXPECT_EQ(t, hugetlb_counters(HPAGE_ORDER).total, c0.total);
}

/* ---- the TLB shootdown ------------------------------------------------------------------- */

/* What the boot CPU and the CPU that writes share. */
struct remote_write {
	volatile uint64_t *target;
	unsigned int cpu;   /* the CPU that writes; the others return at once */
	bool touch_writes;  /* its first access, which fills its TLB: a write, else a read */
	int stage;          /* 1: its TLB holds the entry; 2: the boot CPU changed it */
	int result;         /* probe_write64()'s */
	uint64_t seen;      /* what its read found */
	bool finished, timed_out;
};

static bool wait_stage(int *stage, int want)
{
	uint64_t deadline = tsc_deadline_us(WAIT_US);

	while (__atomic_load_n(stage, __ATOMIC_ACQUIRE) < want)
		if (rdtsc() > deadline)
			return false;
		else
			cpu_relax();
	return true;
}

/*
 * On the writing CPU, interrupts on (so the shootdown reaches it while it waits): a write fills
 * its TLB with a writable entry, then, once the boot CPU has changed the protection, a second
 * write to the same address, which a stale entry would let through.
 */
static void remote_writer(void *arg)
{
	struct remote_write *r = arg;

	if (this_cpu_id() != r->cpu)
		return;
	if (r->touch_writes)
		*r->target = 0x1111;
	else
		r->seen = *r->target;
	__atomic_store_n(&r->stage, 1, __ATOMIC_RELEASE);
	if (!wait_stage(&r->stage, 2))
		r->timed_out = true;
	r->result = probe_write64(r->target, 0x2222);
	__atomic_store_n(&r->finished, true, __ATOMIC_RELEASE);
}

static void nothing(void *arg) { (void)arg; }

/*
 * One round: the other CPU touches the page (a write when it is writable, else a read), the
 * boot CPU calls change on it, the other CPU writes.
 */
static void remote_round(struct ktest *t, struct remote_write *r, int (*change)(unsigned long, int),
			 bool expect_fault)
{
	struct trap_record seen = { 0 };
	unsigned long before = tlb_shootdowns_received(r->cpu);
	uint64_t deadline;
	bool faulted;

	r->stage = 0;
	r->touch_writes = expect_fault;
	r->finished = r->timed_out = false;
	r->result = 0x55;
	smp_call_function(remote_writer, r, false);
	KT_EXPECT(t, wait_stage(&r->stage, 1), "CPU %u did not write within %u ms", r->cpu, WAIT_US / 1000);
	KT_EXPECT_EQ(t, change((unsigned long)r->target, 1), 0);
	trap_expect(VEC_PF, &seen);
	__atomic_store_n(&r->stage, 2, __ATOMIC_RELEASE);
	deadline = tsc_deadline_us(WAIT_US);
	while (!__atomic_load_n(&r->finished, __ATOMIC_ACQUIRE) && rdtsc() < deadline)
		cpu_relax();
	faulted = trap_expect_done();
	smp_call_function(nothing, NULL, true); /* every CPU is done with r */
	KT_EXPECT(t, r->finished && !r->timed_out, "CPU %u did not finish", r->cpu);
	KT_EXPECT(t, faulted == expect_fault, "CPU %u's write %s", r->cpu,
		  expect_fault ? "went through a read-only page: its TLB kept the old entry" :
				 "faulted on a writable page");
	KT_EXPECT_EQ(t, r->result, expect_fault ? -1 : 0);
	if (expect_fault)
		KT_EXPECT_EQ(t, seen.cr2, (uintptr_t)r->target);
	KT_EXPECT(t, tlb_shootdowns_received(r->cpu) > before, "CPU %u got no shootdown", r->cpu);
}

static void read_only_on_one_cpu_faults_on_another(struct ktest *t)
{
	static struct remote_write r;
	unsigned long pt0 = pt_pages();
	struct page *head;
	char *map;

	if (smp_num_cpus() < 2) {
		ktest_skip(t, "needs a second CPU");
		return;
	}
	map = map_huge_compound(t, &head);
	if (!map)
		return;
	r.target = sub(map, RO_FIRST + 1);
	r.cpu = smp_num_cpus() - 1;
	/* Read-only: the write CPU r.cpu made through its cached 2 MiB entry must now fault. */
	remote_round(t, &r, set_memory_ro, true);
	KT_EXPECT_EQ(t, *(uint64_t *)page_address(&head[RO_FIRST + 1]), 0x1111);
	/* And writable again: a read-only entry it cached by reading must not make it fault. */
	remote_round(t, &r, set_memory_rw, false);
	KT_EXPECT_EQ(t, r.seen, 0x1111);
	KT_EXPECT_EQ(t, *(uint64_t *)page_address(&head[RO_FIRST + 1]), 0x2222);
	KT_EXPECT_EQ(t, vunmap_huge(map), 0);
	KT_EXPECT_EQ(t, pt_pages(), pt0);
	free_huge_compound(head);
}

KTEST_SUITE(vmap_huge,
	    KTEST_CASE(order9_page_is_mapped_by_one_pde),
	    KTEST_CASE(vmap_huge_refuses_what_is_not_a_2mib_compound_page),
	    KTEST_CASE(set_memory_ro_splits_the_mapping_and_the_page),
	    KTEST_CASE(set_memory_ro_is_refused_while_a_reference_is_held),
	    KTEST_CASE(hugetlb_page_mapping_splits_but_page_stays_whole),
	    KTEST_CASE(set_memory_checks_its_range),
	    KTEST_CASE(two_mappings_share_the_area_tables),
	    KTEST_MISUSE_CASE(set_memory_ro_refuses_a_large_kmalloc_page),
	    KTEST_CASE(vmap_huge_refuses_a_second_mapping_of_a_page),
	    KTEST_CASE(hugetlb_page_is_mapped_once),
	    KTEST_CASE(read_only_on_one_cpu_faults_on_another));
