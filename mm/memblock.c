/* SPDX-License-Identifier: MIT */
/*
 * memblock: the early boot allocator. Sorted lists of memory and reserved ranges that double when
 * full; allocation searches the gaps between reserved ranges from the top of memory down.
 */
#include "mm/memblock.h"

#include "mm/arch.h"

static struct memblock_region memory_init[MEMBLOCK_INIT_REGIONS];
static struct memblock_region reserved_init[MEMBLOCK_INIT_REGIONS];

struct memblock mm_memblock = {
	.memory = { .name = "memory", .max = MEMBLOCK_INIT_REGIONS, .regions = memory_init },
	.reserved = { .name = "reserved", .max = MEMBLOCK_INIT_REGIONS, .regions = reserved_init },
	.current_limit = UINT64_MAX,
};

static phys_addr_t rend(const struct memblock_region *r) { return r->base + r->size; }

static void check_alive(const char *fn)
{
	if (mm_memblock.retired)
		panic("%s: the early allocator was retired when the buddy allocator took over; "
		      "use alloc_pages()", fn);
}

void memblock_reset(void)
{
	mm_memblock.memory = (struct memblock_type){ "memory", 0, MEMBLOCK_INIT_REGIONS, memory_init };
	mm_memblock.reserved = (struct memblock_type){ "reserved", 0, MEMBLOCK_INIT_REGIONS, reserved_init };
	mm_memblock.can_resize = false;
	mm_memblock.retired = false;
	mm_memblock.current_limit = UINT64_MAX;
}

void memblock_allow_resize(void)
{
	mm_memblock.can_resize = true;
}

void memblock_set_current_limit(phys_addr_t limit)
{
	mm_memblock.current_limit = limit;
}

/* Index of the first region that ends at or after base (touches or overlaps [base, ...)). */
static unsigned int first_touching(const struct memblock_type *t, phys_addr_t base)
{
	unsigned int lo = 0, hi = t->cnt;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (rend(&t->regions[mid]) < base)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Index of the last region that starts below addr, or -1. */
static int last_below(const struct memblock_type *t, phys_addr_t addr)
{
	unsigned int lo = 0, hi = t->cnt;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (t->regions[mid].base < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (int)lo - 1;
}

/* ---- finding free memory ------------------------------------------------------------------- */

/*
 * The highest address in [lo, hi) where size bytes aligned to align fit, or 0. Address 0 is
 * never returned (it means failure; a PC reserves its first 1 MiB anyway).
 */
static phys_addr_t fit_top_down(phys_addr_t lo, phys_addr_t hi, phys_addr_t size, phys_addr_t align)
{
	phys_addr_t p;

	if (hi <= lo || hi - lo < size)
		return 0;
	p = ALIGN_DOWN(hi - size, align);
	return p >= lo && p > 0 ? p : 0;
}

/*
 * Searches the free gaps of memory region m below top, from the top down; k is the last reserved
 * region that starts below top. Costs one step per reserved region inside m.
 */
static phys_addr_t find_in_region(phys_addr_t base, phys_addr_t top, int k,
				  phys_addr_t size, phys_addr_t align)
{
	const struct memblock_region *res = mm_memblock.reserved.regions;

	for (; top > base; k--) {
		phys_addr_t lo = k >= 0 ? MAX(rend(&res[k]), base) : base, p;

		p = fit_top_down(lo, top, size, align);
		if (p)
			return p;
		if (k < 0)
			break;
		top = res[k].base;
	}
	return 0;
}

/*
 * The highest free block of size bytes aligned to align below max_addr (and the current limit),
 * or 0. Reserves nothing. One walk down both lists: O(memory + reserved ranges).
 */
static phys_addr_t find_free(phys_addr_t size, phys_addr_t align, phys_addr_t min_addr, phys_addr_t max_addr)
{
	const struct memblock_type *mem = &mm_memblock.memory;

	max_addr = MIN(max_addr, mm_memblock.current_limit);
	for (int i = (int)mem->cnt - 1; i >= 0; i--) {
		const struct memblock_region *m = &mem->regions[i];
		phys_addr_t top = MIN(rend(m), max_addr), base = MAX(m->base, min_addr), p;

		if (top <= base)
			continue;
		p = find_in_region(base, top, last_below(&mm_memblock.reserved, top), size, align);
		if (p)
			return p;
	}
	return 0;
}

/* ---- growing a list ------------------------------------------------------------------------ */

static int region_add(struct memblock_type *t, phys_addr_t base, phys_addr_t end, const char *what);

/* Takes [base, end) out of the reserved list (it lies inside one reserved region). */
static void unreserve(phys_addr_t base, phys_addr_t end)
{
	struct memblock_type *t = &mm_memblock.reserved;
	unsigned int i = first_touching(t, base + 1);
	struct memblock_region *r = &t->regions[i];
	phys_addr_t rend_old = rend(r);

	if (r->base == base && rend_old == end) {
		memmove(r, r + 1, (t->cnt - i - 1) * sizeof(*r));
		t->cnt--;
	} else if (r->base == base) {
		r->base = end;
		r->size = rend_old - end;
	} else {
		r->size = base - r->base;
		if (rend_old > end) /* split in two: the caller made sure there is room */
			region_add(t, end, rend_old, r->what);
	}
}

/*
 * Doubles t's array into memory from memblock itself, reserves the new array and gives back the
 * old one (unless it is the static one). Returns 0, or -ENOMEM when resizing is not allowed yet
 * or no free memory is large enough.
 */
static int grow(struct memblock_type *t)
{
	size_t old_bytes = t->max * sizeof(*t->regions), new_bytes = 2 * old_bytes;
	struct memblock_region *old = t->regions;
	bool old_static = old == memory_init || old == reserved_init;
	phys_addr_t p;

	if (!mm_memblock.can_resize)
		return -ENOMEM;
	/* Reserving the new array, and giving back the old one, may each take a reserved range. */
	if (t != &mm_memblock.reserved && mm_memblock.reserved.cnt + 2 > mm_memblock.reserved.max &&
	    grow(&mm_memblock.reserved))
		return -ENOMEM;
	p = find_free(new_bytes, PAGE_SIZE, 0, UINT64_MAX);
	if (!p) {
		printk("memblock: no free memory for %zu bytes to grow the %s list past %u ranges\n",
		       new_bytes, t->name, t->max);
		return -ENOMEM;
	}
	memcpy(phys_to_virt(p), old, old_bytes);
	t->regions = phys_to_virt(p);
	t->max *= 2;
	/* Both lists have room now: the reserved list for the new array, and for a split. */
	if (region_add(&mm_memblock.reserved, p, p + new_bytes, "memblock lists"))
		panic("memblock: cannot reserve its own list after doubling it");
	if (!old_static)
		unreserve(virt_to_phys(old), virt_to_phys(old) + old_bytes);
	return 0;
}

/* ---- adding ranges ------------------------------------------------------------------------- */

/* Replaces regions [i, j) of t with the single region r (j == i inserts it before region i). */
static void replace_regions(struct memblock_type *t, unsigned int i, unsigned int j,
			    struct memblock_region r)
{
	memmove(&t->regions[i + 1], &t->regions[j], (t->cnt - j) * sizeof(t->regions[0]));
	t->regions[i] = r;
	t->cnt = t->cnt - (j - i) + 1;
}

/* Did the same user reserve both (or are both unnamed, as memory ranges are)? */
static bool same_user(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/*
 * Does [base, end) of user what join r: overlap it, or touch it and have the same user? Touching
 * ranges of different users stay apart, so that reports and the memory picture can tell the
 * kernel image from the boot information next to it.
 */
static bool joins(const struct memblock_region *r, phys_addr_t base, phys_addr_t end, const char *what)
{
	if (r->base < end && rend(r) > base)
		return true;
	return (r->base == end || rend(r) == base) && same_user(r->what, what);
}

/*
 * Adds [base, end) to t, merging every region it joins. A full list grows first (which may
 * change the lists), so the position is found after. Returns 0, or -ENOMEM when t is full, the
 * range joins nothing and the list cannot grow.
 */
static int region_add(struct memblock_type *t, phys_addr_t base, phys_addr_t end, const char *what)
{
	struct memblock_region r = { base, 0, what };
	unsigned int i, j;

	for (int pass = 0; pass < 2; pass++) {
		i = first_touching(t, base);
		if (i < t->cnt && rend(&t->regions[i]) == base && !joins(&t->regions[i], base, end, what))
			i++; /* ends where we start, another user's: stays apart */
		if (pass || t->cnt < t->max || (i < t->cnt && joins(&t->regions[i], base, end, what)))
			break;
		if (grow(t))
			return -ENOMEM;
	}
	for (j = i; j < t->cnt && joins(&t->regions[j], base, end, what); j++) {
		if (j == i && t->regions[j].what)
			r.what = t->regions[j].what;
		r.base = MIN(r.base, t->regions[j].base);
		end = MAX(end, rend(&t->regions[j]));
	}
	r.size = end - r.base;
	replace_regions(t, i, j, r);
	return 0;
}

int memblock_add(phys_addr_t base, phys_addr_t size)
{
	check_alive("memblock_add");
	if (size == 0)
		return 0;
	if (region_add(&mm_memblock.memory, base, base + size, NULL)) {
		printk("memblock: memory list full at %u ranges; RAM [mem 0x%016llx-0x%016llx] stays unused\n",
		       mm_memblock.memory.max, (unsigned long long)base, (unsigned long long)(base + size - 1));
		return -ENOMEM;
	}
	return 0;
}

int memblock_reserve(phys_addr_t base, phys_addr_t size, const char *what)
{
	check_alive("memblock_reserve");
	if (size == 0)
		return 0;
	if (region_add(&mm_memblock.reserved, base, base + size, what)) {
		printk("memblock: reserved list full at %u ranges; cannot reserve [mem %#llx-%#llx] (%s)\n",
		       mm_memblock.reserved.max, (unsigned long long)base, (unsigned long long)(base + size - 1),
		       what ? what : "?");
		return -ENOMEM;
	}
	return 0;
}

phys_addr_t memblock_alloc_within(phys_addr_t size, phys_addr_t align, phys_addr_t min_addr, phys_addr_t max_addr,
				  const char *what)
{
	phys_addr_t p;

	check_alive("memblock_alloc");
	if (size == 0 || align == 0 || (align & (align - 1))) {
		printk("memblock_alloc: bad request: size %#llx align %#llx\n", (unsigned long long)size,
		       (unsigned long long)align);
		return 0;
	}
	/*
	 * Grow a full reserved list before looking: growing takes the highest free memory, which is
	 * where the block would be found. If it cannot grow, reserving below still succeeds when the
	 * block touches a reserved range, and fails (reported) otherwise.
	 */
	if (mm_memblock.reserved.cnt == mm_memblock.reserved.max)
		grow(&mm_memblock.reserved);
	p = find_free(size, align, min_addr, max_addr);
	if (!p)
		return 0;
	return memblock_reserve(p, size, what) ? 0 : p;
}

phys_addr_t memblock_alloc_named(phys_addr_t size, phys_addr_t align, phys_addr_t max_addr, const char *what)
{
	return memblock_alloc_within(size, align, 0, max_addr, what);
}

phys_addr_t memblock_alloc_range(phys_addr_t size, phys_addr_t align, phys_addr_t max_addr)
{
	return memblock_alloc_named(size, align, max_addr, "memblock_alloc");
}

phys_addr_t memblock_alloc(phys_addr_t size, phys_addr_t align)
{
	return memblock_alloc_range(size, align, UINT64_MAX);
}

/* ---- walking free memory ------------------------------------------------------------------- */

/* Calls fn for the free gaps of memory region m, lowest first; *k is the first reserved region
 * that may overlap m, and is left at the first that may overlap the next region. */
static void free_in_region(const struct memblock_region *m, unsigned int *k,
			   void (*fn)(phys_addr_t, phys_addr_t, void *), void *arg)
{
	const struct memblock_type *res = &mm_memblock.reserved;
	phys_addr_t cur = m->base;

	for (; *k < res->cnt && res->regions[*k].base < rend(m); ++*k) {
		const struct memblock_region *r = &res->regions[*k];

		if (rend(r) <= cur)
			continue;
		if (r->base > cur)
			fn(cur, r->base, arg);
		cur = rend(r);
		if (cur >= rend(m))
			break; /* r may reach into the next memory region: keep *k on it */
	}
	if (cur < rend(m))
		fn(cur, rend(m), arg);
}

void memblock_for_each_free(void (*fn)(phys_addr_t base, phys_addr_t end, void *arg), void *arg)
{
	unsigned int k = 0;

	check_alive("memblock_for_each_free");
	for (unsigned int i = 0; i < mm_memblock.memory.cnt; i++)
		free_in_region(&mm_memblock.memory.regions[i], &k, fn, arg);
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

const char *memblock_reserved_by(phys_addr_t base, phys_addr_t end)
{
	const struct memblock_type *t = &mm_memblock.reserved;

	for (unsigned int i = 0; i < t->cnt; i++)
		if (t->regions[i].base < end && base < t->regions[i].base + t->regions[i].size)
			return t->regions[i].what ? t->regions[i].what : "memblock";
	return NULL;
}

bool memblock_is_memory(phys_addr_t base, phys_addr_t end)
{
	const struct memblock_type *t = &mm_memblock.memory;

	check_alive("memblock_is_memory");
	for (unsigned int i = 0; i < t->cnt; i++)
		if (t->regions[i].base <= base && end <= t->regions[i].base + t->regions[i].size)
			return true;
	return false;
}

void memblock_retire(void)
{
	mm_memblock.retired = true;
}
