/* SPDX-License-Identifier: MIT */
/*
 * What the map-conversion fuzzer needs from mm/arch.h without the rest of the
 * host harness: a direct-map offset (never used to write: the fuzzer fills its own buffers),
 * panic(). printk has no console registered here, so it prints nothing.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/printk.h"
#include "mm/arch.h"

uintptr_t mm_direct_map_offset;

void panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	abort();
}
