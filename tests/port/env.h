/* SPDX-License-Identifier: MIT */
/* The port test's environment (env.c): simulated physical memory and what arch_map_memmap() saw. */
#ifndef TESTS_PORT_ENV_H
#define TESTS_PORT_ENV_H

#include <stddef.h>

#include "mm/types.h"

/* What mm/ asked arch_map_memmap() for. */
struct env_map_stats {
	unsigned long calls, bad; /* bad: a piece outside the region or memory, or unaligned */
	size_t bytes, largest;
};
extern struct env_map_stats env_map_stats;

/*
 * Creates physical memory [0, phys_size) as the direct map and reserves memmap_bytes of address
 * space for the memmap. Returns 0, or -1 when the host refuses.
 */
int env_init(phys_addr_t phys_size, size_t memmap_bytes);

#endif
