/* SPDX-License-Identifier: MIT */
/*
 * From the boot loader's memory map (e820 entries or EFI descriptors) to a struct fw_map whose
 * storage is sized from the map and placed in RAM the map proves usable. See kernel/boot_memmap.h.
 */
#include "kernel/boot_memmap.h"

#include "lib/printk.h"
#include "mm/arch.h"

enum fw_type e820_to_fw_type(uint32_t t)
{
	switch (t) {
	case E820_USABLE: return FW_USABLE;
	case E820_RESERVED: return FW_RESERVED;
	case E820_ACPI: return FW_ACPI;
	case E820_NVS: return FW_NVS;
	case E820_UNUSABLE: return FW_UNUSABLE;
	case E820_PERSISTENT: return FW_PERSISTENT;
	default: return FW_RESERVED;
	}
}

enum fw_type efi_to_fw_type(uint32_t efi_type, uint64_t attr)
{
	if (attr & EFI_MEMORY_RUNTIME)
		return FW_RESERVED;
	switch (efi_type) {
	case 1: case 2: case 3: case 4: case 7: /* loader code/data, boot services code/data, conventional */
		return FW_USABLE;
	case 8:
		return FW_UNUSABLE;
	case 9:
		return FW_ACPI;
	case 10:
		return FW_NVS;
	case 14:
		return FW_PERSISTENT;
	default:
		return FW_RESERVED;
	}
}

bool boot_memmap_from_info(const struct boot_info *bi, struct boot_memmap *m)
{
	if (bi->efi_mmap && bi->efi_mmap_count)
		*m = (struct boot_memmap){ BOOT_MEMMAP_EFI, bi->efi_mmap, bi->efi_mmap_count, bi->efi_desc_size };
	else if (bi->mmap && bi->mmap_count)
		*m = (struct boot_memmap){ BOOT_MEMMAP_E820, bi->mmap, bi->mmap_count, bi->mmap_entry_size };
	else
		return false;
	return true;
}

const char *boot_memmap_name(const struct boot_memmap *m)
{
	return m->kind == BOOT_MEMMAP_EFI ? "EFI" : "multiboot2 (e820)";
}

void boot_memmap_entry(const struct boot_memmap *m, uint32_t i, struct fw_map_entry *e)
{
	const uint8_t *p = m->entries + (size_t)i * m->stride;

	if (m->kind == BOOT_MEMMAP_EFI) {
		const struct efi_memory_descriptor *d = (const void *)p;

		e->base = d->phys_start;
		e->size = d->num_pages > (UINT64_MAX >> PAGE_SHIFT) ? UINT64_MAX : d->num_pages << PAGE_SHIFT;
		e->type = efi_to_fw_type(d->type, d->attribute);
	} else {
		const struct mb2_mmap_entry *x = (const void *)p;

		e->base = x->base_addr;
		e->size = x->length;
		e->type = e820_to_fw_type(x->type);
	}
}

/* ---- room for the map's storage ------------------------------------------------------------ */

/* Exclusive end of [base, base + size), clipped at 2^64. */
static phys_addr_t end_of(phys_addr_t base, uint64_t size)
{
	return base + size < base ? UINT64_MAX : base + size;
}

/*
 * The lowest base of anything in the way of [lo, hi): a non-usable entry of m, a range of avoid,
 * or the first PC_LOW_RESERVE bytes. hi when nothing is.
 */
static phys_addr_t lowest_obstacle(const struct boot_memmap *m, const struct mm_reservation *avoid,
				   unsigned int navoid, phys_addr_t lo, phys_addr_t hi)
{
	phys_addr_t low = hi;
	struct fw_map_entry e;

	if (lo < PC_LOW_RESERVE)
		low = 0;
	for (uint32_t i = 0; i < m->count; i++) {
		boot_memmap_entry(m, i, &e);
		if (e.type != FW_USABLE && e.size && e.base < hi && end_of(e.base, e.size) > lo)
			low = MIN(low, e.base);
	}
	for (unsigned int i = 0; i < navoid; i++)
		if (avoid[i].size && avoid[i].base < hi && end_of(avoid[i].base, avoid[i].size) > lo)
			low = MIN(low, avoid[i].base);
	return low;
}

/*
 * The highest page-aligned place for size bytes inside usable entry u, below limit, with nothing
 * in the way; 0 if none. Each try that fails moves below an obstacle, so this ends.
 */
static phys_addr_t room_in_entry(const struct boot_memmap *m, const struct fw_map_entry *u,
				 const struct mm_reservation *avoid, unsigned int navoid, uint64_t size,
				 phys_addr_t limit)
{
	phys_addr_t top = ALIGN_DOWN(MIN(end_of(u->base, u->size), limit), PAGE_SIZE);

	while (top > u->base && top - u->base >= size) {
		phys_addr_t lo = ALIGN_DOWN(top - size, PAGE_SIZE), low;

		if (lo < u->base || lo == 0)
			return 0;
		low = lowest_obstacle(m, avoid, navoid, lo, top);
		if (low == top)
			return lo;
		top = ALIGN_DOWN(low, PAGE_SIZE);
	}
	return 0;
}

phys_addr_t boot_memmap_find_room(const struct boot_memmap *m, const struct mm_reservation *avoid,
				  unsigned int navoid, uint64_t size, phys_addr_t limit)
{
	phys_addr_t best = 0;
	struct fw_map_entry u;

	for (uint32_t i = 0; i < m->count; i++) {
		boot_memmap_entry(m, i, &u);
		if (u.type != FW_USABLE || u.size < size || u.base >= limit ||
		    (best && end_of(u.base, u.size) <= best))
			continue;
		best = MAX(best, room_in_entry(m, &u, avoid, navoid, size, limit));
	}
	return best;
}

/* Is [p, p + PAGE_SIZE) inside one usable entry, touching no other entry and no range of avoid? */
static bool page_is_free(const struct boot_memmap *m, const struct mm_reservation *avoid,
			 unsigned int navoid, phys_addr_t p)
{
	phys_addr_t end = p + PAGE_SIZE;
	bool inside = false;
	struct fw_map_entry e;

	for (uint32_t i = 0; i < m->count; i++) {
		boot_memmap_entry(m, i, &e);
		if (!e.size || e.base >= end || end_of(e.base, e.size) <= p)
			continue;
		if (e.type != FW_USABLE)
			return false;
		inside |= e.base <= p && end_of(e.base, e.size) >= end;
	}
	for (unsigned int i = 0; i < navoid; i++)
		if (avoid[i].size && avoid[i].base < end && end_of(avoid[i].base, avoid[i].size) > p)
			return false;
	return inside;
}

phys_addr_t boot_memmap_find_low_page(const struct boot_memmap *m, const struct mm_reservation *avoid,
				      unsigned int navoid, phys_addr_t limit)
{
	for (phys_addr_t p = ALIGN_DOWN(limit, PAGE_SIZE); p > PAGE_SIZE;) {
		p -= PAGE_SIZE;
		if (page_is_free(m, avoid, navoid, p))
			return p;
	}
	return 0;
}

size_t boot_memmap_storage_bytes(const struct boot_memmap *m)
{
	return ALIGN_UP(FW_MAP_STORAGE_BYTES(m->count), PAGE_SIZE);
}

int boot_memmap_fill(const struct boot_memmap *m, struct fw_map *map, void *storage, size_t bytes)
{
	int err = fw_map_init(map, storage, bytes);
	struct fw_map_entry e;

	for (uint32_t i = 0; i < m->count && !err; i++) {
		boot_memmap_entry(m, i, &e);
		err = fw_map_add_range(map, e.base, e.size, e.type);
	}
	return err;
}

int boot_memmap_build(const struct boot_memmap *m, const struct mm_reservation *avoid,
		      unsigned int navoid, phys_addr_t limit, struct fw_map *map,
		      struct mm_reservation *storage)
{
	size_t bytes = boot_memmap_storage_bytes(m);
	phys_addr_t room;

	if (m->count > FW_MAP_MAX_ENTRIES) {
		printk("mm: the %s memory map has %u entries, more than the %u this kernel handles; refusing it\n",
		       boot_memmap_name(m), m->count, FW_MAP_MAX_ENTRIES);
		return -EINVAL;
	}
	room = boot_memmap_find_room(m, avoid, navoid, bytes, MIN(limit, MAX_PHYS_ADDR));
	if (!room) {
		printk("mm: no usable range of the %s memory map (%u entries) below %#llx holds the %zu "
		       "bytes needed to sanitize it; refusing it\n", boot_memmap_name(m), m->count,
		       (unsigned long long)MIN(limit, MAX_PHYS_ADDR), bytes);
		return -ENOMEM;
	}
	*storage = (struct mm_reservation){ room, bytes, "firmware memory map" };
	return boot_memmap_fill(m, map, phys_to_virt(room), bytes);
}
