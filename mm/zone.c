/* The zone table: three zones, their names, and resetting them before the buddy hand-off. */
#include "mm/zone.h"

struct zone zones[MAX_NR_ZONES];
enum zone_type top_zone;

static const char *const zone_names[MAX_NR_ZONES] = { "DMA", "DMA32", "Normal" };

void zones_reset(void)
{
	top_zone = ZONE_DMA;
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		struct zone *zone = &zones[z];

		*zone = (struct zone){ .name = zone_names[z] };
		for (int o = 0; o < NR_ORDERS; o++) {
			struct list_head *l = &zone->free_area[o].free_list;
			l->next = l->prev = l;
		}
		for (int o = 0; o <= HOT_MAX_ORDER; o++) {
			struct list_head *l = &zone->hot[o].list;
			l->next = l->prev = l;
		}
	}
}
