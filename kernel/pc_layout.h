/* SPDX-License-Identifier: MIT */
/*
 * What a PC's physical memory means to the kernel, given to mm/ by kernel/mm_setup.c (and by the
 * host harness, which simulates a PC): the first 1 MiB is never trusted, and the two zone limits
 * come from the devices that can only reach so far.
 */
#ifndef KERNEL_PC_LAYOUT_H
#define KERNEL_PC_LAYOUT_H

#include "mm/zone.h"

/* Real-mode interrupt table, BIOS data, EBDA, option ROMs: reserved, whatever the map says. */
#define PC_LOW_RESERVE (1ULL << 20)

/* ISA DMA reaches 16 MiB (ZONE_DMA); 32-bit devices reach 4 GiB (ZONE_DMA32). */
#define PC_ZONE_DMA_END (16ULL << 20)
#define PC_ZONE_DMA32_END (4ULL << 30)

/* A buddy block never straddles two zones: each limit is a multiple of the largest block. */
_Static_assert(PC_ZONE_DMA_END % (PAGE_SIZE << MAX_ORDER) == 0, "ZONE_DMA's end splits a MAX_ORDER block");
_Static_assert(PC_ZONE_DMA32_END % (PAGE_SIZE << MAX_ORDER) == 0, "ZONE_DMA32's end splits a MAX_ORDER block");

#endif
