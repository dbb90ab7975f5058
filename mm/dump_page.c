/* SPDX-License-Identifier: MIT */
/* dump_page(): prints what a struct page says about its frame, flags decoded by name. */
#include "mm/dump_page.h"

#include "mm/arch.h"
#include "mm/compound_dtor.h"
#include "mm/memmap.h"
#include "mm/page_owner.h"
#include "mm/zone.h"

static const char *const flag_names[NR_PAGEFLAGS] = {
	[PG_reserved] = "reserved", [PG_buddy] = "buddy",     [PG_head] = "head",
	[PG_tail] = "tail",         [PG_compound] = "compound", [PG_reclaim] = "reclaim",
	[PG_poisoned] = "poisoned", [PG_hugetlb] = "hugetlb",   [PG_slab] = "slab",
	[PG_movable] = "movable",   [PG_isolated] = "isolated",
};

int page_flags_name(const struct page *page, char *buf, size_t size)
{
	int len = 0;

	if (size)
		buf[0] = '\0';
	for (int f = 0; f < NR_PAGEFLAGS; f++) {
		if (!page_flag_test(page, f))
			continue;
		len += snprintf(buf + MIN((size_t)len, size), size - MIN((size_t)len, size), "%s%s",
				len ? "|" : "", flag_names[f]);
	}
	if (!len)
		len = snprintf(buf, size, "none");
	return len;
}

static void dump_compound(const struct page *page)
{
	const struct page *head = PageTail(page) ? page->first_page : page;
	compound_page_dtor *dtor;
	const char *name;

	if (PageTail(page) && !compound_head_plausible(page, head)) {
		printk("  tail page with an impossible head pointer %p\n", (void *)head);
		return;
	}
	if (!PageHead(head)) {
		printk("  tail page whose head (pfn %#lx) is not marked as a head\n", page_to_pfn(head));
		return;
	}
	dtor = head[1].compound_dtor;
	name = compound_dtor_name(dtor);
	printk("  compound: head pfn %#lx order %lu destructor %s%s\n", page_to_pfn(head),
	       head[1].compound_order, name ? name : dtor ? "unknown" : "none",
	       head == page ? "" : " (this is a tail)");
}

/* The owner of the block page begins (or, for a compound tail, of its head), if it has one. */
static void dump_owner(const struct page *page)
{
	struct page_owner rec = page_owner_get(page_to_pfn(page));

	if (!rec.seq && PageTail(page) && compound_head_plausible(page, page->first_page))
		rec = page_owner_get(page_to_pfn(page->first_page));
	if (rec.seq)
		printk("page_owner: order %u gfp %#x seq %lu allocated at %pS\n", rec.order, rec.gfp,
		       rec.seq, (void *)rec.site);
}

void dump_page(struct page *page, const char *reason)
{
	char flags[96];

	page_flags_name(page, flags, sizeof(flags));
	printk("page: pfn %#lx refcount %d zone %s node %u flags %#x (%s)\n", page_to_pfn(page), page_ref(page),
	       zone_name(page_zonenum(page) % MAX_NR_ZONES), page_to_nid(page),
	       (unsigned int)page_flags(page) & ((1u << NR_PAGEFLAGS) - 1), flags);
	if (PageBuddy(page))
		printk("  free block of order %lu\n", page->private);
	if (PageCompound(page))
		dump_compound(page);
	if (PageSlab(page))
		printk("  slab: %u objects out, first free at offset %#x\n", (unsigned int)page->slab_inuse,
		       (unsigned int)page->slab_free);
	if (mm_page_owner_on)
		dump_owner(page);
	printk("page dumped because: %s\n", reason);
}
