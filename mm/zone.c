/* SPDX-License-Identifier: MIT */
/* The zone table: three zones per node, their names, and resetting them before the buddy hand-off. */
#include "mm/zone.h"

#include "mm/list.h"

struct zone mm_zones[MAX_NR_ZONE_IDS];
unsigned int mm_nr_zone_ids = MAX_NR_ZONES;
unsigned long mm_zone_dma_end_pfn, mm_zone_dma32_end_pfn;
enum zone_type mm_top_zone;

const char *zone_name(unsigned int z)
{
	static const char *const names[MAX_NR_ZONES] = { "DMA", "DMA32", "Normal" };

	return z < MAX_NR_ZONES ? names[z] : "?";
}

void zones_reset(void)
{
	mm_top_zone = ZONE_DMA;
	mm_nr_zone_ids = mm_nr_node_ids * MAX_NR_ZONES;
	for (int z = 0; z < MAX_NR_ZONE_IDS; z++) {
		struct zone *zone = &mm_zones[z];

		/* all-zero: the lock is unlocked */
		*zone = (struct zone){ .name = zone_name(z % MAX_NR_ZONES), .pcp_offset = (uint16_t)(z << PCP_SHIFT) };
		lock_set_class(&zone->lock, "zone->lock");
		for (int o = 0; o < NR_ORDERS; o++)
			for (int t = 0; t < MIGRATE_TYPES; t++)
				list_init(&zone->free_area[o].free_list[t]);
		for (int t = 0; t < MIGRATE_PCPTYPES; t++)
			list_init(&zone->pcp_handoff[t]);
	}
}
