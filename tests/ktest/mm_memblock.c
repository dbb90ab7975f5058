/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of the early allocator. Each case saves memblock (retired after boot), works on an
 * empty one, and puts the saved one back.
 */
#include "tests/ktest/ktest.h"
#include "lib/string.h"
#include "mm/memblock.h"

static struct memblock saved;
/* The lists' ranges: memblock_reset() reuses the static arrays the boot may have left them in. */
static struct memblock_region saved_ranges[2][MEMBLOCK_INIT_REGIONS];

static void begin(void)
{
	memcpy(&saved, &mm_memblock, sizeof(saved));
	memcpy(saved_ranges[0], saved.memory.regions, MIN(saved.memory.cnt, MEMBLOCK_INIT_REGIONS) * sizeof(saved_ranges[0][0]));
	memcpy(saved_ranges[1], saved.reserved.regions, MIN(saved.reserved.cnt, MEMBLOCK_INIT_REGIONS) * sizeof(saved_ranges[0][0]));
	memblock_reset();
}

static void end(void)
{
	memcpy(&mm_memblock, &saved, sizeof(saved));
	if (mm_memblock.memory.max == MEMBLOCK_INIT_REGIONS)
		memcpy(mm_memblock.memory.regions, saved_ranges[0], mm_memblock.memory.cnt * sizeof(saved_ranges[0][0]));
	if (mm_memblock.reserved.max == MEMBLOCK_INIT_REGIONS)
		memcpy(mm_memblock.reserved.regions, saved_ranges[1], mm_memblock.reserved.cnt * sizeof(saved_ranges[0][0]));
}

/* The boot's lists come back whole after a case: what mm_check and later reports read. */
static void saved_lists_are_restored(struct ktest *t)
{
	phys_addr_t base = mm_memblock.reserved.cnt ? mm_memblock.reserved.regions[0].base : 0;
	unsigned int cnt = mm_memblock.reserved.cnt;

	begin();
	memblock_reserve(0x12345000, 0x1000, "test");
	end();
	KT_EXPECT_EQ(t, mm_memblock.reserved.cnt, cnt);
	KT_EXPECT_EQ(t, cnt ? mm_memblock.reserved.regions[0].base : 0, base);
}

/* Expects region i of type to be [base, base + size). */
static void expect_region(struct ktest *t, const struct memblock_type *type, unsigned int i,
			  phys_addr_t base, phys_addr_t size)
{
	KT_EXPECT(t, i < type->cnt && type->regions[i].base == base && type->regions[i].size == size,
		  "%s region %u: [%#llx+%#llx], expected [%#llx+%#llx] (%u regions)", type->name, i,
		  i < type->cnt ? (unsigned long long)type->regions[i].base : 0ULL,
		  i < type->cnt ? (unsigned long long)type->regions[i].size : 0ULL,
		  (unsigned long long)base, (unsigned long long)size, type->cnt);
}

static void added_ranges_are_sorted_and_merged(struct ktest *t)
{
	begin();
	memblock_add(0x400000, 0x100000);
	memblock_add(0x100000, 0x100000);
	memblock_add(0x200000, 0x100000); /* touches the second: merged */
	memblock_add(0x450000, 0x10000);  /* inside the first: nothing new */
	KT_EXPECT_EQ(t, mm_memblock.memory.cnt, 2);
	expect_region(t, &mm_memblock.memory, 0, 0x100000, 0x200000);
	expect_region(t, &mm_memblock.memory, 1, 0x400000, 0x100000);
	memblock_add(0x300000, 0x100000); /* fills the gap */
	KT_EXPECT_EQ(t, mm_memblock.memory.cnt, 1);
	expect_region(t, &mm_memblock.memory, 0, 0x100000, 0x400000);
	end();
}

static void allocation_is_top_down_aligned_and_reserved(struct ktest *t)
{
	phys_addr_t a, b;

	begin();
	memblock_add(0x100000, 0x1000000);
	memblock_reserve(0x1000000, 0x100000, "test");
	a = memblock_alloc(0x3000, 0x1000);
	KT_EXPECT_EQ(t, a, 0x1000000 - 0x3000);
	b = memblock_alloc(0x1000, 0x100000);
	KT_EXPECT_EQ(t, b, 0xf00000);
	KT_EXPECT_EQ(t, memblock_free_bytes(), 0x1000000 - 0x100000 - 0x3000 - 0x1000);
	end();
}

static void allocation_below_a_limit(struct ktest *t)
{
	begin();
	memblock_add(0x100000, 0x1000000);
	memblock_add(0x100000000ULL, 0x1000000);
	KT_EXPECT_EQ(t, memblock_alloc(0x1000, 0x1000), 0x100000000ULL + 0x1000000 - 0x1000);
	KT_EXPECT_EQ(t, memblock_alloc_range(0x1000, 0x1000, 1ULL << 32), 0x1100000 - 0x1000);
	KT_EXPECT_EQ(t, memblock_alloc_range(0x1000, 0x1000, 0x100000), 0); /* nothing below 1 MiB */
	end();
}

static void allocation_failure_returns_zero(struct ktest *t)
{
	begin();
	memblock_add(0x100000, 0x10000);
	KT_EXPECT_EQ(t, memblock_alloc(0x20000, 0x1000), 0);
	KT_EXPECT_EQ(t, memblock_alloc(0x1000, 0x1000000), 0);
	KT_EXPECT_EQ(t, memblock_alloc(0x1000, 3), 0); /* not a power of two: reported */
	KT_EXPECT_EQ(t, memblock_alloc(0, 0x1000), 0);
	KT_EXPECT_EQ(t, mm_memblock.reserved.cnt, 0);
	end();
}

struct ranges {
	phys_addr_t base[8], end[8];
	unsigned int n;
};

static void collect(phys_addr_t base, phys_addr_t end, void *arg)
{
	struct ranges *r = arg;

	if (r->n < 8) {
		r->base[r->n] = base;
		r->end[r->n] = end;
	}
	r->n++;
}

static void free_ranges_are_memory_minus_reserved(struct ktest *t)
{
	struct ranges r = { .n = 0 };

	begin();
	memblock_add(0x0, 0xa0000);
	memblock_add(0x100000, 0x700000);
	memblock_reserve(0x0, 0x100000, "first 1 MiB");
	memblock_reserve(0x200000, 0x100000, "kernel");
	memblock_reserve(0x7ff000, 0x2000, "straddles the end");
	memblock_for_each_free(collect, &r);
	KT_ASSERT(t, r.n == 2, "%u free ranges, expected 2", r.n);
	KT_EXPECT(t, r.base[0] == 0x100000 && r.end[0] == 0x200000, "first free range [%#llx-%#llx)",
		  (unsigned long long)r.base[0], (unsigned long long)r.end[0]);
	KT_EXPECT(t, r.base[1] == 0x300000 && r.end[1] == 0x7ff000, "second free range [%#llx-%#llx)",
		  (unsigned long long)r.base[1], (unsigned long long)r.end[1]);
	end();
}

static void full_memory_list_refuses_a_range(struct ktest *t)
{
	begin();
	for (unsigned int i = 0; i < MEMBLOCK_INIT_REGIONS; i++)
		memblock_add((phys_addr_t)i << 24, 0x1000);
	KT_EXPECT_EQ(t, mm_memblock.memory.cnt, MEMBLOCK_INIT_REGIONS);
	KT_EXPECT_EQ(t, memblock_add(1ULL << 40, 0x1000), -ENOMEM);
	KT_EXPECT_EQ(t, memblock_add(0x1000, 0x1000), 0); /* touches the first: still fits */
	end();
}

KTEST_SUITE(mm_memblock,
	    KTEST_CASE(added_ranges_are_sorted_and_merged),
	    KTEST_CASE(allocation_is_top_down_aligned_and_reserved),
	    KTEST_CASE(allocation_below_a_limit),
	    KTEST_CASE(allocation_failure_returns_zero),
	    KTEST_CASE(free_ranges_are_memory_minus_reserved),
	    KTEST_CASE(full_memory_list_refuses_a_range),
	    KTEST_CASE(saved_lists_are_restored));
