/*
 * memblock: the early boot allocator. Sorted lists of memory and reserved ranges; allocation
 * searches the gaps between reserved ranges from the top of memory down.
 */
#include "mm/memblock.h"

#include "lib/printk.h"
#include "lib/string.h"
#include "mm/arch.h"

struct memblock memblock = {
	.memory = { .name = "memory" },
	.reserved = { .name = "reserved" },
};

static phys_addr_t rend(const struct memblock_region *r) { return r->base + r->size; }

static void check_alive(const char *fn)
{
	if (memblock.retired)
		panic("%s: the early allocator was retired when the buddy allocator took over; "
		      "use alloc_pages()", fn);
}

void memblock_reset(void)
{
	memblock.memory.cnt = 0;
	memblock.reserved.cnt = 0;
	memblock.retired = false;
}

/* Index of the first region that ends at or after base (touches or overlaps [base, ...)). */
static unsigned int first_touching(const struct memblock_type *t, phys_addr_t base)
{
	unsigned int i = 0;

	while (i < t->cnt && rend(&t->regions[i]) < base)
		i++;
	return i;
}

/* Replaces regions [i, j) of t with the single region r (j == i inserts it before region i). */
static void replace_regions(struct memblock_type *t, unsigned int i, unsigned int j,
			    struct memblock_region r)
{
	memmove(&t->regions[i + 1], &t->regions[j], (t->cnt - j) * sizeof(t->regions[0]));
	t->regions[i] = r;
	t->cnt = t->cnt - (j - i) + 1;
}

/*
 * Adds [base, end) to t, merging every region it touches. Returns false when t is full and the
 * range touches nothing.
 */
static bool region_add(struct memblock_type *t, phys_addr_t base, phys_addr_t end, const char *what)
{
	unsigned int i = first_touching(t, base), j = i;
	struct memblock_region r = { base, 0, what };

	for (; j < t->cnt && t->regions[j].base <= end; j++) {
		if (j == i && t->regions[j].what)
			r.what = t->regions[j].what;
		r.base = MIN(r.base, t->regions[j].base);
		end = MAX(end, rend(&t->regions[j]));
	}
	if (j == i && t->cnt == MEMBLOCK_MAX_REGIONS)
		return false;
	r.size = end - r.base;
	replace_regions(t, i, j, r);
	return true;
}

int memblock_add(phys_addr_t base, phys_addr_t size)
{
	check_alive("memblock_add");
	if (size == 0)
		return 0;
	if (!region_add(&memblock.memory, base, base + size, NULL)) {
		printk("memblock: more than %d memory ranges; ignoring [mem 0x%016llx-0x%016llx]\n",
		       MEMBLOCK_MAX_REGIONS, (unsigned long long)base, (unsigned long long)(base + size - 1));
		return -ENOMEM;
	}
	return 0;
}

void memblock_reserve(phys_addr_t base, phys_addr_t size, const char *what)
{
	check_alive("memblock_reserve");
	if (size == 0)
		return;
	if (!region_add(&memblock.reserved, base, base + size, what))
		panic("memblock_reserve: more than %d reserved ranges; cannot reserve [mem %#llx-%#llx] (%s)",
		      MEMBLOCK_MAX_REGIONS, (unsigned long long)base, (unsigned long long)(base + size - 1),
		      what ? what : "?");
}

/*
 * The highest address in [lo, hi) where size bytes aligned to align fit, or 0. Address 0 is
 * never returned (it means failure; the first 1 MiB is reserved anyway).
 */
static phys_addr_t fit_top_down(phys_addr_t lo, phys_addr_t hi, phys_addr_t size, phys_addr_t align)
{
	phys_addr_t p;

	if (hi <= lo || hi - lo < size)
		return 0;
	p = ALIGN_DOWN(hi - size, align);
	return p >= lo && p > 0 ? p : 0;
}

/* Searches the free gaps of memory region m from the top down, below max_addr. */
static phys_addr_t alloc_in_region(const struct memblock_region *m, phys_addr_t size,
				   phys_addr_t align, phys_addr_t max_addr)
{
	const struct memblock_type *res = &memblock.reserved;
	phys_addr_t top = MIN(rend(m), max_addr), p;

	for (int k = (int)res->cnt - 1; k >= 0 && top > m->base; k--) {
		const struct memblock_region *r = &res->regions[k];

		if (r->base >= top)
			continue;
		p = fit_top_down(MAX(rend(r), m->base), top, size, align);
		if (p)
			return p;
		top = r->base;
	}
	return top > m->base ? fit_top_down(m->base, top, size, align) : 0;
}

phys_addr_t memblock_alloc_range(phys_addr_t size, phys_addr_t align, phys_addr_t max_addr)
{
	check_alive("memblock_alloc");
	if (size == 0 || align == 0 || (align & (align - 1))) {
		printk("memblock_alloc: bad request: size %#llx align %#llx\n", (unsigned long long)size,
		       (unsigned long long)align);
		return 0;
	}
	for (int i = (int)memblock.memory.cnt - 1; i >= 0; i--) {
		phys_addr_t p = alloc_in_region(&memblock.memory.regions[i], size, align, max_addr);

		if (p) {
			memblock_reserve(p, size, "memblock_alloc");
			return p;
		}
	}
	return 0;
}

phys_addr_t memblock_alloc(phys_addr_t size, phys_addr_t align)
{
	return memblock_alloc_range(size, align, UINT64_MAX);
}

/* Calls fn for the free gaps of memory region m, lowest first. */
static void free_in_region(const struct memblock_region *m,
			   void (*fn)(phys_addr_t, phys_addr_t, void *), void *arg)
{
	const struct memblock_type *res = &memblock.reserved;
	phys_addr_t cur = m->base;

	for (unsigned int k = 0; k < res->cnt && cur < rend(m); k++) {
		const struct memblock_region *r = &res->regions[k];

		if (rend(r) <= cur)
			continue;
		if (r->base > cur)
			fn(cur, MIN(r->base, rend(m)), arg);
		cur = MAX(cur, rend(r));
	}
	if (cur < rend(m))
		fn(cur, rend(m), arg);
}

void memblock_for_each_free(void (*fn)(phys_addr_t base, phys_addr_t end, void *arg), void *arg)
{
	check_alive("memblock_for_each_free");
	for (unsigned int i = 0; i < memblock.memory.cnt; i++)
		free_in_region(&memblock.memory.regions[i], fn, arg);
}

phys_addr_t memblock_memory_bytes(void)
{
	phys_addr_t sum = 0;

	for (unsigned int i = 0; i < memblock.memory.cnt; i++)
		sum += memblock.memory.regions[i].size;
	return sum;
}

static void add_bytes(phys_addr_t base, phys_addr_t end, void *arg)
{
	*(phys_addr_t *)arg += end - base;
}

phys_addr_t memblock_free_bytes(void)
{
	phys_addr_t sum = 0;

	memblock_for_each_free(add_bytes, &sum);
	return sum;
}

void memblock_print(void)
{
	const struct memblock_type *types[] = { &memblock.memory, &memblock.reserved };

	for (unsigned int t = 0; t < ARRAY_SIZE(types); t++)
		for (unsigned int i = 0; i < types[t]->cnt; i++) {
			const struct memblock_region *r = &types[t]->regions[i];
			printk("memblock: %-8s [mem 0x%016llx-0x%016llx] %s\n", types[t]->name,
			       (unsigned long long)r->base, (unsigned long long)(rend(r) - 1),
			       r->what ? r->what : "");
		}
}

void memblock_retire(void)
{
	memblock.retired = true;
}
