/* SPDX-License-Identifier: MIT */
/*
 * A picture of physical memory: what each range of the address space is, and where the free
 * blocks are. Two forms:
 *
 *   - lines for a tool (the "mm: picture" lines; mm/README.md, "The memory picture", is their
 *     stable definition): every firmware map entry and the holes between them, every reserved
 *     range under the name of who reserved it, each zone's span (and node, with several), the free blocks as runs of
 *     one order, and the pageblocks' mobility types as runs of one type. tests/picture/ draws
 *     them as an SVG.
 *   - text (one line per zone, ZONE_PICTURE_COLS characters, each a slice of the zone, and a line
 *     of the slices' pageblock types under it), for the serial console and the screen.
 *
 * Both read struct pages without taking the zone locks: exact when no CPU allocates meanwhile (at
 * boot, after the self-tests), a plausible snapshot otherwise.
 */
#ifndef MM_MM_PICTURE_H
#define MM_MM_PICTURE_H

#include "mm/fw_map.h"
#include "mm/zone.h"

/* Characters of a zone's text picture between its bars. */
#define ZONE_PICTURE_COLS 64

/* What the characters mean, for a page that shows the lines (show_zone_pictures() prints it). */
#define ZONE_PICTURE_LEGEND "0-9 A largest free order, # allocated, R reserved, . hole"

/**
 * zone_picture_line() - The text picture of a zone.
 * @zone: the zone.
 * @buf: where to write it (no newline).
 * @size: buf's size.
 *
 * Its name padded to 6 (with more than one node: "N" and its node's number first, "N1 DMA32",
 * padded to 9), then ZONE_PICTURE_COLS characters between '|' bars, each a slice of [start_pfn, end_pfn). A slice
 * shows the largest free block it holds any of ('0'..'9', 'A' for order 10); with none free, '#'
 * if any page of it is allocated (the hugetlb pool's pages count as allocated), else 'R' if any is
 * reserved, else '.' (no RAM: a hole). A hole inside a chunk of the memmap (128 frames) has
 * struct pages marked reserved, so a hole smaller than that shows as 'R'. An empty zone writes
 * its name and "empty".
 *
 * Return: the length, as snprintf does.
 */
int zone_picture_line(const struct zone *zone, char *buf, size_t size);

/* What the characters of zone_pageblock_line() mean. */
#define ZONE_PAGEBLOCK_LEGEND "U unmovable, M movable, R reclaimable, I isolate"

/**
 * zone_pageblock_line() - The pageblock types of a zone's slices.
 * @zone: the zone.
 * @buf: where to write them (no newline), aligned under its zone_picture_line().
 * @size: buf's size.
 *
 * 7 spaces (10 with more than one node), then ZONE_PICTURE_COLS characters between '|' bars, each the least movable type of
 * the pageblocks its slice touches ('U' > 'R' > 'I' > 'M'). An empty zone writes its name and
 * "empty".
 *
 * Return: the length, as snprintf does.
 */
int zone_pageblock_line(const struct zone *zone, char *buf, size_t size);

/**
 * show_zone_pictures() - Print the pictures of every zone.
 *
 * The legends and, per zone that has memory, its zone_picture_line() and zone_pageblock_line().
 */
void show_zone_pictures(void);

/**
 * show_memory_picture() - Print the "mm: picture" lines of the address space.
 * @map: the sanitized firmware map.
 *
 * From 0 to the end of RAM: map (its entries and the holes between them), the ranges memblock holds reserved,
 * the zones, the free runs and the pageblock runs. Call it after the hand-off (mm_init() does,
 * before memblock_retire(), when mm_init_params.picture is set); later calls show the
 * reservations as memblock last knew them, and the free blocks and pageblock types of now.
 */
void show_memory_picture(const struct fw_map *map);

#endif
