/* SPDX-License-Identifier: MIT */
/* Rebuilding the allocator in host suites (tests/mm/mm_rebuild.h). */
#include "tests/mm/mm_rebuild.h"

#include "mm/hugetlb.h"
#include "tests/mm/host_mm.h"

int rebuild_on_text(const char *text, struct fw_map *map)
{
	host_console_quiet = true;
	int err = host_mm_boot_text(text, true, map);
	host_console_quiet = false;
	return err;
}

int rebuild_default(struct fw_map *map)
{
	host_default_map(map);
	host_console_quiet = true;
	int err = host_mm_init(map, true);
	host_console_quiet = false;
	return err;
}

const char *hugetlb_pools_in_use(void)
{
	return hugetlb_counters(HPAGE_ORDER).total || hugetlb_counters(GIGANTIC_ORDER).total
		       ? "hugetlb pool pages exist; re-initializing mm would orphan them" : NULL;
}
