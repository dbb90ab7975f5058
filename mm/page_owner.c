/* SPDX-License-Identifier: MIT */
/* page_owner: the side array of allocation records, and the walk over it. See mm/page_owner.h. */
#include "mm/page_owner.h"

#include "mm/arch.h"
#include "mm/memblock.h"

bool mm_page_owner_on;
static struct page_owner *records;
static unsigned long nr_records;
static unsigned long last_seq;

int page_owner_init(unsigned long nr_pfns)
{
	size_t bytes = ALIGN_UP(nr_pfns * sizeof(struct page_owner), PAGE_SIZE);
	phys_addr_t phys;

	mm_page_owner_on = false;
	records = NULL;
	nr_records = 0;
	if (!nr_pfns)
		return 0;
	phys = memblock_alloc(bytes, PAGE_SIZE);
	if (!phys) {
		printk("page_owner: no memory for the records of %lu frames (%zu KiB): off\n", nr_pfns,
		       bytes >> 10);
		return -ENOMEM;
	}
	records = phys_to_virt(phys);
	memset(records, 0, bytes);
	nr_records = nr_pfns;
	mm_page_owner_on = true;
	return 0;
}

/* The record of frame pfn, or NULL outside the array. */
static struct page_owner *record_of(unsigned long pfn)
{
	return pfn < nr_records ? &records[pfn] : NULL;
}

/* Writes rec into r, the sequence number last: a reader that sees it sees a whole record. */
static void record_store(struct page_owner *r, const struct page_owner *rec)
{
	__atomic_store_n(&r->site, rec->site, __ATOMIC_RELAXED);
	__atomic_store_n(&r->gfp, rec->gfp, __ATOMIC_RELAXED);
	__atomic_store_n(&r->order, rec->order, __ATOMIC_RELAXED);
	__atomic_store_n(&r->seq, rec->seq, __ATOMIC_RELEASE);
}

static struct page_owner record_load(const struct page_owner *r)
{
	struct page_owner rec;

	rec.seq = __atomic_load_n(&r->seq, __ATOMIC_ACQUIRE);
	rec.site = __atomic_load_n(&r->site, __ATOMIC_RELAXED);
	rec.gfp = __atomic_load_n(&r->gfp, __ATOMIC_RELAXED);
	rec.order = __atomic_load_n(&r->order, __ATOMIC_RELAXED);
	return rec;
}

void page_owner_alloc(unsigned long pfn, unsigned int order, gfp_t gfp, uintptr_t site)
{
	struct page_owner *r = record_of(pfn);
	struct page_owner rec = { .site = site, .gfp = gfp, .order = order };

	if (!r)
		return;
	rec.seq = __atomic_add_fetch(&last_seq, 1, __ATOMIC_RELAXED);
	record_store(r, &rec);
}

void page_owner_free(unsigned long pfn)
{
	struct page_owner *r = record_of(pfn);

	if (r)
		__atomic_store_n(&r->seq, 0, __ATOMIC_RELAXED);
}

void page_owner_split(unsigned long pfn, unsigned int order)
{
	struct page_owner *r = record_of(pfn), rec;

	if (!r || pfn + (1UL << order) > nr_records)
		return;
	rec = record_load(r);
	rec.order = 0;
	for (unsigned long i = 0; i < 1UL << order; i++)
		record_store(&r[i], &rec);
}

unsigned long page_owner_frames(void)
{
	return nr_records;
}

unsigned long page_owner_seq(void)
{
	return __atomic_load_n(&last_seq, __ATOMIC_RELAXED);
}

struct page_owner page_owner_get(unsigned long pfn)
{
	const struct page_owner *r = record_of(pfn);

	return r ? record_load(r) : (struct page_owner){ 0 };
}

unsigned long page_owner_for_each_since(unsigned long after,
					bool (*fn)(unsigned long pfn, const struct page_owner *rec, void *arg),
					void *arg)
{
	unsigned long found = 0;
	bool more = true;

	for (unsigned long pfn = 0; pfn < nr_records; pfn++) {
		struct page_owner rec;

		if (__atomic_load_n(&records[pfn].seq, __ATOMIC_RELAXED) <= after)
			continue;
		rec = record_load(&records[pfn]);
		found++;
		if (more)
			more = fn(pfn, &rec, arg);
	}
	return found;
}
