/* SPDX-License-Identifier: MIT */
/*
 * Reading ACPI tables' little-endian fields at any byte offset: the tables pack their fields
 * without alignment, so a field is copied out rather than read through a cast pointer.
 */
#ifndef KERNEL_ACPI_BYTES_H
#define KERNEL_ACPI_BYTES_H

#include <stdint.h>

#include "lib/string.h"

static inline uint32_t acpi_get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint64_t acpi_get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

#endif
