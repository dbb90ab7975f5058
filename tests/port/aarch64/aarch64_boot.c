/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of the AArch64 port kernel's boot: what the device tree said reached mm/. Every frame
 * of its /memory ranges (but those of no-map reservations) has a struct page, no frame of a
 * reserved range (the tree's memory reservations and /reserved-memory nodes, the tree itself,
 * this image) is free, and the tree still reads the same: nothing handed out wrote over it.
 */
#include "tests/ktest/ktest.h"
#include "tests/port/aarch64/port.h"

#include "lib/printk.h"
#include "mm/memmap.h"
#include "mm/page.h"

/* Is the frame at pfn in a /reserved-memory range with no-map, which is not RAM to mm/? */
static bool in_no_map_range(unsigned long pfn)
{
	for (unsigned int i = 0; i < port_boot.nreserved; i++) {
		const struct fdt_range *r = &port_boot.reserved[i];

		if (r->no_map && pfn >= PFN_DOWN(r->base) && pfn < PFN_UP(r->base + r->size))
			return true;
	}
	return false;
}

/* Every frame of RAM, but those of no-map ranges, which mm/ never sees. */
static void every_memory_frame_has_a_struct_page(struct ktest *t)
{
	for (unsigned int i = 0; i < port_boot.fdt.nmemory; i++) {
		const struct fdt_range *r = &port_boot.fdt.memory[i];
		unsigned long missing = 0;

		for (unsigned long pfn = PFN_UP(r->base); pfn < PFN_DOWN(r->base + r->size); pfn++)
			missing += !pfn_valid(pfn) && !in_no_map_range(pfn);
		KT_EXPECT(t, missing == 0, "%lu frames of [mem %#llx-%#llx] have no struct page", missing,
			  (unsigned long long)r->base, (unsigned long long)(r->base + r->size - 1));
	}
}

/* Every frame a reserved range touches, even partly, stays reserved. */
static void reserved_ranges_hold_no_free_page(struct ktest *t)
{
	for (unsigned int i = 0; i < port_boot.nreserved; i++) {
		const struct fdt_range *r = &port_boot.reserved[i];
		unsigned long bad = 0, first = 0;

		for (unsigned long pfn = PFN_DOWN(r->base); pfn < PFN_UP(r->base + r->size); pfn++)
			if (pfn_valid(pfn) && !PageReserved(pfn_to_page(pfn)) && !bad++)
				first = pfn;
		KT_EXPECT(t, bad == 0, "%s [mem %#llx-%#llx]: %lu frames not reserved, the first pfn %#lx",
			  r->what, (unsigned long long)r->base, (unsigned long long)(r->base + r->size - 1), bad, first);
	}
}

static bool same_ranges(const struct fdt_range *a, const struct fdt_range *b, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		if (a[i].base != b[i].base || a[i].size != b[i].size || a[i].no_map != b[i].no_map)
			return false;
	return true;
}

static void the_device_tree_reads_the_same(struct ktest *t)
{
	static struct fdt_info again;
	const struct fdt_info *boot = &port_boot.fdt;

	KT_ASSERT(t, fdt_parse((const void *)(uintptr_t)port_boot.dtb, &again) == 0, "%s", parse_fail_message());
	KT_EXPECT(t, again.totalsize == boot->totalsize && again.nmemory == boot->nmemory &&
		  again.nreserved == boot->nreserved && again.uart_base == boot->uart_base &&
		  same_ranges(again.memory, boot->memory, boot->nmemory) &&
		  same_ranges(again.reserved, boot->reserved, boot->nreserved),
		  "the tree at %#llx reads differently now", (unsigned long long)port_boot.dtb);
}

KTEST_SUITE(aarch64_boot,
	    KTEST_CASE(every_memory_frame_has_a_struct_page),
	    KTEST_CASE(reserved_ranges_hold_no_free_page),
	    KTEST_CASE(the_device_tree_reads_the_same));
